"""The coach's model of the table it sits at: how the other seats decide, at their level, and
how likely each of their public actions is under that model.

Nested determinisation (a sensible player's own search inside each of the coach's playouts)
costs a few milliseconds a decision, a hundred times what the coach can afford. So the model is
a policy *measured from the bots themselves* (``bench/coach_model.py`` plays thousands of hands
of the table's own sensible players and writes :mod:`games.loo.table_model_data`):

- **beginner** and **careless** players (the practice table's learning mode, where a careless
  player's slips do not stand): every choice uniform among those offered, a five-card draw a
  random set of cards, every card uniform among the legal ones, exactly as
  :class:`~games.loo.bots.BeginnerBot` decides;
- **sensible** players (and **expert** players, modelled as sensible ones): a declaration or
  five-card draw drawn from the frequencies measured for the sensible player in the same
  situation (the game, the phase, whether the miss is still free, how many have declared to play
  before him, his hand's strength in quarter tricks: :func:`features`); a card drawn from the
  frequencies measured by kind (the rule of thumb's card, :func:`quick_card`; the highest or
  the lowest of the others; another) in the same situation (leading, or following able to win
  the trick or not, and how many legal cards: :func:`card_situation`).

:func:`likelihood` is the chance, under the model, of the public actions of the other seats in
a sampled deal of the hidden cards: the coach weights each deal by it (importance sampling).
"""

from __future__ import annotations

import contextvars
import itertools
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Final

from . import table_model_data, table_model_data_v8
from .cards import PACK, Card
from .errors import LooError
from .hand import Action, Hand, Trick
from .play import Trumps, winning_index
from .view import PlayerView
from .worlds import World, _played_by, build_world, strength, thumb_card

#: The levels of the table's players (``games.loo.bots.BOT_KINDS``).
LEVELS: Final = ("beginner", "careless", "sensible", "expert")
#: A choice never seen in a situation is still given this share (nothing the model cannot
#: explain gets weight 0: the deal stays, only much less likely).
FLOOR: Final = 0.02
#: Measured counts below this fall back to a coarser situation.
MIN_COUNT: Final = 12


def random_level(level: str) -> bool:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return level in ("beginner", "careless")


#: The situation a declaration or draw is measured in (:func:`features`): the game, the phase,
#: the miss free or not, how many declared to play before him (up to 3), his hand's strength
#: in quarter tricks (up to 12), and at five-card and Irish Loo's exchange the number of
#: players and his trumps (0 and -1 elsewhere).
Situation = tuple[str, str, bool, int, int, int, int]


def features(
    game: str,
    phase: str,
    trumps: Trumps,
    cards: Sequence[Card],
    miss_free: bool,
    before: int,
    players: int,
) -> Situation:
    """The situation a declaration is measured in. At the exchange the sensible player stands
    on high plain cards and draws to trumps more than their strength alone says, and passes
    less at four than at six: measured with only the strength, the coach dealt a player who
    stood 0.17 more trumps and 0.32 fewer high plain cards than he held (800 hands of
    four; now 0.04 and 0.18, docs/engine.md)."""
    bucket = min(int(strength(trumps, cards) * 4), 12)
    if phase != "exchange" or not _MODEL.get().exchange_detail:
        return (game, phase, miss_free, min(before, 3), bucket, 0, -1)
    held = sum(1 for c in cards if trumps.is_trump(c))
    return (game, phase, miss_free, min(before, 3), bucket, players, held)


def _coarser(key: Situation, level: int) -> Situation:
    """``key`` with the players (level 1), and the trumps too (level 2), left out."""
    game, phase, miss_free, before, bucket, players, held = key
    return (game, phase, miss_free, before, bucket, 0, -1 if level >= 2 else held)


def _merged(
    measured: Mapping[tuple[Any, ...], Mapping[str, int]],
) -> dict[Situation, dict[str, int]]:
    """The measured counts (a situation of five, as version 8 measured it: without the
    players or the trumps), also summed over the players and over their trumps."""
    merged: dict[Situation, dict[str, int]] = {}
    for measured_key, counts in measured.items():
        key: Situation = measured_key if len(measured_key) == 7 else (*measured_key, 0, -1)
        for k in {key, _coarser(key, 1), _coarser(key, 2)}:
            into = merged.setdefault(k, {})
            for outcome, n in counts.items():
                into[outcome] = into.get(outcome, 0) + n
    return merged


