"""The site's URLs and two test-only views on the live part (never in loo_site.urls): a
stream of a practice table's versions, and a POST that bumps its version as a play does
(stored, then published on commit). Used by tests/live and by the servers of
tests/deploy/test_live_two_servers.py (through tests/live/settings.py)."""

from __future__ import annotations

import time

from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.template import engines
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.live import bus, sse
from games.models import PracticeTable


def channel(pk: int) -> str:
    return f"practice-{pk}"


#: When each stream's hook was called (time.monotonic()), by table.
WAKES: dict[int, list[float]] = {}
#: What the hook answers, by table, one answer a call: in how many seconds it is next due
#: (None, and once they are used up: nothing is due).
DUE: dict[int, list[float | None]] = {}


def stored_version(pk: int) -> int | None:
    return PracticeTable.objects.filter(pk=pk).values_list("version", flat=True).first()


async def stream_view(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    after = request.GET.get("after", "0")

    async def on_wake() -> float | None:
        WAKES.setdefault(pk, []).append(time.monotonic())
        answers = DUE.get(pk)
        return answers.pop(0) if answers else None

    return sse.stream(
        request,
        channel(pk),
        after=int(after) if after.isdigit() else 0,
        current=lambda: stored_version(pk),
        on_wake=on_wake,
    )


@csrf_exempt
@require_POST
def bump_view(request: HttpRequest, pk: int) -> HttpResponse:
    for _ in range(100):
        try:
            return HttpResponse(str(_bump(pk)), content_type="text/plain")
        except OperationalError as error:
            # SQLite's in-memory test database refuses a table another thread is reading
            # (a stream's poll) at once, where the site's file database waits: again.
            if connection.vendor != "sqlite" or "locked" not in str(error):
                raise
            time.sleep(0.01)
    return HttpResponse(str(_bump(pk)), content_type="text/plain")


def _bump(pk: int) -> int:
    with transaction.atomic():
        PracticeTable.objects.filter(pk=pk).update(version=F("version") + 1)
        version = stored_version(pk)
        assert version is not None
        bus.publish_on_commit(channel(pk), version)
    return version


#: A page that shows the table's version as the stream tells it, through the vendored htmx SSE
#: extension, under the site's Content-Security-Policy (base.html: htmx, no inline script).
PAGE = """{% extends "base.html" %}{% load static %}
{% block head %}<script src="{% static 'vendor/htmx-ext-sse.js' %}" defer></script>{% endblock %}
{% block content %}<p hx-ext="sse" sse-connect="/live-test/{{ pk }}/stream/?after={{ version }}">
Version <output id="version" sse-swap="update">{{ version }}</output></p>{% endblock %}"""


def page_view(request: HttpRequest, pk: int) -> HttpResponse:
    version = stored_version(pk)
    template = engines["django"].from_string(PAGE)
    return HttpResponse(template.render({"pk": pk, "version": version}, request))


urlpatterns = [
    path("live-test/<int:pk>/", page_view),
    path("live-test/<int:pk>/stream/", stream_view),
    path("live-test/<int:pk>/bump/", bump_view),
    path("", include("loo_site.urls")),
]
