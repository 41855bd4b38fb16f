"""The live bus: a table's new version, told to every connection open on it, on one machine or
on several.

A writer stores a table's new version, then calls :func:`publish` once the transaction has
committed (:func:`publish_on_commit` does both halves' joining: ``transaction.on_commit``).
Each open connection (an SSE stream, :mod:`games.live.sse`) iterates
:func:`games.live.fanout.updates`, which yields the versions after the one its page shows, in
increasing order, never one twice, heard through its worker's one listener.

The database is the truth; the bus only hurries it along. A connection reads the stored
version (``current``, the caller's: a one-row query) when it starts, and the listener reads
every open table's after any gap, so a version committed while a page was loading, or while
Redis was away, is yielded at once; and when it knows of two versions at once (or hears of an
older one late: two servers publishing 6 and 7 can be heard 7, 6) it yields only the newest.
Versions are a count per table: a page that gets 7 after 5 asks what happened after 5 (the
caller's view), so nothing is lost by skipping 6.

Two backends, chosen by the settings:

- **Redis pub/sub** (``LIVE_REDIS_URL``, which is ``REDIS_URL``): :func:`publish` sends the
  version on the channel (redis-py's sync client); each worker process listens with one
  asyncio pub/sub connection, subscribed to the channels its streams follow, so a version
  published through any server reaches every server at once (about a millisecond on one
  machine). The listener reads every open table's stored version every
  ``LIVE_RECHECK_SECONDS`` in case a publish was lost (a Redis timeout on the writer's side).
  If Redis cannot be reached, the listener falls back to polling, below, and tries Redis
  again every ``RETRY_SECONDS``: a Redis outage slows the live pages, it never stops them.
- **The database, polled** (no ``REDIS_URL``: ``make run``, one machine): :func:`publish` does
  nothing, and every ``LIVE_POLL_SECONDS`` (0.25 s) each worker's listener reads the stored
  versions of every table open on it in one query (:class:`Batched`, :func:`read_all`). It
  needs no other service and works across every worker and server that shares the database;
  its cost is one primary-key query per poll per worker (8 a second for 2 workers, however
  many tables and people), one when a connection opens, and up to a poll's wait (0.125 s on
  average) before a play shows.

``current`` is a plain (sync) function: it runs in this module's own small pool of threads
(``LIVE_DATABASE_THREADS``, :func:`in_reader_thread`): open streams hold no database
connection while they wait, and a worker's streams use at most that many at once, however
many are open (a thread-sensitive call would hold one per stream under ASGI: a hundred
streams, a hundred PostgreSQL connections). A reader thread closes its connection when no
other call waits for a reader, and keeps it for the next call while others wait
(:func:`_given_back`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import redis
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


#: The longest a reader thread keeps a database connection it opened while calls wait for it
#: (ASGI's requests keep none: loo_site/asgi.py).
READER_CONNECTION_SECONDS = 60.0


def _given_back() -> None:
    """After a call in a reader thread: its database connection closed once no other call
    waits for a reader, so that open streams hold none while they wait; kept for the next
    call while others wait (a play wakes every stream of its table at once, and opening a
    connection for each of their calls was a tenth of a busy worker's time, profiled:
    SQLite's pragmas, PostgreSQL's new backend), at most :data:`READER_CONNECTION_SECONDS`
    from its opening. One that failed and is no longer usable (a restarted server), or left
    in a transaction, is closed at once."""
    waiting = getattr(_readers(), "_work_queue", None)
    busy = waiting is not None and not waiting.empty()
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if getattr(conn, "_reader_connection", None) is not conn.connection:
            conn._reader_connection = conn.connection  # type: ignore[attr-defined]
            conn.close_at = time.monotonic() + READER_CONNECTION_SECONDS
        if conn.in_atomic_block or not busy:
            conn.close()
        else:
            conn.close_if_unusable_or_obsolete()


def _read_in_thread(current: Callable[[], int | None]) -> int | None | Exception:
    """``current()`` in a reader thread, its database errors returned, not raised."""
    try:
        return current()
    except DatabaseError as error:
        return error
    finally:
        _given_back()


def _call_in_thread(call: Callable[[], T]) -> T:
    try:
        return call()
    finally:
        _given_back()


async def in_reader_thread(call: Callable[[], T]) -> T:
    """``call()``, a sync function that uses the database (a stream's hook, its check of who
    asks, its rendering of the table), in the bus's own threads, its connection closed as
    soon as it returns: a stream holds no database connection while it waits, and however
    many are open, a worker's streams use at most ``LIVE_DATABASE_THREADS`` at once."""
    return await SyncToAsync(_call_in_thread, thread_sensitive=False, executor=_readers())(call)


@dataclass(frozen=True)
class Batched:
    """A channel's ``current`` that can be read with its kind's other channels in one query:
    ``read(keys)`` answers the stored version of each key that still exists (a table's primary
    key: ``{pk: version}``). The listener of a process reads every channel open on it with one
    ``read`` a poll (:mod:`games.live.fanout`), not one a channel; alone, it reads its own
    key."""

    read: Callable[[list[Any]], Mapping[Any, int]]
    key: Any

    def __call__(self) -> int | None:
        return self.read([self.key]).get(self.key)


def read_many(currents: Mapping[str, Callable[[], int | None]]) -> dict[str, int | None]:
    """The stored version of each channel (None: gone): the :class:`Batched` ones of one kind
    in one query, any other by its own call. Run in a reader thread; raises DatabaseError."""
    found: dict[str, int | None] = {}
    kinds: dict[Any, list[tuple[str, Any]]] = {}
    for channel, current in currents.items():
        if isinstance(current, Batched):
            kinds.setdefault(current.read, []).append((channel, current.key))
        else:
            found[channel] = current()
    for read, keys in kinds.items():
        versions = read([key for _, key in keys])
        for channel, key in keys:
            found[channel] = versions.get(key)
    return found


async def read_all(
    currents: Mapping[str, Callable[[], int | None]],
) -> dict[str, int | None] | None:
    """:func:`read_many` in a reader thread; None if the database cannot say now (logged
    once for the outage)."""

    def reading() -> dict[str, int | None] | Exception:
        try:
            return read_many(currents)
        except DatabaseError as error:
            return error
        finally:
            _given_back()

    result = await SyncToAsync(reading, thread_sensitive=False, executor=_readers())()
    if isinstance(result, Exception):
        health.database_failed(result)
        return None
    health.database_answered()
    return result


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


def _version(data: object) -> int | None:
    try:
        return int(data)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
