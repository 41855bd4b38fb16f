"""At most so many ordinary requests served at once by one ASGI worker (loo_site.requests_at_once,
which gunicorn.conf.py wraps each uvicorn worker's application in): the others wait their
turn, a live stream, a static file and the liveness check never do, and one that waits too
long is told the server is busy. That it keeps a crowd within the database's connections on a
real server: tests/deploy/test_stream_connections.py. Each test's event loop runs on a thread
of its own (in_a_thread): the browser tests' Playwright keeps one running on the main thread."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings
from django.urls import reverse

from loo_site.requests_at_once import BUSY, UNCOUNTED, RequestsAtOnce
from tests.live.conftest import in_a_thread


class Held:
    """An application whose requests are served until the test lets each go: it says which
    came in (``entered``, their paths in order)."""

    def __init__(self) -> None:
        self.entered: asyncio.Queue[str] = asyncio.Queue()
        self.go: dict[str, asyncio.Event] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.go[scope["path"]] = asyncio.Event()
        await self.entered.put(scope["path"])
        await self.go[scope["path"]].wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _request(app: RequestsAtOnce, path: str) -> asyncio.Task[list[dict[str, Any]]]:
    """A GET of ``path`` served by ``app``, as a task: what it sent."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    async def serve() -> list[dict[str, Any]]:
        await app({"type": "http", "path": path, "method": "GET"}, receive, send)
        return sent

    return asyncio.ensure_future(serve())


def test_past_the_limit_a_request_waits_its_turn() -> None:
    async def run() -> None:
        held = Held()
        app = RequestsAtOnce(held, 2)
        tasks = [_request(app, f"/page/{n}/") for n in range(3)]
        assert {await held.entered.get(), await held.entered.get()} == {"/page/0/", "/page/1/"}
        assert app.serving == 2 and not tasks[2].done()
        assert held.entered.empty()  # the third waits: nothing of it has begun
        held.go["/page/0/"].set()
        assert await held.entered.get() == "/page/2/"  # its turn, once one was served
        held.go["/page/1/"].set()
        held.go["/page/2/"].set()
        for task in tasks:
            assert (await task)[0]["status"] == 200
        assert app.serving == 0

    in_a_thread(lambda: asyncio.run(run()))


def test_a_stream_a_static_file_and_the_liveness_check_never_wait() -> None:
    async def run() -> None:
        held = Held()
        app = RequestsAtOnce(held, 1)
        busy = _request(app, "/play/")
        assert await held.entered.get() == "/play/"
        for path in ("/play/people/12/stream/", "/static/css/play.css", "/healthz/"):
            task = _request(app, path)
            assert await held.entered.get() == path
            held.go[path].set()
            assert (await task)[0]["status"] == 200
        held.go["/play/"].set()
        await busy

    in_a_thread(lambda: asyncio.run(run()))


def test_one_that_waits_too_long_is_told_the_server_is_busy_and_no_place_is_lost() -> None:
    async def run() -> None:
        held = Held()
        app = RequestsAtOnce(held, 1, wait=0.05)
        first = _request(app, "/play/")
        assert await held.entered.get() == "/play/"
        start, body = await _request(app, "/sources/")
        assert start["status"] == 503
        headers = dict(start["headers"])
        assert headers[b"retry-after"] == b"1" and headers[b"cache-control"] == b"no-store"
        assert body["body"].decode().strip() == BUSY
        held.go["/play/"].set()
        await first
        again = _request(app, "/sources/")  # the place is free again, and only one
        assert await held.entered.get() == "/sources/"
        held.go["/sources/"].set()
        assert (await again)[0]["status"] == 200
        assert app.serving == 0

    in_a_thread(lambda: asyncio.run(run()))


def test_the_uncounted_paths_are_the_sites_own() -> None:
    assert UNCOUNTED.match(reverse("games:people-stream", args=[12]))
    assert UNCOUNTED.match(f"{settings.STATIC_URL}css/play.css")
    assert UNCOUNTED.match(reverse("healthz"))
    for counted in (reverse("games:people-table", args=[12]), "/healthz/ready/", "/play/"):
        assert not UNCOUNTED.match(counted), counted
