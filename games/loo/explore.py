"""Every legal line of one player through a hand, the others replying as a table's computer
players do: whether a rule comes up, marked in the trick log he sees, whatever he legally does.

A rule is marked in his trick log on a line of the trace that applied it (another player's
told as the table saw it while the hand went on, and whole once it is over), or beside one of
his own decisions it bound (:meth:`Autoplay.rules_note`: "you may not pass: ...").

A lesson's guided hand must show its rule to a learner who plays it any legal way
(:mod:`games.guided`). The learner's decisions at Loo are few: a declaration (or, at
five-card and Irish Loo, passing or the cards he throws out), then a legal card at each trick,
and "Pam, be civil" or not when he leads the ace of trumps. The computer players are seeded by
the point of the hand (:func:`~games.loo.autoplay.bot_seed`), so each of his lines meets the
same replies at a practice table as here, and the tree of his lines is the whole truth.

The honest reductions, so that five-card Loo's discards stay cheap:

- discards are a set: the cards thrown out are tried once each, not in each order;
- a line stops as soon as the rule is marked in what he sees: every continuation shows it;
- a line on which the rule never comes up ends the search for a deal that must show it on
  every line (``missed`` is that line).

Merging lines that reach the same state was tried and measured: over the course's 131 proofs
(6,794 lines) no two lines ever met, since the state of a hand holds the tricks played, so it
is not done.

His irregular actions in laws mode (declaring before his turn, exposing a card, a card the
rules forbid) are not lines: the hand must teach to a learner who keeps the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .autoplay import Autoplay, Note
from .hand import Action, Hand, Options
from .table import Table
from .view import public_events

#: A decision a table makes for its human, where a guided hand makes it for him (a declaration
#: not yet taught): given the hand at his turn, the action made, or None to let him decide.
Stand = Callable[[Hand], Action | None]


@dataclass(frozen=True)
class Exploration:
    """What the exploration of a player's lines found.

    ``holds``: the rule is marked on every line; ``during``: on every line before the hand is
    over (not only in the trace told when it ends); ``lines``: the distinct lines walked to
    their end or to the rule; ``decisions``: his decision points; ``missed``: his actions on
    a line that never shows the rule (when it does not hold)."""

    holds: bool
    during: bool
    lines: int
    decisions: int
    missed: tuple[Action, ...] = ()

    def to_dict(self) -> dict[str, int]:
        return {"lines": self.lines, "decisions": self.decisions}


def legal_actions(hand: Hand, seat: int) -> list[Action]:
    """Every legal action of ``seat``, the player to act: each legal card (the ace of trumps
    led with and without "Pam, be civil" where the call is open), each declaration, and in
    an exchange each set of cards he may throw out."""
    options = hand.options(explain=False)
    if options.kind == "play":
        assert options.legal is not None
        actions = [Action.play(seat, c) for c in options.legal.legal]
        if options.civil_call:
            actions.append(Action.play(seat, "A" + hand.trump, civil=True))
        return actions
    if options.kind == "replay":
        return [Action("replay", seat, choice) for choice in options.choices]
    actions = []
    held = sorted(hand.hands[seat], key=lambda c: c.code)
    # Passing (a line with no more decisions) first: a deal it fails is given up soonest.
    for choice in sorted(options.choices, key=lambda c: c != "pass"):
        if choice == "play" and options.max_discards:
            actions.extend(
                Action.declare(seat, "play", thrown)
                for n in range(options.max_discards + 1)
                for thrown in combinations(held, n)
            )
        else:
            actions.append(Action.declare(seat, choice))
    return actions


def followed_a_trumped_trick(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` has followed suit to a trick that had been trumped: a trick led in a
    plain suit, a trump played to it, then his card of the suit led (the situation a lesson on
    heading a trumped trick is about)."""
    suit_of = hand.trumps.suit_of_card
    trump = hand.trumps.suit
    tricks = [*hand.tricks, *([hand.trick] if hand.trick is not None else [])]
    for trick in tricks:
        if not trick.plays:
            continue
        led = suit_of[trick.plays[0][1]]
        if led == trump:
            continue
        trumped = False
        for who, card in trick.plays[1:]:
            if who == seat and trumped and suit_of[card] == led:
                return True
            trumped = trumped or suit_of[card] == trump
    return False


