"""The live bus: a table's new version, told to every connection open on it, on one machine or
on several.

A writer stores a table's new version, then calls :func:`publish` once the transaction has
committed (:func:`publish_on_commit` does both halves' joining: ``transaction.on_commit``).
Each open connection (an SSE stream, :mod:`games.live.sse`) iterates :func:`updates`, which
yields the versions after the one its page shows, in increasing order, never one twice.

The database is the truth; the bus only hurries it along. :func:`updates` reads the stored
version (``current``, the caller's: a one-row query) when it starts and after any gap, so a
version committed while a page was loading, or while its connection was away, is yielded at
once; and when it knows of two versions at once (or hears of an older one late: two servers
publishing 6 and 7 can be heard 7, 6) it yields only the newest. Versions are a count per
table: a page that gets 7 after 5 asks what happened after 5 (the caller's view), so nothing
is lost by skipping 6.

Two backends, chosen by the settings:

- **Redis pub/sub** (``LIVE_REDIS_URL``, which is ``REDIS_URL``): :func:`publish` sends the
  version on the channel (redis-py's sync client); each connection subscribes with the asyncio
  client, so a version published through any server reaches every server at once (about a
  millisecond on one machine). Each open connection holds one connection to Redis, and reads
  the stored version again every ``LIVE_RECHECK_SECONDS`` in case a publish was lost (a
  Redis timeout on the writer's side). If Redis cannot be reached, a connection falls back to
  polling, below, and tries Redis again every ``RETRY_SECONDS``: a Redis outage slows the live
  pages, it never stops them.
- **The database, polled** (no ``REDIS_URL``: ``make run``, one machine): :func:`publish` does
  nothing, and the stored version is read every ``LIVE_POLL_SECONDS`` (0.25 s), once for all
  the connections of one worker open on the same table (:class:`_Poll`). It needs no other
  service and works across every worker and server that shares the database; its cost is a
  primary-key query per poll for each table open on each worker (at most 160 a second for 20
  tables on 2 workers, however many people), one when a connection opens, and up to a poll's
  wait (0.125 s on average) before a play shows.

``current`` is a plain (sync) function: it runs in this module's own small pool of threads
(``LIVE_DATABASE_THREADS``), so open connections share a few database connections instead of
holding one each as a thread-sensitive call would (one per request under ASGI: a hundred
streams would take a hundred PostgreSQL connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncGenerator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, TypeVar

import redis
import redis.asyncio as aredis
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import DatabaseError, connections, transaction

from games.caches import Breaker, breaker_for

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Every channel's name in Redis starts with this, so the site's channels are its own.
PREFIX = "lanterloo:live:"
#: How long Redis is left alone after a connection error or a time-out (as games.caches does).
RETRY_SECONDS = 5.0
#: How long a connection to Redis may take to open, or a publish to answer: a hung Redis
#: costs one play this long once per outage and worker (then the breaker, _Health, skips it).
REDIS_TIMEOUT = 0.5

_ERRORS = (redis.RedisError, OSError)


class _Health:
    """Whether Redis and the database answer, shared by a process's connections: an outage is
    logged once when it starts and once when it ends, not by every connection on every poll.
    Redis has a breaker (games.caches.Breaker), the one the shared cache uses for the same
    server: after a failure, of a publish or of the cache, Redis is left alone for
    RETRY_SECONDS, then tried by one caller, so a hung Redis does not cost every publish a
    time-out; meanwhile the connections poll the database. A test may give it a breaker of
    its own (on a clock it moves)."""

    def __init__(self, breaker: Breaker | None = None) -> None:
        self._lock = threading.Lock()
        self._breaker = breaker
        self.database_down = False

    @property
    def redis(self) -> Breaker:
        return self._breaker or breaker_for([redis_url()])

    @property
    def redis_down_until(self) -> float:
        """0 while Redis is thought up, else when it is next tried (a test may set it to 0:
        try Redis at once)."""
        return self.redis.down_until

    @redis_down_until.setter
    def redis_down_until(self, value: float) -> None:
        self.redis.down_until = value

    def redis_usable(self) -> bool:
        """Whether to call Redis now (past a failure's wait, True for one caller only: the
        caller that gets it must call Redis and report, redis_failed or redis_answered)."""
        return self.redis.usable()

    def redis_down(self) -> bool:
        """Whether Redis is thought down in this process (a publish, a subscription or the
        shared cache failed, and it has not answered since): while it is, publishes may be
        skipped, so a connection must poll the database. Asking hands out no try."""
        return self.redis.outage

    def redis_failed(self, error: BaseException) -> None:
        self.redis.failed(error)

    def redis_answered(self) -> None:
        self.redis.answered()

    def database_failed(self, error: BaseException) -> None:
        with self._lock:
            if not self.database_down:
                log.error("The live bus cannot read a table's version: %s", error)
            self.database_down = True

    def database_answered(self) -> None:
        if self.database_down:
            with self._lock:
                if self.database_down:
                    log.warning("The live bus reads tables' versions again.")
                self.database_down = False


health = _Health()


def redis_url() -> str:
    """The Redis server of the bus, or '' for the database's polling."""
    return str(getattr(settings, "LIVE_REDIS_URL", ""))


