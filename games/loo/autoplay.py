"""The computer players' turn at a table: they act until a person is to act.

A practice table (and a lesson's check of its guided hand) lets the others play between the
human's decisions; a table for people seats several persons (:attr:`Autoplay.people`), and
the computer players act in every other seat, between the decisions of each. Which computer
players sit there, how each is seeded and when they lapse are rules of the table, not of the
database, so they live here, beside the bots, where they run without Django: the site's table
only stores what this returns.

Every decision is seeded by the deal and the point of the hand (:func:`bot_seed`), so the same
play by the human meets the same replies, today and in any stored table replayed tomorrow.

What each one did is kept as a :data:`Note`, one per action, in the JSON a practice table
stores (``PracticeTable.notes``): the keys and their meaning are fixed, since stored tables
are read back with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypedDict

from .bots import BeginnerBot, CarelessBot, Decision, ExpertBot, SensibleBot
from .hand import Action, Hand, Options
from .table import Table
from .view import view_for

#: Cheap enough for a web request (about 5 ms a decision), still better than chance.
SENSIBLE_PLAYOUTS: Final = 16
#: The expert's sampled deals a decision: about 20 ms at three-card Loo, 20 to 50 ms at
#: five-card (a draw weighs several ways to exchange). A request may run every computer
#: player's decisions to the end of the hand (the human passed): with four experts, a median
#: request of 15 ms at three-card and 40 ms at five-card, the slowest about 0.3 s and 0.8 s.
#: 96 samples were no stronger beyond the noise of 300 hands (``bench/coach.py``).
EXPERT_SAMPLES: Final = 24
#: A hand has at most a few dozen actions; this only stops a runaway loop.
MAX_BOT_ACTIONS: Final = 400
#: The opponents a table may have (the bots' kinds, ``games.loo.bots.BOT_KINDS``).
BEGINNER: Final = "beginner"
SENSIBLE: Final = "sensible"
CARELESS: Final = "careless"
EXPERT: Final = "expert"


class BotNote(TypedDict):
    """Why a computer player did what it did: ``reason`` is a message in its JSON form
    (``Message.to_dict()``), ``event`` the first line of the trace its action produced."""

    action: int
    seat: int
    event: int
    reason: dict[str, Any]


class BoundRule(TypedDict):
    """A rule that bound the human's decision, and its sentence (a message's JSON form)."""

    rule: str
    message: dict[str, Any]


class RulesNote(TypedDict):
    """The rules that bound the human's decision, beside the first line it produced."""

    action: int
    seat: int
    event: int
    explanations: list[BoundRule]


#: One note of a table's current hand, as stored.
Note = BotNote | RulesNote


def bot_seed(table: Table, seat: int) -> str:
    """A computer player's seed at this point of the hand: the deal, the actions so far, the
    seat."""
    hand = table.hand
    assert hand is not None
    return f"{table.config.seed}:{hand.setup.hand_number}:{len(hand.log)}:{seat}"


