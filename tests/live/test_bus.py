"""The live bus (games.live.bus) on both backends: the database polled (no Redis) and Redis
pub/sub (a real redis-server; skipped where there is none). Each connection hears the versions
after its own, in order, never one twice, the newest always; one stored while it was away is
heard as soon as it is back; with Redis down it polls, and with Redis back it listens again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from django.db import OperationalError
from django.db.models import F
from django.test import Client, override_settings
from django.urls import reverse

from games import caches
from games.live import bus, fanout
from games.models import PracticeTable
from tests.live.conftest import RedisServer, free_port, in_a_thread, written
from tests.live.listening import Listening, Stored

# The bus's reader threads touch the database's connections (each read checks them).
pytestmark = pytest.mark.django_db(transaction=True)

#: A poll so slow that a version heard within a second came by Redis.
NEVER = 60.0


def _listening(channel: str, after: int, current: Stored) -> Iterator[Listening]:
    listening = Listening(channel, after, current)
    try:
        yield listening
    finally:
        listening.close()


def _until(check: object, timeout: float = 30.0) -> None:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.01)
    raise AssertionError(f"not so after {timeout} s")


def _increasing(versions: list[int]) -> bool:
    return all(a < b for a, b in zip(versions, versions[1:], strict=False))


# -- the database, polled ---------------------------------------------------------------------


def test_polling_hears_each_version_stored_in_the_database_in_order(client: Client) -> None:
    """No Redis: a practice table's version column, read by the bus's own threads."""
    response = client.post(
        reverse("games:table-create"),
        {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
        | {"mode": "learning", "seed": 1},
    )
    assert response.status_code == 302
    pk = int(response["Location"].strip("/").split("/")[-1])
    table = PracticeTable.objects.filter(pk=pk)
    start = table.get().version

    def current() -> int | None:
        return table.values_list("version", flat=True).first()

    with override_settings(LIVE_REDIS_URL="", LIVE_POLL_SECONDS=0.05):
        listening = Listening("practice", start, current)
        try:
            for n in range(1, 6):
                written(lambda: table.update(version=F("version") + 1))
                listening.wait_for(start + n)  # found by a poll: nothing else tells it
            # Each stored once it was heard: each heard, in order, once.
            assert listening.versions == [start + n for n in range(1, 6)]
            # The table gone: the updates end.
            written(table.delete)
            assert listening.ended.wait(2)
            assert listening.error is None
        finally:
            listening.close()


def test_polling_two_versions_within_one_poll_are_heard_as_the_newest_once() -> None:
    stored = Stored(0)
    with override_settings(LIVE_REDIS_URL="", LIVE_POLL_SECONDS=0.3):
        for listening in _listening("quick", 0, stored):
            _until(lambda: stored.reads >= 1)  # the opening read is done: 0
            stored.version = 1
            stored.version = 2
            listening.wait_for(2)
            stored.version = 3
            listening.wait_for(3)  # the last: nothing can come after it
            assert _increasing(listening.versions), listening.versions
            assert listening.versions in ([2, 3], [1, 2, 3])


@pytest.mark.parametrize("backend", ["database", "redis"])
def test_a_version_stored_while_away_is_heard_at_once_on_coming_back(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """A page showing version 5 connects (or reconnects) after 6 and 7 were stored: it hears
    7 at once, not at the next poll or publish, and nothing at or before its own 5."""
    url = request.getfixturevalue("redis_server").url if backend == "redis" else ""
    stored = Stored(7)
    # Neither the poll nor Redis's recheck comes (a minute): what is heard came by the read
    # made on connecting, or by a publish.
    with override_settings(LIVE_REDIS_URL=url, LIVE_POLL_SECONDS=NEVER, LIVE_RECHECK_SECONDS=NEVER):
        for listening in _listening("away", 5, stored):
            listening.wait_for(7)
            if backend == "redis":
                stored.version = 8
                bus.publish("away", 8)
                listening.wait_for(8)
            assert listening.versions == ([7, 8] if backend == "redis" else [7])


def test_a_table_that_is_gone_ends_the_updates() -> None:
    with override_settings(LIVE_REDIS_URL="", LIVE_POLL_SECONDS=0.05):
        for listening in _listening("gone", 0, Stored(None)):  # type: ignore[arg-type]
            assert listening.ended.wait(2)
            assert listening.versions == [] and listening.error is None


# -- Redis pub/sub ----------------------------------------------------------------------------


def test_redis_delivers_every_published_version_in_order_once(redis_server: RedisServer) -> None:
    """A hundred plays published one after another: heard all, in order, each once; neither
    the poll nor the recheck ever comes (a minute), so they came by Redis."""
    stored = Stored(0)
    with override_settings(
        LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=NEVER, LIVE_RECHECK_SECONDS=NEVER
    ):
        for listening in _listening("hundred", 0, stored):
            # Subscribed, and the stored version read (it was 0): from now on each version
            # comes by Redis. (A read after the first publishes finds a later version, and
            # the bus rightly yields only that one: a subscriber heard 12 first in CI.)
            _until(lambda: redis_server.subscribers("hundred") == 1 and stored.reads >= 1)
            for version in range(1, 101):
                stored.version = version
                bus.publish("hundred", version)
            listening.wait_for(100)  # the last: nothing can come after it
            assert listening.versions == list(range(1, 101))


def test_redis_two_listeners_on_other_channels_hear_their_own(redis_server: RedisServer) -> None:
    one, two = Stored(0), Stored(0)
    with override_settings(LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=NEVER):
        for a in _listening("table-1", 0, one):
            for b in _listening("table-2", 0, two):
                _until(lambda: redis_server.subscribers("table-2") == 1)
                _until(lambda: redis_server.subscribers("table-1") == 1)
                one.version = 1
                bus.publish("table-1", 1)
                two.version = 4
                bus.publish("table-2", 4)
                # Then one more on each: a version heard on the other's channel would come
                # before it (Redis keeps a subscriber's messages in order).
                one.version = 2
                bus.publish("table-1", 2)
                two.version = 5
                bus.publish("table-2", 5)
                a.wait_for(2)
                b.wait_for(5)
                assert (a.versions, b.versions) == ([1, 2], [4, 5])


def test_redis_a_listener_that_went_away_unsubscribes_and_misses_nothing_on_return(
    redis_server: RedisServer,
) -> None:
    stored = Stored(0)
    with override_settings(LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=NEVER):
        for first in _listening("return", 0, stored):
            _until(lambda: redis_server.subscribers("return") == 1)
            for version in (1, 2):
                stored.version = version
                bus.publish("return", version)
            first.wait_for(2)
        # The listener went away: its connection to Redis is closed.
        _until(lambda: redis_server.subscribers("return") == 0)
        for version in (3, 4, 5):  # published to no one
            stored.version = version
            bus.publish("return", version)
        for again in _listening("return", 2, stored):
            again.wait_for(5)  # read on coming back: the recheck never comes
            _until(lambda: redis_server.subscribers("return") == 1)
            stored.version = 6
            bus.publish("return", 6)
            again.wait_for(6)
            assert again.versions == [5, 6]


def test_redis_a_lost_publish_is_found_by_the_recheck(redis_server: RedisServer) -> None:
    stored = Stored(0)
    with override_settings(
        LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=NEVER, LIVE_RECHECK_SECONDS=0.2
    ):
        for listening in _listening("lost", 0, stored):
            _until(lambda: redis_server.subscribers("lost") == 1)
            stored.version = 1  # stored, never published: only the recheck finds it
            listening.wait_for(1)


def test_redis_unreachable_the_bus_polls_and_publishing_does_not_fail() -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    stored = Stored(0)
    with override_settings(LIVE_REDIS_URL=url, LIVE_POLL_SECONDS=0.05):
        for listening in _listening("down", 0, stored):
            for version in (1, 2):
                stored.version = version
                start = time.monotonic()
                bus.publish("down", version)
                assert time.monotonic() - start < 1.0
                listening.wait_for(version)  # found by polling: there is no Redis
            assert listening.versions == [1, 2]
            assert listening.error is None


def test_redis_stopped_mid_stream_the_bus_polls_then_listens_again_when_it_is_back(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bus, "RETRY_SECONDS", 0.3)
    monkeypatch.setattr(caches, "RETRY_SECONDS", 0.3)  # the process's Redis breaker's wait
    stored = Stored(0)
    with override_settings(
        LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=0.05, LIVE_RECHECK_SECONDS=NEVER
    ):
        for listening in _listening("outage", 0, stored):
            _until(lambda: redis_server.subscribers("outage") == 1)
            stored.version = 1
            bus.publish("outage", 1)
            listening.wait_for(1)

            redis_server.stop()
            for version in (2, 3):
                stored.version = version
                bus.publish("outage", version)  # lost: Redis is down
                listening.wait_for(version)  # found by polling (the recheck never comes)

            redis_server.start()
            _until(lambda: redis_server.subscribers("outage") == 1)
            bus.health.redis_down_until = 0.0  # the publisher's retry time, not waited for
            stored.version = 4
            bus.publish("outage", 4)
            listening.wait_for(4)
            assert listening.versions == [1, 2, 3, 4]
            assert listening.error is None


def test_a_read_that_fails_is_logged_once_and_tried_again_at_the_next_poll(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A database that fails a few reads (a restart): the stream waits, and goes on."""
    failures = [3]

    def current() -> int | None:
        if failures[0]:
            failures[0] -= 1
            raise OperationalError("server closed the connection unexpectedly")
        return 1

    with override_settings(LIVE_REDIS_URL="", LIVE_POLL_SECONDS=0.05):
        for listening in _listening("flaky", 0, current):  # type: ignore[arg-type]
            listening.wait_for(1)
            assert listening.versions == [1] and listening.error is None
    messages = [r.getMessage() for r in caplog.records if r.name == "games.live.bus"]
    assert messages == [
        "The live bus cannot read a table's version: server closed the connection unexpectedly",
        "The live bus reads tables' versions again.",
    ]


