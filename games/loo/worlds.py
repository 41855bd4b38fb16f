"""What the computer players and the coach share: the options of a decision, the deals they
sample of the cards a player cannot see, and the quick rule of thumb that plays them out.

Apart from :mod:`games.loo.bots` so that the coach (:mod:`games.loo.coach`) can build on them
and the expert player (:class:`games.loo.bots.ExpertBot`) on the coach, with no import cycle.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import PACK, Card
from .hand import Action, Hand, HandSetup, Trick
from .play import Trumps, winning_index
from .rulesets import HAND_SIZE
from .view import PlayerView

# -- the options of a decision ------------------------------------------------------------------


def _choices(view: PlayerView) -> list[Action]:
    """Every distinct action open to the player (discards: a handful of sensible sets)."""
    options = view.options
    assert options is not None and view.hand is not None
    seat = view.seat
    if options.kind == "play":
        assert options.legal is not None
        ace = "A" + view.trump
        return [
            Action.play(seat, c, civil=options.civil_call and c.code == ace)
            for c in options.legal.legal
        ]
    if options.kind == "replay":
        return [Action("replay", seat, "demand"), Action("replay", seat, "decline")]
    if view.phase == "exchange":
        actions = [Action.declare(seat, "pass")] if "pass" in options.choices else []
        for discards in _discard_sets(view, options.max_discards):
            actions.append(Action.declare(seat, "play", discards))
        return actions
    return [Action.declare(seat, c) for c in options.choices]


def _discard_sets(view: PlayerView, most: int) -> list[list[Card]]:
    """Stand, or throw the weak cards: non-trumps below a queen, all non-trumps, everything."""
    assert view.hand is not None
    trumps = Trumps.of(view.game, view.rules, view.trump)
    hand = list(view.hand)
    plain = [c for c in hand if not trumps.is_trump(c)]
    weak = [c for c in plain if c.value < 12]
    sets: list[list[Card]] = [[]]
    for candidate in (weak, plain, hand):
        candidate = candidate[:most]
        if candidate and candidate not in sets:
            sets.append(candidate)
    return sets


# -- sampling the unseen cards --------------------------------------------------------------


@dataclass
class World:
    hands: list[list[Card]]
    miss: list[Card] | None
    thrown: dict[int, list[Card]]
    stock: list[Card]
    #: How much likelier a deal at random (respecting the voids) is to be this one than the
    #: sampler that chose it (1 when dealt at random): an importance weight for the coach.
    bias: float = 1.0


def voids(view: PlayerView) -> dict[int, set[str]]:
    """Suits each player has shown himself void in (he did not follow the suit led)."""
    trumps = Trumps.of(view.game, view.rules, view.trump)
    found: dict[int, set[str]] = {}
    for trick in view.tricks + ((view.trick,) if view.trick else ()):
        if not trick.plays:
            continue
        led = trumps.suit_of(trick.plays[0][1])
        for seat, c in trick.plays[1:]:
            if trumps.suit_of(c) != led:
                found.setdefault(seat, set()).add(led)
    return found


def sample_world(view: PlayerView, rng: random.Random, keepers: bool = False) -> World:
    """Deal the unseen cards at random, respecting the voids shown.

    With ``keepers`` (the coach), a five-card player who drew cards is first given as many
    trumps and high plain cards (queen or better) as he kept, the rest at random: the hands a
    player who drew keeps are strong, and a deal at random seldom gives him one, so that a few
    deals would carry all the weight. :attr:`World.bias` then says how much likelier the
    random deal is to be this one (the coach weighs it by that, and by how likely the deal
    makes what the others did), so the figures are those of dealing at random, with more of
    the deals that matter."""
    seen = view.visible_cards()
    unseen = [c for c in PACK if c not in seen]
    rng.shuffle(unseen)
    trumps = Trumps.of(view.game, view.rules, view.trump)
    void = voids(view)
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    assert view.hand is not None
    hands[view.seat] = list(view.hand)
    needed = _cards_held(view)
    others = [s for s in range(view.players) if s != view.seat and needed[s]]
    others.sort(key=lambda s: -len(void.get(s, ())))
    played = _played_by(view) if keepers else []
    bias = 1.0
    for seat in others:
        # The cards everyone has seen him keep are his; the rest are drawn from the unseen.
        known = list(view.shown_held[seat]) if view.shown_held else []
        need = needed[seat] - len(known)
        banned = void.get(seat, set())
        allowed = [c for c in unseen if trumps.suit_of(c) not in banned]
        first = _kept_count(view, seat, trumps, known + played[seat]) if keepers else 0
        if first and need <= len(allowed):
            take, ratio = _keepers_first(allowed, need, first, trumps, rng)
            bias *= ratio
        else:
            take = allowed[:need]
        if len(take) < need:  # the constraints cannot all be met: relax them
            take += [c for c in unseen if c not in take][: need - len(take)]
        chosen = set(take)
        unseen = [c for c in unseen if c not in chosen]
        hands[seat] = known + take
    size = HAND_SIZE[view.game]
    miss = None
    if view.miss_on_table:
        miss, unseen = unseen[:size], unseen[size:]
    thrown: dict[int, list[Card]] = {}
    for seat in range(view.players):
        if seat == view.seat:
            continue
        if view.declared[seat] in ("pass", "miss", "defend"):
            # A hand passed, or given up for miss or master.
            thrown[seat], unseen = unseen[:size], unseen[size:]
    stock = unseen[: view.stock_size]
    return World(hands, miss, thrown, stock, bias)


def _keeper(trumps: Trumps, c: Card) -> bool:
    return trumps.is_trump(c) or c.value >= 12


def _kept_count(view: PlayerView, seat: int, trumps: Trumps, held: Sequence[Card]) -> int:
    """How many more trumps and high plain cards a five-card player who drew must be given to
    hold as many as he kept (0 for any other player)."""
    if view.game in ("five-card", "irish"):
        drawn = view.drawn[seat] if view.drawn else 0
        if view.declared[seat] == "play" and drawn:
            kept = HAND_SIZE[view.game] - drawn
            return max(0, kept - sum(1 for c in held if _keeper(trumps, c)))
    return 0


def _keepers_first(
    allowed: list[Card], need: int, first: int, trumps: Trumps, rng: random.Random
) -> tuple[list[Card], float]:
    """``need`` of the ``allowed`` cards, ``first`` of them (at most) trumps or high plain
    cards chosen at random, the rest at random among the others; and the chance of dealing
    them at random over the chance of dealing them so."""
    good = [c for c in allowed if _keeper(trumps, c)]
    first = min(first, len(good), need)
    if not first:
        return allowed[:need], 1.0
    chosen = rng.sample(good, first)
    rest = rng.sample([c for c in allowed if c not in chosen], need - first)
    take = chosen + rest
    # Dealt so: any ``first`` of the high cards in ``take`` could have been the ones chosen.
    high = sum(1 for c in take if _keeper(trumps, c))
    ways = math.comb(high, first) / (
        math.comb(len(good), first) * math.comb(len(allowed) - first, need - first)
    )
    at_random = 1 / math.comb(len(allowed), need)
    return take, at_random / ways


def _played_by(view: PlayerView) -> list[list[Card]]:
    """The cards each seat has played to the tricks."""
    played: list[list[Card]] = [[] for _ in range(view.players)]
    for trick in view.tricks + ((view.trick,) if view.trick else ()):
        for seat, c in trick.plays:
            played[seat].append(c)
    return played


def _cards_held(view: PlayerView) -> list[int]:
    """How many cards each seat holds in the world to sample: its hand; and when the replay
    question is asked (Law 16, the play over), what a replay would give back to a player who
    threw up his cards (Law 15), besides those he played."""
    if view.phase != "replay":
        return list(view.hand_sizes)
    played = _played_by(view)
    size = HAND_SIZE[view.game]
    return [size - len(played[s]) if s in view.in_play else 0 for s in range(view.players)]


def build_world(view: PlayerView, world: World) -> Hand:
    """A hand in the sampled deal, at the point the view shows."""
    setup = HandSetup(
        game=view.game,
        rules=view.rules,
        players=view.players,
        dealer=view.dealer,
        hand_number=view.hand_number,
        seed=0,
        balances=view.balances,
        pool=view.pool,
        trace=False,
    )
    hand = Hand(setup)
    hand.phase = view.phase
    hand.to_act = view.to_act
    hand.turn_up = view.turn_up
    hand.trumps = Trumps.of(view.game, view.rules, view.trump)
    hand.pool_at_start = view.pool_at_start
    hand.must = view.must
    hand.club_law = view.club_law
    hand.single = view.single
    hand.double = view.double
    hand.hands = [list(h) for h in world.hands]
    hand.miss = list(world.miss) if world.miss is not None else None
    hand.thrown = {s: list(h) for s, h in world.thrown.items()}
    hand.stock = list(world.stock)
    hand.declared = list(view.declared)
    hand.drawn = list(view.drawn)
    hand.miss_holder = view.miss_holder
    hand.defender = view.defender
    hand.in_play = list(view.in_play)
    hand.retired = list(view.retired)
    hand.tricks = [Trick(t.leader, list(t.plays), t.civil, t.winner) for t in view.tricks]
    if view.phase == "replay":
        # Asked when the play is over: a replay takes up the hands as the play began (the cards
        # played, and any thrown up, sampled); the others are taken to let the result stand.
        played = _played_by(view)
        hand.start_of_play = [played[s] + hand.hands[s] for s in range(view.players)]
        hand.hands = [[] for _ in range(view.players)]
        hand.replay_asked = [view.seat]
    # The cards of the tricks taken stay face up and bind the leader (RULES.md A9).
    hand._played = tuple(c for t in view.tricks for _, c in t.plays)
    if view.trick is not None:
        hand.trick = Trick(view.trick.leader, list(view.trick.plays), view.trick.civil)
    return hand


# -- the quick policy used to play the sampled deals out --------------------------------------


def playout(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end with a quick rule of thumb for every player."""
    while not hand.over:
        seat = hand.to_act
        if hand.phase == "play" and seat is not None:
            # The card the rule of thumb picks among the legal moves, played by the quiet API
            # (Hand.step: the legal moves just worked out are not worked out again).
            hand.step(_quick_card(hand, seat))
        else:
            hand.apply(quick_action(hand, rng))


