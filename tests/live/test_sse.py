"""The live stream (games.live.sse) through a real ASGI server: uvicorn in a thread of this
process serving the site's ASGI application with the test-only views of tests/live/urls.py
(so it shares the in-memory test database): a practice table's versions as events, in order,
within a second of the POST that stored them; the heartbeat and its hook; a reconnecting
browser's Last-Event-ID; the headers proxies need; a client that goes away ends the stream
(its Redis subscription closed); and under WSGI, a 204 that tells the browser not to retry."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from django.core.asgi import get_asgi_application
from django.db import connections
from django.test import Client, override_settings
from django.urls import reverse

from games.live import bus
from games.models import PracticeTable
from tests.live import urls
from tests.live.conftest import RedisServer, free_port, in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)


#: How much sooner than asked a timer of uvicorn's event loop may fire: uvloop's (libuv's)
#: count whole milliseconds of a clock it reads once a turn (0.2995 s for 0.3 was seen).
EARLY = 0.01


@pytest.fixture
def live_poll_seconds() -> float:
    """How often the server's streams poll the database: quick for the bus's own tests. The
    browser tests of whole tables ask for the site's own 0.25 s: on SQLite's in-memory test
    database, whose locks are whole tables and never wait, each poll can make a write of the
    same moment fail ("database table is locked", which a file database waits out)."""
    return 0.05


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, live_poll_seconds: float) -> Iterator[int]:
    """The site under uvicorn on a free port, with the live test views; its port. Each
    request's thread closes its database connection at its end, as loo_site/asgi.py has it
    (else PostgreSQL's test database could not be dropped while they linger)."""
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    polled = override_settings(ROOT_URLCONF="tests.live.urls", LIVE_POLL_SECONDS=live_poll_seconds)
    with polled:
        port = free_port()
        config = uvicorn.Config(
            get_asgi_application(),
            host="127.0.0.1",
            port=port,
            lifespan="off",
            log_level="error",
            # A stream still open when the test ends (its client gone unnoticed, or a test
            # that left one: seen about once in five runs of a browser test of whole tables)
            # is cancelled after this: 10 s made such a test's tear-down 10 s longer, and
            # nothing is tested of the server's own shut-down.
            timeout_graceful_shutdown=2,
        )
        running = uvicorn.Server(config)
        thread = threading.Thread(target=running.run, daemon=True)
        thread.start()
        give_up = time.monotonic() + 60  # a busy machine: it went on unstarted after 4 s
        while not running.started:
            assert thread.is_alive() and time.monotonic() < give_up, "uvicorn did not start"
            time.sleep(0.02)
        try:
            yield port
        finally:
            # uvicorn waits for its streams to end: each ends when its client goes away (a
            # test closes its browser pages and connections), with its database connection
            # closed; one a test left open is cancelled after timeout_graceful_shutdown.
            running.should_exit = True
            thread.join(30)
            assert not thread.is_alive(), "uvicorn did not stop"
            # The bus's reader threads (its reads, the streams' hooks) hold connections to
            # the test database, which PostgreSQL would not drop: tests outside tests/live
            # (whose conftest closes them after each test) use this server too.
            bus.close_readers()


@pytest.fixture
def table(client: Client) -> PracticeTable:
    response = client.post(
        reverse("games:table-create"),
        {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
        | {"mode": "learning", "seed": 1},
    )
    assert response.status_code == 302
    return PracticeTable.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


class Stream:
    """An EventSource's connection, read event by event."""

    def __init__(
        self, port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 5
    ) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.connection.request(
            "GET", path, headers={"Accept": "text/event-stream"} | (headers or {})
        )
        self.response = self.connection.getresponse()

    def event(self) -> tuple[str, float]:
        """The next event or comment (its lines, joined), and when it came."""
        lines = []
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            if line == "\n":
                return "\n".join(lines), time.monotonic()
            lines.append(line.rstrip("\n"))

    def next_update(self) -> str:
        """The next event that is not a heartbeat."""
        while (event := self.event()[0]) == ": heartbeat":
            pass
        return event

    def close(self) -> None:
        self.connection.close()


def bump(port: int, table: PracticeTable) -> tuple[int, float]:
    """A play: the table's version stored and published, through the server; the new version
    and when the POST was answered."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("POST", f"/live-test/{table.pk}/bump/")
    response = connection.getresponse()
    assert response.status == 200
    version = int(response.read())
    connection.close()
    return version, time.monotonic()


def update(version: int) -> str:
    return f"id: {version}\nevent: update\ndata: {version}"


def _plays_arrive_in_order(port: int, table: PracticeTable) -> None:
    stream = Stream(port, f"/live-test/{table.pk}/stream/?after={table.version}")
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type") == "text/event-stream"
        assert stream.response.getheader("Cache-Control") == "no-cache"
        assert stream.response.getheader("X-Accel-Buffering") == "no"
        assert stream.event()[0] == "retry: 2000"
        for n in range(1, 6):
            version, sent = bump(port, table)
            assert version == table.version + n
            event, heard = stream.event()
            assert event == update(version)
            assert heard - sent < 1.0
    finally:
        stream.close()


def test_each_play_is_an_event_in_order_within_a_second_polling(
    server: int, table: PracticeTable
) -> None:
    with override_settings(LIVE_REDIS_URL=""):
        _plays_arrive_in_order(server, table)


def test_each_play_is_an_event_in_order_within_a_second_redis(
    server: int, table: PracticeTable, redis_server: RedisServer
) -> None:
    with override_settings(LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=60):
        _plays_arrive_in_order(server, table)


def test_a_reconnecting_browser_hears_only_what_came_after_its_last_event_id(
    server: int, table: PracticeTable
) -> None:
    with override_settings(LIVE_REDIS_URL=""):
        first, _ = bump(server, table)
        second, _ = bump(server, table)
        # The page showed the first version's table (after=...); the browser had heard
        # `first` before its connection broke, and `second` was stored while it was away.
        stream = Stream(
            server,
            f"/live-test/{table.pk}/stream/?after={table.version}",
            {"Last-Event-ID": str(first)},
        )
        try:
            assert stream.event()[0] == "retry: 2000"
            assert stream.event()[0] == update(second)
        finally:
            stream.close()
        # A Last-Event-ID that is no version is ignored; one at the stored version brings
        # nothing till the next play.
        for last in ("not a version", str(second)):
            stream = Stream(
                server, f"/live-test/{table.pk}/stream/?after={second}", {"Last-Event-ID": last}
            )
            try:
                stream.event()
                third, _ = bump(server, table)
                assert stream.next_update() == update(third)
                second = third
            finally:
                stream.close()


def test_the_heartbeat_comes_on_time_between_events_and_calls_the_hook(
    server: int, table: PracticeTable
) -> None:
    """A play between each two events read: the heartbeats come all the same, each no sooner
    than its time (were each event to put the next beat off, none would come while the
    plays do); the hook is called on opening, after each version and at each beat."""
    with override_settings(LIVE_REDIS_URL="", LIVE_HEARTBEAT_SECONDS=0.4):
        urls.WAKES.pop(table.pk, None)
        opened = time.monotonic()  # before the stream is asked for: no beat comes sooner
        stream = Stream(server, f"/live-test/{table.pk}/stream/?after={table.version}")
        try:
            assert stream.event()[0] == "retry: 2000"
            beats: list[float] = []
            versions = 0
            for _ in range(500):
                if len(beats) == 3:
                    break
                bump(server, table)
                event, at = stream.event()
                if event == ": heartbeat":
                    beats.append(at - opened)
                else:
                    assert event.startswith("id: ")
                    versions += 1
            else:
                raise AssertionError(f"{versions} plays and no heartbeat among them")
            for n, beat in enumerate(beats, 1):
                assert beat >= 0.4 * n - EARLY, beats
            # Every call but the last event's has been made before that event was sent.
            assert len(urls.WAKES[table.pk]) >= 1 + versions + len(beats) - 1
        finally:
            stream.close()


def test_the_hook_is_called_again_when_it_said_it_is_next_due(
    server: int, table: PracticeTable
) -> None:
    """A people table's deadline falls between two heartbeats: the stream wakes for it then
    (the hook said when), not at the next heartbeat."""
    with override_settings(LIVE_REDIS_URL="", LIVE_HEARTBEAT_SECONDS=60):
        urls.WAKES.pop(table.pk, None)
        urls.DUE[table.pk] = [0.3]  # due 0.3 s after the opening call, then never
        stream = Stream(server, f"/live-test/{table.pk}/stream/?after={table.version}")
        try:
            assert stream.event()[0] == "retry: 2000"
            give_up = time.monotonic() + 30
            while len(urls.WAKES.get(table.pk, [])) < 2:
                assert time.monotonic() < give_up, "not called again"
                time.sleep(0.01)
            opening, again = urls.WAKES[table.pk]
            assert again - opening >= 0.3 - EARLY
        finally:
            stream.close()
            urls.DUE.pop(table.pk, None)


def test_a_client_that_goes_away_ends_its_stream_and_its_subscription(
    server: int, table: PracticeTable, redis_server: RedisServer
) -> None:
    """Three streams of one table on one worker: one subscription in Redis (the worker's
    listener), kept while any of them is open, left when the last goes."""
    channel = urls.channel(table.pk)
    with override_settings(LIVE_REDIS_URL=redis_server.url):
        streams = [
            Stream(server, f"/live-test/{table.pk}/stream/?after={table.version}") for _ in range(3)
        ]
        for stream in streams:
            stream.event()
        deadline = time.monotonic() + 30  # a state waited for: a busy machine is slow
        while redis_server.subscribers(channel) != 1:
            assert time.monotonic() < deadline, redis_server.subscribers(channel)
            time.sleep(0.02)
        for stream in streams[:2]:
            stream.close()
        version, _ = bump(server, table)
        assert streams[2].next_update() == update(version)
        assert redis_server.subscribers(channel) == 1
        assert redis_server.pubsub_clients() == 1
        streams[2].close()
        while redis_server.subscribers(channel) != 0:
            assert time.monotonic() < deadline, redis_server.subscribers(channel)
            time.sleep(0.02)


def test_under_wsgi_the_stream_is_204_so_the_browser_stops_trying(
    client: Client, table: PracticeTable
) -> None:
    with override_settings(ROOT_URLCONF="tests.live.urls"):
        response = in_a_thread(lambda: client.get(f"/live-test/{table.pk}/stream/"))
    assert response.status_code == 204
