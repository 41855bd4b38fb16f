"""A table for people, live: its Server-Sent Events stream (``/play/people/<pk>/stream/``),
and what falls due at a table while its pages wait (a person's time running out).

The stream tells each page of the table's new versions (games.live.sse); the page fetches
its table again on each. A computer player takes the seat of a person whose time ran out at
his deadline: the stream wakes then (the service's :func:`~games.people.service.next_due`
says when), lets the service do what is due (:func:`~games.people.service.advance`), and the
table's new version goes to every page, his own too, as a play's does.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from games.live import bus, sse
from games.models import PeopleTable
from games.people import service as people
from loo_site import limits

log = logging.getLogger(__name__)


def _stream_allowed(request: HttpRequest, pk: int) -> bool | None:
    """Whether the user may follow table ``pk`` (None: not logged in)."""
    if not request.user.is_authenticated:
        return None
    table = PeopleTable.objects.filter(pk=pk).first()
    if table is None:
        return False
    return people.seat_of(table, request.user) is not None or people.may_watch(table, request.user)


def _stored_version(pk: int) -> int | None:
    return PeopleTable.objects.filter(pk=pk).values_list("version", flat=True).first()


async def stream(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    """The table's new versions as Server-Sent Events, for a person seated there or its
    host."""
    await request.auser()
    allowed = await sync_to_async(_stream_allowed)(request, pk)
    if allowed is None:
        return HttpResponse(status=401)
    if not allowed:
        raise Http404("No such table.")
    if refused := await sync_to_async(limits.check)(
        request, "people-streams-per-account", "people-streams-per-address"
    ):
        return refused
    after = request.GET.get("after", "0")

    async def on_wake() -> float | None:
        return await _wake(pk)

    return sse.stream(
        request,
        f"people-{pk}",
        after=int(after) if after.isdigit() and len(after) < 12 else 0,
        current=lambda: _stored_version(pk),
        on_wake=on_wake,
    )


#: What falls due under way in this process, by event loop and table: the streams of one
#: table wake together at a deadline, and the first one's call is the others' too (a
#: computer player's decision is worked out once, not once for each page open on it).
_advancing: dict[tuple[asyncio.AbstractEventLoop, int], asyncio.Future[bool]] = {}


async def _wake(pk: int) -> float | None:
    """Do what has fallen due at table ``pk``, if anything has; in how many seconds the next
    thing falls due there (None: nothing)."""
    due = await bus.in_reader_thread(lambda: people.next_due(pk))
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