class Tables:
    """Tables' stored versions read as a people table's are: many in one query
    (``bus.Batched``), each call counted with the keys it read."""

    def __init__(self, *keys: int) -> None:
        self.versions = dict.fromkeys(keys, 0)
        self.calls: list[list[int]] = []

    def read(self, keys: list[int]) -> dict[int, int]:
        self.calls.append(sorted(keys))
        return {k: self.versions[k] for k in keys if k in self.versions}


async def _all_heard(heard: list[list[int]], version: int) -> None:
    while any(not h or h[-1] < version for h in heard):
        await asyncio.sleep(0.01)


def test_polling_the_streams_of_one_worker_share_one_read_a_poll_for_all_tables() -> None:
    """Five people at each of two tables in one event loop (a worker): one read a poll for
    both tables (one query: ``bus.Batched``), not one a stream or a table; each hears every
    version of his own table, in order."""
    poll = 0.05
    tables = Tables(1, 2)

    async def ten_people() -> tuple[list[list[int]], float, int]:
        heard: list[list[int]] = [[] for _ in range(10)]

        async def person(n: int, table: int) -> None:
            async for version in fanout.updates(f"t-{table}", 0, bus.Batched(tables.read, table)):
                heard[n].append(version)

        start = time.monotonic()
        tasks = [asyncio.create_task(person(n, 1 + n % 2)) for n in range(10)]
        listener = fanout.listener()
        while len(tables.calls) < 10:  # each has subscribed and read once on opening
            await asyncio.sleep(0.01)
        opened = len(tables.calls)
        for version in (1, 2, 3):
            tables.versions[1] = tables.versions[2] = version
            await asyncio.wait_for(_all_heard(heard, version), 10)
        elapsed = time.monotonic() - start
        assert sorted(listener.channels) == ["t-1", "t-2"]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert not listener.channels, "a channel outlived its streams"
        return heard, elapsed, opened

    with override_settings(LIVE_REDIS_URL="", LIVE_POLL_SECONDS=poll):
        heard, elapsed, opened = in_a_thread(lambda: asyncio.run(ten_people()))
    assert heard == [[1, 2, 3]] * 10
    polls = tables.calls[opened:]
    # Each poll read both tables at once; and a poll never comes sooner than its time,
    # however busy the machine: at most one a poll while they listened. One a stream or a
    # table would make ten or two times as many.
    assert polls and all(keys == [1, 2] for keys in polls), polls
    assert len(polls) <= elapsed / poll + 1, (len(polls), elapsed)