@dataclass
class _Walk:
    table: Table
    autoplay: Autoplay
    rule: str
    stand: Stand | None
    stop_at_first_miss: bool
    #: The rule must show on a line on which he has also followed a trumped trick.
    trumped: bool = False
    lines: int = 0
    decisions: int = 0
    missed: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        #: Whether the rule was noted beside one of his decisions on the line being walked.
        self.noted = False

    def marked(self, hand: Hand) -> bool:
        """Whether the rule is marked in what he sees of ``hand`` (the whole trace once it is
        over), or was noted beside one of his decisions."""
        human = self.autoplay.human
        if self.trumped and not followed_a_trumped_trick(hand, human):
            return False
        return self.noted or any(self.rule in e.rules for e in public_events(hand, human))

    def _said_beside(self, options: Options) -> bool:
        """Whether the rule was said beside his cards though it bound none: at a trumped trick
        under hoffmann's heading, "no diamond can head it: you may play any diamond" (the page
        shows it with the rule's link), which a hand about such a trick is there to show."""
        legal = options.legal
        return legal is not None and any(n.rule == self.rule for n in legal.notes)

    def replies(self, *, wait: bool = False) -> None:
        """The computer players act until his turn, as a practice table lets them; where it
        stops for him at the start of the declarations (laws mode: he could declare before his
        turn), he lets them go on, his one legal move there."""
        notes: list[Note] = []
        table, human = self.table, self.autoplay.human
        self.autoplay.run(table, notes, wait=wait)
        hand = table.hand
        assert hand is not None
        if not hand.over and hand.to_act != human:
            self.autoplay.run(table, notes)

    def walk(self, path: tuple[Action, ...]) -> tuple[bool, bool]:
        """(the rule shows on every line from here, before the hand is over on every line)."""
        hand = self.table.hand
        assert hand is not None
        if self.marked(hand):
            self.lines += 1
            return True, not hand.over
        if hand.over:
            self.lines += 1
            if not self.missed:
                self.missed = path
            return False, False
        self.decisions += 1
        made = self.stand(hand) if self.stand is not None else None
        actions = [made] if made is not None else legal_actions(hand, self.autoplay.human)
        mark = len(hand.log)
        options = hand.options()
        holds = during = True
        for action in actions:
            table = self.table
            if len(table.hand.log) != mark:  # type: ignore[union-attr]
                table.takeback(len(table.hand.log) - mark)  # type: ignore[union-attr]
            hand = table.hand
            assert hand is not None
            first_event = len(hand.events)
            table.apply(action)
            note = self.autoplay.rules_note(hand, action, options, first_event)
            noted = self.noted
            if note is not None and any(e["rule"] == self.rule for e in note["explanations"]):
                self.noted = True
            if self.trumped and self._said_beside(options):
                self.noted = True
            self.replies()
            shows, early = self.walk((*path, action))
            self.noted = noted
            holds, during = holds and shows, during and early
            if not holds and self.stop_at_first_miss:
                break
        return holds, during


def explore(
    table: Table,
    autoplay: Autoplay,
    rule: str,
    *,
    stand: Stand | None = None,
    every_line: bool = False,
    trumped: bool = False,
) -> Exploration:
    """Deal ``table``'s next hand and walk every legal line of ``autoplay``'s human through it,
    the computer players replying as at a practice table (``stand``: a decision the table
    makes for him); whether ``rule`` is marked in the trace he sees (during the hand, or when
    it is told whole at its end) on every line, and with ``trumped`` only on a line on which
    he has followed suit to a trumped trick (:func:`followed_a_trumped_trick`). Stops at the
    first line that misses it unless ``every_line`` (to count them all)."""
    table.deal()
    walk = _Walk(table, autoplay, rule, stand, not every_line, trumped)
    walk.replies(wait=True)
    holds, during = walk.walk(())
    return Exploration(holds, holds and during, walk.lines, walk.decisions, walk.missed)
