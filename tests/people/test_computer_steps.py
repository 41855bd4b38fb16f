"""A person's play is stored and told before the computer players think (issue 36): each
computer player's decision is a step of its own (``service.advance``), stored and told as its
own version, at the table's pace; what falls due is made once however many ask; the driver
makes the steps of the tables its process stored; a page, the ``timeouts`` command and a
stream finish a chain whose process died.

The steps are driven by hand here (``PEOPLE_BOT_STEPS = "off"``: nothing makes them but the
test), the pause 0 so that each is due at once."""

from __future__ import annotations

import logging
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.live import bus
from games.loo.autoplay import Autoplay
from games.loo.table import Table
from games.models import PeopleHand, PeopleSeat, PeopleTable
from games.people import driver
from games.people import service as people
from tests.concurrency import at_once

from .conftest import decision, make_user, open_table, to_act

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _steps_by_hand(settings: Any) -> None:
    settings.PEOPLE_BOT_STEPS = "off"


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every version told to the live pages, with the number of actions its table's hand
    held when it was stored (read in the transaction that stores it)."""
    told: list[tuple[int, int]] = []

    def publish_on_commit(channel: str, version: int, using: str | None = None) -> None:
        pk = int(channel.removeprefix("people-"))
        stored = PeopleTable.objects.get(pk=pk)
        assert stored.version == version
        told.append((version, _actions(stored)))

    monkeypatch.setattr(bus, "publish_on_commit", publish_on_commit)
    return told


def _actions(table: PeopleTable) -> int:
    hand = table.to_engine().hand if table.state else None
    return len(hand.log) if hand is not None else 0


def _table(
    names: tuple[str, ...] = ("host",), players: int = 4, **kw: Any
) -> tuple[PeopleTable, list[Any]]:
    """A started table whose people sit at seat 0 (the host) and from seat 2 on, computer
    players in the others, whose pause is 0 (each step due at once). Seat 0 deals the first
    hand (the seed's), so seat 1, a computer player, is first to act: not played yet."""
    users = [make_user(n) for n in names]
    table = open_table(users[0], players=players, bot_pause_ms=0, **kw)
    for seat, user in enumerate(users[1:], start=2):
        people.sit(table, user, seat)
    table.refresh_from_db()
    people.start(table, users[0], table.version, engine_seed="computer steps")
    table.refresh_from_db()
    return table, users


def _bots(table: PeopleTable) -> int:
    """Every computer player's step due, made one by one (each stored alone); how many."""
    steps = 0
    while people.bots_due(table.pk) is not None:
        assert people.next_due(table.pk) is not None
        assert people.advance(table.pk)
        steps += 1
        assert steps < 100
    table.refresh_from_db()
    return steps


def test_each_computer_player_s_step_is_a_version_of_its_own(
    published: list[tuple[int, int]],
) -> None:
    table, users = _table()
    before = table.version
    # Started: nothing of the computer players yet, only the deal.
    assert published[-1] == (before, 0)
    steps = _bots(table)
    assert table.version == before + steps
    # One version told for each step, each one action more than the one before.
    assert steps >= 1  # a computer player is first to act
    assert published[-steps - 1 :] == [(before + n, n) for n in range(steps + 1)]
    assert people.next_due(table.pk) is None or people.next_due(table.pk) > 0  # his deadline


def test_a_person_s_play_is_told_before_any_computer_player_decides(
    published: list[tuple[int, int]],
) -> None:
    """His POST stores his decision alone: the version told after it holds his action and no
    computer player's; the fragment it answers is that version; the computer players follow,
    each its own version."""
    table, users = _table()
    client = Client()
    client.force_login(users[0])
    url = reverse("games:people-act", args=[table.pk])
    checked = 0
    for _ in range(40):
        _bots(table)
        if table.hand_over:
            people.next_hand(table, users[0], table.version)
            table.refresh_from_db()
            continue
        assert to_act(table) == 0
        version, actions = table.version, _actions(table)
        data = decision(table, 0)
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert response.status_code == 200
        stored = PeopleTable.objects.get(pk=table.pk)
        assert (stored.version, _actions(stored)) == (version + 1, actions + 1)
        assert published[-1] == (version + 1, actions + 1)
        assert f'name="version" value="{version + 1}"' in response.content.decode() or (
            to_act(stored) != 0  # no form of his to carry it
        )
        if data["kind"] == "play":
            assert f'data-card="{data["card"]}"' in response.content.decode()
        if to_act(stored) not in (0, None):
            # A computer player is next: due, not made.
            assert stored.bot_due is not None and people.bots_due(table.pk) is not None
            steps = _bots(table)
            assert steps >= 1
            assert published[-steps - 1 :] == [
                (version + 1 + n, actions + 1 + n) for n in range(steps + 1)
            ]
            checked += 1
        table.refresh_from_db()
        if checked >= 3:
            break
    assert checked >= 3


def _same_as_a_chain(opponents: str, laws: bool, until: str) -> None:
    """Hands played with the computer players' steps one by one meet the same replies as
    ``Autoplay.run`` (all of them at once, as the table did before) would have made: each
    hand's log the same at every person's turn and at its end; until a hand where a
    computer player took an action of the kind ``until``."""
    table, users = _table(("host", "ann"), players=5, opponents=opponents, laws=laws)
    by_seat = {0: users[0], 2: users[1]}
    players = Autoplay(opponents, people=frozenset(by_seat))
    for _ in range(12):
        chain = Table.from_dict(table.state, strict=False)
        players.run(chain, [])
        for _ in range(100):
            _bots(table)
            hand, chained = table.to_engine().hand, chain.hand
            assert hand is not None and chained is not None
            assert [a.to_dict() for a in hand.log] == [a.to_dict() for a in chained.log]
            if hand.over:
                break
            seat = hand.to_act
            assert seat in by_seat
            people.act(table, by_seat[seat], decision(table, seat))
            table.refresh_from_db()
            chain.apply(table.to_engine().hand.log[-1])  # type: ignore[union-attr]
            players.run(chain, [])
        else:
            raise AssertionError("the hand did not end")
        number = hand.setup.hand_number
        assert PeopleHand.objects.get(table=table, number=number).replay().over
        if any(a.kind == until for a in hand.log if a.seat not in by_seat):
            return
        people.next_hand(table, users[0], table.version)
        table.refresh_from_db()
    raise AssertionError(f"no computer player's {until} in 12 hands")


def test_a_hand_with_computer_players_plays_to_its_end_as_it_did() -> None:
    _same_as_a_chain("beginner", laws=False, until="play")


def test_careless_computer_players_lapse_as_they_did() -> None:
    """Laws mode: they are asked whether one lapses before each action, a person's too."""
    _same_as_a_chain("careless", laws=True, until="irregular")


def test_the_pause_comes_before_each_computer_player_s_step() -> None:
    table, _users = _table()
    assert people.bots_due(table.pk) is not None  # a computer player is first to act
    PeopleTable.objects.filter(pk=table.pk).update(bot_due=timezone.now() + timedelta(seconds=30))
    assert 29 < people.next_due(table.pk) <= 30  # type: ignore[operator]
    assert not people.advance(table.pk)  # not due yet: nothing made
    assert PeopleTable.objects.get(pk=table.pk).version == table.version
    PeopleTable.objects.filter(pk=table.pk).update(bot_due=timezone.now())
    assert people.advance(table.pk)
    assert PeopleTable.objects.get(pk=table.pk).version == table.version + 1


def test_the_take_over_comes_at_the_deadline_and_his_seat_s_player_decides_next() -> None:
    table, users = _table()
    _bots(table)
    if to_act(table) != 0:
        pytest.skip("the deal ended before his turn")
    seat = PeopleSeat.objects.get(table=table, number=0)
    assert seat.deadline is not None
    assert not people.advance(table.pk)  # his time has not run out
    PeopleSeat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert people.next_due(table.pk) <= 0  # type: ignore[operator]
    actions = _actions(table)
    assert people.advance(table.pk)  # the take-over, alone
    after = PeopleTable.objects.get(pk=table.pk)
    assert PeopleSeat.objects.get(pk=seat.pk).away
    assert (after.version, _actions(after)) == (table.version + 1, actions)
    assert people.bots_due(table.pk) is not None
    assert people.advance(table.pk)  # his seat's computer player
    after.refresh_from_db()
    hand = after.to_engine().hand
    assert hand is not None and hand.log[-1].seat == 0


def test_a_step_whose_table_changed_meanwhile_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worked out from the table as read, it is not stored over a change made meanwhile (ann
    leaving here): dropped, and the next is worked out from the table as it is."""
    table, users = _table(("host", "ann"), players=5)
    assert people.bots_due(table.pk) is not None  # a computer player is first to act
    real_bot = Autoplay.bot
    left: list[bool] = []

    def meanwhile(self: Autoplay, *args: Any, **kwargs: Any) -> Any:
        if not left:
            left.append(True)
            people.leave(table, users[1])
        return real_bot(self, *args, **kwargs)

    monkeypatch.setattr(Autoplay, "bot", meanwhile)
    assert not people.advance(table.pk)
    after = PeopleTable.objects.get(pk=table.pk)
    assert after.version == table.version + 1  # ann's leaving, and nothing else
    assert _actions(after) == _actions(table)
    assert people.bots_due(table.pk) is not None  # still due: made next time
    assert people.advance(table.pk)
    assert _actions(PeopleTable.objects.get(pk=table.pk)) == _actions(table) + 1


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_two_advancing_at_once_make_each_step_once() -> None:
    """Two processes find the same step due (the driver and a stream, say): it is made once
    (the claim; and were it made twice, the version check would store it once)."""
    table, _users = _table()
    assert people.bots_due(table.pk) is not None  # a computer player is first to act
    # Due now; the next one long after (SQLite makes the second call again once the first
    # is done: it must find nothing due then).
    PeopleTable.objects.filter(pk=table.pk).update(bot_pause_ms=60_000)
    table.refresh_from_db()
    results = at_once(lambda: people.advance(table.pk), lambda: people.advance(table.pk))
    assert sorted(results) == [False, True], results
    after = PeopleTable.objects.get(pk=table.pk)
    assert (after.version, _actions(after)) == (table.version + 1, _actions(table) + 1)


def test_a_page_makes_the_step_that_is_overdue(published: list[tuple[int, int]]) -> None:
    """Its process died before the computer player decided: the next request for the page
    makes it (and leaves the next to its own driver, at the pace)."""
    table, users = _table()
    assert people.bots_due(table.pk) is not None  # a computer player is first to act
    PeopleTable.objects.filter(pk=table.pk).update(bot_pause_ms=60_000)
    client = Client()
    client.force_login(users[0])
    page = client.get(table.get_absolute_url())
    assert page.status_code == 200
    after = PeopleTable.objects.get(pk=table.pk)
    assert (after.version, _actions(after)) == (table.version + 1, _actions(table) + 1)
    assert f'?after={after.version}"' in page.content.decode()  # the page shows it
    if after.bot_due is not None:
        assert people.bots_due(table.pk) > 50  # type: ignore[operator]
    # Not overdue: a page waits for the pace.
    assert client.get(table.get_absolute_url()).status_code == 200
    assert PeopleTable.objects.get(pk=table.pk).version == after.version


def test_the_timeouts_command_finishes_a_chain_its_process_left() -> None:
    table, _users = _table()
    assert people.bots_due(table.pk) is not None  # a computer player is first to act
    PeopleTable.objects.filter(pk=table.pk).update(bot_due=timezone.now() - timedelta(seconds=5))
    out = StringIO()
    call_command("timeouts", stdout=out)
    assert out.getvalue().strip() == "1 table moved on."
    table.refresh_from_db()
    assert table.bot_due is None and to_act(table) in (0, None)
    call_command("timeouts", stdout=out)
    assert out.getvalue().strip().endswith("0 tables moved on.")


@pytest.mark.django_db(transaction=True)
def test_the_driver_makes_the_steps_after_a_change_and_survives_a_failure(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """This process's driver makes the steps a change it stored left due (after the start
    here), each at its time; a step that fails is logged and tried again. The test touches
    the database only once the driver is idle (SQLite's in-memory test database refuses a
    write while another thread reads)."""
    settings.PEOPLE_BOT_STEPS = "driver"
    monkeypatch.setattr(driver, "RETRY_SECONDS", 0.0)
    real_bot = Autoplay.bot
    failed: list[int] = []

    def failing_once(self: Autoplay, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise RuntimeError("the computer player failed")
        return real_bot(self, *args, **kwargs)

    monkeypatch.setattr(Autoplay, "bot", failing_once)
    host = make_user("host")
    table = open_table(host, players=4, bot_pause_ms=0)
    table.refresh_from_db()
    try:
        with caplog.at_level(logging.ERROR, logger="games.people.driver"):
            people.start(table, host, table.version, engine_seed="computer steps")
            assert driver.DRIVER.wait_idle(30)
        table.refresh_from_db()
        assert failed == [1]
        assert "the computer player failed" in caplog.text
        assert table.bot_due is None and to_act(table) in (0, None)
        assert _actions(table) > 0  # seat 1 (a computer player) was first to act
    finally:
        driver.DRIVER.forget()
