"""What a hand is made of: the values it takes, keeps and tells, and its state.

- :class:`HandSetup`: the table as a hand begins; with the seed it determines the deal.
- :class:`Action`: one move by one seat, an entry of the log; :class:`Options`: what the player
  to act may do, and why.
- :class:`Event`: a line of the public trace; :class:`Payment`: counters moving;
  :class:`Offence`: an irregular play let stand (RULES.md 1.11); :class:`Trick`.
- :class:`IllegalAction` (made by :func:`refuse`): what the rules do not allow now.
- :class:`HandState`: every field of one hand (its ``__slots__``), as the hand begins, and what
  every phase does to it: an event in the trace (:meth:`~HandState._event`) and a payment
  (:meth:`~HandState._pay`). Each phase's class extends it, and
  :class:`~games.loo.hand.Hand` joins them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Self

from ..cards import Card
from ..flushes import FlushResult
from ..messages import Message, MessageError, Names, msg, render
from ..play import LegalMoves, RuleApplication, Trumps
from ..rulesets import RuleSet


class IllegalAction(MessageError):
    """An action the rules do not allow now, told as a message (:meth:`render` it for the
    player who tried it); ``application`` is the rule that forbids it."""

    def __init__(self, message: Message | str, application: RuleApplication | None = None) -> None:
        super().__init__(message)
        self.application = application


def refuse(key: str, application: RuleApplication | None = None, **args: Any) -> IllegalAction:
    """The refusal ``key`` says (see :data:`~games.loo.messages.TEMPLATES`)."""
    return IllegalAction(msg(key, **args), application)


class Action(NamedTuple):
    """One move by one seat; it round-trips through :meth:`to_dict` for the action log."""

    kind: str
    seat: int
    choice: str = ""
    cards: tuple[str, ...] = ()
    civil: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.choice:
            data["choice"] = self.choice
        if self.cards:
            data["cards"] = list(self.cards)
        if self.civil:
            data["civil"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(
            kind=str(data["kind"]),
            seat=int(data["seat"]),
            choice=str(data.get("choice", "")),
            cards=tuple(str(c) for c in data.get("cards", ())),
            civil=bool(data.get("civil", False)),
        )

    @classmethod
    def declare(cls, seat: int, choice: str, discards: Sequence[Card | str] = ()) -> Action:
        codes = tuple([c.code if type(c) is Card else str(c) for c in discards]) if discards else ()
        return _new_tuple(cls, ("declare", seat, choice, codes, False))

    @classmethod
    def play(cls, seat: int, played: Card | str, civil: bool = False) -> Action:
        code = played.code if type(played) is Card else str(played)
        return _new_tuple(cls, ("play", seat, "", (code,), civil))


#: Build an :class:`Action` (or a :class:`Position`) from its fields at once, as ``Action(...)``
#: does, without a Python call: one is made at every decision.
_new_tuple: Final = tuple.__new__

#: ``object.__new__``: a slotted dataclass filled field by field, without its ``__init__``.
_new_object: Final = object.__new__


class Payment(NamedTuple):
    """Counters moving at the settlement: ``None`` is the pool; ``reason`` is a message. (A
    named tuple: several are made at every settlement, and a tuple is built several times
    faster than a frozen dataclass.)"""

    payer: int | None
    payee: int | None
    amount: int
    rule: str
    reason: Message

    def to_dict(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "rule": self.rule,
            "reason": self.reason.to_dict(),
        }


@dataclass(frozen=True)
class Event:
    """One line of the public trace, told by ``message``. ``seat`` is the actor (None for the
    table)."""

    kind: str
    message: Message
    seat: int | None = None
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The line in the third person, the seats numbered ("Seat 2 takes trick 1. …")."""
        return render(self.message, None)

    def render(self, viewer: int | None = None, names: Names = None) -> str:
        return render(self.message, viewer, names)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message.to_dict(),
            "seat": self.seat,
            "rules": list(self.rules),
            "cards": list(self.cards),
        }