@dataclass(frozen=True)
class Model:
    """What the model knows of the table's sensible players: their declarations and draws by
    situation, their cards by situation and kind, and whether a situation at the exchange
    tells the players and the trumps, and a five-card drawer's discards are dealt apart
    (:func:`deal_discards`)."""

    declare: dict[Situation, dict[str, int]]
    cards: Mapping[tuple[str, str, int], Mapping[str, int]]
    exchange_detail: bool


#: The model as measured now (:mod:`games.loo.table_model_data`).
CURRENT: Final = Model(
    _merged(table_model_data.DECLARE), table_model_data.CARDS, exchange_detail=True
)
#: The model version-8 trainer questions were weighed by (:func:`using`).
VERSION_8: Final = Model(
    _merged(table_model_data_v8.DECLARE), table_model_data_v8.CARDS, exchange_detail=False
)
_MODEL: Final = contextvars.ContextVar("table_model", default=CURRENT)


@contextmanager
def using(model: Model) -> Iterator[None]:
    """Within the block (this thread or task only), the coach weighs by ``model``: a frozen
    question version is weighed as it was made."""
    token = _MODEL.set(model)
    try:
        yield
    finally:
        _MODEL.reset(token)


def model() -> Model:
    """The model the coach weighs by here (:func:`using`)."""
    return _MODEL.get()


def draw_kind(trumps: Trumps, cards: Sequence[Card], discards: Sequence[str]) -> str:
    """A five-card draw as one of the sensible player's ways (``worlds._discard_sets``):
    ``stand``, ``weak`` (the non-trumps below a queen), ``plain`` (all non-trumps), ``all``
    (``discards``: the codes of the cards thrown)."""
    if not discards:
        return "stand"
    plain = [c for c in cards if not trumps.is_trump(c)]
    weak = [c for c in plain if c.value < 12]
    chosen = set(discards)
    for name, group in (("weak", weak), ("plain", plain), ("all", list(cards))):
        if chosen == {c.code for c in group[: len(chosen)]} and len(group) >= len(chosen):
            return name
    return "other"


def _discards(trumps: Trumps, cards: Sequence[Card], kind: str, most: int) -> list[Card]:
    plain = [c for c in cards if not trumps.is_trump(c)]
    weak = [c for c in plain if c.value < 12]
    group = {"weak": weak, "plain": plain, "all": list(cards)}.get(kind, [])
    return group[:most]


def choice_shares(key: Situation, offered: Sequence[str]) -> dict[str, float]:
    """The measured shares of each offered outcome in the situation ``key`` (with coarser
    fall-backs where the situation was seldom met: any number of players, any trumps, then
    any number declared before him), floored and normalised."""
    known = _MODEL.get().declare
    counts: dict[str, int] = {}
    for level in range(3):
        counts = known.get(_coarser(key, level) if level else key, {})
        if sum(counts.values()) >= MIN_COUNT:
            break
    else:
        game, phase, miss_free, _, bucket, _, _ = key
        merged: dict[str, int] = {}
        for b in range(4):
            for k, v in known.get((game, phase, miss_free, b, bucket, 0, -1), {}).items():
                merged[k] = merged.get(k, 0) + v
        counts = merged
    total = sum(counts.get(o, 0) for o in offered)
    if total == 0:
        return {o: 1 / len(offered) for o in offered}
    shares = {o: max(FLOOR, counts.get(o, 0) / total) for o in offered}
    norm = sum(shares.values())
    return {o: s / norm for o, s in shares.items()}


# -- deciding for the other seats in a playout ----------------------------------------------


def _before(hand: Hand, seat: int) -> int:
    return sum(1 for s, d in enumerate(hand.declared) if s != seat and d in _IN)


#: What counts as declared "before him" in a situation: those who declared to play their own
#: cards (as measured by bench/coach_model.py).
_IN: Final = ("play",)


