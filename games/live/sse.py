"""A Server-Sent Events response for an async view: a table's new versions, as they come.

The caller (a people table's view, next) checks who asks and what he may see, then returns
``stream(request, channel, after=..., current=...)``. The browser's ``EventSource`` (htmx's
SSE extension, static/vendor/) gets::

    retry: 2000                 how long to wait before reconnecting, once, first

    id: 7                       each new version: its id is the version, so a reconnecting
    event: update               browser sends ``Last-Event-ID: 7`` and is told only of what
    data: 7                     came after it

    : heartbeat                 a comment every LIVE_HEARTBEAT_SECONDS, quiet or not

With a ``render`` hook the caller says what each version's event is instead (a people table's
stream sends the viewer's own table, rendered: ``event: table``, its HTML as the data, its
version as the id; or ``event: reload`` and the end of the stream if he may no longer see
it). When several versions came while one was rendered, only the newest is rendered.

The heartbeat keeps proxies and load balancers from closing a quiet stream. The caller's
``on_wake`` hook is a place to act when something falls due: a people table's player whose
time ran out, whom a computer player replaces at his deadline, not at the next heartbeat. It
is called when the stream opens, after each version sent and at each heartbeat, and says when
it is next due; the stream wakes then to call it again. ``on_beat`` is called at each
heartbeat (a stream's hold on its place: loo_site.limits.hold), ``on_close`` once the stream
ends, whatever ended it. The stream ends when the browser goes away (Django's ASGI handler
cancels it; the bus's connection is closed) or when ``current`` finds the table gone.

A stream holds no database connection while it waits: the connections the request's own
thread opened (the session, the user, in the middleware) are closed as it starts, and the
hooks' database work runs in the bus's reader threads, which close theirs at once
(games.live.bus.in_reader_thread).

A stream needs an ASGI server (``make run`` serves one). Under WSGI a sync worker would be
held by each open page, for ever: there the response is ``204 No Content``, which tells an
``EventSource`` to stop reconnecting, and the page goes on with its own refresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from games.live.fanout import updates

log = logging.getLogger(__name__)

#: Milliseconds a browser waits before reconnecting a stream that ended or broke.
RETRY_MS = 2000

#: A stream's hook: it acts for what is due now, and says in how many seconds something is
#: next due (None: nothing is, or nothing it knows of: the next heartbeat calls it again).
Hook = Callable[[], Awaitable[float | None]]


@dataclass(frozen=True)
class Event:
    """One event of the stream: its name, its data (any text: each line is sent as a
    ``data:`` line, and the browser joins them again), its id; ``last``: the stream ends
    after it."""

    name: str
    data: str
    id: int | None = None
    last: bool = False

    def encode(self) -> bytes:
        lines = [f"id: {self.id}"] if self.id is not None else []
        lines.append(f"event: {self.name}")
        text = self.data.replace("\r\n", "\n").replace("\r", "\n")
        lines += [f"data: {line}" for line in text.split("\n")]
        return ("\n".join(lines) + "\n\n").encode()


#: What a version's event is (None: nothing to send for it).
Render = Callable[[int], Awaitable[Event | None]]

#: Tasks run after their stream ended (its on_close), kept till they are done.
_closing: set[asyncio.Task[Any]] = set()


def stream(
    request: HttpRequest,
    channel: str,
    *,
    after: int,
    current: Callable[[], int | None],
    on_wake: Hook | None = None,
    render: Render | None = None,
    on_beat: Callable[[], Awaitable[Any]] | None = None,
    on_close: Callable[[], Awaitable[Any]] | None = None,
) -> HttpResponse | StreamingHttpResponse:
    """The versions of ``channel`` after ``after`` (or after the ``Last-Event-ID`` a
    reconnecting browser sends, if later) as an event stream; ``current`` reads the stored
    version (games.live.fanout.updates). Authorization is the caller's."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    after = max(after, last_event_id(request))
    heartbeat = float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))
    response = StreamingHttpResponse(
        events(
            channel,
            after,
            current,
            heartbeat=heartbeat,
            on_wake=on_wake,
            render=render,
            on_beat=on_beat,
            on_close=on_close,
        ),
        content_type="text/event-stream",
    )
    # Never kept, never buffered by a proxy (nginx reads X-Accel-Buffering), never
    # compressed (a compressor holds bytes back).
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def last_event_id(request: HttpRequest) -> int:
    """The version a reconnecting browser last had (0 if none, or not a version)."""
    value = request.headers.get("Last-Event-ID", "").strip()
    return int(value) if value.isdigit() and len(value) <= 18 else 0


async def _render_update(version: int) -> Event:
    return Event("update", str(version), version)


async def events(
    channel: str,
    after: int,
    current: Callable[[], int | None],
    *,
    heartbeat: float,
    on_wake: Hook | None = None,
    render: Render | None = None,
    on_beat: Callable[[], Awaitable[Any]] | None = None,
    on_close: Callable[[], Awaitable[Any]] | None = None,
) -> AsyncIterator[bytes]:
    """The stream's bytes: the retry hint, then each version's event and a heartbeat every
    ``heartbeat`` seconds, whatever came between; ``on_wake`` called on opening, after each
    version, at each heartbeat and when it said it is next due."""
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        # The request's own thread (its middleware read the session and the user) gives its
        # database connection back: the stream waits without one.
        await sync_to_async(connections.close_all)()
        async for chunk in _events(
            channel, after, current, heartbeat, on_wake, render or _render_update, on_beat
        ):
            yield chunk
    finally:
        if on_close is not None:
            # Run to its end even if this stream is cancelled again meanwhile.
            task = asyncio.ensure_future(on_close())
            _closing.add(task)
            task.add_done_callback(_closing.discard)


async def _events(
    channel: str,
    after: int,
    current: Callable[[], int | None],
    heartbeat: float,
    on_wake: Hook | None,
    render: Render,
    on_beat: Callable[[], Awaitable[Any]] | None,
) -> AsyncIterator[bytes]:
    source = updates(channel, after, current)
    # The bus is read by a task of its own, so that waiting for a version can time out for
    # a heartbeat without cancelling the bus mid-read.
    heard: asyncio.Queue[int | None] = asyncio.Queue()

    async def pump() -> None:
        try:
            async for version in source:
                heard.put_nowait(version)
        finally:
            heard.put_nowait(None)

    async def wake() -> float | None:
        """When (time.monotonic()) the hook is next due, after calling it."""
        if on_wake is None:
            return None
        try:
            seconds = await on_wake()
        except Exception:
            log.exception("The live stream's hook failed on %s", channel)
            return None
        return None if seconds is None else time.monotonic() + max(0.0, seconds)

    task = asyncio.create_task(pump())
    beat = time.monotonic() + heartbeat
    try:
        due = await wake()
        while True:
            until = beat if due is None else min(beat, due)
            try:
                version = await asyncio.wait_for(heard.get(), max(0.0, until - time.monotonic()))
            except TimeoutError:
                if time.monotonic() >= beat:
                    beat += heartbeat
                    yield b": heartbeat\n\n"
                    if on_beat is not None:
                        await on_beat()
                due = await wake()
                continue
            # Versions that came meanwhile: only the newest is rendered.
            while version is not None and not heard.empty():
                version = heard.get_nowait()
            if version is None:
                task.result()  # the bus's error, if it ended with one
                return
            event = await render(version)
            if event is not None:
                yield event.encode()
                if event.last:
                    return
            due = await wake()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await source.aclose()
