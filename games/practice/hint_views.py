"""The hint's switch at a practice table (issue 38: games.practice.hint)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from games.http import HtmxHttpRequest
from games.models import PracticeTable
from games.practice.hint import HINT_KEY


@require_POST
def set_hint(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Turn the hint on (``hint=on``) or off for this browser session, and go back to the
    table: a plain form (POST/redirect/GET), with or without JavaScript."""
    practice = get_object_or_404(PracticeTable.objects.for_request(request), pk=pk)
    request.session[HINT_KEY] = request.POST.get("hint") == "on"
    return redirect(practice)