@dataclass(frozen=True)
class Autoplay:
    """The computer players of a table: their kind (:data:`BEGINNER`, :data:`SENSIBLE`,
    :data:`CARELESS` or :data:`EXPERT`) in every seat but the people's.

    A practice table has one human, ``human`` (seat 0; -1 seats nobody, every seat a computer
    player's). A table for people gives ``people``, the seats held by persons, which then
    replaces ``human``: ``Autoplay(SENSIBLE, people=frozenset({0, 2, 3}))``. A seat whose
    person is away is played by a computer player simply by leaving it out of ``people`` for
    that call: the bot there is seeded by the point of the hand, like any other."""

    opponents: str
    human: int = 0
    people: frozenset[int] | None = None

    @property
    def persons(self) -> frozenset[int]:
        """The seats held by people: ``people``, or the one ``human`` of a practice table."""
        return frozenset({self.human}) if self.people is None else self.people

    def bot(self, table: Table, seat: int) -> BeginnerBot | SensibleBot | ExpertBot:
        """The computer player at ``seat`` for its next decision, seeded by the deal and the
        point of the hand, so the same play by the human meets the same replies."""
        seed = bot_seed(table, seat)
        if self.opponents == SENSIBLE:
            return SensibleBot(seed, playouts=SENSIBLE_PLAYOUTS)
        if self.opponents == CARELESS:
            return CarelessBot(seed)
        if self.opponents == EXPERT:
            return ExpertBot(seed, samples=EXPERT_SAMPLES)
        return BeginnerBot(seed)

    def run(self, table: Table, notes: list[Note], *, wait: bool = False) -> list[Note]:
        """Let the computer players act until it is a person's turn or the hand is over;
        each one's reason is added to ``notes`` (and ``notes`` returned).

        Careless players, where the laws let irregularities stand, are asked at every point of
        the hand, before whoever acts next (a person too), whether one of them lapses
        (:meth:`CarelessBot.lapse`): at most one lapse a point, each seeded by the point, so
        the same play meets the same lapses; only the computer players lapse, never for a
        person's seat. ``wait`` (a new deal): stop at the start of the declarations while a
        person could declare before his turn (:meth:`human_waits`), so that he may; the
        others declare with the next call without ``wait``."""
        hand = table.hand
        assert hand is not None
        persons = self.persons
        careless = self.opponents == CARELESS
        lapsed = False
        for _ in range(MAX_BOT_ACTIONS):
            if hand.over:
                break
            if careless and not lapsed and hand.laws_apply():
                lapsed = self._lapse(table, notes)
                if lapsed:
                    # A misdeal deals afresh and the declarations start again: look again.
                    continue
            seat = hand.to_act
            if seat is None or seat in persons or wait and self.human_waits(hand):
                break
            _apply(table, seat, self.bot(table, seat).decide(view_for(hand, seat)), notes)
            lapsed = False
        return notes

    def human_waits(self, hand: Hand) -> bool:
        """Whether a person waits while the others declare, and could declare before his
        turn: laws mode under a source that punishes it, nobody has declared yet, and he is
        not the first to declare. The table stops there when it deals (:meth:`run`)."""
        return bool(self.waiting(hand))

    def waiting(self, hand: Hand) -> frozenset[int]:
        """The people who wait at the start of the declarations and could declare before
        their turn (:meth:`human_waits`): at a practice table the human or nobody; at a table
        for people, each of them who is not the first to declare."""
        if any(hand.declared):
            return frozenset()
        return frozenset(
            seat
            for seat in self.persons
            if seat != hand.to_act and "declare-early" in hand.irregularities(seat)
        )

    def _lapse(self, table: Table, notes: list[Note]) -> bool:
        """Ask each careless computer player in turn whether he lapses now; carry out the
        first lapse (whether any was committed)."""
        hand = table.hand
        assert hand is not None
        persons = self.persons
        for seat in range(hand.players):
            if seat in persons:
                continue
            decision = CarelessBot(bot_seed(table, seat)).lapse(view_for(hand, seat))
            if decision is not None:
                _apply(table, seat, decision, notes)
                return True
        return False

    def rules_note(
        self, hand: Hand, action: Action, options: Options | None, first_event: int
    ) -> RulesNote | None:
        """The note of the rules that bound a person's ``action`` (just applied to ``hand``;
        ``options``: what he was offered, ``first_event``: the trace's length before it), for
        the trick log, under his seat (the action's): they name only his cards, and only his
        own page shows them (``games.table.presenting``). At the play only the rules that excluded
        a card count; an irregular action, or one no rule bound, gets no note."""
        bound: list[BoundRule] = [
            {"rule": a.rule, "message": a.message.to_dict()}
            for a in (options.explanations if options is not None else ())
            if a.excluded or options is None or options.kind != "play"
        ]
        if not bound or action.kind == "irregular":
            return None
        return {
            "action": len(hand.log) - 1,
            "seat": action.seat,
            "event": first_event,
            "explanations": bound,
        }


def _apply(table: Table, seat: int, decision: Decision, notes: list[Note]) -> None:
    """Carry out a computer player's decision, its reason noted beside the first line of the
    trace it produced."""
    hand = table.hand
    assert hand is not None
    first_event = len(hand.events)
    table.apply(decision.action)
    notes.append(
        {
            "action": len(hand.log) - 1,
            "seat": seat,
            "event": first_event,
            "reason": decision.reason.to_dict(),
        }
    )
