"""Helpers of the tests of tables for people: accounts, a started table, a legal decision.

The computer players' steps after a change are made at once in the thread that stored it
(``PEOPLE_BOT_STEPS = "inline"``, games.people.driver), each still a version of its own: a
test finds the table at a person's turn (or the hand over) when its call returns. A test of
the steps themselves sets it otherwise."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.loo.view import view_for
from games.models import PeopleTable
from games.people import service as people

PASSWORD = "a long password 1"


@pytest.fixture(autouse=True)
def _computer_players_step_inline(settings: Any) -> None:
    settings.PEOPLE_BOT_STEPS = "inline"


def make_user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD)


def open_table(host: Any, players: int = 4, **kw: Any) -> PeopleTable:
    kw.setdefault("opponents", "beginner")
    return people.open_table(host, game="three-card", rules="hoffmann", players=players, **kw)


def started(
    names: tuple[str, ...] = ("host", "ann", "bob"), players: int = 5, **kw: Any
) -> tuple[PeopleTable, list[Any]]:
    """A started table whose first seats are people (``names``, the first the host), the
    others computer players; the table as stored and the users."""
    users = [make_user(n) for n in names]
    table = open_table(users[0], players=players, **kw)
    for user in users[1:]:
        people.sit(table, user)
    table.refresh_from_db()
    people.start(table, users[0], table.version)
    table.refresh_from_db()
    return table, users


def to_act(table: PeopleTable) -> int | None:
    hand = table.to_engine().hand
    assert hand is not None
    return None if hand.over else hand.to_act


def decision(table: PeopleTable, seat: int) -> dict[str, Any]:
    """The POST of a legal decision of ``seat`` now (play rather than pass; the lowest legal
    card), with the version the table's forms carry."""
    hand = table.to_engine().hand
    assert hand is not None
    options = view_for(hand, seat).options
    assert options is not None and options.kind != "none"
    data: dict[str, Any] = {"version": table.state_version, "kind": options.kind}
    if options.kind == "play":
        assert options.legal is not None
        data["card"] = sorted(c.code for c in options.legal.legal)[0]
    else:
        data["choice"] = "play" if "play" in options.choices else options.choices[0]
    return data


def play_to_end(table: PeopleTable, users: list[Any]) -> PeopleTable:
    """Every person acts legally until the hand is over."""
    by_seat = {s.number: s.user for s in table.seats.exclude(user=None)}
    for _ in range(200):
        table.refresh_from_db()
        seat = to_act(table)
        if seat is None:
            return table
        if seat not in by_seat:
            # A computer player's turn, where its steps are not made inline (a live server's
            # driver makes them): made here if nobody has taken them on, else waited for.
            if not people.finish(table.pk):
                _until_changed(table)
            continue
        people.act(table, by_seat[seat], decision(table, seat))
    raise AssertionError("the hand did not end")


def _until_changed(table: PeopleTable, seconds: float = 30.0) -> None:
    """Wait until ``table``'s stored version is past the one read (another thread's step)."""
    deadline = time.monotonic() + seconds
    while PeopleTable.objects.filter(pk=table.pk, version=table.version).exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"table {table.pk} did not change in {seconds} s")
        time.sleep(0.02)
