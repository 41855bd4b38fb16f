"""A table for people, live: its Server-Sent Events stream (``/play/people/<pk>/stream/``),
which carries each viewer's own table, and what falls due at a table while its pages wait (a
person's time running out).

The stream (games.live.sse) hears the table's new versions through its worker's one listener
(games.live.fanout) and sends each as the viewer's table, rendered: ``event: table``, the
``#people-table`` fragment his page would fetch (the felt from his seat and the people bar;
the waiting room before the table starts; the spectator's table on the host's watching page),
its version as the id. The page swaps it in without another request (the htmx SSE
extension's ``sse-swap``). Each is rendered once per version and viewer (his seat, or the
spectator's page) in this process, however many of his pages listen, and only after checking,
then, that he still holds that seat or may watch; if he no longer does, the stream sends
``event: reload`` and ends, and the page loads again (which says what he may see now).

A stream holds no database connection while it waits: every database touch (who asks, the
rendering, the deadlines) runs in the bus's reader threads and closes its connection at once
(games.live.bus.in_reader_thread). Streams open at once are capped per account and per
address (loo_site.limits.hold: 429 beyond), each place held while its heartbeat comes.

A computer player takes the seat of a person whose time ran out at his deadline: the stream
wakes then (the service's :func:`~games.people.service.next_due` says when), lets the service
do what is due (:func:`~games.people.service.advance`), and the table's new version goes to
every page, his own too, as a play's does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse

from games.live import bus, sse
from games.models import PeopleTable
from games.people import service as people
from games.people import together, views
from games.people.page import people_bar
from loo_site import limits

log = logging.getLogger(__name__)

#: Stands for the CSRF token in a rendered table shared by a viewer's streams: each puts its
#: own in (one per browser).
TOKEN = "csrf-token-of-this-stream"

LIMITS = ("people-streams-per-account", "people-streams-per-address")


@dataclass(frozen=True)
class Viewer:
    """Who a stream renders the table for, and which of his pages: the table from his seat
    (``seat``: its number when the stream opened; None before he sat, as the waiting room's
    host who does not sit) or the spectator's page (``watch``); the address the page was
    served at (its links)."""

    pk: int
    user: Any
    seat: int | None
    watch: bool
    scheme: str
    host: str

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.pk, self.user.pk, self.seat, self.watch, self.scheme, self.host)


@dataclass(frozen=True)
class Rendered:
    """A table rendered for a viewer: its version and HTML (with :data:`TOKEN`); or, with
    ``reload``, that he may no longer see it so."""

    version: int
    html: str = ""
    reload: bool = False


def _versions(pks: Collection[int]) -> dict[int, int]:
    """The stored version of each table open on a worker, in one query."""
    return dict(PeopleTable.objects.filter(pk__in=list(pks)).values_list("pk", "version"))


def _open(request: HttpRequest, pk: int, watch: bool) -> tuple[Viewer, str] | int:
    """Who follows table ``pk``, and his CSRF token; else the status to
    answer (401 not logged in, 404 no business there). Run in a reader thread: the session,
    the user and the table are read there."""
    user = request.user
    if not user.is_authenticated:
        return 401
    table = PeopleTable.objects.filter(pk=pk).first()
    if table is None:
        return 404
    seat = people.seat_of(table, user)
    if (watch or seat is None) and not people.may_watch(table, user):
        return 404
    viewer = Viewer(
        pk,
        user,
        None if watch or seat is None else seat.number,
        watch,
        request.scheme or "http",
        request.get_host(),
    )
    return viewer, get_token(request)


def _hold(request: HttpRequest) -> limits.Held | HttpResponse:
    return limits.hold(request, *LIMITS)


class _PageRequest(HttpRequest):
    """The request the viewer's page was served for, as the table's templates read it (its
    path, address, user): the rendering is shared by his streams, not any one's."""

    def __init__(self, viewer: Viewer, path: str) -> None:
        super().__init__()
        self.path = self.path_info = path
        self.method = "GET"
        self.user = viewer.user
        self.META = {"HTTP_HOST": viewer.host, "SERVER_NAME": viewer.host.split(":")[0]}
        self._scheme = viewer.scheme

    def _get_scheme(self) -> str:
        return self._scheme

    def get_host(self) -> str:
        return str(self.META["HTTP_HOST"])


