"""At most so many ordinary requests served at once by one ASGI worker: what keeps a crowd of
pages within the database's connection budget (docs/deploying.md, "Workers").

Under ASGI Django serves each ordinary request (its sync middleware and view) in a thread of
its own, which opens a database connection of its own and closes it at the request's end
(``DJANGO_CONN_MAX_AGE`` is 0 there: loo_site/asgi.py). Nothing else bounds how many run at
once: uvicorn's ``limit_concurrency`` counts connections (every open live stream and idle
keep-alive connection too, so it must stay high), and a crowd of pages asked for at once
opened a database connection each, past PostgreSQL's ``max_connections`` ("sorry, too many
clients already": error pages for everyone, on every server).

:class:`RequestsAtOnce` wraps a worker's application (gunicorn.conf.py does, in each uvicorn
worker): an ordinary request waits its turn on the event loop, holding no thread and no
database connection, until one of ``limit`` places is free; one that has waited ``wait``
seconds is answered 503 with ``Retry-After`` (the page's script and the proxy ask again for
a GET: docs/deploying.md). Not counted (:data:`UNCOUNTED`): a table's live stream (it gives
its request's connection back as it starts, and is capped at once per account and address;
a page open for an hour must not keep a place), the static files and ``/healthz/`` (no
database: a busy server is alive).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The paths a place is not taken for: a table's live stream (``games:people-stream``), the
#: static files (``STATIC_URL``), the liveness check.
UNCOUNTED = re.compile(r"^/play/people/\d+/stream/$|^/static/|^/healthz/$")

#: What a request that waited too long is told, in plain words (a page's script shows it).
BUSY = "The server is busy just now: please try again in a moment."


class RequestsAtOnce:
    """``app`` with at most ``limit`` of its ordinary HTTP requests served at once in this
    process; the others wait their turn, at most ``wait`` seconds (then 503)."""

    def __init__(self, app: App, limit: int, wait: float = 10.0) -> None:
        if limit < 1:
            raise ValueError("at least one request at once")
        self.app = app
        self.limit = limit
        self.wait = wait
        # Made on the worker's event loop, at its first request.
        self._places: asyncio.Semaphore | None = None
        #: How many of its requests are being served now (for tests and figures).
        self.serving = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or UNCOUNTED.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        if self._places is None:
            self._places = asyncio.Semaphore(self.limit)
        places = self._places
        try:
            async with asyncio.timeout(self.wait):
                await places.acquire()
        except TimeoutError:
            await _busy(send, self.wait)
            return
        self.serving += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.serving -= 1
            places.release()


async def _busy(send: Send, wait: float) -> None:
    body = f"{BUSY}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(max(1, round(wait / 2))).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
