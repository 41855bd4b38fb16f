"""A table for people's live stream, through a real ASGI server (tests/live/test_sse.py's):
when a person's time runs out, the stream wakes at his deadline and a computer player takes
his seat then, told to every page at once; it used to wait for the next heartbeat (15 s),
and a browser test waiting for "Back to my seat" failed in CI."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from games.models import PeopleSeat, PeopleTable
from games.people import service as people
from tests.live.conftest import written
from tests.live.test_sse import Stream, server  # noqa: F401 (the fixture)

from .conftest import decision, started, to_act

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


def test_a_computer_player_takes_the_seat_at_the_deadline_told_by_the_stream(
    server: int,  # noqa: F811
) -> None:
    table, users = started()
    seat = to_act(table)
    assert seat is not None
    watcher = Client()
    watcher.force_login(users[0])
    cookie = f"sessionid={watcher.cookies['sessionid'].value}"
    # A heartbeat a minute: what comes within half of it came at the deadline.
    with override_settings(LIVE_REDIS_URL="", LIVE_HEARTBEAT_SECONDS=60):
        stream = Stream(
            server,
            f"/play/people/{table.pk}/stream/?after={table.version}",
            {"Cookie": cookie},
            timeout=30,
        )
        try:
            assert stream.event()[0] == "retry: 2000"
            # A play, after which the next person has a second: the stream hears the play,
            # reads the new deadline and wakes at it.
            row = PeopleTable.objects.filter(pk=table.pk)
            written(lambda: row.update(seconds_per_move=1))
            played = written(lambda: people.act(table, users[seat], decision(table, seat))).table
            written(lambda: row.update(seconds_per_move=120))
            late = to_act(played)
            assert late is not None and late < len(users), "no person is to act next"
            heard = _versions(stream, table.version, played.version + 1)
            assert heard[-1] > played.version  # the take-over's version, within 30 s
            assert PeopleSeat.objects.get(table=table, number=late).away
        finally:
            stream.close()