def model_action(hand: Hand, rng: random.Random, level: str) -> Action:
    """The next declaration, draw or card of the seat to act, as the model has it."""
    seat = hand.to_act
    assert seat is not None
    phase = hand.phase
    if phase == "play":
        return Action.play(seat, model_card(hand, seat, rng, level), civil=False)
    if phase == "replay":
        return Action("replay", seat, "decline")
    options = hand.options()
    choices = options.choices
    cards = hand.hands[seat]
    if random_level(level):
        choice = rng.choice(choices)
        discards: list[Card] = []
        if phase == "exchange" and choice == "play" and options.max_discards:
            discards = rng.sample(list(cards), rng.randint(0, options.max_discards))
        return Action.declare(seat, choice, discards)
    miss_free = hand.miss is not None and hand.miss_holder is None
    key = features(
        hand.game, phase, hand.trumps, cards, miss_free, _before(hand, seat), hand.players
    )
    if phase == "exchange":
        offered = [c for c in choices if c == "pass"]
        if "play" in choices:
            offered += ["stand", "weak", "plain", "all"] if options.max_discards else ["stand"]
        picked = _draw(choice_shares(key, offered), rng)
        if picked == "pass":
            return Action.declare(seat, "pass")
        return Action.declare(
            seat, "play", _discards(hand.trumps, cards, picked, options.max_discards)
        )
    return Action.declare(seat, _draw(choice_shares(key, choices), rng))


def _draw(shares: dict[str, float], rng: random.Random) -> str:
    r = rng.random()
    for name, share in shares.items():
        r -= share
        if r < 0:
            return name
    return next(reversed(shares))


def quick_card(hand: Hand, seat: int, moves: Sequence[Card]) -> Card:
    """The rule of thumb (:func:`~games.loo.worlds.thumb_card`): lead the highest, win as
    cheaply as possible, else throw the lowest."""
    return thumb_card(hand, moves)


def card_situation(hand: Hand, seat: int, moves: Sequence[Card]) -> tuple[str, str, int]:
    """The situation a card is measured in: the game, leading or following (able to win the
    trick or not), and how many legal cards (up to 4)."""
    family = "three-card" if hand.game == "three-card" else "five-card"
    trick = hand.trick_cards()
    if not trick:
        return (family, "lead", min(len(moves), 4))
    trumps = hand.trumps
    led = trumps.suit_of(trick[0])
    to_beat = trumps.power(trick[winning_index(trick, trumps)], led)
    can = any(trumps.power(c, led) > to_beat for c in moves)
    return (family, "win" if can else "lose", min(len(moves), 4))


def card_kinds(hand: Hand, seat: int, moves: Sequence[Card]) -> dict[str, list[Card]]:
    """The legal cards by kind: the rule of thumb's (``thumb``), the highest and the lowest
    of the rest (``high``, ``low``), and the others (``other``)."""
    trumps = hand.trumps
    thumb = quick_card(hand, seat, moves)
    rest = [c for c in moves if c != thumb]
    kinds: dict[str, list[Card]] = {"thumb": [thumb]}
    if rest:
        high = max(rest, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))
        kinds["high"] = [high]
        rest = [c for c in rest if c != high]
    if rest:
        low = min(rest, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))
        kinds["low"] = [low]
        rest = [c for c in rest if c != low]
    if rest:
        kinds["other"] = rest
    return kinds


def card_shares(
    hand: Hand, seat: int, moves: Sequence[Card], level: str = "sensible"
) -> dict[Card, float]:
    """The model's chance of each legal card: at random for a beginner; for a sensible player
    as measured by kind (:func:`card_kinds`) in the situation (:func:`card_situation`)."""
    if random_level(level):
        return {c: 1 / len(moves) for c in moves}
    kinds = card_kinds(hand, seat, moves)
    counts = _MODEL.get().cards.get(card_situation(hand, seat, moves), {})
    total = sum(counts.get(k, 0) for k in kinds)
    shares: dict[Card, float] = {}
    for kind, cards in kinds.items():
        share = counts.get(kind, 0) / total if total >= MIN_COUNT else 1 / len(kinds)
        for c in cards:
            shares[c] = max(FLOOR, share) / len(cards)
    norm = sum(shares.values())
    return {c: v / norm for c, v in shares.items()}


