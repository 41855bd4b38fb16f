"""Playing at a table for people (games.people): start, act, the refusals that change
nothing, two people at once, time running out, back, leave, close, reveal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.loo.autoplay import Autoplay
from games.models import PeopleHand, PeopleSeat, PeopleTable
from games.people import outcomes
from games.people import service as people
from games.table.presenting import STALE
from tests.concurrency import at_once

from .conftest import decision, make_user, open_table, play_to_end, started, to_act

pytestmark = pytest.mark.django_db


def test_only_the_host_starts_and_the_first_hand_waits_for_a_person() -> None:
    host, ann = make_user("host"), make_user("ann")
    table = open_table(host, players=5)
    people.sit(table, ann)
    table.refresh_from_db()
    with pytest.raises(outcomes.Refused, match="Only the host"):
        people.start(table, ann, table.version)
    people.start(table, host, table.version)
    table.refresh_from_db()
    assert table.status == "playing" and table.started is not None
    seat = to_act(table)
    assert seat in (0, 1) or table.hand_over
    if seat is not None:
        assert PeopleSeat.objects.get(table=table, number=seat).deadline is not None
    with pytest.raises(outcomes.Refused, match="has started"):
        people.sit(table, make_user("cat"))


def _persons_turn(table: PeopleTable, users: list[Any]) -> tuple[PeopleTable, int]:
    """Deal on until a hand where a person is to act."""
    for _ in range(30):
        table.refresh_from_db()
        seat = to_act(table)
        if seat is not None:
            return table, seat
        people.next_hand(table, users[0], table.version)
    raise AssertionError("no person ever came to act")


def test_a_decision_is_applied_once_and_a_stale_or_repeated_one_changes_nothing() -> None:
    table, users = started()
    table, seat = _persons_turn(table, users)
    data = decision(table, seat)
    people.act(table, users[seat], data)
    after = PeopleTable.objects.get(pk=table.pk)
    assert after.version > table.version
    with pytest.raises(outcomes.Refused, match="out of date"):
        people.act(after, users[seat], data)  # the same POST again
    assert PeopleTable.objects.get(pk=table.pk).state == after.state


def test_a_forged_decision_is_refused_and_changes_nothing() -> None:
    table, users = started()
    table, seat = _persons_turn(table, users)
    other = next(i for i in range(3) if i != seat)
    state = table.state
    with pytest.raises(outcomes.Refused, match="not your turn"):
        people.act(table, users[other], {**decision(table, seat)})
    with pytest.raises(outcomes.ActionRefused):
        people.act(table, users[seat], {"version": table.version, "kind": "play", "card": "XX"})
    with pytest.raises(outcomes.Refused, match="no seat"):
        people.act(table, make_user("eve"), decision(table, seat))
    with pytest.raises(outcomes.Refused):
        people.act(table, users[seat], {"kind": "play"})  # no version
    assert PeopleTable.objects.get(pk=table.pk).state == state


def test_a_hand_played_to_the_end_is_kept_for_its_replay() -> None:
    table, users = started()
    table = play_to_end(table, users)
    number = table.to_engine().hand.setup.hand_number  # type: ignore[union-attr]
    record = PeopleHand.objects.get(table=table, number=number)
    assert record.replay().over
    with pytest.raises(outcomes.Refused, match="Only the host"):
        people.reveal(table, users[1], table.version)
    people.reveal(table, users[0], table.version)
    table.refresh_from_db()
    assert table.revealed == number
    people.next_hand(table, users[1], table.version)
    table.refresh_from_db()
    assert table.to_engine().hand.setup.hand_number == number + 1  # type: ignore[union-attr]


def test_reveal_waits_for_the_end_of_the_hand() -> None:
    table, users = started()
    table, _seat = _persons_turn(table, users)
    with pytest.raises(outcomes.Refused, match="not over"):
        people.reveal(table, users[0], table.version)


def test_time_running_out_makes_him_away_until_he_comes_back() -> None:
    table, users = started()
    table, seat = _persons_turn(table, users)
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert people.expire_all() == 1
    table.refresh_from_db()
    row = PeopleSeat.objects.get(table=table, number=seat)
    assert row.away and row.deadline is None
    assert to_act(table) != seat  # a computer player decided for him
    with pytest.raises(outcomes.Refused, match="Back to my seat"):
        people.act(table, users[seat], {"version": table.version, "kind": "play"})
    people.back(table, users[seat])
    assert not PeopleSeat.objects.get(table=table, number=seat).away
    with pytest.raises(outcomes.Refused, match="at your seat already"):
        people.back(table, users[seat])
    assert people.expire_all() == 0


def test_leaving_gives_the_seat_to_a_computer_player_and_the_last_to_leave_closes() -> None:
    table, users = started(("host", "ann"))
    people.leave(table, users[1])
    table.refresh_from_db()
    assert table.status == "playing"
    assert to_act(table) in (0, None)
    people.leave(table, users[0])
    table.refresh_from_db()
    assert table.status == "closed" and table.closed is not None
    with pytest.raises(outcomes.Refused, match="left this table"):
        people.leave(table, users[0])
    assert list(people.tables_for(users[1])) == [table]  # kept, for its replays


def test_leaving_before_the_start_frees_the_seat() -> None:
    host, ann = make_user("host"), make_user("ann")
    table = open_table(host)
    people.sit(table, ann)
    people.leave(table, ann)
    assert not PeopleSeat.objects.filter(table=table, user=ann).exists()


@pytest.mark.django_db(transaction=True)
def test_two_decisions_at_once_store_one(settings: Any) -> None:
    table, users = started()
    table, seat = _persons_turn(table, users)
    data = decision(table, seat)
    # Only the two decisions: the computer players after the one stored are not made (inline,
    # in its thread, SQLite's in-memory database could refuse them while the other reads).
    settings.PEOPLE_BOT_STEPS = "off"
    results = at_once(
        lambda: people.act(PeopleTable.objects.get(pk=table.pk), users[seat], data),
        lambda: people.act(PeopleTable.objects.get(pk=table.pk), users[seat], data),
    )
    done = [r for r in results if isinstance(r, outcomes.Done)]
    refused = [r for r in results if isinstance(r, outcomes.Refused)]
    assert len(done) == 1 and len(refused) == 1, results
    assert str(refused[0]) == STALE
    stored = PeopleTable.objects.get(pk=table.pk)
    assert stored.version == done[0].table.version


def test_the_timeouts_command_moves_on_the_tables_whose_time_ran_out() -> None:
    from io import StringIO

    from django.core.management import call_command

    table, users = started()
    table, seat = _persons_turn(table, users)
    out = StringIO()
    call_command("timeouts", stdout=out)
    assert out.getvalue().strip() == "0 tables moved on."
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    call_command("timeouts", stdout=out)
    assert "1 table moved on." in out.getvalue()
    assert PeopleSeat.objects.get(table=table, number=seat).away


def test_a_page_request_after_the_deadline_lets_a_computer_player_decide() -> None:
    from django.test import Client

    table, users = started()
    table, seat = _persons_turn(table, users)
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    client = Client()
    client.force_login(users[seat])
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Back to my seat" in page
    response = client.post(f"/play/people/{table.pk}/back/")
    assert response.status_code == 302
    assert not PeopleSeat.objects.get(table=table, number=seat).away


def test_a_take_over_another_request_made_first_is_told_to_the_caller() -> None:
    """Two pages asked for at the deadline: the one whose take-over comes second finds it
    made, and must still say that its table (read before) is out of date; else a page made
    from it shows the seat still his, with nothing to tell him it is not (a JavaScript-off
    page on his turn never refreshes itself), as seen in CI."""
    table, users = started()
    table, seat = _persons_turn(table, users)
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    first, second = PeopleTable.objects.get(pk=table.pk), PeopleTable.objects.get(pk=table.pk)
    assert people.expire(first)
    assert people.expire(second)  # done already, but ``second`` is out of date
    assert not people.expire(PeopleTable.objects.get(pk=table.pk))  # nothing is due now
    assert PeopleSeat.objects.get(table=table, number=seat).away


def test_the_agreed_variations_are_the_rules_the_table_plays() -> None:
    table, _users = started(options={"club-law": "on"})
    assert table.to_engine().rules.options()["club-law"] == "on"


@pytest.mark.django_db(transaction=True)
def test_the_computer_players_decide_outside_any_transaction(monkeypatch: Any) -> None:
    """Their decisions (an expert's take up to 0.6 s) are worked out before the short
    transaction that stores them: SQLite's write lock, taken when a transaction begins, would
    otherwise hold up every writer of the site meanwhile. Watched, not replaced: the real
    computer players decide."""
    decided_in_a_transaction: list[bool] = []
    real_bot = Autoplay.bot

    def watched(self: Autoplay, *args: Any, **kwargs: Any) -> Any:
        decided_in_a_transaction.append(connection.in_atomic_block)
        return real_bot(self, *args, **kwargs)

    # Each computer player's decision starts with its bot (games.people.service._step).
    monkeypatch.setattr(Autoplay, "bot", watched)
    table, users = started()  # start: the computer players before the first person
    table = play_to_end(table, users)  # each decision: the computer players after it
    people.next_hand(table, users[0], table.version)
    table.refresh_from_db()
    seat = to_act(table)
    assert seat is not None
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert people.expire(table)  # time running out
    people.leave(table, users[1])  # a person leaving

    # Every computer player's decision stored (each has its reason among the notes) was
    # watched, once.
    stored = PeopleTable.objects.get(pk=table.pk)
    notes = [n for r in PeopleHand.objects.filter(table=table) for n in r.notes]
    if not stored.hand_over:  # else its notes are its record's
        notes += stored.notes
    computer = sum(1 for note in notes if "reason" in note)
    assert computer and len(decided_in_a_transaction) == computer
    assert not any(decided_in_a_transaction)
