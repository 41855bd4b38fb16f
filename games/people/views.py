"""Views of the tables where people play together: they parse, authorize, call the service
(``games.people``) and render. Each person sees the table from his own seat
(``view_for(hand, seat)`` through ``presenting.table_page``), the host who does not sit
watches it as a spectator (no hand of anyone while a hand is played).

Every action is a real form (POST/redirect/GET; with htmx, the table's fragment). The page
listens to the table's stream (``games.people.live``: Server-Sent Events through the
vendored htmx SSE extension) and fetches its table again on each new version; without
JavaScript it offers a "Refresh" link and refreshes itself every few seconds while it is not
the person's turn. Whoever has no business at a table gets a 404 (it does not say the table
exists), and someone not logged in the login page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.http import HtmxHttpRequest
from games.links import RuleLinks
from games.loo.hand import IllegalAction
from games.loo.view import view_for
from games.models import PeopleHand, PeopleSeat, PeopleTable
from games.people import outcomes, together
from games.people import service as people
from games.people.forms import JoinForm, NewPeopleTableForm, PhraseForm, RemoveSeatForm, SeatForm
from games.people.page import LATE, people_bar, seat_rows
from games.table import presenting
from games.table.forms import ActionForm, ReplayStepForm
from loo_site import limits

log = logging.getLogger(__name__)

TEMPLATE = "games/people/table.html"


# -- the list, opening, joining --------------------------------------------------------------


@never_cache
@require_safe
def list_tables(request: HttpRequest) -> HttpResponse:
    """What playing with people is, and the tables the user hosts or sits at, each with its
    link: how he comes back to a table from another device. A visitor not logged in reads
    how to begin (the play chooser links here for everyone)."""
    tables = []
    if request.user.is_authenticated:
        tables = list(people.tables_for(request.user).prefetch_related("seats__user")[:50])
    return render(request, "games/people/list.html", {"tables": tables, "join": JoinForm()})


@never_cache
@login_required
def open_table(request: HttpRequest) -> HttpResponse:
    """The form of a new table for people; its POST opens it (the host at seat 0)."""
    if request.method != "POST":
        return render(request, "games/people/new.html", {"form": NewPeopleTableForm()})
    if refused := limits.check(request, "people-tables-per-account", "people-tables-per-address"):
        return refused
    form = NewPeopleTableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/people/new.html", {"form": form}, status=400)
    data = form.cleaned_data
    table = people.open_table(
        request.user,
        game=data["game"],
        rules=data["rules"],
        players=data["players"],
        opponents=data["opponents"],
        seconds_per_move=data["seconds_per_move"],
        laws=data["mode"] == "laws",
        host_sits=not data["watch"],
    )
    return redirect(table)


#: What a wrong code counts against, checked before the look-up: a code is six of 32 signs,
#: and one guessed would seat a stranger at a family's table.
CODE_LIMITS = ("people-codes-per-account", "people-codes-per-address")


def _by_code(request: HttpRequest, code: str) -> PeopleTable | outcomes.Refused | HttpResponse:
    """The table ``code`` names, if the user may sit there; else why not (no table has it,
    or it is a class's table he is not invited to: nothing about it is shown), counted as a
    wrong code against his account and his address (:data:`CODE_LIMITS`); over them, the
    429 page, before anything is looked up."""
    taken = limits.take(request, *CODE_LIMITS)
    if isinstance(taken, HttpResponse):
        return taken
    try:
        table = people.table_for_code(code)
        if not people.may_sit(table, request.user):
            raise outcomes.Refused(outcomes.NOT_INVITED)
    except outcomes.Refused as refusal:
        return refusal
    limits.give_back(*taken)
    return table


def _wrong_code(
    request: HttpRequest, form: JoinForm, refusal: outcomes.Refused, *, link: bool = False
) -> HttpResponse:
    """The "Join a table" page again, with why the code led nowhere (a link that did: 404,
    or 403 for a class's table)."""
    form.add_error("code", str(refusal))
    status = 200
    if link:
        status = 403 if str(refusal) == outcomes.NOT_INVITED else 404
    return render(request, "games/people/join.html", {"form": form}, status=status)


@never_cache
@login_required
def join(request: HttpRequest) -> HttpResponse:
    """Type a table's code: it leads to that table's invitation."""
    form = JoinForm(request.GET or None)
    if not form.is_valid():
        return render(request, "games/people/join.html", {"form": form})
    found = _by_code(request, form.cleaned_data["code"])
    if isinstance(found, HttpResponse):
        return found
    if isinstance(found, outcomes.Refused):
        return _wrong_code(request, form, found)
    return redirect(found.join_url)


@never_cache
def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """A table's invitation: its seats, and a form to take one (the first free one or one
    chosen). Not logged in: the login page, which comes back here. A wrong code, or a
    class's table the user may not sit at, is the "Join a table" page with the reason, and
    nothing of who sits there."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _by_code(request, code)
    if isinstance(found, HttpResponse):
        return found
    if isinstance(found, outcomes.Refused):
        return _wrong_code(request, JoinForm({"code": code[:20]}), found, link=True)
    table = found
    error = ""
    if request.method == "POST":
        if refused := limits.check(request, "people-joins-per-account", "people-joins-per-address"):
            return refused
        form = SeatForm(request.POST)
        seat = form.cleaned_data["seat"] if form.is_valid() else None
        try:
            if table.status == PeopleTable.Status.WAITING:
                people.sit(table, request.user, seat)
            else:  # a latecomer takes a computer player's seat, between hands
                version = people.posted_version(request.POST)
                for text in together.take_seat(table, request.user, version, seat).said:
                    messages.info(request, text)
        except outcomes.Refused as refusal:
            error = str(refusal)
            table.refresh_from_db()
        else:
            return redirect(table)
    elif people.seat_of(table, request.user) is not None:
        return redirect(table)
    context = {
        "table": table,
        "seats": seat_rows(table, None),
        "error": error,
        "latecomer": together.latecomer(table, request.user) if table.state is not None else None,
    }
    return render(request, "games/people/join_table.html", context, status=400 if error else 200)


# -- the table -------------------------------------------------------------------------------


def _table_for(request: HttpRequest, pk: int) -> tuple[PeopleTable, PeopleSeat | None]:
    """The table ``pk`` and the user's seat there (None: he is its host and does not sit);
    404 for anyone else."""
    table = get_object_or_404(PeopleTable, pk=pk)
    seat = people.seat_of(table, request.user)
    if seat is None and not people.may_watch(table, request.user):
        raise Http404("No such table.")
    return table, seat


@never_cache
@require_safe
@vary_on_headers("HX-Request")
def show_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table from the user's seat (the whole page, or its fragment for htmx); its host
    who does not sit goes to the spectator's page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table, seat = _table_for(request, pk)
    if seat is None:
        return redirect("games:people-watch", pk=pk)
    together.seen(table.pk, request.user.pk)
    if people.catch_up(table):
        table.refresh_from_db()
        seat.refresh_from_db()
    if _started_since(request, table):
        return _reload()
    # One who left (or was removed) watches: a computer player holds his seat's cards now,
    # and the page says why above the felt (people_bar's ``gone``).
    return _render(request, table, seat)


def _started_since(request: HtmxHttpRequest, table: PeopleTable) -> bool:
    """A waiting page's live update (``?waiting=1``) once the table has started: the whole page
    comes again, with the felt its later updates are swapped into."""
    return bool(request.htmx and request.GET.get("waiting") and table.state is not None)


def _reload() -> HttpResponse:
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


@never_cache
@require_safe
@vary_on_headers("HX-Request")
def watch_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table as its host sees it without a seat: the trick, the pool, whose turn, the
    counters; no hand of anyone while a hand is played."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(PeopleTable, pk=pk)
    if not people.may_watch(table, request.user):
        raise Http404("No such table.")
    if people.catch_up(table):
        table.refresh_from_db()
    if _started_since(request, table):
        return _reload()
    return _render(request, table, None)


def _render(
    request: HtmxHttpRequest,
    table: PeopleTable,
    seat: PeopleSeat | None,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    error: str = "",
    fragment: str = "people-table",
) -> HttpResponse:
    flashed = [(m.message, m.level_tag, None) for m in messages.get_messages(request)]
    bar = people_bar(
        table,
        seat,
        viewer_pk=request.user.pk,
        form=form,
        refusal=refusal,
        error=error,
        flashed=flashed,
    )
    if fragment == "hand-table" and request.htmx:
        # The felt after a decision, and above it whose turn it is now (out of band).
        response = render(request, "games/table.html#hand-table", bar.context())
        turn = render_to_string(f"{TEMPLATE}#people-turn", {**bar.context(), "oob": True}, request)
        response.content += turn.encode()
        return response
    template = f"{TEMPLATE}#{fragment}" if request.htmx else TEMPLATE
    return render(request, template, bar.context())


# -- actions ---------------------------------------------------------------------------------


def _post(request: HtmxHttpRequest, pk: int) -> tuple[PeopleTable, PeopleSeat | None] | None:
    if not request.user.is_authenticated:
        return None
    return _table_for(request, pk)


def _done(request: HtmxHttpRequest, done: outcomes.Done, seat: PeopleSeat | None) -> HttpResponse:
    for text in done.said:
        messages.info(request, text)
    if request.htmx:
        return _render(request, done.table, _fresh(seat), fragment="hand-table")
    return redirect(done.table)


def _fresh(seat: PeopleSeat | None) -> PeopleSeat | None:
    if seat is not None:
        seat.refresh_from_db()
    return seat


def _refused(
    request: HtmxHttpRequest,
    table: PeopleTable,
    seat: PeopleSeat | None,
    refusal: outcomes.Refused,
    *,
    deciding: bool = False,
) -> HttpResponse:
    """A refusal: nothing changed. With htmx the fragment with the reason; without, the
    table with the reason as a message. A decision (``deciding``) from a person whose time
    has run out is refused as late, whatever else stood in its way (his page was out of date
    because a computer player played for him): his page says when his time ran out, beside
    the felt, with the button that takes his seat back."""
    table.refresh_from_db()
    seat = _fresh(seat)
    if deciding and seat is not None and seat.away and seat.left is None:
        refusal = outcomes.Refused(LATE)
    form = refusal.form if isinstance(refusal, outcomes.ActionRefused) else None
    if request.htmx:
        error = "" if form is not None else str(refusal)
        return _render(
            request,
            table,
            seat,
            form=form,
            refusal=getattr(refusal, "refusal", None),
            error=error,
            fragment="hand-table",
        )
    if form is not None:
        for errors in form.errors.values():
            for text in errors:
                messages.error(request, str(text))
    else:
        messages.error(request, str(refusal))
    return redirect(table)


def _action(name: str) -> Any:
    """A POST view that calls ``people.<name>``; ``versioned``: it passes the page's
    version."""
    call = getattr(people, name)
    versioned = name in ("start", "next_hand", "reveal")

    @never_cache
    @require_POST
    def view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
        loaded = _post(request, pk)
        if loaded is None:
            return redirect_to_login(reverse("games:people-table", args=[pk]))
        if refused := limits.check(
            request, "people-actions-per-account", "people-actions-per-address"
        ):
            return refused
        table, seat = loaded
        together.seen(table.pk, request.user.pk)
        # A person whose time has run out is taken over first: his late decision is refused.
        people.expire(table)
        try:
            if name == "act":
                done = call(table, request.user, request.POST)
            elif versioned:
                version = people.posted_version(request.POST)
                done = call(table, request.user, version)
            else:
                done = call(table, request.user)
        except outcomes.Refused as refusal:
            return _refused(request, table, seat, refusal, deciding=name == "act")
        return _done(request, done, seat)

    view.__name__ = view.__qualname__ = f"{name}_view"
    view.__doc__ = getattr(people, name).__doc__
    return view


act = _action("act")
start = _action("start")
next_hand = _action("next_hand")
reveal = _action("reveal")
back = _action("back")
leave = _action("leave")


# -- finished hands --------------------------------------------------------------------------


@never_cache
@require_safe
@login_required
@vary_on_headers("HX-Request")
def replay_hand(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished hand step by step, from the user's seat, for those who sat at the table
    (a host who only watched saw no hand: he has no replay of one)."""
    table, seat = _table_for(request, pk)
    if seat is None or not together.may_replay(seat, number):
        raise Http404("No such hand.")
    record = get_object_or_404(PeopleHand, table=table, number=number)
    form = ReplayStepForm(request.GET)
    step = form.cleaned_data["step"] if form.is_valid() else None
    step = 0 if step is None else min(step, record.steps)
    hand = record.replay(step)
    page = presenting.replay_page(
        view_for(hand, seat.number),
        hand,
        RuleLinks.of(table.rules, table.game),
        notes=[n for n in record.notes if n["action"] < step],
        step=step,
        steps=record.steps,
        # The lines this step added to the trace.
        first_new=len(record.replay(step - 1).events) if step else None,
        here=request.path,
        # The computer players' reasons once the hand is over, as at the table.
        reasons=hand.over,
    )
    context = {"page": page, "table": table, "record": record}
    template = "games/replay.html#replay-step" if request.htmx else "games/people/replay.html"
    return render(request, template, context)


# -- together at the table: the host's forms, the fixed phrases ------------------------------


def _together(
    request: HttpRequest, pk: int, call: Callable[[PeopleTable], outcomes.Done], *limit: str
) -> HttpResponse:
    """A POST of the people at a table (the host's forms, a phrase): counted against
    ``limit``, for whoever sits at or hosts table ``pk`` (404 for anyone else); then the
    table's page (or the one the change opened) with what was done, or with why not (nothing
    changed)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:people-table", args=[pk]))
    if refused := limits.check(request, *limit):
        return refused
    table, _seat = _table_for(request, pk)
    together.seen(table.pk, request.user.pk)
    try:
        done = call(table)
    except outcomes.Refused as refusal:
        messages.error(request, str(refusal))
        return redirect(table)
    for text in done.said:
        messages.info(request, text)
    return redirect(done.table)


ACTIONS = ("people-actions-per-account", "people-actions-per-address")


def _versioned(
    request: HttpRequest, pk: int, call: Callable[..., outcomes.Done], *limit: str
) -> HttpResponse:
    """:func:`_together` for a host's form that sends its page's version."""
    return _together(
        request,
        pk,
        lambda table: call(table, request.user, people.posted_version(request.POST)),
        *limit,
    )


@require_POST
def rematch_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The host opens a new table for the same people (``together.rematch``) and goes to it."""
    return _versioned(
        request, pk, together.rematch, "people-tables-per-account", "people-tables-per-address"
    )


@require_POST
def close_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The host closes the table (``together.close``)."""
    return _versioned(request, pk, together.close, *ACTIONS)


@require_POST
def remove_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """The host gives a person's seat to a computer player (``together.remove``)."""
    form = RemoveSeatForm(request.POST)
    number = form.cleaned_data["seat"] if form.is_valid() else -1
    return _versioned(
        request,
        pk,
        lambda table, user, version: together.remove(table, user, version, number),
        *ACTIONS,
    )


@require_POST
def say_phrase(request: HttpRequest, pk: int) -> HttpResponse:
    """A person at the table says one of the fixed phrases (``together.say_phrase``)."""
    form = PhraseForm(request.POST)
    phrase = form.cleaned_data["phrase"] if form.is_valid() else ""
    return _together(
        request,
        pk,
        lambda table: together.say_phrase(table, request.user, phrase),
        "people-phrases-per-account",
        "people-phrases-per-address",
    )
