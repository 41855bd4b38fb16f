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

import itertools
import math
import random
from collections.abc import Sequence
from typing import Final

from .cards import PACK, Card
from .errors import LooError
from .hand import Action, Hand, Trick
from .play import Trumps, winning_index
from .table_model_data import CARDS, DECLARE
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


def features(
    game: str, phase: str, trumps: Trumps, cards: Sequence[Card], miss_free: bool, before: int
) -> tuple[str, str, bool, int, int]:
    """The situation a declaration is measured in."""
    return (game, phase, miss_free, min(before, 3), min(int(strength(trumps, cards) * 4), 12))


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


def choice_shares(key: tuple[str, str, bool, int, int], offered: Sequence[str]) -> dict[str, float]:
    """The measured shares of each offered outcome in the situation ``key`` (with coarser
    fall-backs where the situation was seldom met), floored and normalised."""
    counts = DECLARE.get(key)
    game, phase, miss_free, before, bucket = key
    if counts is None or sum(counts.values()) < MIN_COUNT:
        merged: dict[str, int] = {}
        for b in range(4):
            for k, v in DECLARE.get((game, phase, miss_free, b, bucket), {}).items():
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
    key = features(hand.game, phase, hand.trumps, cards, miss_free, _before(hand, seat))
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
    counts = CARDS.get(card_situation(hand, seat, moves), {})
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
                chance *= drew(view.game, trumps, held, view.drawn[seat], before)
                outcome = ""
                offered = []
            elif phase == "exchange":
                outcome = choice if declared == "pass" else "stand"
                offered = ["pass", "stand", "weak", "plain", "all"]
            else:
                outcome = choice
                offered = ["play", "pass"] + (["take-miss"] if miss_free else [])
            if outcome and held and outcome in offered:
                key = features(view.game, phase, trumps, held, miss_free, before)
                chance *= choice_shares(key, offered)[outcome]
        if declared in ("miss", "defend"):
            miss_free = False
        if declared in _IN:
            before += 1
    return chance


def drew(game: str, trumps: Trumps, held: Sequence[Card], drawn: int, before: int) -> float:
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
        key = features(game, "exchange", trumps, group, False, before)
        shares = choice_shares(key, offered)
        chance += ways_weak * shares["weak"]
        if trumps_only:
            chance += ways_plain * shares["plain"]
    if chance == 0.0:
        return UNLIKELY * ways_weak * FLOOR
    return chance


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