def model_card(hand: Hand, seat: int, rng: random.Random, level: str) -> Card:
    moves = hand.legal_moves(seat, explain=False).legal
    if len(moves) == 1:
        return moves[0]
    if random_level(level):
        return rng.choice(moves)
    shares = card_shares(hand, seat, moves)
    r = rng.random()
    for c, share in shares.items():
        r -= share
        if r < 0:
            return c
    return moves[-1]


def card_chance(hand: Hand, seat: int, played: Card, level: str) -> float:
    """The chance the model gives of ``seat`` playing ``played`` now (``hand`` before it)."""
    moves = hand.legal_moves(seat, explain=False).legal
    if len(moves) <= 1:
        return 1.0
    if played not in moves:
        return 0.0
    if random_level(level):
        return 1 / len(moves)
    return card_shares(hand, seat, moves)[played]


# -- how likely a sampled deal makes what the others have done -------------------------------

#: A declaration as the hand records it (``Hand.declared``), as the choice the player made.
_DECLARED: Final = {"play": "play", "pass": "pass", "miss": "take-miss", "defend": "defend-miss"}


def likelihood(view: PlayerView, world: World, level: str) -> float:
    """The chance, under the model at ``level``, that the other seats would have declared,
    drawn and played as they did (``view``) had they held the cards ``world`` gives them; 0 for
    a deal that contradicts what is public (a card played that the rules forbade him)."""
    if view.hand is None:
        return 1.0
    played = _played_by(view)
    chance = 1.0
    if not random_level(level):
        chance *= _declarations(view, world, played)
    return chance * _plays(view, world, played, level)


def _declarations(view: PlayerView, world: World, played: list[list[Card]]) -> float:
    """The measured chance of each earlier declaration of the others, in the order they were
    made (from the dealer's left), from the hand each then held in ``world``."""
    trumps = Trumps.of(view.game, view.rules, view.trump)
    phase = "exchange" if view.game in ("five-card", "irish") else "declare"
    chance = 1.0
    before = 0
    miss_free = view.game not in ("five-card",) and (
        view.miss_on_table or view.miss_holder is not None
    )
    for step in range(1, view.players + 1):
        seat = (view.dealer + step) % view.players
        declared = view.declared[seat]
        if declared not in _DECLARED:
            continue
        choice = _DECLARED[declared]
        if seat != view.seat:
            if declared in ("pass", "miss", "defend"):
                held: list[Card] = list(world.thrown.get(seat, ()))
            else:
                held = world.hands[seat] + played[seat]
            if phase == "exchange" and declared == "play" and view.drawn[seat]:
                chance *= drew(view.game, trumps, held, view.drawn[seat], before, view.players)
                outcome = ""
                offered = []
            elif phase == "exchange":
                outcome = choice if declared == "pass" else "stand"
                offered = ["pass", "stand", "weak", "plain", "all"]
            else:
                outcome = choice
                offered = ["play", "pass"] + (["take-miss"] if miss_free else [])
            if outcome and held and outcome in offered:
                key = features(view.game, phase, trumps, held, miss_free, before, view.players)
                chance *= choice_shares(key, offered)[outcome]
        if declared in ("miss", "defend"):
            miss_free = False
        if declared in _IN:
            before += 1
    return chance


