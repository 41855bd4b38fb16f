"""One hand of Loo, from the stake to the settlement, as a state machine with seeded chance.

A :class:`Hand` starts from a :class:`HandSetup` (the table as the hand begins: who deals, what
the pool holds, what the last hand left behind) and moves by :class:`Action`\\ s:

- ``declare`` — in three-card Loo ``play``, ``pass``, ``take-miss``, and the dealer's choices
  against a lone player ``defend-miss`` (miss for the pool) and ``defend-master`` (britannica's
  master); in five-card and Irish Loo ``pass`` or ``play`` with the cards to discard (none:
  stand);
- ``play`` — a card, with ``civil`` for "Pam, be civil" when the ace of trumps is led;
- ``replay`` — ``demand`` or ``decline``, after a revoke under hoffmann's Law 16.

Every decision comes with its legal options and the rules that shaped them (:meth:`Hand.options`),
like card play does. The hand's public trace (:attr:`Hand.events`) never names a hidden card.
``../shared/RULES.md`` is the specification; rule ids come from the catalogue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import Any, Final, NamedTuple, NoReturn

from .cards import BY_CODE, PACK, Card, card, parse_card
from .errors import LooError, MessageError
from .flushes import FlushResult, compare_flushes, find_flush
from .messages import HAD_TO, Message, Names, msg, remap, render
from .play import (
    LegalMoves,
    Position,
    RuleApplication,
    Trumps,
    _legal_follow,
    _legal_lead,
    _quiet,
    follow_cards,
    lead_cards,
    trick_winner,
    winning_index,
)
from .rng import deal_rng, shuffled_pack
from .rulesets import HAND_SIZE, RuleSet

#: 2: sentences are stored as messages (data), not as English. A hand or table of version 1
#: still loads: its sentences are worked out again from its seed and actions.
FORMAT_VERSION: Final = 2

#: Which penalty rule a card-play offence falls under (RULES.md 1.11).
OFFENCE_RULE: Final = {
    "follow-suit": "penalty-revoke",
    "pam-identity": "penalty-revoke",
    "pam-led-trump-must-be-played": "penalty-revoke",
    "head-the-trick": "penalty-fail-to-head",
    "must-trump": "penalty-fail-to-head",
    "must-overtrump": "penalty-fail-to-head",
    "pam-be-civil": "penalty-fail-to-head",
    "lead-ace-of-trumps": "penalty-lead-violation",
    "lead-king-when-ace-turned": "penalty-lead-violation",
    "lead-trump-holding-two": "penalty-lead-violation",
    "lead-highest-trump-heads-up": "penalty-lead-violation",
    "lead-highest-of-two-or-three": "penalty-lead-violation",
    "trump-after-trick": "penalty-lead-violation",
}


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

#: The card of a ``(seat, card)`` play.
_card_of_play: Final = itemgetter(1)


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


@cache
def _free_exchange(seat: int, most: int) -> Options:
    """The exchange options of a player free to play or pass, discarding up to ``most``.
    Shared: an Options is never changed once made."""
    return Options(seat, "declare", ("play", "pass"), most)


#: ``Action.play(seat, card)`` for every card and the seats of the largest table, made once:
#: Hand.step logs these shared (immutable) tuples rather than a new one per card played.
_PLAY_ACTIONS: Final[dict[Card, tuple[Action, ...]]] = {
    c: tuple(_new_tuple(Action, ("play", seat, "", (c.code,), False)) for seat in range(16))
    for c in PACK
}


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


class Hand:
    """One deal of Loo. Build it with :meth:`deal` (or :meth:`replay`); move it with
    :meth:`apply`. Chips are conserved: ``sum(balances) + pool`` never changes."""

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

    # -- the deal -------------------------------------------------------------------------------

    @classmethod
    def deal(cls, setup: HandSetup) -> Hand:
        hand = cls(setup)
        hand._deal()
        return hand

    @classmethod
    def replay(cls, setup: HandSetup, log: Sequence[Action]) -> Hand:
        """The hand rebuilt from its seed and its action log."""
        hand = cls.deal(setup)
        for action in log:
            hand.apply(action)
        return hand

    def takeback(self, count: int = 1) -> Hand:
        """The state before the last ``count`` actions."""
        if not 0 <= count <= len(self.log):
            raise refuse("error.takeback", n=len(self.log))
        return Hand.replay(self.setup, self.log[: len(self.log) - count])

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

    def _deal(self) -> None:
        s = self.setup
        rules = self.rules
        # The stake (RULES.md 1.2, ante).
        fresh = s.first or s.prev_no_loo or (s.prev_flush and rules.flush_loos_to == "holder")
        if rules.ante == "all-players-fresh-pool":
            if fresh:
                for seat in self.seat_order():
                    self._pay(seat, None, self.stake, "ante", _PAY_FRESH)
                if self._trace:
                    self._event(
                        "ante",
                        msg("ante.fresh", n=self.stake),
                        None,
                        ["ante", "stake-divisible"],
                    )
            else:
                if self._trace:
                    self._event("ante", msg("ante.loos"), None, ["ante"])
        else:
            self._pay(self.dealer, None, self.stake, "ante", _PAY_DEALER_STAKE)
            if self._trace:
                self._event(
                    "ante",
                    msg("ante.dealer", p=self.dealer, n=self.stake),
                    self.dealer,
                    ["ante", "stake-divisible"],
                )
        # RULES.md double: the pool holds more than the fresh stake, carried from the last deal.
        self.double = s.pool > 0
        # RULES.md single: after a hand with no loo (and the first deal), or whenever the pool
        # holds only the fresh stake, as the rule set defines it.
        fresh_stake = (
            self.stake * self.players if rules.ante == "all-players-fresh-pool" else self.stake
        )
        if rules.single_definition == "after-no-loo":
            self.single = s.first or s.prev_no_loo
        else:
            self.single = self.pool == fresh_stake
        single = self.single
        # A must (RULES.md 1.10): a three-card device.
        must = rules.must
        self.must = self.game == "three-card" and (
            (must == "after-no-loo" and s.prev_no_loo)
            or (must == "first-deal+after-no-loo" and (s.first or s.prev_no_loo))
            or (must == "pool-is-single" and single)
            or (
                must == "first-deal+after-no-loo+after-flush"
                and (s.first or s.prev_no_loo or s.prev_flush)
            )
        )
        deal_miss = self.game == "three-card" and not (self.must and rules.must_miss == "none")
        # The cards (RULES.md 1.1, deal-order).
        if s.pack:
            pack = [card(c) for c in s.pack]
        else:
            pack = shuffled_pack(deal_rng(s.seed, s.hand_number))
        size = HAND_SIZE[self.game]
        seats, to_miss, i = _deal_plan(
            self.game, rules.deal_5c, self.players, self.dealer, deal_miss
        )
        if len(pack) > i:
            hands = [list(take(pack)) for take in seats]
            miss = list(to_miss(pack)) if deal_miss else []
        else:  # a short stacked pack: deal what there is (the turn-up is then missing)
            hands = [[] for _ in range(self.players)]
            miss = []
            receivers = deal_order(self.game, rules, self.players, self.dealer, deal_miss)
            for c, receiver in zip(pack, receivers, strict=False):
                (miss if receiver is None else hands[receiver]).append(c)
        self.turn_up = pack[i]
        self.stock = pack[i + 1 :]
        self.hands = hands
        self.dealt = list(map(list, self.hands))
        self.miss = miss if deal_miss else None
        trump = self.turn_up.suit
        self.trumps = Trumps.of(self.game, rules, trump)
        self.pool_at_start = self.pool
        if self._trace:
            self._event(
                "deal",
                msg(
                    "deal.miss" if deal_miss else "deal.cards",
                    n=size,
                    turn_up=self.turn_up,
                    suit=trump,
                ),
                self.dealer,
                ["deal-order", "turn-up-trump"],
                [self.turn_up],
            )
        if self.must and self._trace:
            self._event("must", msg("must.miss" if deal_miss else "must.no-miss"), None, ["must"])
        club_games = rules.club_law_games
        if (
            rules.club_law == "on"
            and trump == "C"
            and (club_games == "both" or (club_games == "five-card") == (self.game == "five-card"))
        ):
            self.club_law = True
            if self.miss is not None:
                # The miss is withdrawn to the stock unseen (peel p. 26).
                self.stock.extend(self.miss)
                self.miss = None
                self.miss_withdrawn = True
            if self._trace:
                self._event("club-law", msg("club-law"), None, ["club-law"])
        self.phase = "declare" if self.game == "three-card" else "exchange"
        self.to_act = (self.dealer + 1) % self.players
        if self.phase == "exchange":
            self._check_flush_at_turn()

    def seat_order(self) -> list[int]:
        """Seats from the dealer's left round to the dealer."""
        return list(_seat_order(self.dealer, self.players))

    # -- what may be done ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def trump(self) -> str:
        return self.turn_up.suit

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    def declared_before_dealer(self) -> list[int]:
        dealer = self.dealer
        declared = self.declared
        return [
            s
            for s in _seat_order(dealer, self.players)
            if s != dealer and declared[s] not in (None, "pass")
        ]

    def _declared_before_dealer(self) -> bool:
        """Whether anyone but the dealer has declared to play (or taken miss): as
        ``bool(declared_before_dealer())``, stopping at the first."""
        dealer = self.dealer
        for seat, declared in enumerate(self.declared):
            if declared is not None and declared != "pass" and seat != dealer:
                return True
        return False

    def forced_to_play(self, seat: int) -> RuleApplication | None:
        """Why ``seat`` may not pass, if it may not."""
        if self.must:
            return RuleApplication("must", _OPTION_MUST)
        if self.club_law:
            return RuleApplication("club-law", _CLUB_LAW)
        if seat == self.dealer:
            before = self.declared_before_dealer()
            if len(before) == 1 and before[0] != self.miss_holder:
                if self.game == "three-card":
                    menu = msg(f"part.dealer-vs-one.{self.rules.dealer_vs_one}", d=seat)
                    return RuleApplication(
                        "dealer-must-play-against-one",
                        msg("option.dealer-vs-one", one=before[0], d=seat, menu=menu),
                    )
                return RuleApplication(
                    "dealer-must-play-against-one",
                    msg("option.dealer-vs-one-5c", one=before[0], d=seat),
                )
            if (
                len(before) == 1
                and before[0] == self.miss_holder
                and self.rules.lone_miss_holder == "dealer-must-play-own-or-master"
            ):
                return RuleApplication("master", msg("option.master", one=before[0], d=seat))
        return None

    def options(self, explain: bool = True) -> Options:
        """What the player to act may do now, with the rules that decided it (``explain``:
        the sentences too)."""
        seat = self.to_act
        phase = self.phase
        if seat is None or phase == "over":
            return Options(-1, "none")
        if phase == "play":
            moves = self.legal_moves(seat, explain)
            trick = self.trick
            # Options(seat, "play", legal=moves, ...) made field by field: one per decision.
            options = _new_object(Options)
            options.seat = seat
            options.kind = "play"
            options.choices = ()
            options.max_discards = 0
            options.legal = moves
            options.explanations = moves.explanations
            options.civil_call = (
                self.game == "five-card"
                and not (trick is not None and trick.plays)
                and self.trumps.ace in self.hands[seat]
            )
            return options
        if phase == "declare":
            return self._declare_options(seat)
        if phase == "exchange":
            return self._exchange_options(seat)
        if phase == "replay":
            return Options(
                seat,
                "replay",
                ("demand", "decline"),
                explanations=(RuleApplication("revoke-replay", msg("option.replay")),),
            )
        raise AssertionError(f"unknown phase {phase!r}")

    def _declare_options(self, seat: int) -> Options:
        apps: list[RuleApplication] = []
        forced = self.forced_to_play(seat)
        choices: list[str] = ["play"]
        miss_free = self.miss is not None and self.miss_holder is None
        if seat == self.dealer and self.must is False and self.club_law is False:
            before = self.declared_before_dealer()
            if len(before) == 1 and before[0] == self.miss_holder:
                if self.rules.lone_miss_holder == "dealer-must-play-own-or-master":
                    choices = ["play", "defend-master"]
                else:
                    apps.append(
                        RuleApplication(
                            "miss-holder-alone-wins",
                            msg("option.lone-miss-holder", one=before[0], d=seat),
                        )
                    )
            elif len(before) == 1:
                menu = self.rules.dealer_vs_one.split("|")
                choices = [
                    {"own": "play", "miss": "take-miss", "miss-for-pool": "defend-miss"}[m]
                    for m in menu
                ]
            elif miss_free:
                choices.append("take-miss")
        elif miss_free:
            choices.append("take-miss")
        elif self.miss_holder is not None:
            apps.append(
                RuleApplication(
                    "miss-only-once", msg("option.miss-taken", h=self.miss_holder, p=seat)
                )
            )
        if forced is None:
            choices.append("pass")
        else:
            apps.insert(0, forced)
        return Options(seat, "declare", tuple(choices), explanations=tuple(apps))

    def _exchange_options(self, seat: int) -> Options:
        cached = self._exchange_cache
        if cached is not None and cached[0] == seat:
            return cached[1]
        club_law = self.club_law
        # Only a must, club law and the dealer can be forced to play.
        forced = self.forced_to_play(seat) if self.must or club_law or seat == self.dealer else None
        may_draw = not (club_law and self.rules.club_law_exchange == "none")
        held = len(self.hands[seat])
        stock = len(self.stock)
        most = (held if held < stock else stock) if may_draw else 0
        if forced is None and not club_law and most == held:
            # Free to play or pass and to discard his whole hand: the answer of every free
            # player in this seat, made once.
            options = _free_exchange(seat, most)
        else:
            apps: list[RuleApplication] = []
            if forced is not None:
                apps.append(forced)
            if not may_draw:
                apps.append(RuleApplication("club-law", msg("option.club-law-no-draw")))
            if may_draw and most < held:
                apps.append(
                    RuleApplication(
                        "five-card-exchange",
                        msg("option.short-stock", n=stock, most=most, p=seat),
                    )
                )
            choices = ("play",) if forced else ("play", "pass")
            options = Options(seat, "declare", choices, max_discards=most, explanations=tuple(apps))
        self._exchange_cache = (seat, options)
        return options

    def trick_cards(self) -> list[Card]:
        return self.trick.cards if self.trick is not None else []

    def position(self, seat: int) -> Position:
        """The card-play position of ``seat`` as it stands."""
        trick = self.trick
        if trick is None:
            cards: tuple[Card, ...] = ()
            civil = False
        else:
            plays = trick.plays
            cards = tuple(map(_card_of_play, plays)) if plays else ()
            civil = trick.civil
        trumps = self.trumps
        # Position.trusted, without the call: the engine built it from a consistent hand.
        return _new_tuple(
            Position,
            (
                self.game,
                self.rules,
                trumps.suit,
                tuple(self.hands[seat]),
                cards,
                self.turn_up,
                len(self.in_play),
                len(self.tricks) + 1,
                civil,
                self._played,
                trumps,
            ),
        )

    def legal_moves(self, seat: int, explain: bool = True) -> LegalMoves:
        """:func:`~games.loo.play.legal` for ``seat`` now (remembered until the next action)."""
        done = len(self.log)
        cached = self._moves
        if (
            cached is not None
            and cached[0] == done
            and cached[1] == seat
            and (cached[3] or not explain)
        ):
            return cached[2]
        position = self.position(seat)
        if not explain and seat == self.to_act and self.phase == "play":
            # The quiet answer Hand.choices remembers too (the bots ask for it, then step).
            moves = _quiet(position, self._offered(seat))
        else:
            # legal(position, explain=explain): its dispatch, without the extra call.
            moves = (_legal_follow if position.trick else _legal_lead)(position, explain, seat)
        self._moves = (done, seat, moves, explain)
        return moves

    def _offered(self, seat: int) -> tuple[Card, ...]:
        """The legal cards of ``seat``, the player to act in the play, as :meth:`choices`
        works them out (remembered until the next action; only ever asked for him)."""
        offered = self._offer
        if offered is None:
            self.choices()
            offered = self._offer
            assert offered is not None
        return offered

    def choices(self) -> tuple[Card | str, ...]:
        """What the player to act may choose, plainly: what :meth:`step` takes.

        - in the play, his legal cards (as ``options().legal.legal``);
        - in three-card Loo's declaring, ``"play"``, ``"pass"``, ``"take-miss"``, ...; in the
          exchange, ``"play"`` (with up to :meth:`discard_limit` cards to discard) and
          ``"pass"`` when he may pass (as ``options().choices``);
        - after a revoke under Law 16, ``"demand"`` and ``"decline"``;
        - nothing when the hand is over.

        The same rule code as :meth:`options` and :meth:`legal_moves` answers (and remembers
        until the next action), without the sentences and the answer objects: for the bots'
        playouts and simulations, which decide thousands of times a second. A "Pam, be civil"
        call and, in laws mode, an irregular play go through :meth:`apply`.
        """
        phase = self.phase
        if phase == "play":
            # legal_moves(seat, False).legal, worked out by the same rule code from the hand's
            # own state, without a Position or a LegalMoves; remembered for step() (and
            # legal_moves) until the next action.
            seat = self.to_act
            trick = self.trick
            assert seat is not None and trick is not None  # so always in the play
            laid = trick.laid
            if laid:
                cards = follow_cards(self.trumps, self.rules, self.hands[seat], laid, trick.civil)
            else:
                cards = lead_cards(
                    self.trumps,
                    self.rules,
                    self.game,
                    self.hands[seat],
                    self.turn_up,
                    len(self.in_play),
                    len(self.tricks) + 1,
                    self._played,
                )
            self._offer = cards
            return cards
        seat = self.to_act
        if seat is None:
            return ()
        if phase == "exchange":
            return self._exchange_options(seat).choices
        return self.options(explain=False).choices

    def discard_limit(self) -> int:
        """The most cards the player to act may discard if he plays in the exchange (as
        ``options().max_discards``; 0 outside the exchange)."""
        seat = self.to_act
        if seat is None or self.phase != "exchange":
            return 0
        return self._exchange_options(seat).max_discards

    # -- moving -------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out ``action``, or raise :class:`IllegalAction` leaving the hand unchanged."""
        phase = self.phase
        kind = action.kind
        seat = action.seat
        if phase == "play" and kind == "play" and 0 <= seat < self.players:
            self._play(action)
            self.log.append(action)
            self._offer = self._exchange_cache = None
            return
        if phase == "over":
            raise refuse("error.hand-over")
        if not 0 <= seat < self.players:
            raise refuse("error.no-seat", n=seat + 1)
        if kind == "play" and phase == "play":
            self._play(action)
        elif kind != "play" and seat != self.to_act:
            raise refuse("error.not-your-turn", p=seat)
        elif kind == "declare" and phase == "declare":
            self._declare(action)
        elif kind == "declare" and phase == "exchange":
            self._exchange(action)
        elif kind == "replay" and phase == "replay":
            self._replay_choice(action)
        else:
            raise refuse("error.not-now", kind=kind, phase=phase)
        self.log.append(action)
        self._offer = self._exchange_cache = None

    def step(self, choice: Card | str, discards: Sequence[Card] = ()) -> None:
        """Carry out ``choice``, one of :meth:`choices`, for the player to act (``discards``:
        the cards he throws to draw, when he plays in the exchange).

        The hand changes and logs exactly as :meth:`apply` of the same decision makes it
        (``Action.play(seat, card)``, ``Action.declare(seat, choice, discards)``,
        ``Action("replay", seat, choice)``), without building the options again: a card the
        remembered legal moves offer is played at once. Anything not offered raises
        :class:`IllegalAction` and leaves the hand unchanged.
        """
        phase = self.phase
        seat = self.to_act
        if phase == "play":
            assert seat is not None  # a player is always to act in the play
            if self._trace:
                # The trace names the rules that bound the play: the explained legal moves.
                moves = self.legal_moves(seat)
                why = moves.explanations
                offered = moves.legal
            else:
                why = ()
                # What choices() has just answered, as a rule (_offered, without the call;
                # never empty: a player in the play always has a card to play).
                offered = self._offer or self._offered(seat)
            if choice not in offered or discards or type(choice) is not Card:
                self._refuse_card(seat, choice, discards)
            # Action.play(seat, choice), without the call.
            try:
                action = _PLAY_ACTIONS[choice][seat]
            except IndexError:  # a table larger than any source allows
                action = _new_tuple(Action, ("play", seat, "", (choice.code,), False))
            self._lay(seat, choice, why, False, False)
            self.log.append(action)
            self._offer = self._exchange_cache = None
            return
        if seat is None:
            raise refuse("error.hand-over")
        if type(choice) is not str:
            raise refuse("error.not-a-choice", choice=str(choice), p=seat)
        if phase == "exchange" and self._exchange_offered(seat, choice, discards):
            # Offered, with distinct held cards to discard: carried out at once, as
            # _exchange would after checking and reading the same decision.
            if choice == "pass":
                self._exchange_pass(seat)
                action = _new_tuple(Action, ("declare", seat, "pass", (), False))
            else:
                codes = tuple([c.code for c in discards]) if discards else ()
                self._exchange_play(seat, list(discards))
                action = _new_tuple(Action, ("declare", seat, choice, codes, False))
        elif phase == "exchange":
            # Not offered, or cards written as codes: checked and read the long way round.
            action = Action.declare(seat, choice, discards)
            self._exchange(action)
        elif phase == "declare":
            action = Action.declare(seat, choice, discards)
            self._declare(action)
        else:
            if discards:
                raise refuse("error.replay-cards")
            action = _new_tuple(Action, ("replay", seat, choice, (), False))
            self._replay_choice(action)
        self.log.append(action)
        self._offer = self._exchange_cache = None

    def _exchange_offered(self, seat: int, choice: str, discards: Sequence[Card]) -> bool:
        """Whether ``seat`` may ``choice`` (``"play"`` or ``"pass"``) in the exchange with these
        ``discards``: distinct :class:`Card`\\ s he holds, no more than he may discard, and none
        when he passes (what :meth:`_exchange` checks, for cards rather than codes)."""
        options = self._exchange_options(seat)
        if choice not in options.choices:
            return False
        if not discards:
            return True
        if choice == "pass" or len(discards) > options.max_discards:
            return False
        held = self.hands[seat]
        seen: list[Card] = []
        for c in discards:
            if type(c) is not Card or c not in held or c in seen:
                return False
            seen.append(c)
        return True

    def _refuse_card(self, seat: int, choice: Card | str, discards: Sequence[Card]) -> NoReturn:
        """Raise the :class:`IllegalAction` for a card play :meth:`step` does not offer."""
        if discards:
            raise refuse("error.card-discards")
        if type(choice) is not Card:
            raise refuse("error.card-now", choice=repr(choice))
        if choice not in self.hands[seat]:
            raise refuse("error.not-held", p=seat, card=choice)
        why = self.legal_moves(seat).why_not(choice)
        raise _forbidden(choice, why)

    def _next_declarer(self) -> None:
        assert self.to_act is not None
        seat = self.to_act
        if seat == self.dealer:
            self._end_declaring()
            return
        seat = (seat + 1) % self.players
        self.to_act = seat
        if seat == self.dealer and not self._declared_before_dealer():
            # RULES.md all-pass-dealer-wins: the dealer takes the pool without play.
            if self._trace:
                self._event(
                    "all-pass",
                    msg("all-pass", d=self.dealer),
                    self.dealer,
                    ["all-pass-dealer-wins"],
                )
            self._settle_single_winner(self.dealer, "all-pass", "all-pass-dealer-wins")
            return
        if self.phase == "exchange":
            self._check_flush_at_turn()

    def _declare(self, action: Action) -> None:
        seat = action.seat
        options = self._declare_options(seat)
        choice = action.choice
        if choice not in options.choices:
            why = options.explanations[0] if options.explanations else None
            raise _not_open(choice, seat, options.choices, why)
        if action.cards:
            raise refuse("error.exchange-three-card")
        if choice == "play":
            self.declared[seat] = "play"
            if self._trace:
                self._event("declare", msg("declare.play", p=seat), seat, ["declare-in-turn"])
        elif choice == "pass":
            self.declared[seat] = "pass"
            self.thrown[seat] = self.hands[seat]
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            if self._trace:
                self._event(
                    "declare",
                    msg("declare.pass", p=seat),
                    seat,
                    ["declare-in-turn", "discards-unseen"],
                )
        elif choice == "take-miss":
            assert self.miss is not None
            self.discards.extend(self.hands[seat])
            self.thrown[seat] = self.hands[seat]
            self.hands[seat] = self.miss
            self.miss = None
            self.miss_holder = seat
            self.declared[seat] = "miss"
            if self._trace:
                self._event(
                    "declare",
                    msg("declare.take-miss", p=seat),
                    seat,
                    ["take-miss", "miss-holder-must-play"],
                )
        elif choice in ("defend-miss", "defend-master"):
            self.discards.extend(self.hands[seat])
            self.thrown[seat] = self.hands[seat]
            if choice == "defend-miss":
                assert self.miss is not None
                self.hands[seat] = self.miss
                self.miss = None
                self.miss_holder = seat
                key = "declare.defend-miss"
                rules = ["dealer-defends-miss"]
            else:
                self.hands[seat] = self.stock[:3]
                del self.stock[:3]
                key = "declare.defend-master"
                rules = ["master"]
            self.defender = seat
            self.declared[seat] = "defend"
            if self._trace:
                self._event("declare", msg(key, p=seat), seat, rules)
        self._next_declarer()

    def _exchange(self, action: Action) -> None:
        seat = action.seat
        options = self._exchange_options(seat)
        if action.choice not in options.choices:
            why = options.explanations[0] if options.explanations else None
            raise _not_open(action.choice, seat, options.choices, why)
        held = self.hands[seat]
        if action.choice == "pass":
            if action.cards:
                raise refuse("error.pass-draws")
            self._exchange_pass(seat)
            return
        codes = action.cards
        discards = _parse_held(codes, held, seat) if codes else []
        if len(discards) > options.max_discards:
            raise refuse(
                "error.too-many-discards",
                options.explanations[-1] if options.explanations else None,
                p=seat,
                n=options.max_discards,
            )
        self._exchange_play(seat, discards)

    def _exchange_pass(self, seat: int) -> None:
        """``seat``, the player to act in the exchange, passes (checked: he may)."""
        held = self.hands[seat]
        self.declared[seat] = "pass"
        self.thrown[seat] = held
        self.discards.extend(held)
        self.hands[seat] = []
        if self._trace:
            self._event("declare", msg("declare.pass", p=seat), seat, ["declare-in-turn"])
        self._next_declarer()

    def _exchange_play(self, seat: int, discards: list[Card]) -> None:
        """``seat``, the player to act in the exchange, plays and draws for ``discards``
        (checked: distinct cards he holds, no more than he may discard)."""
        held = self.hands[seat]
        count = len(discards)
        self.declared[seat] = "play"
        if discards:
            kept = [c for c in held if c not in discards]
            stock = self.stock
            kept.extend(stock[:count])
            del stock[:count]
            self.hands[seat] = kept
            self.discards.extend(discards)
            self.exchanged[seat] = discards
            self.drawn[seat] = count
            if self._trace:
                self._event(
                    "exchange",
                    msg("exchange.draw", p=seat, n=count),
                    seat,
                    [self._exchange_rule],
                )
        else:
            if self._trace:
                self._event("exchange", msg("exchange.stand", p=seat), seat, [self._exchange_rule])
        # A hand he stands on was looked at when his turn came (_check_flush_at_turn).
        if (
            discards
            and self._immediate_flush
            and find_flush(self.hands[seat], self.trumps, seat) is not None
        ):
            self._show_flushes()
            return
        self._next_declarer()

    @property
    def _exchange_rule(self) -> str:
        return "irish-loo" if self.game == "irish" else "five-card-exchange"

    def _check_flush_at_turn(self) -> None:
        """Immediate flushes (A29): a player holding a flush shows it when his turn comes."""
        seat = self.to_act
        if (
            self._immediate_flush
            and seat is not None
            and find_flush(self.hands[seat], self.trumps, seat) is not None
        ):
            self.declared[seat] = "play"
            self._show_flushes()

    def _show_flushes(self) -> None:
        """The flushes are shown and the best loos the board (RULES.md 1.9, A29).

        Every player's cards count as they stand: his hand, or the cards he threw up. Under
        ``immediate`` timing a passer cannot hold a flush (it would have been shown at his
        turn); under peel's ``after-declaring`` a thrown-up flush still counts and passers pay.
        """
        order = self.seat_order()
        hands = [self.hands[s] or self.thrown.get(s, []) for s in order]
        result = compare_flushes(self.game, self.rules, self.trump, hands, explain=self._trace)
        assert result.winner is not None
        winner = order[result.winner]
        self.flush = result
        self.outcome = "flush"
        for f in result.flushes:
            seat = order[f.seat]
            if self._trace:
                self._event(
                    "flush",
                    msg("flush.shown", p=seat, kind=f.kind_message, cards=f.cards),
                    seat,
                    ["flush-loos-the-board", "flush-timing"],
                    f.cards,
                )
        for app in result.explanations:
            if self._trace:
                self._event("flush", remap(app.message, order.__getitem__), winner, [app.rule])
        self._pay(None, winner, self.pool, "flush-loos-the-board", _PAY_FLUSH)
        loo = self.loo_amount()
        to_holder = self.rules.flush_loos_to == "holder"
        self.looed = [order[i] for i in result.pay]
        for s in self.looed:
            self._pay(
                s,
                winner if to_holder else None,
                loo,
                "flush-loos-the-board",
                _PAY_FLUSH_LOO_HOLDER if to_holder else _PAY_FLUSH_LOO_POOL,
            )
        self.no_loo = False
        self._finish()

    def _end_declaring(self) -> None:
        declared = self.declared
        self.in_play = [
            s for s in _seat_order(self.dealer, self.players) if declared[s] not in (None, "pass")
        ]
        if len(self.in_play) == 1:
            (alone,) = self.in_play
            if self._trace:
                self._event(
                    "lone-miss", msg("lone-miss", p=alone), alone, ["miss-holder-alone-wins"]
                )
            self._settle_single_winner(alone, "lone-miss", "miss-holder-alone-wins")
            return
        if self.game == "five-card" and self.rules.flush_timing == "after-declaring":
            hands = [self.hands[s] or self.thrown.get(s, []) for s in self.seat_order()]
            if any(find_flush(h, self.trumps) for h in hands):
                self._show_flushes()
                return
        self._start_play()

    def _first_leader(self) -> int:
        """RULES.md elder-leads-first, A19; peel's miss-holder-leads by agreement."""
        if self.rules.first_leader == "miss-holder" and self.miss_holder in self.in_play:
            assert self.miss_holder is not None
            return self.miss_holder
        return self.in_play[0]

    def _start_play(self) -> None:
        self.phase = "play"
        self.start_of_play = list(map(list, self.hands))
        leader = self._first_leader()
        self.trick = Trick(leader)
        self.to_act = leader
        if self._trace:
            self._event(
                "play-begins",
                msg("play-begins", n=len(self.in_play), players=tuple(self.in_play), p=leader),
                leader,
                [
                    "miss-holder-leads"
                    if self.rules.first_leader == "miss-holder" and leader == self.miss_holder
                    else "elder-leads-first"
                ],
            )

    def active(self) -> list[int]:
        """Players still in the play (not retired under a law)."""
        return [s for s in self.in_play if s not in self.retired]

    def _next_in_play(self, seat: int) -> int:
        """The next active player clockwise after ``seat``."""
        order = self.in_play
        i = order.index(seat)
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if nxt not in self.retired:
                return nxt
        raise AssertionError("no active player")

    def _trick_complete(self) -> bool:
        trick = self.trick
        assert trick is not None
        if not self.retired:
            return len(trick.plays) == len(self.in_play)
        active = self.active()
        return sum(1 for s, _ in trick.plays if s in active) == len(active)

    def _play(self, action: Action) -> None:
        seat = action.seat
        codes = action.cards
        if len(codes) != 1:
            raise refuse("error.one-card")
        played = BY_CODE.get(codes[0])
        if played is None:
            played = card(codes[0])
        retired = self.retired
        held = self.hands[seat]
        civil = action.civil
        cached = self._moves
        if (
            not civil
            and seat == self.to_act
            and cached is not None
            and cached[0] == len(self.log)
            and cached[1] == seat
            and (cached[3] or not self._trace)
            and played in cached[2].legal
        ):
            # A legal card of the player to act, as the remembered legal moves say: he is in
            # the play and holds it, so none of the checks below can fail.
            self._lay(seat, played, cached[2].explanations, False, False)
            return
        if seat not in self.in_play or seat in retired:
            raise refuse("error.not-in-play", p=seat)
        if played not in held:
            raise refuse("error.not-held", p=seat, card=played)
        trick = self.trick
        assert trick is not None
        if seat != self.to_act:
            self._out_of_turn(seat, played)
            return
        if civil and not (
            not trick.plays and self.game == "five-card" and played.code == "A" + self.trump
        ):
            raise refuse("error.civil")
        moves = self.legal_moves(seat, self._trace)
        irregular = played not in moves.legal
        if irregular:
            why = self.legal_moves(seat).why_not(played)
            assert why is not None
            if not self.laws_apply():
                raise _forbidden(played, why)
            self._record_offence(seat, played, why)
        self._lay(seat, played, moves.explanations, irregular, civil)

    def _lay(
        self,
        seat: int,
        played: Card,
        why: tuple[RuleApplication, ...],
        irregular: bool,
        civil: bool,
    ) -> None:
        """``seat``, the player to act, plays ``played`` (checked: legal, or an offence already
        recorded) to the trick; ``why`` explains his legal moves (their rules go in the trace)."""
        trick = self.trick
        assert trick is not None
        plays = trick.plays
        leading = not plays
        self.hands[seat].remove(played)
        plays.append((seat, played))
        trick.laid.append(played)
        self.seen.append(played)
        if leading and civil:
            trick.civil = True
        if self._trace:
            # The rules that bound this play; an irregular play is reported as an offence.
            rules = [] if irregular else [a.rule for a in why if a.excluded]
            had = tuple(r for r in rules if r in HAD_TO and r != "pam-be-civil")
            key = "play.lead" if leading else "play.follow"
            if civil:
                key = "play.lead-civil"
                rules.append("pam-be-civil")
            self._event(
                "play",
                msg(key + "-had" if had else key, p=seat, card=played, had=had),
                seat,
                rules,
                [played],
            )
        if self.retired:
            if self._trick_complete():
                self._end_trick()
            else:
                self.to_act = self._next_in_play(seat)
            return
        # Nobody has retired: the trick is complete when everyone in the play has played.
        order = self.in_play
        if len(plays) == len(order):
            self._end_trick()
        else:
            self.to_act = order[(order.index(seat) + 1) % len(order)]

    def laws_apply(self) -> bool:
        """Laws mode lets an irregular play stand only where the source states penalties."""
        return self.setup.laws and not self.replaying and self.rules.penalties != "none"

    def _record_offence(self, seat: int, played: Card, why: RuleApplication) -> None:
        penalty = OFFENCE_RULE.get(why.rule, "penalty-revoke")
        offence = Offence(seat, self.trick_number, played.code, why.rule, penalty, why.message)
        self.offences.append(offence)
        if self._trace:
            self._event(
                "offence",
                msg("offence.irregular", p=seat, card=played, rule=why.rule),
                seat,
                [why.rule, penalty],
                [played],
            )

    def _out_of_turn(self, seat: int, played: Card) -> None:
        if not self.laws_apply():
            raise refuse(
                "error.out-of-turn",
                RuleApplication("penalty-play-out-of-turn", msg("rotation")),
                turn=self.to_act,
                p=seat,
            )
        self.seen.append(played)
        self.offences.append(
            Offence(
                seat,
                self.trick_number,
                played.code,
                "elder-leads-first",
                "penalty-play-out-of-turn",
                msg("offence.out-of-turn", p=seat, card=played),
            )
        )
        if self.rules.penalties == "hoffmann-laws":
            # Law 15: he throws up his cards and forfeits a single to the (current) pool.
            self.retired.append(seat)
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            self._pay(seat, None, self.stake, "penalty-play-out-of-turn", _PAY_LAW_15)
            if self._trace:
                self._event(
                    "offence",
                    msg("offence.out-of-turn-law-15", p=seat, card=played),
                    seat,
                    ["penalty-play-out-of-turn"],
                    [played],
                )
            if len(self.active()) < 2:
                self._end_play()
            elif self._trick_complete():
                self._end_trick()
            elif self.to_act not in self.active():
                assert self.to_act is not None
                self.to_act = self._next_in_play(self.to_act)
        else:
            if self._trace:
                self._event(
                    "offence",
                    msg("offence.out-of-turn-replay", p=seat, card=played),
                    seat,
                    ["penalty-play-out-of-turn"],
                    [played],
                )

    def _end_trick(self) -> None:
        trick = self.trick
        assert trick is not None
        plays = trick.plays
        cards = tuple(trick.laid)
        winner = plays[winning_index(cards, self.trumps)][0]
        trick.winner = winner
        self.tricks.append(trick)
        self._played += cards
        if self._trace:
            result = trick_winner(self.game, self.rules, self.trump, cards)
            if self._trace:
                self._event(
                    "trick",
                    msg(
                        "trick.taken",
                        p=winner,
                        n=len(self.tricks),
                        why=result.explanations[0].message,
                    ),
                    winner,
                    [a.rule for a in result.explanations],
                    [result.card],
                )
        if len(self.tricks) == HAND_SIZE[self.game]:
            self._end_play()
        else:
            leader = winner if winner not in self.retired else self._next_in_play(winner)
            self.trick = Trick(leader)
            self.to_act = leader

    def _end_play(self) -> None:
        self.trick = None
        self.to_act = None
        offences = self.offences
        if offences and not self.replaying:
            if self.rules.replay == "always":
                self._start_replay()
                return
            revokes = [o for o in offences if o.penalty == "penalty-revoke"]
            if self.rules.replay == "on-demand" and revokes:
                offenders = {o.seat for o in revokes}
                self.replay_asked = [s for s in self.in_play if s not in offenders]
                if self.replay_asked:
                    self.phase = "replay"
                    self.to_act = self.replay_asked[0]
                    return
        self._settle_tricks()

    def _replay_choice(self, action: Action) -> None:
        if action.choice not in ("demand", "decline"):
            raise refuse("error.replay-answer")
        seat = action.seat
        if action.choice == "demand":
            if self._trace:
                self._event("replay", msg("replay.demand", p=seat), seat, ["revoke-replay"])
            self._start_replay()
            return
        if self._trace:
            self._event("replay", msg("replay.decline", p=seat), seat, ["revoke-replay"])
        self.replay_asked.pop(0)
        if self.replay_asked:
            self.to_act = self.replay_asked[0]
        else:
            self._settle_tricks()

    def _start_replay(self) -> None:
        """The cards are taken up and the hand played again in proper order."""
        self.replaying = True
        self.hands = [list(h) for h in self.start_of_play]
        self.tricks = []
        self._played = ()
        self.retired = []
        self.phase = "play"
        leader = self._first_leader()
        self.trick = Trick(leader)
        self.to_act = leader
        if self._trace:
            self._event("replay", msg("replay.start"), None, ["revoke-replay"])

    # -- settlement -----------------------------------------------------------------------------

    def loo_rule(self) -> str:
        """The rule that sets the price of a loo under these rules."""
        return {"fixed": "limited-loo", "pool": "unlimited-loo"}.get(
            self.rules.loo_payment, "mixed-loo"
        )

    def loo_amount(self) -> int:
        """What a loo costs (RULES.md limited-loo, unlimited-loo, mixed-loo; A31)."""
        rules = self.rules
        if rules.loo_payment == "fixed":
            return rules.loo_amount * self.stake
        if rules.loo_payment == "pool":
            return self.pool_at_start
        return min(self.pool_at_start, rules.loo_cap * self.stake)

    def _settle_single_winner(self, seat: int, outcome: str, rule: str) -> None:
        self.phase = "over"
        self.to_act = None
        self.outcome = outcome
        self.in_play = [seat]
        self._pay(None, seat, self.pool, rule, _PAY_WITHOUT_PLAY)
        self.no_loo = True
        self._finish()

    def _settle_tricks(self) -> None:
        self.phase = "over"
        self.to_act = None
        self.outcome = "played"
        tricks = self.tricks
        offences = self.offences
        forfeit = {o.seat for o in offences} if offences and self.rules.penalties != "none" else ()
        defender = self.defender
        pool = self.pool
        share, remainder = divmod(pool, HAND_SIZE[self.game])
        division = "pool-division" if not remainder else "indivisible-pool-rounding"
        for i, trick in enumerate(tricks):
            amount = share + (1 if i < remainder else 0)
            winner = trick.winner
            assert winner is not None
            if amount == 0:
                continue
            if winner != defender and winner not in forfeit:
                self._pay(None, winner, amount, division, _TRICK_REASONS[i])
                continue
            if winner == defender:
                reason = msg("pay.trick-for-pool", n=i + 1)
                if self._trace:
                    self._event(
                        "settle",
                        msg("settle.trick-for-pool", n=i + 1, amount=amount),
                        winner,
                        ["dealer-defends-miss"],
                    )
                self.payments.append(Payment(None, None, amount, "dealer-defends-miss", reason))
                continue
            if winner in forfeit:
                self.payments.append(
                    Payment(
                        None,
                        None,
                        amount,
                        "penalty-destination",
                        msg("pay.trick-offender", n=i + 1),
                    )
                )
        won = dict.fromkeys(self.in_play, 0)
        for trick in tricks:
            if trick.winner in won:
                won[trick.winner] += 1
        loo = self.loo_amount()
        retired = self.retired
        self.looed = [s for s, n in won.items() if n == 0 and s != defender and s not in retired]
        for s in self.looed:
            self._pay(s, None, loo, "looed", _PAY_LOOED)
        if offences:
            self._apply_penalties(loo)
        self.no_loo = not self.looed
        if self._trace:
            for s in self.in_play:
                if won[s]:
                    self._event("settle", msg("settle.took", p=s, n=won[s]), s, ["pool-division"])
            for s in self.looed:
                self._event(
                    "settle", msg("settle.looed", p=s, n=loo), s, ["looed", self.loo_rule()]
                )
        self._finish()

    def _apply_penalties(self, loo: int) -> None:
        penalties = self.rules.penalties
        for seat in sorted({o.seat for o in self.offences}):
            kinds = {o.penalty for o in self.offences if o.seat == seat}
            if penalties == "hoffmann-laws":
                play_offences = kinds - {"penalty-play-out-of-turn"}
                if play_offences:
                    rule = sorted(play_offences)[0]
                    self._pay(seat, None, 4 * self.stake, rule, _PAY_FOUR_SINGLES)
                    if self._trace:
                        self._event(
                            "penalty",
                            msg("penalty.four-singles", p=seat, n=4 * self.stake),
                            seat,
                            [rule, "penalty-destination"],
                        )
            elif penalties == "peel-looed-replay" and seat not in self.looed:
                rule = sorted(kinds)[0]
                self._pay(seat, None, loo, rule, _PAY_PEEL_LOOED)
                if self._trace:
                    self._event(
                        "penalty",
                        msg("penalty.peel-looed", p=seat, n=loo),
                        seat,
                        [rule, "penalty-destination"],
                    )

    def _finish(self) -> None:
        self.phase = "over"
        self.to_act = None

    # -- reading the result -----------------------------------------------------------------------

    def tricks_won(self) -> dict[int, int]:
        return {s: sum(1 for t in self.tricks if t.winner == s) for s in self.in_play}

    def chips(self) -> int:
        return sum(self.balances) + self.pool

    # -- serialisation --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        def codes(cards: Sequence[Card] | None) -> list[str] | None:
            return None if cards is None else [c.code for c in cards]

        return {
            "version": FORMAT_VERSION,
            "setup": setup_to_dict(self.setup),
            "log": [a.to_dict() for a in self.log],
            "state": {
                "phase": self.phase,
                "to_act": self.to_act,
                "balances": list(self.balances),
                "pool": self.pool,
                "pool_at_start": self.pool_at_start,
                "must": self.must,
                "club_law": self.club_law,
                "single": self.single,
                "double": self.double,
                "dealt": [codes(h) for h in self.dealt],
                "hands": [codes(h) for h in self.hands],
                "miss": codes(self.miss),
                "miss_withdrawn": self.miss_withdrawn,
                "turn_up": self.turn_up.code,
                "stock": codes(self.stock),
                "discards": codes(self.discards),
                "thrown": {str(s): codes(h) for s, h in self.thrown.items()},
                "exchanged": {str(s): codes(h) for s, h in self.exchanged.items()},
                "declared": list(self.declared),
                "drawn": list(self.drawn),
                "miss_holder": self.miss_holder,
                "defender": self.defender,
                "in_play": list(self.in_play),
                "retired": list(self.retired),
                "tricks": [_trick_to_dict(t) for t in self.tricks],
                "trick": _trick_to_dict(self.trick) if self.trick else None,
                "start_of_play": [codes(h) for h in self.start_of_play],
                "offences": [o.to_dict() for o in self.offences],
                "seen": codes(self.seen),
                "replaying": self.replaying,
                "replay_asked": list(self.replay_asked),
                "outcome": self.outcome,
                "payments": [p.to_dict() for p in self.payments],
                "looed": list(self.looed),
                "no_loo": self.no_loo,
                "flush": self.flush.to_dict() if self.flush else None,
                "events": [e.to_dict() for e in self.events],
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """Restore a hand; the stored state is checked against a replay of its log. A hand of
        format version 1 (its sentences stored as English) is checked on everything but its
        sentences, which the replay tells again as messages."""
        version = data.get("version")
        if version not in (1, FORMAT_VERSION):
            raise LooError(f"unknown hand format version {version!r}")
        setup = setup_from_dict(data["setup"])
        log = [Action.from_dict(a) for a in data["log"]]
        hand = cls.replay(setup, log)
        state = hand.to_dict()["state"]
        if version == 1:
            matches = _without_sentences(state) == _without_sentences(data["state"])
        else:
            matches = state == data["state"]
        if not matches:
            raise LooError("the stored hand does not match a replay of its actions")
        return hand


def _without_sentences(state: dict[str, Any]) -> dict[str, Any]:
    """A stored hand's state less what it says in words (its trace, the reasons of its
    payments and offences, its flush's explanations): what a version 1 hand is checked on."""
    rest = {k: v for k, v in state.items() if k != "events"}
    rest["payments"] = [{k: v for k, v in p.items() if k != "reason"} for p in state["payments"]]
    rest["offences"] = [
        {k: v for k, v in o.items() if k not in ("text", "message")} for o in state["offences"]
    ]
    if state.get("flush"):
        rest["flush"] = {k: v for k, v in state["flush"].items() if k != "explanations"}
    return rest


def _trick_to_dict(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "plays": [[s, c.code] for s, c in trick.plays],
        "civil": trick.civil,
        "winner": trick.winner,
    }


def setup_to_dict(setup: HandSetup) -> dict[str, Any]:
    return {
        "game": setup.game,
        **setup.rules.to_dict(),
        "players": setup.players,
        "dealer": setup.dealer,
        "hand_number": setup.hand_number,
        "seed": setup.seed,
        "balances": list(setup.balances),
        "pool": setup.pool,
        "first": setup.first,
        "prev_no_loo": setup.prev_no_loo,
        "prev_flush": setup.prev_flush,
        "laws": setup.laws,
        "trace": setup.trace,
        "pack": list(setup.pack) if setup.pack else None,
    }


def setup_from_dict(data: dict[str, Any]) -> HandSetup:
    return HandSetup(
        game=data["game"],
        rules=RuleSet.from_dict(data),
        players=int(data["players"]),
        dealer=int(data["dealer"]),
        hand_number=int(data["hand_number"]),
        seed=data["seed"],
        balances=tuple(int(b) for b in data["balances"]),
        pool=int(data["pool"]),
        first=bool(data["first"]),
        prev_no_loo=bool(data["prev_no_loo"]),
        prev_flush=bool(data["prev_flush"]),
        laws=bool(data.get("laws", False)),
        trace=bool(data.get("trace", True)),
        pack=tuple(data["pack"]) if data.get("pack") else None,
    )


def _parse_held(codes: Sequence[str], hand: Sequence[Card], seat: int) -> list[Card]:
    """The cards written ``codes``, each held in ``hand`` (``seat``'s) once."""
    cards: list[Card] = []
    for code in codes:
        c = BY_CODE.get(code) if type(code) is str else None
        if c is None:
            c = parse_card(code)
        if c not in hand:
            raise refuse("error.not-held", p=seat, card=c)
        if c in cards:
            raise refuse("error.discarded-twice", card=c)
        cards.append(c)
    return cards


def _forbidden(played: Card, why: RuleApplication | None) -> IllegalAction:
    """The refusal of a card the rules forbid (``why``: the rule that does)."""
    if why is None:
        return refuse("error.forbidden-card", card=played)
    return refuse("error.forbidden", why, card=played, why=why.message)


def _not_open(
    choice: str, seat: int, choices: Sequence[str], why: RuleApplication | None
) -> IllegalAction:
    """The refusal of a declaration that is not open to ``seat`` now."""
    if why is None:
        return refuse("error.not-open", choice=repr(choice), p=seat, choices=", ".join(choices))
    return refuse(
        "error.not-open-why",
        why,
        choice=repr(choice),
        p=seat,
        choices=", ".join(choices),
        why=why.message,
    )


# The reasons of payments, made once (a message is never changed once made).
_TRICK_REASONS: Final = tuple(msg("pay.trick", n=i + 1) for i in range(max(HAND_SIZE.values())))
_OPTION_MUST: Final = msg("option.must")
_CLUB_LAW: Final = msg("club-law")
_PAY_FRESH: Final = msg("pay.fresh-pool")
_PAY_DEALER_STAKE: Final = msg("pay.dealer-stake")
_PAY_WITHOUT_PLAY: Final = msg("pay.without-play")
_PAY_LOOED: Final = msg("pay.looed")
_PAY_FOUR_SINGLES: Final = msg("pay.four-singles")
_PAY_PEEL_LOOED: Final = msg("pay.peel-looed")
_PAY_FLUSH: Final = msg("pay.flush")
_PAY_FLUSH_LOO_HOLDER: Final = msg("pay.flush-loo-holder")
_PAY_FLUSH_LOO_POOL: Final = msg("pay.flush-loo-pool")
_PAY_LAW_15: Final = msg("pay.law-15")


def deal_order(
    game: str, rules: RuleSet, players: int, dealer: int, with_miss: bool
) -> list[int | None]:
    """Who receives each card of the pack, top first (None: the miss), before the turn-up.

    One at a time from the dealer's left, the miss served straight after the dealer's own card
    (peel p. 23; A37); five-card Loo in the batches the rule set names.
    """
    return list(_deal_order(game, rules.deal_5c, players, dealer, with_miss))


@cache
def _seat_order(dealer: int, players: int) -> tuple[int, ...]:
    return tuple((dealer + 1 + k) % players for k in range(players))


@cache
def _deal_order(
    game: str, deal_5c: str, players: int, dealer: int, with_miss: bool
) -> tuple[int | None, ...]:
    size = HAND_SIZE[game]
    pattern = [1] * size
    if game == "five-card" and deal_5c == "3-then-2":
        pattern = [3, 2]
    elif game == "five-card" and deal_5c == "2-and-3":
        pattern = [2, 3]
    order = [(dealer + 1 + k) % players for k in range(players)]
    receivers: list[int | None] = []
    for batch in pattern:
        for seat in order:
            receivers.extend([seat] * batch)
            if seat == dealer and with_miss:
                receivers.extend([None] * batch)
    return tuple(receivers)


@cache
def _deal_plan(
    game: str, deal_5c: str, players: int, dealer: int, with_miss: bool
) -> tuple[tuple[itemgetter[Any], ...], itemgetter[Any], int]:
    """:func:`deal_order` as one getter per seat (and one for the miss) of the places in the
    pack each receives, and how many cards are dealt before the turn-up. Every hand holds at
    least three cards, so each getter returns a tuple."""
    receivers = _deal_order(game, deal_5c, players, dealer, with_miss)
    seats = tuple(
        itemgetter(*[i for i, r in enumerate(receivers) if r == seat]) for seat in range(players)
    )
    miss = [i for i, r in enumerate(receivers) if r is None]
    return seats, itemgetter(*miss) if len(miss) > 1 else itemgetter(slice(0, 0)), len(receivers)


def stack_pack(
    game: str,
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[str]],
    turn_up: str,
    miss: Sequence[str] | None = None,
    stock: Sequence[str] = (),
) -> tuple[str, ...]:
    """A pack that deals exactly these hands (by seat), miss and turn-up; ``stock`` gives the
    top of the stock, and the rest of the pack follows in the usual order."""
    per_seat = [list(h) for h in hands]
    miss_cards = list(miss or ())
    pack: list[str] = []
    for seat in deal_order(game, rules, players, dealer, miss is not None):
        pack.append(miss_cards.pop(0) if seat is None else per_seat[seat].pop(0))
    pack.append(turn_up)
    pack.extend(stock)
    used = set(pack)
    if len(used) != len(pack):
        raise LooError("a card is stacked twice")
    pack.extend(c.code for c in PACK if c.code not in used)
    return tuple(pack)