@dataclass(frozen=True)
class Offence:
    """An irregular play let stand in laws mode; ``message``: the rule it broke, as the
    engine explained it to the offender."""

    seat: int
    trick: int
    card: str
    rule: str  # the rule broken
    penalty: str  # the penalty rule that applies
    message: Message

    @property
    def text(self) -> str:
        return render(self.message, None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "trick": self.trick,
            "card": self.card,
            "rule": self.rule,
            "penalty": self.penalty,
            "message": self.message.to_dict(),
        }


class HandSetup(NamedTuple):
    """The table as a hand begins. With the seed it determines the deal. (A named tuple: one is
    made at every deal, and a frozen dataclass of these fourteen fields costs as much to build
    as a sixth of the shuffle.)"""

    game: str
    rules: RuleSet
    players: int
    dealer: int
    hand_number: int
    seed: int | str
    balances: tuple[int, ...]
    pool: int
    first: bool = True
    prev_no_loo: bool = False
    prev_flush: bool = False
    laws: bool = False
    trace: bool = True
    #: A stacked pack (52 card codes, top first) instead of the seeded shuffle: for lessons,
    #: quizzes and tests that need a particular deal (see :func:`stack_pack`).
    pack: tuple[str, ...] | None = None
    #: Peel's last round (p. 17, A54): everyone stands, there is no miss, and whoever takes no
    #: trick is released from his loo.
    last_round: bool = False


@dataclass(slots=True)
class Options:
    """What the player to act may do, and why."""

    seat: int
    kind: str  # "declare", "play", "replay" or "none"
    choices: tuple[str, ...] = ()
    max_discards: int = 0
    legal: LegalMoves | None = None
    explanations: tuple[RuleApplication, ...] = ()
    #: May the leader call "Pam, be civil" with the ace of trumps?
    civil_call: bool = False


@dataclass(init=False, slots=True)
class Trick:
    """The trick in progress (or taken): who led, and each (seat, card) played to it."""

    leader: int
    plays: list[tuple[int, Card]]
    civil: bool
    winner: int | None
    #: The cards of ``plays``, kept alongside them (Hand._lay adds to both) for the rule code,
    #: which reads them at every decision.
    laid: list[Card] = field(repr=False, compare=False)

    # Written out rather than generated: a trick is made at every trick of every playout.
    def __init__(
        self,
        leader: int,
        plays: list[tuple[int, Card]] | None = None,
        civil: bool = False,
        winner: int | None = None,
    ) -> None:
        self.leader = leader
        if plays is None:
            self.plays = []
            self.laid = []
        else:
            self.plays = plays
            self.laid = [c for _, c in plays]
        self.civil = civil
        self.winner = winner

    @property
    def cards(self) -> list[Card]:
        return list(self.laid)


@cache
def _seat_order(dealer: int, players: int) -> tuple[int, ...]:
    return tuple((dealer + 1 + k) % players for k in range(players))


@dataclass
class Irregular:
    """What the laws of the deal and the declarations leave behind (:mod:`.irregular`)."""

    #: Fresh deals by the same dealer after a misdeal or a faced card.
    redeals: int = 0
    #: Cards each seat has seen by looking where it should not (the miss, another's hand).
    peeked: dict[int, list[Card]] = field(default_factory=dict)
    #: Seats that must retire for the hand when their turn to declare comes (hoffmann Law 6,
    #: peel p. 24), and the rule that says so.
    retiring: dict[int, str] = field(default_factory=dict)
    #: Seats that looked at their cards before their turn (they see them from then on).
    looked: list[int] = field(default_factory=list)
    #: Cards the whole table saw in a deal given up for a fresh one (its turn-up, a card shown):
    #: the trace named them, and the new shuffle tells nothing of where they are now.
    shown_before: list[Card] = field(default_factory=list)
    #: Penalties that go to the pool for the next deal, paid when the hand ends.
    deferred: list[tuple[int, int, str, Message]] = field(default_factory=list)
    #: Seats that have paid their loo already (peel: looking at another's cards after declaring
    #: to stand, "having first paid his loo into the pool", p. 24): looed, but not charged again.
    paid_loo: list[int] = field(default_factory=list)
    #: Seats that play on but win nothing in the hand, and the rule that says so (peel:
    #: interfering with the deal, p. 22 "In any case the player who transgressed the law does
    #: not win anything", A55; ``interfering-winnings``).
    no_winnings: dict[int, str] = field(default_factory=dict)


