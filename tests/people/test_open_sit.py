"""Opening a table for people and sitting at it (games.people)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import CODE_ALPHABET, PeopleSeat
from games.people import outcomes
from games.people import service as people

pytestmark = pytest.mark.django_db


def _user(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name, password="a long password 1")


def _open(host, players: int = 4, **kw):  # type: ignore[no-untyped-def]
    return people.open_table(
        host, game="three-card", rules="hoffmann", players=players, opponents="beginner", **kw
    )


def test_open_seats_the_host_at_seat_0_and_makes_a_code() -> None:
    host = _user("host")
    table = _open(host)
    assert len(table.code) == 6 and set(table.code) <= set(CODE_ALPHABET)
    seats = list(table.seats.all())
    assert [s.number for s in seats] == [0, 1, 2, 3]
    assert seats[0].user == host and all(s.user is None for s in seats[1:])
    assert table.status == "waiting" and table.state is None


def test_a_host_who_only_watches_takes_no_seat() -> None:
    table = _open(_user("teacher"), host_sits=False)
    assert not table.seats.exclude(user=None).exists()


def test_sit_takes_the_first_free_seat_or_the_one_chosen() -> None:
    table = _open(_user("host"))
    version = table.version
    assert people.sit(table, _user("ann")).number == 1
    assert people.sit(table, _user("bob"), 3).number == 3
    table.refresh_from_db()
    assert table.version == version + 2


def test_nobody_sits_twice_and_a_taken_seat_is_refused() -> None:
    host, ann = _user("host"), _user("ann")
    table = _open(host)
    people.sit(table, ann)
    with pytest.raises(outcomes.Refused, match="already have a seat"):
        people.sit(table, ann)
    with pytest.raises(outcomes.Refused, match="already have a seat"):
        people.sit(table, host, 2)
    with pytest.raises(outcomes.Refused, match="That seat is taken"):
        people.sit(table, _user("bob"), 1)
    with pytest.raises(outcomes.Refused, match="no such seat"):
        people.sit(table, _user("cat"), 9)
    assert PeopleSeat.objects.filter(table=table, user=ann).count() == 1


def test_a_full_table_says_so() -> None:
    table = _open(_user("host"), players=3)
    people.sit(table, _user("ann"))
    people.sit(table, _user("bob"))
    with pytest.raises(outcomes.Refused, match="Every seat"):
        people.sit(table, _user("cat"))


def test_members_only_lets_only_the_invited_sit() -> None:
    host, ann, bob = _user("host"), _user("ann"), _user("bob")
    table = _open(host, members_only=True, host_sits=False)
    with pytest.raises(outcomes.Refused, match="invited"):
        people.sit(table, ann)
    people.invite(table, [ann])
    assert people.sit(table, ann).number == 0
    assert people.reserve(table, 2, bob).user == bob


def test_a_code_is_found_in_any_case() -> None:
    table = _open(_user("host"))
    assert people.table_for_code(f" {table.code.lower()} ") == table
    with pytest.raises(outcomes.Refused, match="No table has that code"):
        people.table_for_code("000000")


def test_tables_for_lists_hosted_and_seated_tables() -> None:
    host, ann = _user("host"), _user("ann")
    mine = _open(host)
    theirs = _open(_user("other"))
    people.sit(theirs, host)
    people.sit(mine, ann)
    assert set(people.tables_for(host)) == {mine, theirs}
    assert list(people.tables_for(ann)) == [mine]
    assert list(people.tables_by_ids([theirs.pk, 999999])) == [theirs]