def render_table(viewer: Viewer) -> Rendered:
    """The table as ``viewer``'s page would fetch it now (its ``#people-table`` fragment),
    once it is checked that he still holds his seat (or may watch); ``reload`` if not. Sync:
    run in a reader thread (and by the hidden-card tests)."""
    table = PeopleTable.objects.filter(pk=viewer.pk).first()
    if table is None:
        return Rendered(0, reload=True)
    seat = people.seat_of(table, viewer.user)
    if viewer.watch or (viewer.seat is None and seat is None):
        if not people.may_watch(table, viewer.user):
            return Rendered(table.version, reload=True)
        shown, path = None, reverse("games:people-watch", args=[viewer.pk])
    else:
        if seat is None or seat.number != viewer.seat:
            return Rendered(table.version, reload=True)
        # He left (or is a latecomer before his first deal): people_bar shows him the table
        # as a spectator's, without his seat's cards, which are a computer player's.
        shown, path = seat, reverse("games:people-table", args=[viewer.pk])
    bar = people_bar(table, shown, viewer_pk=viewer.user.pk)
    context = {**bar.context(), "csrf_token": TOKEN}
    html = render_to_string(
        f"{views.TEMPLATE}#people-table", context, request=_PageRequest(viewer, path)
    )
    return Rendered(table.version, html.strip())


#: The newest table rendered for each viewer in this process (by event loop): his other
#: streams take it instead of rendering it again.
_rendered: dict[tuple[Any, ...], tuple[int, asyncio.Future[Rendered]]] = {}
#: How many streams of each viewer are open, by event loop (the rendering is dropped with the
#: last).
_viewers: dict[tuple[Any, ...], int] = {}


async def _table_for(viewer: Viewer, version: int) -> Rendered:
    """The viewer's table at ``version`` or later, rendered once for all his streams."""
    key = (asyncio.get_running_loop(), *viewer.key)
    found = _rendered.get(key)
    if found is not None and (found[0] >= version or _newer(found[1], version)):
        return await asyncio.shield(found[1])
    future = asyncio.ensure_future(bus.in_reader_thread(lambda: render_table(viewer)))
    _rendered[key] = (version, future)
    try:
        return await asyncio.shield(future)
    except Exception:
        if _rendered.get(key, (0, None))[1] is future:
            del _rendered[key]
        raise


def _newer(rendering: asyncio.Future[Rendered], version: int) -> bool:
    """Whether a rendering already done shows ``version`` or a later one (it read the table
    as it was then: a version the bus tells after it may be in it already)."""
    return (
        rendering.done() and rendering.exception() is None and rendering.result().version >= version
    )


def _event(rendered: Rendered, token: str) -> sse.Event:
    if rendered.reload:
        return sse.Event("reload", "", last=True)
    return sse.Event("table", rendered.html.replace(TOKEN, token), rendered.version)