def drew(
    game: str, trumps: Trumps, held: Sequence[Card], drawn: int, before: int, players: int
) -> float:
    """The chance (up to a factor the same for every deal) that a five-card player who drew
    ``drawn`` cards ends with ``held``, under the model: he kept the rest of a hand he was
    dealt and drew at random. The sensible player throws either his non-trumps below a queen
    (``weak``: he kept his trumps and high plain cards) or all his non-trumps (``plain``: he
    kept his trumps), with the measured shares of a hand of that strength
    (:func:`choice_shares`, as many declared to play before him). So each way ``held`` can be
    split into cards kept and cards drawn counts by the chance the model gives a hand with
    those cards kept of drawing that way, times the number of hands he could have been dealt
    with them (any ``drawn`` low plain cards, or any ``drawn`` plain ones).

    The hands a player who drew keeps are the strong ones: a measure that counted every high
    card alike (``C(keepers, kept)``) made the coach about a counter too hopeful at
    five-card Loo (``bench/coach_model.py --calibrate``)."""
    kept = len(held) - drawn
    if kept <= 0:
        return 1.0
    offered = ["pass", "stand", "weak", "plain", "all"]
    plain_cards = sum(1 for c in PACK if not trumps.is_trump(c)) - sum(
        1 for c in held if not trumps.is_trump(c)
    )
    weak_cards = sum(1 for c in PACK if not trumps.is_trump(c) and c.value < 12) - sum(
        1 for c in held if not trumps.is_trump(c) and c.value < 12
    )
    ways_weak = math.comb(max(weak_cards, 0), drawn)
    ways_plain = math.comb(max(plain_cards, 0), drawn)
    chance = 0.0
    for group in itertools.combinations(held, kept):
        trumps_only = all(trumps.is_trump(c) for c in group)
        high = trumps_only or all(trumps.is_trump(c) or c.value >= 12 for c in group)
        if not high:
            continue
        key = features(game, "exchange", trumps, group, False, before, players)
        shares = choice_shares(key, offered)
        chance += ways_weak * shares["weak"]
        if trumps_only:
            chance += ways_plain * shares["plain"]
    if chance == 0.0:
        return UNLIKELY * ways_weak * FLOOR
    return chance


def deal_discards(view: PlayerView, world: World, rng: random.Random) -> World:
    """``world`` with the stock dealt again without the cards each five-card player who drew
    threw away, under the model: he threw either his non-trumps below a queen (``weak``) or
    all his non-trumps (``plain``), so his discards are plain cards, and the stock, dealt from
    the rest, holds none of them. Each drawer's discards are drawn from the cards no hand
    holds, a way of drawing chosen with the chance the model gives it (the terms of
    :func:`drew`), the cards of that kind at random: the discards' own chance given his hand.
    The deal's weight then counts the plain cards this deal leaves for them rather than the
    pack's (``World.bias``). Without it the stock held the low cards the drawers had thrown,
    which deals the model itself makes never do (``tests/engine/test_coach_deals.py``)."""
    if view.game not in ("five-card", "irish") or view.hand is None or not any(view.drawn):
        return world
    trumps = Trumps.of(view.game, view.rules, view.trump)
    taken = set(view.visible_cards())
    for cards in (*world.hands, *world.thrown.values(), world.miss or ()):
        taken.update(cards)
    pool = [c for c in PACK if c not in taken]
    played = _played_by(view)
    size = len(view.hand) + len(played[view.seat])
    bias = world.bias
    for step in range(1, view.players + 1):
        seat = (view.dealer + step) % view.players
        drawn = view.drawn[seat]
        if seat == view.seat or view.declared[seat] != "play" or not drawn or drawn > size:
            continue
        held = world.hands[seat] + played[seat]
        before = _before_seat(view, seat)
        if drawn == size:
            thrown, ratio = _whole_hand(view.game, trumps, pool, drawn, before, view.players, rng)
            bias *= ratio
            pool = [c for c in pool if c not in thrown]
            continue
        masses = _discard_masses(view.game, trumps, held, drawn, pool, before, view.players)
        total = sum(masses.values())
        if total <= 0:
            continue
        # The discards' chance counts the plain cards this deal leaves for them, not those of
        # the pack (:func:`drew`, which the deal's weight already holds).
        bias *= total / drew(view.game, trumps, held, drawn, before, view.players)
        kind = "weak" if rng.random() * total < masses["weak"] else "plain"
        group = [c for c in pool if not trumps.is_trump(c) and (kind == "plain" or c.value < 12)]
        thrown = set(rng.sample(group, drawn))
        pool = [c for c in pool if c not in thrown]
    rng.shuffle(pool)
    return replace(world, stock=pool[: len(world.stock)], bias=bias)


