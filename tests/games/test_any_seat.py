"""The table read from any chair (issue 29): a person at seat k of a table for people sees the
page the practice table's human sees at seat 0 of the same deal turned by k seats, text for
text, and nothing of a card seat k cannot see.

Two tables are dealt the same cards: A with its dealer at d, B with every seat index shifted
by k (the dealer at d + k, so that the seeded shuffle deals seat s + k the cards A deals seat
s; the counters turned likewise). A is played with people at seats 0 and 2, the computer
players acting for the others (``Autoplay``); every action of A is made at B by the seat k
further round, each note kept beside it under that seat, a computer player's reason with its
seats turned. Wherever a person is to act, and at the end, the table's fragment and the
page :func:`games.table.presenting.table_page` builds for seat s + k of B are those for seat s
of A, for every seat s."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, cast

import pytest
from django.template.loader import render_to_string

from games.links import RuleLinks
from games.loo.autoplay import BEGINNER, CARELESS, SENSIBLE, Autoplay, BotNote, Note
from games.loo.bots import BeginnerBot
from games.loo.cards import PACK, Card
from games.loo.hand import Action, Hand, HandSetup
from games.loo.messages import msg, remap
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import may_look, view_for
from games.naming import namer, say, seat_label, seat_name, seat_possessive, stored_message
from games.table.page import Offers, TablePage, TableUrls
from games.table.presenting import seat_slots, table_page
from tests.games.test_leaks import _card_mentions
from tests.profile import size

pytestmark = pytest.mark.django_db

#: (game, rules, players, laws, opponents, seed): both games, the laws with careless players
#: whose lapses stand, three to nine players.
CONFIGS = [
    ("three-card", "hoffmann", 5, True, CARELESS, "seats:1"),
    ("five-card", "parlett", 6, False, SENSIBLE, "seats:2"),
    ("three-card", "peel", 7, True, CARELESS, "seats:3"),
    ("five-card", "britannica", 4, False, BEGINNER, "seats:4"),
    ("three-card", "whiteknuckle", 3, False, SENSIBLE, "seats:5"),
    ("three-card", "britannica", 9, False, BEGINNER, "seats:6"),
]
#: The seats held by people at table A (B's are turned by k).
PEOPLE = (0, 2)


# -- naming -----------------------------------------------------------------------------------


def test_a_seat_is_named_from_the_viewers_chair() -> None:
    assert [seat_name(s, 5, me=2) for s in range(5)] == [
        "the second player on your right",
        "the player on your right",
        "You",
        "the player on your left",
        "the second player on your left",
    ]
    assert [seat_label(s, 4, me=3) for s in range(4)] == ["Left", "Opposite", "Right", "You"]
    assert seat_possessive(1, 3, me=1) == "your"
    assert seat_possessive(2, 3, me=1) == "the player on your left’s"
    assert say(msg("declare.play", p=3), 5, me=3) == "You play."
    assert say(msg("declare.play", p=4), 5, me=3) == "The player on your left plays."
    assert say(msg("declare.play", p=0), 5, me=3) == "The second player on your left plays."
    assert namer(5, me=3)(3) == "You"


@pytest.mark.parametrize("players", range(3, 10))
def test_every_chair_names_the_seats_as_seat_zero_names_them_turned(players: int) -> None:
    for me in range(players):
        for seat in range(players):
            turned = (seat - me) % players
            assert seat_name(seat, players, me) == seat_name(turned, players)
            assert seat_label(seat, players, me) == seat_label(turned, players)
            assert seat_slots(players, me)[seat] == seat_slots(players)[turned]
        assert seat_slots(players, me)[me] == "you"


# -- the same deal turned by k seats ----------------------------------------------------------


def _turn(k: int, n: int) -> Any:
    return lambda seat: (seat + k) % n


def _table(config: tuple[Any, ...], k: int) -> Table:
    """The deal of ``config`` with every seat index shifted by ``k``."""
    game, rules, players, laws, _, seed = config
    ruleset = RuleSet.preset(rules)
    table = Table(TableConfig(game, ruleset, players, seed, laws=laws))
    turned = _turn(k, players)
    counters = [20 + 3 * s for s in range(players)]  # every seat its own count
    table.balances = [counters[(s - k) % players] for s in range(players)]
    table.dealer = turned(1)
    table.hand_number = 1
    table.hand = Hand.deal(
        HandSetup(
            game=game,
            rules=ruleset,
            players=players,
            dealer=table.dealer,
            hand_number=1,
            seed=seed,
            balances=tuple(table.balances),
            pool=0,
            first=False,
            laws=laws,
        )
    )
    return table


def _note_turned(note: Note, k: int, n: int) -> BotNote:
    """A computer player's note at A as B keeps it: his seat and the seats his reason names
    turned by ``k``."""
    assert "reason" in note
    reason = remap(stored_message(cast(BotNote, note)["reason"]), _turn(k, n))
    return {
        "action": note["action"],
        "seat": (note["seat"] + k) % n,
        "event": note["event"],
        "reason": reason.to_dict(),
    }


def _action_turned(action: Action, k: int, n: int) -> Action:
    """An action at A as the seat ``k`` further round makes it at B (a look at another's
    cards names his seat: ``look-hand:N``)."""
    what, colon, target = action.choice.partition(":")
    if what == "look-hand" and colon:
        action = action._replace(choice=f"{what}:{(int(target) + k) % n}")
    return action._replace(seat=(action.seat + k) % n)


def _played_in_step(config: tuple[Any, ...], k: int) -> Any:
    """Play A and B in step; yield (A, B, A's notes, B's notes) wherever a person is to act,
    and at the end."""
    _, _, n, _, opponents, seed = config
    ours, theirs = _table(config, 0), _table(config, k)
    people = frozenset(PEOPLE)
    autoplay = Autoplay(opponents, people=people)
    turned = Autoplay(opponents, people=frozenset((s + k) % n for s in PEOPLE))
    notes: list[Note] = []
    their_notes: list[Note] = []
    for _ in range(100):
        a, b = ours.hand, theirs.hand
        assert a is not None and b is not None
        done = len(notes)
        autoplay.run(ours, notes)
        # The computer players' actions, made at B by the seat k further round.
        for action in a.log[len(b.log) :]:
            theirs.apply(_action_turned(action, k, n))
        their_notes += [_note_turned(note, k, n) for note in notes[done:]]
        assert len(a.log) == len(b.log) and len(a.events) == len(b.events)
        yield ours, theirs, notes, their_notes
        if a.over:
            return
        seat = a.to_act
        assert seat in people
        mine = view_for(a, seat)
        action = BeginnerBot(f"{seed}:{len(a.log)}").decide(mine).action
        his = _action_turned(action, k, n)
        for table, act, kept, players in (
            (ours, action, notes, autoplay),
            (theirs, his, their_notes, turned),
        ):
            hand = table.hand
            assert hand is not None
            options, first_event = view_for(hand, act.seat).options, len(hand.events)
            table.apply(act)
            note = players.rules_note(hand, act, options, first_event)
            if note is not None:
                kept.append(note)
    raise AssertionError("the hand did not end")


#: A table's addresses, as its feature would give them.
_OFFERS = Offers(urls=TableUrls(act="/act/", next="/next/", takeback="/takeback/"))


def _page(table: Table, seat: int, notes: list[Note], config: tuple[Any, ...]) -> TablePage:
    game, rules, _, laws, _, _ = config
    hand = table.hand
    assert hand is not None
    return table_page(
        view_for(hand, seat),
        hand,
        RuleLinks.of(rules, game),
        notes=notes,
        version=7,
        offers=_OFFERS,
        laws=laws,
    )


#: What a page holds that is not text: the view and the form (their text is in the other
#: fields), a seat's index, a log line's event and an engine's rule application.
_NOT_TEXT = frozenset({"view", "form", "event", "seat", "why"})


def _texts(value: Any) -> Any:
    """Everything a page says, without the seats' indices: what must read the same."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, dict):
        return {k: _texts(v) for k, v in value.items() if k not in _NOT_TEXT}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _texts({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, list | tuple):
        return [_texts(v) for v in value]
    return value


def _fragment(page: TablePage) -> str:
    """The table's fragment (what htmx swaps in after every decision), without the seats'
    indices."""
    html = render_to_string("games/table.html#hand-table", {"page": page})
    return re.sub(r' data-seat="\d+"', "", html)


def _hidden(hand: Hand, seat: int) -> set[Card]:
    """The cards ``seat`` may not know now, from the whole engine state: all but his own hand
    (once he may look), the cards he gave up or threw up, the turn-up, the cards shown in
    play, the tricks, a flush shown and what the table saw of a deal given up."""
    visible: set[Card] = {hand.turn_up, *hand.seen}
    if hand.irregular is not None:
        visible |= set(hand.irregular.shown_before) | set(hand.irregular.peeked.get(seat, ()))
    visible |= set(hand.thrown.get(seat, ())) | set(hand.exchanged.get(seat, ()))
    if may_look(hand, seat):
        visible |= set(hand.hands[seat])
    if seat in hand.retired and hand.start_of_play:
        visible |= set(hand.start_of_play[seat])
    for flush in hand.flush.flushes if hand.flush is not None else ():
        visible |= set(flush.cards)
    for trick in hand.tricks:
        visible |= {c for _, c in trick.plays}
    return set(PACK) - visible


def _assert_hides(html: str, hidden: set[Card], where: str) -> None:
    forms = {
        "code": {c.code for c in hidden},
        "display": {c.display for c in hidden},
        "label": {c.label for c in hidden},
    }
    for form, named in _card_mentions(html).items():
        assert not named & forms[form], f"{where}: shows {sorted(named & forms[form])}"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_seat_k_reads_the_deal_turned_by_k_as_seat_zero_reads_it(config: tuple[Any, ...]) -> None:
    n = config[2]
    compared = decisions = 0
    # Turned by one seat, by half the table and by all but one: under ``LOO_TEST_PROFILE=ci``
    # (tests/profile.py) one of them at each table, in turn; under ``thorough`` all three.
    turns = sorted({1, n // 2, n - 1})
    at = CONFIGS.index(config) % len(turns)
    ks = size(ci=turns[at : at + 1], thorough=turns)
    for k in ks:
        for ours, theirs, notes, their_notes in _played_in_step(config, k):
            hand = ours.hand
            assert hand is not None
            for seat in range(n):
                where = f"{config} k={k} seat {seat} after {len(hand.log)} actions"
                mine = _page(ours, seat, notes, config)
                his = _page(theirs, (seat + k) % n, their_notes, config)
                assert _texts(his) == _texts(mine), where
                fragment = _fragment(his)
                assert fragment == _fragment(mine), where
                _assert_hides(fragment, _hidden(theirs.hand, (seat + k) % n), where)
                compared += 1
                decisions += bool(mine.decision.form.options)
    # For each k, every seat compared at a person's decision at least, and at the end.
    assert compared >= 2 * n * len(ks) and decisions >= len(ks)


def test_a_persons_rules_notes_are_his_alone() -> None:
    """At a table for people the rules that bound one person's decision name his cards: the
    others' pages leave them out, his shows them."""
    config = ("five-card", "hoffmann", 5, False, BEGINNER, "seats:notes")
    found = False
    for ours, _, notes, _ in _played_in_step(config, 1):
        for note in notes:
            if "explanations" not in note:
                continue
            line = note["event"]
            own = _page(ours, note["seat"], notes, config).log.lines[line]
            other = _page(ours, 2 - note["seat"], notes, config).log.lines[line]
            assert own.explanations and not other.explanations
            found = True
    assert found