def quick_action(hand: Hand, rng: random.Random) -> Action:
    seat = hand.to_act
    assert seat is not None
    phase = hand.phase
    if phase == "play":
        return Action.play(seat, _quick_card(hand, seat), civil=False)
    options = hand.options()
    if phase == "replay":
        return Action("replay", seat, "decline")
    strength = _strength(hand, hand.hands[seat])
    choices = options.choices
    if phase == "exchange":
        if "pass" in choices and strength < 0.9 and rng.random() < 0.6:
            return Action.declare(seat, "pass")
        trumps = hand.trumps
        weak = [c for c in hand.hands[seat] if not trumps.is_trump(c) and c.value < 12]
        return Action.declare(seat, "play", weak[: options.max_discards])
    if strength >= 1.0 and "play" in choices:
        return Action.declare(seat, "play")
    if "take-miss" in choices and rng.random() < 0.5:
        return Action.declare(seat, "take-miss")
    if "pass" in choices:
        return Action.declare(seat, "pass")
    return Action.declare(seat, choices[0])


def _strength(hand: Hand, cards: Sequence[Card]) -> float:
    """A rough count of likely tricks: trumps and aces."""
    return strength(hand.trumps, cards)


def strength(trumps: Trumps, cards: Sequence[Card]) -> float:
    """A rough count of likely tricks: trumps and aces (the bots' own rule of thumb)."""
    score = 0.0
    for c in cards:
        if trumps.is_trump(c):
            score += 0.5 + trumps.rank(c) / 30
        elif c.value == 14:
            score += 0.6
        elif c.value == 13:
            score += 0.3
    return score


def _quick_card(hand: Hand, seat: int) -> Card:
    return thumb_card(hand, hand.legal_moves(seat, explain=False).legal)


def thumb_card(hand: Hand, moves: Sequence[Card]) -> Card:
    """The rule of thumb among ``moves``: lead the highest, win as cheaply as possible, else
    throw the lowest."""
    if len(moves) == 1:
        return moves[0]
    trumps = hand.trumps
    trick = hand.trick_cards()
    if not trick:
        return max(moves, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))
    led = trumps.suit_of(trick[0])
    best = trick[winning_index(trick, trumps)]
    to_beat = trumps.power(best, led)
    winners = [c for c in moves if trumps.power(c, led) > to_beat]
    if winners:
        return min(winners, key=lambda c: trumps.power(c, led))
    return min(moves, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))
