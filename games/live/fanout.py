"""One listener per worker process: it hears every table open on the worker and tells each of
the worker's streams of its own table's new versions.

A stream (:func:`updates`) joins its channel on the
listener of its event loop (one per worker process: uvicorn's) and waits there; it costs the
worker no connection of its own, to Redis or to the database:

- **Redis** (``LIVE_REDIS_URL``): one pub/sub connection per process, subscribed to the
  channels open on it (SUBSCRIBE when the first stream of a table joins, UNSUBSCRIBE when
  its last leaves). Every ``LIVE_RECHECK_SECONDS`` the stored versions of all of them are read
  in one query, in case a publish was lost. If Redis fails (or the process's publisher found
  it down: :data:`games.live.bus.health`), the listener polls, below, and tries Redis again
  after ``RETRY_SECONDS``: it reads every channel at once on falling back and again once
  Redis has confirmed the subscriptions, so a version stored in the gap is heard.
- **The database, polled** (no Redis, or Redis down): every ``LIVE_POLL_SECONDS`` one read of
  every channel open on the process (:func:`games.live.bus.read_all`: the
  :class:`~games.live.bus.Batched` channels of a kind, a people table's, in one query), in the
  bus's reader threads, whose connection is closed as soon as the read is done.

Each stream subscribes first (it waits for Redis's confirmation of its channel, or for
``REDIS_TIMEOUT``) and then reads its table's stored version once: a version committed in
between is in the read, one committed after it comes by the channel or the next poll. The
listener keeps each channel's newest known version; a stream yields it when it is above the
last it yielded: increasing, never one twice, the newest always (an older one heard late is
dropped, and a stream that was slow to take 6 and 7 takes 7).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

import redis.asyncio as aredis
from django.conf import settings
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from games.live import bus

log = logging.getLogger(__name__)

Current = Callable[[], int | None]


class _Channel:
    """One channel open on the listener: its newest known version, and a queue for each of
    its streams that gets each newer version in turn (None: the table is gone)."""

    def __init__(self, name: str, current: Current) -> None:
        self.name = name
        self.current = current
        self.version: int | None = None
        self.gone = False
        self.queues: set[asyncio.Queue[int | None]] = set()
        #: Set once the channel's versions reach the listener: Redis confirmed the
        #: subscription, or the listener polls.
        self.subscribed = asyncio.Event()

    def tell(self, version: int | None) -> None:
        """A version read or heard (None: the table is gone): passed on if it is newer than
        any before it."""
        if version is None:
            self.gone = True
        elif self.version is None or version > self.version:
            self.version = version
        else:
            return
        for queue in self.queues:
            queue.put_nowait(version)

    def listen(self) -> asyncio.Queue[int | None]:
        """A stream's queue: the newest version known now, then each newer one."""
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        if self.gone:
            queue.put_nowait(None)
        elif self.version is not None:
            queue.put_nowait(self.version)
        self.queues.add(queue)
        return queue