# -- publishing --------------------------------------------------------------------------------


@cache
def _publisher(url: str) -> redis.Redis:
    """One client (and pool of connections) per process and server: redis-py's is thread-safe."""
    return redis.Redis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )


def publish(channel: str, version: int) -> None:
    """Tell the connections open on ``channel`` that ``version`` is stored. Call it after the
    version is committed (:func:`publish_on_commit`), never before: a connection that hears of
    it reads the table at once. Never raises: with Redis down, or with no Redis, the
    connections poll the database and find the version themselves."""
    url = redis_url()
    if not url or not health.redis_usable():
        return
    try:
        _publisher(url).publish(PREFIX + channel, str(version))
    except _ERRORS as error:
        health.redis_failed(error)
    else:
        health.redis_answered()


def publish_on_commit(channel: str, version: int, using: str | None = None) -> None:
    """:func:`publish` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish(channel, version), using=using)


# -- listening ---------------------------------------------------------------------------------


@cache
def _readers() -> ThreadPoolExecutor:
    """The threads that read tables' versions for every open connection of this process."""
    return ThreadPoolExecutor(max_workers=_reader_count(), thread_name_prefix="live-bus")


def _reader_count() -> int:
    return int(getattr(settings, "LIVE_DATABASE_THREADS", 4))


def close_readers() -> None:
    """Close the reader threads' database connections (each thread closes its own: a barrier
    keeps each on one task). For a test database that is to be dropped, or a shutdown."""
    if not _readers.cache_info().currsize:
        return
    count = _reader_count()
    barrier = threading.Barrier(count)

    def close() -> None:
        connections.close_all()
        barrier.wait(timeout=10)

    for future in [_readers().submit(close) for _ in range(count)]:
        future.result()


def _read_in_thread(current: Callable[[], int | None]) -> int | None | Exception:
    """``current()`` in a reader thread, its database errors returned, not raised. The thread's
    database connection is not a request's, so Django never closes it: it is kept for the
    thread's next read whatever CONN_MAX_AGE says (0 under ASGI, loo_site/asgi.py: a connection
    a read would cost 4 a second per stream), and closed here when a read fails on it (a
    broken connection, a restarted server), to be opened again by the next."""
    try:
        return current()
    except DatabaseError as error:
        for conn in connections.all(initialized_only=True):
            conn.close()
        return error


def _call_in_thread(call: Callable[[], T]) -> T:
    try:
        return call()
    except DatabaseError:
        for conn in connections.all(initialized_only=True):
            conn.close()
        raise


async def in_reader_thread(call: Callable[[], T]) -> T:
    """``call()``, a sync function that uses the database (a stream's hook: a people table's
    player whose time ran out), in the bus's own threads: it shares their few database
    connections instead of holding one for each open stream. A connection is closed when a
    call fails on it (as :func:`_read_in_thread` does)."""
    return await SyncToAsync(_call_in_thread, thread_sensitive=False, executor=_readers())(call)


class _Gone(Exception):
    """The table is no more (``current`` answered None): the updates end."""


async def _read(current: Callable[[], int | None], last: int | None) -> int | None:
    """The stored version, or ``last`` if the database cannot say now (logged, tried again at
    the next poll); raises _Gone if the table is gone."""
    result = await SyncToAsync(_read_in_thread, thread_sensitive=False, executor=_readers())(
        current
    )
    if isinstance(result, Exception):
        health.database_failed(result)
        return last
    health.database_answered()
    if result is None:
        raise _Gone
    return result