def test_redis_the_streams_of_one_worker_share_one_connection(redis_server: RedisServer) -> None:
    """Ten streams on three tables in one event loop (a worker): one pub/sub connection to
    Redis, subscribed to each table once; a table's channel is left when its last stream
    goes."""
    tables = Tables(1, 2, 3)

    async def ten_streams() -> list[list[int]]:
        heard: list[list[int]] = [[] for _ in range(10)]

        async def person(n: int, table: int) -> None:
            async for version in fanout.updates(f"r-{table}", 0, bus.Batched(tables.read, table)):
                heard[n].append(version)

        tasks = [asyncio.create_task(person(n, 1 + n % 3)) for n in range(10)]

        async def subscribed(table: int, count: int) -> None:
            while await asyncio.to_thread(redis_server.subscribers, f"r-{table}") != count:
                await asyncio.sleep(0.02)

        for table in (1, 2, 3):
            await asyncio.wait_for(subscribed(table, 1), 30)
        while len(tables.calls) < 10:  # each has read once on opening
            await asyncio.sleep(0.01)
        assert await asyncio.to_thread(redis_server.pubsub_clients) == 1
        for table in (1, 2, 3):
            tables.versions[table] = 1
            await asyncio.to_thread(bus.publish, f"r-{table}", 1)
        await asyncio.wait_for(_all_heard(heard, 1), 10)
        # Table 1's streams go: its channel is left, the others' kept, on one connection.
        for n, task in enumerate(tasks):
            if n % 3 == 0:
                task.cancel()
        await asyncio.wait_for(subscribed(1, 0), 30)
        assert await asyncio.to_thread(redis_server.subscribers, "r-2") == 1
        assert await asyncio.to_thread(redis_server.pubsub_clients) == 1
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return heard

    with override_settings(
        LIVE_REDIS_URL=redis_server.url, LIVE_POLL_SECONDS=NEVER, LIVE_RECHECK_SECONDS=NEVER
    ):
        heard = in_a_thread(lambda: asyncio.run(ten_streams()))
    assert heard == [[1]] * 10