async def stream(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    """The table's new versions as Server-Sent Events, each the viewer's table rendered, for
    a person seated there or its host (``?watch=1``: the spectator's page)."""
    watch = request.GET.get("watch") == "1"
    if not isinstance(request, ASGIRequest):
        # Under WSGI there is no stream (sse.stream answers 204) and nothing to hold: who
        # asks is checked in the request's own thread, as by any view.
        opened = await sync_to_async(_open)(request, pk, watch)
    else:
        opened = await bus.in_reader_thread(lambda: _open(request, pk, watch))
    if opened == 401:
        return HttpResponse(status=401)
    if isinstance(opened, int):
        raise Http404("No such table.")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    viewer, token = opened
    held = await bus.in_reader_thread(lambda: _hold(request))
    if isinstance(held, HttpResponse):
        return held
    if request.GET.get("check") == "1":
        # The page asks why its stream was refused: it is not (the 429 is answered above).
        await bus.in_reader_thread(held.release)
        return HttpResponse(status=204)
    asked = request.GET.get("after", "0")
    after = int(asked) if asked.isdigit() and len(asked) < 12 else 0
    key = (asyncio.get_running_loop(), *viewer.key)
    _viewers[key] = _viewers.get(key, 0) + 1

    sent = [max(after, sse.last_event_id(request))]  # the newest table the page has

    async def on_wake() -> float | None:
        return await _wake(pk, sent[0])

    async def render(version: int) -> sse.Event | None:
        rendered = await _table_for(viewer, version)
        if not rendered.reload and rendered.version <= sent[0]:
            return None  # already sent: rendered when an earlier version came, it was in it
        sent[0] = rendered.version
        return _event(rendered, token)

    async def on_beat() -> None:
        if not await bus.in_reader_thread(held.refresh):
            log.warning("A live stream of table %s lost its place (limits.hold)", pk)
        if viewer.seat is not None:
            # His page is open: he is here (the people bar's "online").
            await bus.in_reader_thread(lambda: together.seen(pk, viewer.user.pk))

    async def on_close() -> None:
        _viewers[key] -= 1
        if not _viewers[key]:
            del _viewers[key]
            _rendered.pop(key, None)
        await _release(held)

    return sse.stream(
        request,
        f"people-{pk}",
        after=after,
        current=bus.Batched(_versions, pk),
        on_wake=on_wake,
        render=render,
        on_beat=on_beat,
        on_close=on_close,
    )


#: What falls due under way in this process, by event loop and table: the streams of one
#: table wake together at a deadline, and the first one's call is the others' too (a
#: computer player's decision is worked out once, not once for each page open on it).
_advancing: dict[tuple[asyncio.AbstractEventLoop, int], asyncio.Future[bool]] = {}


#: When the next thing falls due at a table, being read in this process, by event loop, table
#: and the newest version the asking stream has sent: the streams of one table wake together
#: after each version, and one read answers them all (each once read it for itself: a tenth
#: of a busy worker's time, profiled). A read begun before a version was sent is never
#: another's answer after it.
_due_reads: dict[tuple[asyncio.AbstractEventLoop, int, int], asyncio.Future[float | None]] = {}


async def _next_due(pk: int, seen: int) -> float | None:
    key = (asyncio.get_running_loop(), pk, seen)
    reading = _due_reads.get(key)
    if reading is None:
        reading = _due_reads[key] = asyncio.ensure_future(
            bus.in_reader_thread(lambda: people.next_due(pk))
        )
        reading.add_done_callback(lambda done: _due_read(key, done))
    return await asyncio.shield(reading)


def _due_read(
    key: tuple[asyncio.AbstractEventLoop, int, int], done: asyncio.Future[float | None]
) -> None:
    if _due_reads.get(key) is done:
        del _due_reads[key]


async def _wake(pk: int, seen: int = 0) -> float | None:
    """Do what has fallen due at table ``pk``, if anything has; in how many seconds the next
    thing falls due there (None: nothing). ``seen``: the newest version the asking stream has
    sent (a read of what is due shared with the table's other streams is begun after it)."""
    due = await _next_due(pk, seen)
    if due is None or due > 0:
        return due
    key = (asyncio.get_running_loop(), pk)
    advancing = _advancing.get(key)
    if advancing is None:
        advancing = _advancing[key] = asyncio.ensure_future(
            bus.in_reader_thread(lambda: people.advance(pk))
        )
        advancing.add_done_callback(lambda done: _advanced(key, done))
    await asyncio.shield(advancing)
    due = await bus.in_reader_thread(lambda: people.next_due(pk))
    # Still past (the table is not being played): not again before the next heartbeat.
    return None if due is None or due <= 0 else due


def _advanced(key: tuple[asyncio.AbstractEventLoop, int], done: asyncio.Future[bool]) -> None:
    _advancing.pop(key, None)
    if not done.cancelled() and done.exception() is not None:
        log.error("What fell due at table %s failed", key[1], exc_info=done.exception())


async def _release(held: limits.Held) -> None:
    """Give a closed stream's places back, trying again for a moment if the database (the
    shared cache without Redis) is busy: a place not given back stays taken until it expires,
    a minute in which its owner may be refused another page."""
    for attempt in range(5):
        try:
            await bus.in_reader_thread(held.release)
        except DatabaseError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.05 * (attempt + 1))
        else:
            return