class HandState:
    """The state of one hand: the setup it began from, the cards, the declarations, the play,
    the outcome, the log and the trace. The phases read and change it; each phase's methods
    are in its own module, and :class:`~games.loo.hand.Hand` joins them."""

    # Slots: a hand has more fields than an instance dict keeps compact (CPython's shared keys
    # hold 30), and the engine reads them at every decision.
    __slots__ = (
        "setup",
        "_trace",
        "game",
        "rules",
        "players",
        "dealer",
        "trumps",
        "balances",
        "pool",
        "stake",
        "log",
        "events",
        "phase",
        "to_act",
        "dealt",
        "hands",
        "miss",
        "miss_withdrawn",
        "turn_up",
        "stock",
        "discards",
        "thrown",
        "exchanged",
        "must",
        "club_law",
        "single",
        "double",
        "declared",
        "drawn",
        "miss_holder",
        "defender",
        "flush",
        "in_play",
        "retired",
        "tricks",
        "trick",
        "start_of_play",
        "offences",
        "seen",
        "_played",
        "replaying",
        "replay_asked",
        "outcome",
        "pool_at_start",
        "payments",
        "_moves",
        "_offer",
        "_exchange_cache",
        "_immediate_flush",
        "looed",
        "no_loo",
        "irregular",
    )

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self._trace = setup.trace
        self.game = setup.game
        self.rules = setup.rules
        self.players = setup.players
        self.dealer = setup.dealer
        self.trumps: Trumps
        self.balances = list(setup.balances)
        self.pool = setup.pool
        self.stake = setup.rules.stake(setup.game)
        self.log: list[Action] = []
        self.events: list[Event] = []
        self.phase = "declare"
        self.to_act: int | None = None
        # Cards.
        self.dealt: list[list[Card]] = []
        self.hands: list[list[Card]] = []
        self.miss: list[Card] | None = None
        self.miss_withdrawn = False
        self.turn_up: Card
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        #: Hands given up: passed, or exchanged for miss (seen by their holder only).
        self.thrown: dict[int, list[Card]] = {}
        #: Cards each player discarded to draw (five-card and Irish Loo).
        self.exchanged: dict[int, list[Card]] = {}
        # Declaring.
        self.must = False
        self.club_law = False
        self.single = False
        self.double = False
        self.declared: list[str | None] = [None] * self.players
        self.drawn: list[int] = [0] * self.players
        self.miss_holder: int | None = None
        self.defender: int | None = None
        # Flushes.
        self.flush: FlushResult | None = None
        # Play.
        self.in_play: list[int] = []
        self.retired: list[int] = []
        self.tricks: list[Trick] = []
        self.trick: Trick | None = None
        self.start_of_play: list[list[Card]] = []
        self.offences: list[Offence] = []
        #: Every card shown face up in play, including a play later taken back for a replay
        #: and a card played out of turn: everyone at the table has seen these.
        self.seen: list[Card] = []
        #: The cards of the tricks already taken, in order.
        self._played: tuple[Card, ...] = ()
        self.replaying = False
        self.replay_asked: list[int] = []
        # Outcome.
        self.outcome = ""
        self.pool_at_start = 0
        self.payments: list[Payment] = []
        # legal_moves, remembered until the next action: (actions done, seat, the answer,
        # explained).
        self._moves: tuple[int, int, LegalMoves, bool] | None = None
        # What choices() answered in the play (the legal cards of the player to act) and the
        # exchange options of a seat (seat, options): forgotten whenever apply() or step()
        # logs an action, since every change to the hand is made by one of them.
        self._offer: tuple[Card, ...] | None = None
        self._exchange_cache: tuple[int, Options] | None = None
        #: Five-card Loo with flushes shown at once (A29): looked for at every turn and draw.
        timing = setup.rules.flush_timing
        self._immediate_flush = setup.game == "five-card" and timing == "immediate"
        self.looed: list[int] = []
        self.no_loo = False
        #: The irregularities other than card play (misdeals, looking, exposing, declaring out
        #: of turn: :mod:`.irregular`), made when the first is committed.
        self.irregular: Irregular | None = None

    def _event(
        self,
        kind: str,
        message: Message,
        seat: int | None = None,
        rules: Sequence[str] = (),
        cards: Sequence[Card] = (),
    ) -> None:
        self.events.append(Event(kind, message, seat, tuple(rules), tuple(c.code for c in cards)))

    def _pay(
        self, payer: int | None, payee: int | None, amount: int, rule: str, reason: Message
    ) -> None:
        if amount <= 0:
            return
        if payer is None:
            self.pool -= amount
        else:
            self.balances[payer] -= amount
        if payee is None:
            self.pool += amount
        else:
            self.balances[payee] += amount
        # Payment(payer, payee, amount, rule, reason), without the call: several a hand.
        self.payments.append(_new_tuple(Payment, (payer, payee, amount, rule, reason)))

    def seat_order(self) -> list[int]:
        """Seats from the dealer's left round to the dealer."""
        return list(_seat_order(self.dealer, self.players))

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def trump(self) -> str:
        return self.turn_up.suit

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    if TYPE_CHECKING:
        # What one phase hands on to another, for the type checker; each is defined in the
        # module named, and Hand (games/loo/hand/__init__.py) has them all.

        # __init__.py (the coordinator)
        @classmethod
        def replay(cls, setup: HandSetup, log: Sequence[Action]) -> Self: ...
        @classmethod
        def deal(cls, setup: HandSetup) -> Self: ...
        def apply(self, action: Action) -> None: ...
        def choices(self) -> tuple[Card | str, ...]: ...

        # declare.py
        def forced_to_play(self, seat: int) -> RuleApplication | None: ...
        def _next_declarer(self) -> None: ...

        # showing.py
        def _check_flush_at_turn(self) -> None: ...
        def _show_flushes(self) -> None: ...

        # tricks.py
        def _start_play(self) -> None: ...
        def _first_leader(self) -> int: ...
        def active(self) -> list[int]: ...
        def _next_in_play(self, seat: int) -> int: ...
        def _trick_complete(self) -> bool: ...
        def _end_trick(self) -> None: ...

        # laws.py
        def laws_apply(self) -> bool: ...
        def _record_offence(self, seat: int, played: Card, why: RuleApplication) -> None: ...
        def _out_of_turn(self, seat: int, played: Card) -> None: ...
        def _end_play(self) -> None: ...
        def _apply_penalties(self, looed: Sequence[int], loo: int) -> list[int]: ...
        def _tell_penalties(self, loo: int) -> None: ...

        # deal.py
        def _deal_cards(self, pack: list[Card] | None) -> None: ...

        # single.py
        def single_deal_applies(self) -> bool: ...
        def _single_deal(self, pack: list[Card]) -> None: ...
        def single_loo(self) -> int: ...

        # settle.py
        def loo_amount(self) -> int: ...
        def _settle_single_winner(self, seat: int, outcome: str, rule: str) -> None: ...
        def _settle_tricks(self) -> None: ...
        def _settle_last_player(self, rule: str = ...) -> None: ...
        def _finish(self) -> None: ...
