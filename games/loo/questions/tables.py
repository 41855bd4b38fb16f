"""A table a teacher describes, made a hand of the engine (issue 37): a moment of the declaring
(``declaration``), or a hand played out (``settlement``).

A teacher gives what matters: the players, the dealer, his own cards and the turn-up, what the
players before him declared; or who stood in, who took which trick, the pool. The rest (the
others' cards, the miss) is dealt from what is left, in an order that gives nobody a flush, and
the declarations are made at that table by the engine's own rules (:class:`~games.loo.hand.Hand`):
what the rule set does not allow (the dealer passing against one player, a pass on a must, a
second miss) is refused there, in the engine's words, as an
:class:`~games.loo.possible.ImpossiblePosition`. So the answer is the engine's, from the same
code that runs a table: :meth:`Hand.options` for the declaring, the settlement of the hand for
the settlement.

Seats are counted from the learner (seat 0), round the table to his left, as a question's are.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from ..cards import RANKS, SUITS, Card, card
from ..flushes import find_flush
from ..hand import Action, Hand, HandSetup, IllegalAction, stack_pack
from ..hand.deal import dealer_out
from ..play import Trumps
from ..possible import ImpossiblePosition, counted, seat_name
from ..rulesets import HAND_SIZE, RuleSet

#: The cards the others are dealt from: rank by rank, the suits in turn, so that no five of
#: them in a row are a flush.
_FILLING: Final = tuple(card(r + s) for r in reversed(RANKS) for s in SUITS)

#: The turn-up of a settlement's table, which shows none (a heart: no club law).
SETTLEMENT_TURN_UP: Final = card("2H")

#: How each declaration reads in a refusal: "seat 3 passes".
_DOES: Final = {
    "play": "plays",
    "pass": "passes",
    "take-miss": "takes the miss",
    "defend-miss": "takes the miss to play for the pool",
    "defend-master": "plays for the pool (master)",
}


def _filled(
    setup: HandSetup, own: Sequence[Card] | None, turn_up: Card, with_miss: bool
) -> tuple[list[list[str]], list[str] | None]:
    """Every seat's cards (the learner's ``own``, if given) and the miss: the others from
    :data:`_FILLING`, none a flush."""
    game, rules, players, dealer = setup.game, setup.rules, setup.players, setup.dealer
    size = HAND_SIZE[game]
    used = {turn_up, *(own or ())}
    rest = [c for c in _FILLING if c not in used]
    trumps = Trumps.of(game, rules, turn_up.suit)
    out = dealer_out(game, rules, players)
    hands: list[list[str]] = []
    for seat in range(players):
        if seat == 0 and own is not None:
            hands.append([c.code for c in own])
            continue
        if out and seat == dealer:
            hands.append([])
            continue
        cards, rest = rest[:size], rest[size:]
        if find_flush(cards, trumps) is not None:  # never, from the filling's order
            raise AssertionError("a filler hand is a flush")
        hands.append([c.code for c in cards])
    miss = [c.code for c in rest[:size]] if with_miss else None
    return hands, miss


def _setups(
    game: str, rules: RuleSet, players: int, dealer: int, pool: int | None
) -> Iterator[HandSetup]:
    """Tables as the deal begins that could give ``pool`` (None: any) once the stake is put
    up: a pool carried from a loo, then a first deal, then a deal after a hand with no loo."""
    stake = rules.stake(game)
    for first, after_no_loo in ((False, False), (True, False), (False, True)):
        fresh = first or after_no_loo
        if rules.ante == "all-players-fresh-pool":
            ante = stake * players if fresh else 0
        else:
            ante = stake
        carried = (0 if fresh else stake) if pool is None else pool - ante
        if carried < 0 or (carried == 0 and not fresh) or (carried and fresh and pool is None):
            continue
        yield HandSetup(
            game,
            rules,
            players,
            dealer,
            1,
            0,
            (0,) * players,
            carried,
            first=first,
            prev_no_loo=after_no_loo,
            trace=False,
        )


def dealt_table(
    game: str,
    rules: RuleSet,
    players: int,
    dealer: int,
    *,
    own: Sequence[Card] | None,
    turn_up: Card,
    pool: int | None,
    must: bool | None,
) -> Hand:
    """The hand as dealt: the learner holding ``own`` (if given), ``turn_up`` turned up, the
    pool ``pool`` (None: as a deal carried from a loo has it) and a must or not (None: none if
    it can be so)."""
    for setup in _setups(game, rules, players, dealer, pool):
        probe = Hand.deal(setup)
        if probe.single_deal_applies():
            continue  # peel's single deal: one card face up to each, no declaring
        if must is not None and probe.must != must:
            continue
        if must is None and probe.must:
            continue
        with_miss = probe.miss is not None or probe.miss_withdrawn
        hands, miss = _filled(setup, own, turn_up, with_miss)
        pack = stack_pack(game, rules, players, dealer, hands, turn_up.code, miss)
        hand = Hand.deal(setup._replace(pack=pack, trace=True))
        if hand.must == probe.must and hand.phase in ("declare", "exchange"):
            return hand
    raise ImpossiblePosition(_no_deal(game, rules, pool, must))


def _no_deal(game: str, rules: RuleSet, pool: int | None, must: bool | None) -> str:
    if must and game != "three-card":
        return f"a must at {game} Loo: a must is a three-card device"
    if must and rules.must == "off":
        return f"a must under the {rules.source} rules, which play none"
    held = "" if pool is None else f" with {counted(pool, 'counter')} in the pool"
    what = "a must" if must else "a deal"
    return (
        f"{what}{held}: no deal of {game} Loo under the {rules.source} rules begins so "
        f"(the stake is {counted(rules.stake(game), 'counter')})"
    )


def _refused(seat: int, choice: str, e: IllegalAction) -> ImpossiblePosition:
    """The engine's refusal of a declaration, by the rule that forbids it where it names one."""
    why = e.application.render(0) if e.application is not None else e.render(0)
    return ImpossiblePosition(
        f"{seat_name(seat)} {_DOES.get(choice, choice)}, which the rules do not allow there: {why}"
    )


