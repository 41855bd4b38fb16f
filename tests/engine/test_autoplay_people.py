"""The computer players at a table for people (issue 29): several persons, each at his own
seat, the computer players in every other one. ``Autoplay.run`` stops whenever a person is to
act, never decides for a person's seat, and hands an absent person's seat to a computer player
when the caller leaves it out of ``people``; the same seeds give the same hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.loo import RuleSet
from games.loo.autoplay import (
    BEGINNER,
    CARELESS,
    EXPERT,
    SENSIBLE,
    Autoplay,
    Note,
)
from games.loo.bots import BeginnerBot
from games.loo.table import Table, TableConfig
from games.loo.view import view_for

PEOPLE = frozenset({0, 2, 3})


def _table(
    seed: str, *, game: str = "three-card", rules: str = "hoffmann", laws: bool = False
) -> Table:
    table = Table(TableConfig(game, RuleSet.preset(rules), 5, seed, laws=laws))
    table.deal()
    return table


def _play_hand(table: Table, autoplay: Autoplay) -> tuple[list[Note], list[int]]:
    """Play the table's hand to its end: the computer players by ``autoplay``, each person's
    decisions driven here (a beginner's choice from his own view), his rules noted as a
    table would. Returns the notes and the seats of the people's decisions, in order."""
    hand = table.hand
    assert hand is not None
    notes: list[Note] = []
    decided: list[int] = []
    for _ in range(100):
        autoplay.run(table, notes)
        hand = table.hand
        assert hand is not None
        if hand.over:
            return notes, decided
        seat = hand.to_act
        # run stops only for a person.
        assert seat in autoplay.persons, (seat, autoplay.persons)
        view = view_for(hand, seat)
        action = BeginnerBot(f"person:{len(hand.log)}:{seat}").decide(view).action
        assert action.seat == seat
        first_event = len(hand.events)
        table.apply(action)
        note = autoplay.rules_note(hand, action, view.options, first_event)
        if note is not None:
            notes.append(note)
        decided.append(seat)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("opponents", [BEGINNER, SENSIBLE, CARELESS, EXPERT])
def test_a_hand_of_five_with_three_people_is_played_to_its_end(opponents: str) -> None:
    autoplay = Autoplay(opponents, people=PEOPLE)
    seen_people: set[int] = set()
    for n in range(6):
        table = _table(f"people:{n}", laws=opponents == CARELESS)
        notes, decided = _play_hand(table, autoplay)
        hand = table.hand
        assert hand is not None and hand.over
        seen_people |= set(decided)
        # The computer players never act for a person's seat; every person's action in the
        # log is one driven here.
        for note in notes:
            if "reason" in note:
                assert note["seat"] not in PEOPLE, note
            else:
                assert note["seat"] in PEOPLE, note
                assert hand.log[note["action"]].seat == note["seat"]
        # Every person's action in the log is one driven here (a misdeal deals afresh and
        # starts the log again: the last ones).
        theirs = [a.seat for a in hand.log if a.seat in PEOPLE]
        assert theirs == decided[len(decided) - len(theirs) :]
        bots = {note["action"] for note in notes if "reason" in note}
        assert not any(hand.log[i].seat in PEOPLE for i in bots if i < len(hand.log))
    # Over six deals each person decided something.
    assert seen_people == PEOPLE


def test_the_same_seeds_give_the_same_hand() -> None:
    autoplay = Autoplay(SENSIBLE, people=PEOPLE)
    first, second = _table("people:same"), _table("people:same")
    assert _play_hand(first, autoplay) == _play_hand(second, autoplay)
    assert first.to_dict() == second.to_dict()


def test_a_rules_note_records_the_persons_seat() -> None:
    autoplay = Autoplay(BEGINNER, people=PEOPLE)
    noted: set[int] = set()
    for n in range(30):
        notes, _ = _play_hand(_table(f"people:note:{n}", game="five-card"), autoplay)
        noted |= {note["seat"] for note in notes if "explanations" in note}
    assert noted and noted <= PEOPLE
    assert len(noted) >= 2


def test_an_absent_persons_seat_is_played_by_a_computer_player() -> None:
    """Leaving seat 2 out of ``people`` for one call lets a computer player act there; the
    others are still waited for."""
    for n in range(20):
        table = _table(f"people:away:{n}")
        hand = table.hand
        assert hand is not None
        present = Autoplay(BEGINNER, people=PEOPLE)
        present.run(table, [])
        if hand.to_act != 2:
            continue
        notes = replace(present, people=PEOPLE - {2}).run(table, [])
        assert notes[0]["seat"] == 2 and "reason" in notes[0]
        assert hand.over or hand.to_act in PEOPLE - {2}
        return
    raise AssertionError("no deal came to seat 2 first")


def test_the_practice_tables_human_is_the_one_person() -> None:
    assert Autoplay(BEGINNER).persons == frozenset({0})
    assert Autoplay(BEGINNER, human=-1).persons == frozenset({-1})
    assert Autoplay(BEGINNER, people=PEOPLE).persons == PEOPLE
    ours, theirs = _table("people:practice"), _table("people:practice")
    assert Autoplay(SENSIBLE).run(ours, []) == Autoplay(SENSIBLE, people=frozenset({0})).run(
        theirs, []
    )
    assert ours.to_dict() == theirs.to_dict()


def test_with_several_people_the_deal_waits_for_any_who_could_declare_early() -> None:
    """Laws mode under Hoffmann: at a new deal the computer players stop at the start of the
    declarations while a person, not the first to declare, could declare before his turn;
    ``waiting`` names them, and careless players never lapse for a person's seat."""
    found = False
    for n in range(40):
        table = _table(f"people:wait:{n}", laws=True)
        hand = table.hand
        assert hand is not None
        autoplay = Autoplay(CARELESS, people=PEOPLE)
        notes = autoplay.run(table, [], wait=True)
        assert all(note["seat"] not in PEOPLE for note in notes)
        if hand.over or any(hand.declared):
            continue
        waiting = autoplay.waiting(hand)
        assert waiting <= PEOPLE and hand.to_act not in waiting
        if hand.to_act not in PEOPLE:
            # Stopped for the people waiting, not for a person's turn.
            assert waiting and autoplay.human_waits(hand)
            found = True
    assert found
