"""Views for playing practice hands. The rules live in games.loo and the practice table's own in
its service (games.practice.service); what a page shows is built by games.practice.presenting:
views parse, authorize, call the service and render.

Each table page is one template with inline partials: an htmx request gets the ``hand-table``
fragment, anything else the whole page. Every POST carries the version of the table its page
showed: a stale one is not applied. Without JavaScript every POST redirects (POST/redirect/GET)
and its outcome is a message on the table page.

The human's view of the hand (``view_for(hand, HUMAN)``) is the only thing about the cards
that reaches a template (the presenters build every page from it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.http import HtmxHttpRequest
from games.loo.hand import IllegalAction
from games.loo.rulesets import GAME_NAMES, PRESETS
from games.loo.table import Table
from games.models import PracticeHand, PracticeTable
from games.practice import analysis, coaching, hint, presenting, service
from games.practice.forms import DEFAULT_PACE, PACES, NewTableForm, PaceForm
from games.table.forms import ActionForm, ReplayStepForm, VersionForm
from games.table.page import PaceShown
from games.table.presenting import BAD_STEP, NO_VERSION, STALE
from games.variations import title_words

TABLE_TEMPLATE = "games/table.html"


# -- access ---------------------------------------------------------------------------------


def _get_table_for_player(request: HtmxHttpRequest, pk: int) -> PracticeTable:
    """The table ``pk`` if it belongs to this user or browser session; 404 otherwise."""
    return get_object_or_404(PracticeTable.objects.for_request(request), pk=pk)


def _get_hand_for_player(request: HtmxHttpRequest, pk: int, number: int) -> PracticeHand:
    return get_object_or_404(
        PracticeHand.objects.for_request(request).select_related("table"),
        table_id=pk,
        number=number,
    )


# -- choosing a table -----------------------------------------------------------------------


@require_safe
def choose_table(request: HtmxHttpRequest) -> HttpResponse:
    """Choose the game, the rule set, the players and the opponents, or just deal."""
    return _render_chooser(request, NewTableForm())


def _render_chooser(
    request: HtmxHttpRequest, form: NewTableForm, status: int = 200, refusal: str = ""
) -> HttpResponse:
    presets = presenting.chooser_presets()
    tables = list(PracticeTable.objects.for_request(request).defer("state", "notes")[:10])
    return render(
        request,
        "games/choose.html",
        {
            "form": form,
            "presets": presets,
            "variations": presenting.chooser_variations(),
            "tables": tables,
            "refusal": refusal,
            "session_tables": settings.SESSION_TABLES,
        },
        status=status,
    )


@require_POST
def create_table(request: HtmxHttpRequest) -> HttpResponse:
    """Deal a new table and go to it."""
    form = NewTableForm(request.POST)
    if not form.is_valid():
        return _render_chooser(request, form)
    if refused := _may_deal(request, form):
        return refused
    return redirect(service.deal(request, form.cleaned_data, honest=form.honest()))


def _may_deal(request: HtmxHttpRequest, form: NewTableForm) -> HttpResponse | None:
    """Whether a new table may be dealt (:func:`service.reserve_table`): None, or the answer
    to give instead (the 429 page; a browser whose tables are all in play is shown ``form``
    again with the reason)."""
    try:
        service.reserve_table(request)
    except service.TooManyTables as refusal:
        return refusal.response
    except service.SessionFull as refusal:
        return _render_chooser(request, form, status=409, refusal=str(refusal))
    return None


@require_safe
def show_seeded_deal(
    request: HtmxHttpRequest, game: str, rules: str, players: int, seed: int
) -> HttpResponse:
    """The shareable link of a seed: a new table dealt from it gets the same first hand (its
    later hands are dealt from a seed of its own: ``PracticeTable.deal_new``)."""
    form = NewTableForm(
        {
            "game": game,
            "rules": rules,
            "players": players,
            "seed": seed,
            "opponents": NewTableForm.base_fields["opponents"].initial,
            "mode": "learning",
            # The variations the table agreed, which the link keeps (PracticeTable.seed_url).
            "variations": request.GET.getlist("variations"),
        }
    )
    if not form.is_valid():
        return render(request, "games/seed.html", {"form": form}, status=404)
    options = form.options()
    tables = [
        t
        for t in PracticeTable.objects.for_request(request)
        .filter(game=game, rules=rules, players=players, seed=seed)
        .defer("state", "notes")
        if t.options == options
    ]
    return render(
        request,
        "games/seed.html",
        {
            "form": form,
            "tables": tables,
            "game_name": GAME_NAMES[game],
            "rules_title": PRESETS[rules].title,
            "variations_title": title_words(rules, options),
        },
    )


# -- the table ------------------------------------------------------------------------------


@require_safe
@vary_on_headers("HX-Request")
def show_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table; with ``?coach=1`` (the "Ask the coach" form without JavaScript) the coach's
    answer to the human's decision as well."""
    practice = _get_table_for_player(request, pk)
    table = practice.to_engine()
    coach = None
    if request.GET.get("coach") and not request.htmx:
        coach = coaching.answer(request, practice, service.current_hand(table))
        if isinstance(coach, HttpResponse):
            return coach
        if coach.get("refusal"):  # said where the table says what went wrong
            return _render_table(request, practice, table, error=coach["refusal"])
    return _render_table(request, practice, table, coach=coach)


