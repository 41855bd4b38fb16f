"""A Server-Sent Events response for an async view: a table's new versions, as they come.

The caller (a people table's view, next) checks who asks and what he may see, then returns
``stream(request, channel, after=..., current=...)``. The browser's ``EventSource`` (htmx's
SSE extension, static/vendor/) gets::

    retry: 2000                 how long to wait before reconnecting, once, first

    id: 7                       each new version: its id is the version, so a reconnecting
    event: update               browser sends ``Last-Event-ID: 7`` and is told only of what
    data: 7                     came after it

    : heartbeat                 a comment every LIVE_HEARTBEAT_SECONDS, quiet or not

The heartbeat keeps proxies and load balancers from closing a quiet stream. The caller's
``on_wake`` hook is a place to act when something falls due: a people table's player whose
time ran out, whom a computer player replaces at his deadline, not at the next heartbeat. It
is called when the stream opens, after each version sent and at each heartbeat, and says when
it is next due; the stream wakes then to call it again. The stream ends when the browser goes
away (Django's ASGI handler cancels it; the bus's connection is closed) or when ``current``
finds the table gone.

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

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from games.live.bus import updates

log = logging.getLogger(__name__)

#: Milliseconds a browser waits before reconnecting a stream that ended or broke.
RETRY_MS = 2000

#: A stream's hook: it acts for what is due now, and says in how many seconds something is
#: next due (None: nothing is, or nothing it knows of: the next heartbeat calls it again).
Hook = Callable[[], Awaitable[float | None]]


def stream(
    request: HttpRequest,
    channel: str,
    *,
    after: int,
    current: Callable[[], int | None],
    on_wake: Hook | None = None,
) -> HttpResponse | StreamingHttpResponse:
    """The versions of ``channel`` after ``after`` (or after the ``Last-Event-ID`` a
    reconnecting browser sends, if later) as an event stream; ``current`` reads the stored
    version (games.live.bus.updates). Authorization is the caller's."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    after = max(after, last_event_id(request))
    heartbeat = float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))
    response = StreamingHttpResponse(
        events(channel, after, current, heartbeat=heartbeat, on_wake=on_wake),
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


async def events(
    channel: str,
    after: int,
    current: Callable[[], int | None],
    *,
    heartbeat: float,
    on_wake: Hook | None = None,
) -> AsyncIterator[bytes]:
    """The stream's bytes: the retry hint, then each version and a heartbeat every
    ``heartbeat`` seconds, whatever came between; ``on_wake`` called on opening, after each
    version, at each heartbeat and when it said it is next due."""
    yield f"retry: {RETRY_MS}\n\n".encode()
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
                due = await wake()
                continue
            if version is None:
                task.result()  # the bus's error, if it ended with one
                return
            yield f"id: {version}\nevent: update\ndata: {version}\n\n".encode()
            due = await wake()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await source.aclose()
