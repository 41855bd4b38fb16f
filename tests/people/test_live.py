"""A table for people's live stream, through a real ASGI server (tests/live/test_sse.py's):
when a person's time runs out, the stream wakes at his deadline and a computer player takes
his seat then, told to every page at once; it used to wait for the next heartbeat (15 s),
and a browser test waiting for "Back to my seat" failed in CI. And the stream makes the
computer players' steps that fall due when no process's driver makes them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from games.models import PeopleSeat, PeopleTable
from games.people import service as people
from tests.live.conftest import written
from tests.live.test_sse import Stream, server  # noqa: F401 (the fixture)

from .conftest import decision, make_user, open_table, started, to_act

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


@pytest.fixture
def live_poll_seconds() -> float:
    """The site's own poll (tests/live/test_sse.py's ``server`` says why)."""
    return 0.25


def _versions(stream: Stream, after: int, until: int) -> list[int]:
    """The versions the stream tells (each a table: its id), from after ``after`` until one
    at least ``until``."""
    heard: list[int] = []
    while not heard or heard[-1] < until:
        event = stream.next_update()
        assert event.split("\n")[1] == "event: table", event[:200]
        heard.append(int(event.split("\n")[0].removeprefix("id: ")))
        assert heard[-1] > after
    return heard


def _stream(port: int, table: PeopleTable, user: Any) -> Stream:
    """The table's stream as ``user``'s page opens it, after the version stored now (its
    retry hint read)."""
    page = Client()
    page.force_login(user)
    cookie = f"sessionid={page.cookies['sessionid'].value}"
    path = f"/play/people/{table.pk}/stream/?after={table.version}"
    stream = Stream(port, path, {"Cookie": cookie}, timeout=30)
    assert stream.event()[0] == "retry: 2000"
    return stream


def test_a_computer_player_takes_the_seat_at_the_deadline_told_by_the_stream(
    server: int,  # noqa: F811
    settings: Any,
) -> None:
    # The computer players' steps are made here, each again if SQLite refuses it (written).
    settings.PEOPLE_BOT_STEPS = "off"
    table, users = started()
    written(lambda: people.finish(table.pk))
    table.refresh_from_db()
    seat = to_act(table)
    assert seat is not None
    # A heartbeat a minute: what comes within half of it came at the deadline.
    with override_settings(LIVE_REDIS_URL="", LIVE_HEARTBEAT_SECONDS=60):
        stream = _stream(server, table, users[0])
        try:
            # A play, after which the next person has a second: the stream hears the play,
            # reads the new deadline and wakes at it.
            row = PeopleTable.objects.filter(pk=table.pk)
            written(lambda: row.update(seconds_per_move=1))
            written(lambda: people.act(table, users[seat], decision(table, seat)))
            written(lambda: people.finish(table.pk))  # the computer players after him
            played = PeopleTable.objects.get(pk=table.pk)
            written(lambda: row.update(seconds_per_move=120))
            late = to_act(played)
            assert late is not None and late < len(users), "no person is to act next"
            heard = _versions(stream, table.version, played.version + 1)
            assert heard[-1] > played.version  # the take-over's version, within 30 s
            assert PeopleSeat.objects.get(table=table, number=late).away
        finally:
            stream.close()


def test_a_stream_makes_the_computer_players_steps_a_dead_process_left(
    server: int,  # noqa: F811
    settings: Any,
) -> None:
    """Nobody here makes the computer players' steps (as if the process that stored the
    start died): the table's stream, waking when each falls due, makes them one by one, and
    tells each version."""
    settings.PEOPLE_BOT_STEPS = "off"
    host = make_user("host")
    table = open_table(host, players=4, bot_pause_ms=0)
    table.refresh_from_db()
    # Seat 0 deals at this seed: seat 1, a computer player, is first to act.
    people.start(table, host, table.version, engine_seed="computer steps")
    table.refresh_from_db()
    assert people.bots_due(table.pk) is not None
    with override_settings(LIVE_REDIS_URL="", LIVE_HEARTBEAT_SECONDS=60):
        stream = _stream(server, table, host)
        try:
            heard = [table.version]
            while written(lambda: people.bots_due(table.pk)) is not None:
                event = stream.next_update()
                heard.append(int(event.split("\n")[0].removeprefix("id: ")))
                assert heard[-1] > heard[-2]
                assert len(heard) < 60
        finally:
            stream.close()
    stored = written(lambda: PeopleTable.objects.get(pk=table.pk))
    assert to_act(stored) in (0, None)  # the person's turn (or the hand over)
    assert stored.version > table.version
