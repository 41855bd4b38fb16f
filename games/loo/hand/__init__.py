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

:class:`Hand` is the coordinator: it owns the state and the log, answers what the player to act
may do and carries it out. The rules of each phase are in a module of their own, each naming
the rule ids it applies:

- :mod:`.deal`: the stake, single, double and must, the deal and the turn-up, club law;
- :mod:`.single`: peel's single deal, one card face up to each player (A39);
- :mod:`.declare`: three-card declarations, the dealer's choices against a lone player, all
  passing, a lone miss-holder (and the turns of every declaring);
- :mod:`.exchange`: the five-card and Irish exchange;
- :mod:`.showing`: flushes shown and paid;
- :mod:`.tricks`: card play at the table, trick by trick;
- :mod:`.settle`: the settlement and the price of a loo;
- :mod:`.laws`: the laws of irregularity (offences, out of turn, Law 16's replay, penalties);
- :mod:`.irregular`: the rest of the laws (misdeals, looking, exposing, declaring out of turn);
- :mod:`.serial`: the stored form;
- :mod:`.state`: the values a hand is made of, and its state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import PACK, Card
from ..messages import msg
from ..play import RuleApplication, follow_cards, lead_cards
from ..sentences import HAD_TO
from .deal import DealPhase, deal_order, stack_pack
from .declare import DeclarePhase
from .exchange import ExchangePhase
from .irregular import IRREGULARITIES, Irregularities
from .laws import OFFENCE_RULE, Laws
from .serial import FORMAT_VERSION, Serial, setup_from_dict, setup_to_dict
from .settle import SettlePhase
from .showing import FlushPhase
from .single import SingleDealPhase
from .state import (
    Action,
    Event,
    HandSetup,
    IllegalAction,
    Offence,
    Options,
    Payment,
    Trick,
    _new_object,
    _new_tuple,
    refuse,
)
from .tricks import PlayPhase

__all__ = [
    "FORMAT_VERSION",
    "HAD_TO",
    "IRREGULARITIES",
    "OFFENCE_RULE",
    "Action",
    "Event",
    "Hand",
    "HandSetup",
    "IllegalAction",
    "Offence",
    "Options",
    "Payment",
    "Trick",
    "deal_order",
    "refuse",
    "setup_from_dict",
    "setup_to_dict",
    "stack_pack",
]


#: ``Action.play(seat, card)`` for every card and the seats of the largest table, made once:
#: Hand.step logs these shared (immutable) tuples rather than a new one per card played.
_PLAY_ACTIONS: Final[dict[Card, tuple[Action, ...]]] = {
    c: tuple(_new_tuple(Action, ("play", seat, "", (c.code,), False)) for seat in range(16))
    for c in PACK
}


class Hand(
    DealPhase,
    SingleDealPhase,
    DeclarePhase,
    ExchangePhase,
    FlushPhase,
    PlayPhase,
    Laws,
    Irregularities,
    SettlePhase,
    Serial,
):
    """One deal of Loo. Build it with :meth:`deal` (or :meth:`replay`); move it with
    :meth:`apply`. Chips are conserved: ``sum(balances) + pool`` never changes.

    It joins the phases' classes: it owns the state (:class:`~.state.HandState`) and the log,
    and :meth:`options`, :meth:`choices`, :meth:`apply` and :meth:`step` hand each decision
    to the phase it belongs to."""

    __slots__ = ()

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

    # -- what may be done ---------------------------------------------------------------------

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
        if kind == "irregular":
            self._irregular(action)
        elif kind == "play" and phase == "play":
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