def _ended(hand: Hand) -> str:
    """The last thing the table was told, as the learner reads it."""
    return hand.events[-1].render(0) if hand.events else "the hand is over"


def declaring_table(
    game: str,
    rules: RuleSet,
    players: int,
    dealer: int | None,
    *,
    own: Sequence[Card],
    turn_up: Card,
    declarations: Sequence[tuple[int | None, str]],
    pool: int | None,
    must: bool | None,
) -> Hand:
    """The moment the learner (seat 0) is to declare, after ``declarations`` by the players
    before him (each a seat, or None, and a choice); the dealer, if None, the player before
    the first of them."""
    if dealer is None:
        dealer = (players - 1 - len(declarations)) % players
    hand = dealt_table(game, rules, players, dealer, own=own, turn_up=turn_up, pool=pool, must=must)
    for seat, choice in declarations:
        to_act = hand.to_act
        if hand.phase not in ("declare", "exchange") or to_act is None:
            raise ImpossiblePosition(f"the declaring is over before your turn: {_ended(hand)}")
        if to_act == 0:
            raise ImpossiblePosition(
                "your turn to declare comes before all the declarations given are made"
            )
        if seat is not None and seat != to_act:
            raise ImpossiblePosition(
                f"the players declare in turn from the dealer's left: {seat_name(to_act)} "
                f"declares next, not {seat_name(seat)}"
            )
        try:
            hand.apply(Action.declare(to_act, choice))
        except IllegalAction as e:
            raise _refused(to_act, choice, e) from None
    if hand.phase not in ("declare", "exchange") or hand.to_act != 0:
        if hand.over:
            raise ImpossiblePosition(f"the hand ends before your turn: {_ended(hand)}")
        raise ImpossiblePosition(
            f"after these declarations {seat_name(hand.to_act or 0)} declares next, not you"
        )
    return hand


def settled_table(
    game: str,
    rules: RuleSet,
    players: int,
    dealer: int,
    *,
    in_play: Sequence[int],
    tricks: Sequence[int],
    pool: int,
    defender: int | None,
    miss_holder: int | None,
) -> Hand:
    """The hand settled: the players of ``in_play`` stood in (``miss_holder`` on the miss, the
    dealer ``defender`` for the pool), the others passed, and the tricks fell to ``tricks``
    in turn (none: one player left alone takes the pool without play)."""
    hand = dealt_table(
        game,
        rules,
        players,
        dealer,
        own=None,
        turn_up=SETTLEMENT_TURN_UP,
        pool=pool,
        must=None,
    )
    while hand.phase in ("declare", "exchange"):
        seat = hand.to_act
        assert seat is not None
        offered = hand.options(explain=False).choices
        if seat == miss_holder and seat != defender:
            choice = "take-miss"
        elif seat == defender:
            choice = "defend-miss" if "defend-miss" in offered else "defend-master"
        elif seat in in_play:
            choice = "play" if "play" in offered or "take-miss" not in offered else "take-miss"
        else:
            choice = "pass"
        try:
            hand.apply(Action.declare(seat, choice))
        except IllegalAction as e:
            raise _refused(seat, choice, e) from None
    if sorted(hand.in_play) != sorted(in_play):
        raise ImpossiblePosition(
            f"with these declarations the rules leave {_listed(hand.in_play)} in the play: "
            f"{_ended(hand)}"
        )
    if hand.over:
        return hand
    if hand.phase != "play":
        raise ImpossiblePosition(f"the hand does not come to the play: {_ended(hand)}")
    hand.settle_tricks_taken(tricks)
    return hand


def _listed(seats: Sequence[int]) -> str:
    names = [seat_name(s) for s in sorted(seats)]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["SETTLEMENT_TURN_UP", "declaring_table", "dealt_table", "settled_table"]