def _whole_hand(
    game: str,
    trumps: Trumps,
    pool: Sequence[Card],
    drawn: int,
    before: int,
    players: int,
    rng: random.Random,
) -> tuple[set[Card], float]:
    """The hand a player threw whole (``drawn`` cards, :func:`drew` counts nothing for him):
    half the time any cards of ``pool``, half the time its plain cards only (a hand with no
    trump, thrown as ``plain``, is the likeliest); and how much likelier the model makes it
    than that choice did (its chance of being thrown whole: ``all``, or ``plain``/``weak``
    when it has no trump or no card a queen or better)."""
    plain = [c for c in pool if not trumps.is_trump(c)]
    pick = plain if len(plain) >= drawn and rng.random() < 0.5 else list(pool)
    thrown = rng.sample(pick, drawn)
    shares = choice_shares(
        features(game, "exchange", trumps, thrown, False, before, players),
        ["pass", "stand", "weak", "plain", "all"],
    )
    chance = shares["all"]
    no_trump = all(not trumps.is_trump(c) for c in thrown)
    if no_trump:
        chance += shares["plain"] + (shares["weak"] if all(c.value < 12 for c in thrown) else 0)
    proposed = 0.5
    if no_trump and len(plain) >= drawn:
        proposed += 0.5 * math.comb(len(pool), drawn) / math.comb(len(plain), drawn)
    return set(thrown), chance / proposed


def _before_seat(view: PlayerView, seat: int) -> int:
    """How many declared to play before ``seat`` (from the dealer's left)."""
    count = 0
    for step in range(1, view.players + 1):
        other = (view.dealer + step) % view.players
        if other == seat:
            return count
        if view.declared[other] in _IN:
            count += 1
    return count


def _discard_masses(
    game: str,
    trumps: Trumps,
    held: Sequence[Card],
    drawn: int,
    pool: Sequence[Card],
    before: int,
    players: int,
) -> dict[str, float]:
    """The chance, up to a common factor, that a player now holding ``held`` who drew
    ``drawn`` threw his weak cards or his plain ones (of those still in ``pool``)."""
    kept = len(held) - drawn
    offered = ["pass", "stand", "weak", "plain", "all"]
    weak = sum(1 for c in pool if not trumps.is_trump(c) and c.value < 12)
    plain = sum(1 for c in pool if not trumps.is_trump(c))
    masses = {"weak": 0.0, "plain": 0.0}
    for group in itertools.combinations(held, kept):
        trumps_only = all(trumps.is_trump(c) for c in group)
        if not (trumps_only or all(trumps.is_trump(c) or c.value >= 12 for c in group)):
            continue
        key = features(game, "exchange", trumps, group, False, before, players)
        shares = choice_shares(key, offered)
        masses["weak"] += math.comb(weak, drawn) * shares["weak"]
        if trumps_only:
            masses["plain"] += math.comb(plain, drawn) * shares["plain"]
    return masses


#: The weight of a deal the model finds unlikely but not impossible, as a share of its
#: least likely explained deal.
UNLIKELY: Final = 0.05


def _plays(view: PlayerView, world: World, played: list[list[Card]], level: str) -> float:
    """The model's chance of every card the others played, each from the hand he then held
    (his cards in ``world`` and those he played since), replayed in the sampled deal."""
    tricks = [*view.tricks, *([view.trick] if view.trick is not None and view.trick.plays else [])]
    if not tricks or view.phase != "play":
        return 1.0
    hand = build_world(view, world)
    hand.hands = [list(world.hands[s]) + played[s] for s in range(view.players)]
    hand.tricks = []
    hand.trick = Trick(tricks[0].leader)
    hand._played = ()
    hand.to_act = tricks[0].leader
    chance = 1.0
    try:
        for trick in tricks:
            for i, (seat, c) in enumerate(trick.plays):
                if hand.to_act != seat:
                    return chance  # a position the replay cannot follow: no more evidence
                if seat != view.seat:
                    moves = hand.legal_moves(seat, explain=False).legal
                    if c not in moves:
                        return 0.0
                    chance *= card_chance(hand, seat, c, level)
                if trick.civil and i == 0:
                    hand.apply(Action.play(seat, c, civil=True))
                else:
                    hand.legal_moves(seat, explain=False)
                    hand.step(c)
    except LooError:
        return chance
    return chance