class _Poll:
    """One channel's version, polled once for all the connections of one event loop (a
    worker) that poll it: the five people of a table on one worker cost one query a poll, not
    five. Started by the first connection, stopped with the last (:func:`_shared_poll`)."""

    def __init__(self, current: Callable[[], int | None], poll: float) -> None:
        self.version: int | None = None  # not read yet
        self.gone = False
        self.users = 0
        self._changed = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(current, poll))

    async def _run(self, current: Callable[[], int | None], poll: float) -> None:
        try:
            while True:
                await asyncio.sleep(poll)
                stored = await _read(current, self.version)
                if stored is not None and (self.version is None or stored > self.version):
                    self.version = stored
                    self._changed.set()
                    self._changed = asyncio.Event()
        except _Gone:
            self.gone = True
            self._changed.set()

    async def after(self, last: int) -> int:
        """The polled version once it is above ``last``; raises _Gone if the table is."""
        while True:
            if self.gone:
                raise _Gone
            if self.version is not None and self.version > last:
                return self.version
            await self._changed.wait()

    def stop(self) -> None:
        self._task.cancel()


_polls: dict[tuple[asyncio.AbstractEventLoop, str], _Poll] = {}


@contextlib.contextmanager
def _shared_poll(channel: str, current: Callable[[], int | None], poll: float) -> Iterator[_Poll]:
    """This event loop's poll of ``channel`` (the first user's ``current`` reads for all: any
    connection's reads the same row)."""
    key = (asyncio.get_running_loop(), channel)
    shared = _polls.get(key)
    if shared is None:
        shared = _polls[key] = _Poll(current, poll)
    shared.users += 1
    try:
        yield shared
    finally:
        shared.users -= 1
        if not shared.users:
            shared.stop()
            del _polls[key]


async def _subscribe(url: str, channel: str) -> tuple[Any, Any] | None:
    """A client and its pub/sub, subscribed to ``channel``; None if Redis cannot be reached.

    It returns once Redis has confirmed the subscription (or after REDIS_TIMEOUT without
    it): redis-py's ``subscribe`` only sends the command, and a version published on another
    connection meanwhile can reach Redis first and be told to no one. A read made after the
    confirmation (:func:`updates`) finds any version published before it."""
    if not health.redis_usable():
        return None
    client = aredis.Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT)
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(PREFIX + channel)
        until = time.monotonic() + REDIS_TIMEOUT
        while (wait := until - time.monotonic()) > 0:
            message = await pubsub.get_message(timeout=wait)
            if message is not None and message.get("type") == "subscribe":
                break
    except _ERRORS as error:
        health.redis_failed(error)
        await _close(client, pubsub)
        return None
    health.redis_answered()
    return client, pubsub


async def _close(client: Any, pubsub: Any) -> None:
    try:
        await pubsub.aclose()
        await client.aclose()
    except _ERRORS:
        pass


async def updates(
    channel: str, after: int, current: Callable[[], int | None]
) -> AsyncGenerator[int, None]:
    """The versions of ``channel`` after ``after``, as soon as each is known: increasing, never
    one twice, the newest always among them (see the module's docstring). ``current`` reads the
    stored version (a sync function, run in the bus's threads); None means the table is gone,
    and ends the updates. Runs until the caller stops iterating (``aclose()``, or a cancelled
    task: a client that went away)."""
    poll = float(getattr(settings, "LIVE_POLL_SECONDS", 0.25))
    recheck = float(getattr(settings, "LIVE_RECHECK_SECONDS", 5.0))
    url = redis_url()
    last = after
    try:
        while True:
            # Subscribe first, then read: a version committed in between is in the read, one
            # committed after it comes by the channel; none falls between the two.
            subscribed = await _subscribe(url, channel) if url else None
            try:
                stored = await _read(current, last)
                if stored is not None and stored > last:
                    last = stored
                    yield last
                if subscribed is None:
                    # Polling: for ever with no Redis, else till Redis is worth trying again.
                    until = time.monotonic() + RETRY_SECONDS if url else None
                    with _shared_poll(channel, current, poll) as shared:
                        while until is None or time.monotonic() < until:
                            wait = None if until is None else until - time.monotonic()
                            try:
                                last = await asyncio.wait_for(shared.after(last), wait)
                            except TimeoutError:
                                break
                            yield last
                    continue
                pubsub = subscribed[1]
                while True:
                    try:
                        message = await pubsub.get_message(timeout=recheck)
                    except _ERRORS as error:
                        health.redis_failed(error)
                        break  # a gap: subscribe again (or poll), and read again
                    if message is None:
                        # Quiet for a while: a publish may have been lost, so read.
                        heard = await _read(current, last)
                    elif message.get("type") == "message":
                        heard = _version(message.get("data"))
                    else:  # a late confirmation of the subscription
                        continue
                    if heard is not None and heard > last:
                        last = heard
                        yield last
            finally:
                if subscribed is not None:
                    # Shielded: a cancelled stream still closes its connection to Redis.
                    await asyncio.shield(_close(*subscribed))
    except _Gone:
        return


def _version(data: object) -> int | None:
    try:
        return int(data)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
