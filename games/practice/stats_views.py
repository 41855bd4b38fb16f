"""The page of a player's statistics across his practice sessions (games.practice.statistics):
his own finished hands only, an account's or this browser session's, as his tables are."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.http import HtmxHttpRequest
from games.practice import statistics


@never_cache  # a player's own figures: no shared computer's cache or proxy keeps them
@require_safe
def show_statistics(request: HtmxHttpRequest) -> HttpResponse:
    """Hands played, net counters and times looed, by rule set and game: two charts and the
    table of the same numbers."""
    return render(request, "games/statistics.html", {"stats": statistics.of(request)})
