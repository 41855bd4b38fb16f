"""The analysis board's pages (issue 38): a finished hand's decision, and a position set up
from nothing. GET only (every state of a board is a URL, the same without JavaScript); the
rules of what may exist and what it shows are games.practice.analysis's."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.http import HtmxHttpRequest
from games.loo.analysis import BoardError
from games.loo.coach import SAMPLES
from games.loo.errors import LooError
from games.models import PracticeHand
from games.practice import analysis, coaching
from games.practice.analysis_forms import BoardForm, SetUpForm

TEMPLATE = "games/analysis.html"


def _options(form: BoardForm) -> dict[str, Any]:
    """The form's cleaned values, or none of them (a board as first shown) if it is bad."""
    if form.is_valid():
        return form.cleaned_data
    return {"samples": SAMPLES, "level": ""}


@never_cache  # a player's own hands: no shared computer's cache or proxy keeps them
@require_safe
def hand_board(request: HtmxHttpRequest, pk: int, number: int, step: int) -> HttpResponse:
    """The board of the human's decision ``step`` of finished hand ``number``: for its owner,
    where the coach is offered (403 with the reason elsewhere); a 404 for a step that is not
    one of his decisions, or a hand not over (no board of a hand in play)."""
    record = get_object_or_404(
        PracticeHand.objects.for_request(request).select_related("table"),
        table_id=pk,
        number=number,
    )
    if not coaching.offered(record.table):
        return render(
            request, TEMPLATE, {"refusal": coaching.NOT_HERE, "record": record}, status=403
        )
    form = BoardForm(request.GET)
    options = _options(form)
    refusal = ""
    try:
        position = analysis.finished_position(record, step, options)
    except LookupError:
        raise Http404("No board of a hand in play.") from None
    except BoardError as error:
        # The decision itself, unchanged, if only the what-if cannot be.
        try:
            position = analysis.finished_position(record, step, {})
        except (BoardError, LookupError):
            raise Http404(str(error)) from None
        refusal = f"That cannot be: {error}."
    here = reverse("games:hand-board", args=[pk, number, step])
    return _board(request, form, options, position, here, refusal=refusal)


@require_safe
def set_up_board(request: HtmxHttpRequest) -> HttpResponse:
    """A position the player sets up (a moment of the declaring), checked to be possible:
    the form alone until it is filled in; a refusal in plain words if it cannot happen."""
    here = reverse("games:board")
    if not request.GET:
        return render(request, TEMPLATE, {"set_up": SetUpForm(), "here": here})
    set_up = SetUpForm(request.GET)
    if not set_up.is_valid():
        return render(request, TEMPLATE, {"set_up": set_up, "here": here})
    try:
        position = analysis.set_up_position(set_up)
    except LooError as error:
        text = str(error)
        refusal = f"That position cannot happen: {text[:1].lower()}{text[1:]}."
        return render(request, TEMPLATE, {"set_up": set_up, "here": here, "refusal": refusal})
    form = BoardForm(request.GET)
    return _board(request, form, _options(form), position, here, set_up=set_up)


def _board(
    request: HtmxHttpRequest,
    form: BoardForm,
    options: dict[str, Any],
    position: analysis.Position,
    here: str,
    *,
    refusal: str = "",
    set_up: SetUpForm | None = None,
) -> HttpResponse:
    advice = analysis.figures(
        request,
        position.view,
        samples=options.get("samples") or SAMPLES,
        level=options.get("level")
        or (position.record.table.opponents if position.record is not None else "sensible"),
    )
    if isinstance(advice, HttpResponse):
        return advice
    context = analysis.board_page(position, advice, options, here=here, query=request.GET)
    context.update(
        form=form,
        refusal=refusal,
        set_up=set_up,
        record=position.record,
        rule_sets=analysis.other_rule_sets(position, set_up),
    )
    if position.record is not None:
        context["replay_url"] = (
            reverse("games:hand-replay", args=[position.record.table_id, position.record.number])
            + f"?step={position.step}"
        )
    return render(request, TEMPLATE, context)