class Listener:
    """The channels open on one event loop (a worker process) and the one task that hears
    them (:meth:`_run`): through Redis, or by polling."""

    def __init__(self) -> None:
        self.channels: dict[str, _Channel] = {}
        self.pubsub: Any = None  # while listening on Redis
        self.mode = "polling"  # or "connecting", "redis"
        self._task: asyncio.Task[None] | None = None
        #: The channels heard by polling before Redis (re)connected: once Redis has confirmed
        #: them all, every channel is read once (what was stored in the gap).
        self._gap: set[str] = set()
        self._background: set[asyncio.Task[Any]] = set()

    # -- the streams' side ---------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def joined(
        self, name: str, current: Current
    ) -> AsyncIterator[tuple[_Channel, asyncio.Queue[int | None]]]:
        channel = self.channels.get(name)
        new = channel is None
        if channel is None:
            channel = self.channels[name] = _Channel(name, current)
        queue = channel.listen()
        try:
            if new:
                self._start()
                if self.mode == "polling":
                    channel.subscribed.set()
                elif self.mode == "redis":
                    await self._subscribe(name)
                # "connecting": the connection subscribes it (_connect).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.subscribed.wait(), bus.REDIS_TIMEOUT)
            yield channel, queue
        finally:
            channel.queues.discard(queue)
            if not channel.queues and self.channels.get(name) is channel:
                del self.channels[name]
                if name in self._gap:
                    self._gap.discard(name)
                    if not self._gap:
                        self._spawn(self.read_all())
                if self.mode == "redis":
                    self._spawn(self._unsubscribe(name))

    def _start(self) -> None:
        if self._task is None or self._task.done():
            url = bus.redis_url()
            # (Asking whether Redis is down hands out no try: _run takes it.)
            self.mode = "connecting" if url and not bus.health.redis_down() else "polling"
            self._task = asyncio.get_running_loop().create_task(self._run())

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _subscribe(self, name: str) -> None:
        pubsub = self.pubsub
        try:
            await pubsub.subscribe(bus.PREFIX + name)
        except bus._ERRORS as error:
            self._failed(pubsub, error)

    async def _unsubscribe(self, name: str) -> None:
        pubsub = self.pubsub
        if pubsub is None or name in self.channels:  # polling, or joined again meanwhile
            return
        try:
            await pubsub.unsubscribe(bus.PREFIX + name)
        except bus._ERRORS as error:
            self._failed(pubsub, error)

    # -- the listener's task -------------------------------------------------------------------

    async def _run(self) -> None:
        """Hear the channels while any is open: on Redis while it answers, else polling."""
        gap = False  # polling after Redis failed: read at once
        while self.channels:
            url = bus.redis_url()
            if url and bus.health.redis_usable():
                await self._listen(url)
                gap = True
                continue
            await self._poll(until=time.monotonic() + bus.RETRY_SECONDS if url else None, now=gap)
            gap = False

    async def _poll(self, until: float | None, now: bool) -> None:
        self.mode = "polling"
        for channel in self.channels.values():
            channel.subscribed.set()
        poll = float(getattr(settings, "LIVE_POLL_SECONDS", 0.25))
        while self.channels and (until is None or time.monotonic() < until):
            if not now:
                await asyncio.sleep(poll)
            now = False
            await self.read_all()

    async def read_all(self) -> None:
        """Read the stored version of every open channel, in one reader thread's call."""
        currents = {name: channel.current for name, channel in self.channels.items()}
        if not currents:
            return
        found = await bus.read_all(currents)
        for name, version in (found or {}).items():
            channel = self.channels.get(name)
            if channel is not None:
                channel.tell(version)

    async def _connect(self, url: str) -> Any:
        """A pub/sub connection subscribed to every open channel; None if Redis cannot be
        reached (logged once for the outage)."""
        self.mode = "connecting"
        client = aredis.Redis.from_url(
            url, socket_connect_timeout=bus.REDIS_TIMEOUT, retry=Retry(NoBackoff(), 0)
        )
        pubsub = client.pubsub()
        names = list(self.channels)
        gap = {n for n in names if self.channels[n].subscribed.is_set()}
        try:
            # A channel of no table: a pub/sub connection needs one to read from.
            await pubsub.subscribe(bus.PREFIX + "-", *(bus.PREFIX + n for n in names))
            self._gap = gap
            self.pubsub = pubsub
            self.mode = "redis"
            # Joined while the connection was being made: subscribed now.
            for name in set(self.channels) - set(names):
                await pubsub.subscribe(bus.PREFIX + name)
        except bus._ERRORS as error:
            bus.health.redis_failed(error)
            self.pubsub = None
            await _close(pubsub)
            return None
        return pubsub

    async def _listen(self, url: str) -> None:
        """Listen on Redis until it fails (or there is nothing left to hear)."""
        pubsub = await self._connect(url)
        if pubsub is None:
            return
        recheck = float(getattr(settings, "LIVE_RECHECK_SECONDS", 5.0))
        due = time.monotonic() + recheck
        # Redis must speak on this connection (the subscriptions' confirmations, a PING's
        # answer) within two time-outs of being asked: a Redis that hangs (stopped, not dead)
        # takes every command and answers none, and raises nothing.
        asked_at = time.monotonic()
        heard_at: float | None = None
        try:
            while self.channels and self.pubsub is pubsub:
                # At least once a second: has Redis gone quiet, or the publisher found it down?
                wait = max(0.0, min(due - time.monotonic(), 1.0))
                try:
                    message = await pubsub.get_message(timeout=wait)
                except bus._ERRORS as error:
                    self._failed(pubsub, error)
                    break
                now = time.monotonic()
                if message is not None:
                    heard_at = now
                    bus.health.redis_answered()
                    self._heard(message)
                elif (heard_at is None or heard_at < asked_at) and now > asked_at + 2 * (
                    bus.REDIS_TIMEOUT
                ):
                    self._failed(pubsub, TimeoutError("Redis did not answer the live listener"))
                    break
                elif heard_at is not None and heard_at >= asked_at and bus.health.redis_down():
                    # The publisher or the shared cache found Redis down since it spoke here.
                    self._failed(pubsub, None)
                    break
                if now >= due:
                    # Quiet for a while, or not: a publish may have been lost, or Redis hung.
                    due = now + recheck
                    self._spawn(self.read_all())
                    try:
                        await pubsub.ping()
                    except bus._ERRORS as error:
                        self._failed(pubsub, error)
                        break
                    asked_at = time.monotonic()
        finally:
            if self.pubsub is pubsub:
                self.pubsub = None
            self.mode = "polling"
            # Shielded: a cancelled listener still closes its connection to Redis.
            await asyncio.shield(_close(pubsub))

    def _heard(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        name = _name(message.get("channel"))
        channel = self.channels.get(name) if name is not None else None
        if channel is None:
            return
        if kind == "message":
            version = bus._version(message.get("data"))
            if version is not None:
                channel.tell(version)
        elif kind == "subscribe":
            channel.subscribed.set()
            if name in self._gap:
                self._gap.discard(name)
                if not self._gap:
                    # Every channel open when Redis (re)connected is confirmed: what was
                    # stored before is in this read, what comes after by Redis.
                    self._spawn(self.read_all())

    def _failed(self, pubsub: Any, error: BaseException | None) -> None:
        """Redis failed: the listener polls (its task sees ``pubsub`` is no longer its own)."""
        if error is not None:
            bus.health.redis_failed(error)
        if self.pubsub is pubsub:
            self.pubsub = None
        self.mode = "polling"
        for channel in self.channels.values():
            channel.subscribed.set()


def _name(channel: object) -> str | None:
    if isinstance(channel, bytes):
        channel = channel.decode(errors="replace")
    if isinstance(channel, str) and channel.startswith(bus.PREFIX):
        return channel[len(bus.PREFIX) :]
    return None


async def _close(pubsub: Any) -> None:
    try:
        await pubsub.aclose()
        await pubsub.connection_pool.disconnect()
    except (*bus._ERRORS, AttributeError):
        pass


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = (
    weakref.WeakKeyDictionary()
)


def listener() -> Listener:
    """The listener of the running event loop (a worker process)."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        found = _listeners[loop] = Listener()
    return found


async def updates(channel: str, after: int, current: Current) -> AsyncGenerator[int, None]:
    """The versions of ``channel`` after ``after``, as soon as each is known: increasing,
    never one twice, the newest always among them. ``current`` reads the stored version (a
    sync function, run in the bus's threads; a :class:`~games.live.bus.Batched` one is read
    with every other channel of its kind in one query); None means the table is gone, and
    ends the updates. Runs until the caller stops iterating (``aclose()``, or a cancelled
    task: a client that went away)."""
    last = after
    try:
        async with listener().joined(channel, current) as (joined, heard):
            # Subscribed first, then read: nothing committed falls between the two.
            stored = await bus._read(current, None)
            if stored is not None:
                joined.tell(stored)
            while True:
                version = await heard.get()
                if version is None:
                    return
                if version > last:
                    last = version
                    yield last
    except bus._Gone:
        return