@require_safe
def ask_coach(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The coach's answer to the human's decision, for the table's "Ask the coach" region
    (htmx); without htmx, the table with the answer (``?coach=1``). Computed once (cached),
    limited (the 429 page), refused in laws mode and at an honest table. A GET that creates
    nothing: the table is already this browser's."""
    practice = _get_table_for_player(request, pk)
    if not request.htmx:
        return redirect(reverse("games:table", args=[pk]) + "?coach=1#coach")
    coach = coaching.answer(request, practice, service.current_hand(practice.to_engine()))
    if isinstance(coach, HttpResponse):
        return coach
    if coach.get("refusal") == coaching.NOT_HERE:
        # Said by the page's script where it says a request's error (the control is not shown).
        return HttpResponseForbidden(coaching.NOT_HERE, content_type="text/plain; charset=utf-8")
    return render(request, "games/_coach.html#coach-answer", {"coach": coach})


def _change(
    request: HtmxHttpRequest, pk: int, change: Callable[[PracticeTable, Table], list[str]]
) -> HttpResponse:
    """A POST that changes the player's table (``change``, a call of the service): 400
    without a readable version; the table with what the change did, or with why nothing was
    done (a stale page, a refusal)."""
    practice = _get_table_for_player(request, pk)
    version = _posted_version(request)
    if version is None:
        return _bad_request()
    table = None
    try:
        table = service.load(practice, version)
        done = change(practice, table)
    except service.Stale:
        if table is not None:  # changed meanwhile: the table as it stands now
            practice.refresh_from_db()
        return _answer(request, practice, practice.to_engine(), notice=STALE)
    except service.ActionRefused as refused:
        assert table is not None
        return _answer(request, practice, table, form=refused.form, refusal=refused.refusal)
    except service.Refused as refused:
        return _answer(request, practice, table or practice.to_engine(), error=str(refused))
    if request.htmx:
        return _render_table(request, practice, table, done=done)
    for text in done:
        messages.info(request, text)
    return redirect(practice)


@require_POST
def take_turn(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One decision of the human; then the computer players act until it is his turn again."""
    return _change(request, pk, lambda practice, table: service.act(practice, table, request.POST))


@require_POST
def deal_next_hand(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The next deal at the same table, once the hand is over."""
    return _change(request, pk, service.deal_next)


@require_POST
def finish_game(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Finish the game one of Peel's ways (p. 17, A54), once the hand is over, or withdraw
    at one's turn to deal: the engine refuses any other way, or any other moment, and nothing
    is stored."""
    way = str(request.POST.get("way", ""))
    return _change(request, pk, lambda practice, table: service.finish(practice, table, way))


@require_POST
def take_back_decision(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Take back the human's last decision in this deal (:func:`service.take_back`). A
    refusal says why and changes nothing."""
    return _change(request, pk, service.take_back)


#: Where the browser session keeps the computer players' pace (PaceForm's cleaned data).
PACE_KEY = "table-pace"


@require_POST
def set_pace(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Set the computer players' pace for this browser session, and go back to the table: a
    plain form (POST/redirect/GET), with or without JavaScript. Bad input changes nothing."""
    practice = _get_table_for_player(request, pk)
    form = PaceForm(request.POST)
    if form.is_valid():
        request.session[PACE_KEY] = form.cleaned_data
    else:
        for errors in form.errors.values():
            for text in errors:
                messages.error(request, str(text))
    return redirect(practice)


def _pace_form(request: HtmxHttpRequest) -> PaceForm:
    """The pace form as this browser session last set it, else at the default pace."""
    stored = request.session.get(PACE_KEY)
    form = PaceForm(stored if isinstance(stored, dict) else {"pace": DEFAULT_PACE})
    if not form.is_valid():  # a pace no longer offered
        form = PaceForm({"pace": DEFAULT_PACE})
        form.is_valid()
    return form


@require_POST
def say_trick_winner(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A guided hand that asks who takes each trick: the learner's answer for the trick on
    the table (``seat``), told right or wrong with the engine's reason; then the table moves
    on. An answer when none is asked, or naming a seat that played no card to it, changes
    nothing."""
    seat = str(request.POST.get("seat", ""))
    return _change(request, pk, lambda practice, table: service.say_winner(practice, table, seat))


@require_POST
def leave_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Leave the table between deals: the session ends with its final standing, and no more
    is dealt at it (the chooser lists it as ended)."""
    return _change(request, pk, service.leave)


# -- finished hands -------------------------------------------------------------------------


@never_cache  # a player's own hands: no shared computer's cache or proxy keeps them
@require_safe
@vary_on_headers("HX-Request")
def replay_hand(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished hand step by step, as the human saw it, with its rule trace."""
    record = _get_hand_for_player(request, pk, number)
    here = reverse("games:hand-replay", args=[pk, number])
    token = PracticeHand.share_token(pk, number)
    return _render_replay(request, record, here, token, shared=False)


@require_safe
@vary_on_headers("HX-Request")
def show_shared_replay(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A finished hand's replay that its owner shared: read-only, and never more than the
    owner saw (the same page as his own replay, without the way to his table)."""
    record = service.shared_hand(token)
    here = reverse("games:shared-replay", args=[token])
    return _render_replay(request, record, here, token, shared=True)


@require_POST
def play_shared_deal(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """ "Play this deal yourself": a new table whose first deal is the shared hand's cards (the
    same pack, dealer and seats: ``first_deal_of``) and whose later deals are new cards, so
    that a shared hand tells nothing of the deals that followed it at its table. Limited as
    every new table is, before any work; a bad token is a 404."""
    record = service.shared_hand(token)
    if refused := _may_deal(request, NewTableForm()):
        return refused
    return redirect(service.deal_shared(request, record))


def _render_replay(
    request: HtmxHttpRequest, record: PracticeHand, here: str, token: str, *, shared: bool
) -> HttpResponse:
    """A finished hand's replay page (``shared``: the read-only one its owner's link gives),
    with the way to play its cards at a new table (``token``: the hand's share token)."""
    form = ReplayStepForm(request.GET)
    if not form.is_valid():
        return HttpResponseBadRequest(BAD_STEP, content_type="text/plain; charset=utf-8")
    step = form.cleaned_data["step"]
    step = 0 if step is None else min(step, record.steps)
    share = reverse("games:shared-replay", args=[token])
    share_url = "" if shared else request.build_absolute_uri(share)
    context = {
        "page": presenting.replay_page(record, step, here=here),
        "record": record,
        "practice": record.table,
        "share_url": share_url,
        "shared": shared,
        "play_url": reverse("games:shared-play", args=[token]),
        "review_url": "" if shared else coaching.review_url(record.table, record.number),
        # The analysis board of the decision this step leads to (issue 38).
        "board_url": "" if shared else analysis.step_board_url(record, step),
    }
    template = "games/replay.html#replay-step" if request.htmx else "games/replay.html"
    return render(request, template, context)


@require_safe
def review_hand(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished hand's review: each of the human's decisions weighed by the coach, those
    that cost most first. Learning mode only (403 with the reason elsewhere); computed once
    (cached), limited (the 429 page)."""
    record = _get_hand_for_player(request, pk, number)
    found = coaching.hand_review(request, record)
    if isinstance(found, HttpResponse):
        return found
    context = {
        "record": record,
        "practice": record.table,
        "review": found,
        "replay_url": reverse("games:hand-replay", args=[pk, number]),
    }
    status = 403 if found.get("refusal") else 200
    return render(request, "games/coach_review.html", context, status=status)


@never_cache
@require_safe
def list_hands(request: HtmxHttpRequest) -> HttpResponse:
    """A logged-in player's finished hands, newest first."""
    page = None
    if request.user.is_authenticated:
        hands = PracticeHand.objects.filter(table__owner=request.user).select_related("table")
        page = Paginator(hands, 50).get_page(request.GET.get("page"))
    return render(request, "games/history.html", {"page": page})


# -- helpers --------------------------------------------------------------------------------


def _posted_version(request: HtmxHttpRequest) -> int | None:
    form = VersionForm(request.POST)
    return form.cleaned_data["version"] if form.is_valid() else None


def _bad_request() -> HttpResponse:
    return HttpResponseBadRequest(NO_VERSION, content_type="text/plain; charset=utf-8")


def _answer(
    request: HtmxHttpRequest,
    practice: PracticeTable,
    table: Table,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    """A POST that changed nothing: with htmx the fragment (status 200, so that htmx swaps it)
    with the reason; without, a redirect to the table with the reason as a message."""
    if request.htmx:
        return _render_table(
            request, practice, table, form=form, refusal=refusal, notice=notice, error=error
        )
    if notice:
        messages.warning(request, notice)
    if error:
        messages.error(request, error)
    if form is not None:
        rule = refusal.application.rule if refusal and refusal.application else ""
        for text in form.non_field_errors():
            messages.error(request, text, extra_tags=f"refusal rule:{rule}" if rule else "")  # type: ignore[arg-type]
        for name, errors in form.errors.items():
            if name != "__all__":
                for text in errors:
                    messages.error(request, text)  # type: ignore[arg-type]
    return redirect(practice)


def _render_table(
    request: HtmxHttpRequest,
    practice: PracticeTable,
    table: Table,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    notice: str = "",
    error: str = "",
    done: Sequence[str] = (),
    coach: dict[str, Any] | None = None,
) -> HttpResponse:
    pace_form = _pace_form(request)
    page = presenting.table_page(
        practice,
        table,
        service.current_hand(table),
        form=form,
        refusal=refusal,
        notice=notice,
        error=error,
        done=done,
        stored=messages.get_messages(request),
        coach=coach,
        pace=PaceShown(
            form=pace_form,
            pause=PACES[pace_form.cleaned_data["pace"]].pause,
            hold=PACES[pace_form.cleaned_data["pace"]].hold,
            wait=pace_form.cleaned_data["wait"],
        ),
    )
    template = f"{TABLE_TEMPLATE}#hand-table" if request.htmx else TABLE_TEMPLATE
    # The hint on the table (issue 38), opt-in: games.practice.hint.
    shown = hint.for_table(request, practice, service.current_hand(table))
    return render(request, template, {"page": page, "hint": shown})
