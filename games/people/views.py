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

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.http import HtmxHttpRequest
from games.links import RuleLink, RuleLinks
from games.loo.hand import Hand, IllegalAction
from games.loo.view import view_for
from games.models import PeopleHand, PeopleSeat, PeopleTable
from games.naming import seat_label
from games.people import service as people
from games.people.forms import JoinForm, NewPeopleTableForm, SeatForm
from games.table import presenting
from games.table.forms import ActionForm, ReplayStepForm
from games.table.page import Alerts, Offers, TablePage, TableUrls
from loo_site import limits

log = logging.getLogger(__name__)

TEMPLATE = "games/people/table.html"


# -- the list, opening, joining --------------------------------------------------------------


@require_safe
def list_tables(request: HttpRequest) -> HttpResponse:
    """What playing with people is, and the tables the user hosts or sits at, each with its
    link: how he comes back to a table from another device. A visitor not logged in reads
    how to begin (the play chooser links here for everyone)."""
    tables = []
    if request.user.is_authenticated:
        tables = list(people.tables_for(request.user).prefetch_related("seats__user")[:50])
    return render(request, "games/people/list.html", {"tables": tables, "join": JoinForm()})


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


@login_required
def join(request: HttpRequest) -> HttpResponse:
    """Type a table's code: it leads to that table's invitation."""
    form = JoinForm(request.GET or None)
    if form.is_valid():
        try:
            table = people.table_for_code(form.cleaned_data["code"])
        except people.Refused as refusal:
            form.add_error("code", str(refusal))
        else:
            return redirect(table.join_url)
    return render(request, "games/people/join.html", {"form": form})


def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """A table's invitation: its seats, and a form to take one (the first free one or one
    chosen). Not logged in: the login page, which comes back here."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        table = people.table_for_code(code)
    except people.Refused as refusal:
        raise Http404(str(refusal)) from None
    error = ""
    if request.method == "POST":
        if refused := limits.check(request, "people-joins-per-account", "people-joins-per-address"):
            return refused
        form = SeatForm(request.POST)
        seat = form.cleaned_data["seat"] if form.is_valid() else None
        try:
            people.sit(table, request.user, seat)
        except people.Refused as refusal:
            error = str(refusal)
        else:
            return redirect(table)
    elif people.seat_of(table, request.user) is not None:
        return redirect(table)
    context = {"table": table, "seats": _seats(table, None), "error": error}
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
    if people.catch_up(table):
        table.refresh_from_db()
        seat.refresh_from_db()
    if _started_since(request, table):
        return _reload()
    if seat.left is not None:
        # He left: a computer player holds his seat's cards now, and he sees them no more.
        return _render(request, table, None)
    return _render(request, table, seat)


def _started_since(request: HtmxHttpRequest, table: PeopleTable) -> bool:
    """A waiting page's live update (``?waiting=1``) once the table has started: the whole page
    comes again, with the felt its later updates are swapped into."""
    return bool(request.htmx and request.GET.get("waiting") and table.state is not None)


def _reload() -> HttpResponse:
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


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
    context = table_context(table, seat, form=form, refusal=refusal, error=error, flashed=flashed)
    if fragment == "hand-table" and request.htmx:
        template = "games/table.html#hand-table"
    else:
        template = f"{TEMPLATE}#{fragment}" if request.htmx else TEMPLATE
    return render(request, template, context)


def table_context(
    table: PeopleTable,
    seat: PeopleSeat | None,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    error: str = "",
    flashed: Sequence[tuple[str, str, RuleLink | None]] = (),
) -> dict[str, Any]:
    """What the table page shows the person at ``seat`` (None: a spectator): the table's page
    (``page``, :func:`games.table.presenting.table_page`) once it has started, and who sits
    where."""
    me = seat.number if seat is not None else 0
    urls = _urls(table)
    people_seats = _seats(table, seat)
    context: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "people_seats": people_seats,
        "urls": urls,
        "flashed": flashed,
        # Without JavaScript the page comes again by itself while nothing is his to decide.
        "refresh": table.status == PeopleTable.Status.WAITING,
    }
    if table.state is None:
        return context
    engine = table.to_engine()
    hand = engine.hand
    assert hand is not None
    links = RuleLinks.of(table.rules, table.game)
    # The felt's other seats are labelled with the names of the people in them ("Left
    # (ben)"): at a table of people one looks for a friend's seat, not for a place.
    names = {s["number"]: s["name"] for s in people_seats if s["name"] and not s["left"]}
    # The table's own "Leave the table" is in the seats' panel, at any time: the felt's (a
    # practice table's, between deals) is not offered twice.
    offers = Offers(
        urls=TableUrls(act=urls["act"], next=urls["next"]),
        deals_on=table.status == PeopleTable.Status.PLAYING and not engine.session_over,
        replay_url=reverse("games:people-hand", args=[table.pk, hand.setup.hand_number])
        if hand.over
        else "",
        # Everyone declares in turn here: nobody waits for the others, or declares early.
        waits=False,
    )
    if seat is None:
        page = _spectator(table, hand, links, offers, names)
        context["spectator"] = True
        context["refresh"] = True
        if hand.to_act is not None:
            named = people_seats[hand.to_act]
            context["to_act_name"] = named["name"] or f"{named['place']} (a computer player)"
    else:
        view = view_for(hand, me)
        page = presenting.table_page(
            view,
            hand,
            links,
            notes=table.notes,
            version=table.version,
            offers=offers,
            form=form,
            refusal=refusal,
            laws=table.laws,
            first_dealer=engine.first_dealer_brief if hand.setup.hand_number == 1 else None,
            alerts=Alerts(flashed=list(flashed), error=error),
            names=names,
        )
        context["refresh"] = view.options is None or view.options.kind == "none" or seat.away
    context["page"] = page
    context["view"] = page.view
    context["revealed"] = _revealed(table, hand, me)
    return context


def _urls(table: PeopleTable) -> dict[str, str]:
    return {
        name: reverse(f"games:people-{name}", args=[table.pk])
        for name in ("act", "next", "leave", "start", "back", "reveal", "stream", "table")
    }


def _seats(table: PeopleTable, mine: PeopleSeat | None) -> list[dict[str, Any]]:
    """Who sits where, named from the viewer's chair (a spectator's: seat 0's)."""
    me = mine.number if mine is not None else 0
    return [
        {
            "number": s.number,
            "place": seat_label(s.number, table.players, me=me),
            "name": s.user.get_username() if s.user else "",
            "away": s.away,
            "left": s.left is not None,
            "mine": mine is not None and s.pk == mine.pk,
        }
        for s in table.seats.select_related("user")
    ]


def _revealed(table: PeopleTable, hand: Hand, me: int) -> list[tuple[str, list[Any]]]:
    """Every hand as dealt, when the host has shown this finished deal to the table."""
    if not hand.over or table.revealed != hand.setup.hand_number:
        return []
    return [
        (seat_label(n, table.players, me=me), list(cards)) for n, cards in enumerate(hand.dealt)
    ]


def _spectator(
    table: PeopleTable, hand: Hand, links: RuleLinks, offers: Offers, names: Mapping[int, str]
) -> TablePage:
    """What a spectator sees: the public table (the trick, the pool, the counters, whose
    turn), read from seat 0's chair with seat 0's own cards and choices taken away."""
    public = dataclasses.replace(
        view_for(hand, 0),
        hand=(),
        own_discards=(),
        options=None,
        peeked=(),
        irregularities=(),
        irregular_stands=False,
    )
    return presenting.table_page(
        public, hand, links, notes=[], version=table.version, offers=offers, names=names
    )


# -- actions ---------------------------------------------------------------------------------


def _post(request: HtmxHttpRequest, pk: int) -> tuple[PeopleTable, PeopleSeat | None] | None:
    if not request.user.is_authenticated:
        return None
    return _table_for(request, pk)


def _done(request: HtmxHttpRequest, done: people.Done, seat: PeopleSeat | None) -> HttpResponse:
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
    request: HtmxHttpRequest, table: PeopleTable, seat: PeopleSeat | None, refusal: people.Refused
) -> HttpResponse:
    """A refusal: nothing changed. With htmx the fragment with the reason; without, the
    table with the reason as a message."""
    table.refresh_from_db()
    form = refusal.form if isinstance(refusal, people.ActionRefused) else None
    if request.htmx:
        error = "" if form is not None else str(refusal)
        return _render(
            request,
            table,
            _fresh(seat),
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
        try:
            if name == "act":
                done = call(table, request.user, request.POST)
            elif versioned:
                version = people.posted_version(request.POST)
                done = call(table, request.user, version)
            else:
                done = call(table, request.user)
        except people.Refused as refusal:
            return _refused(request, table, seat, refusal)
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


@require_safe
@login_required
@vary_on_headers("HX-Request")
def replay_hand(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished hand step by step, from the user's seat, for those who sat at the table
    (a host who only watched saw no hand: he has no replay of one)."""
    table, seat = _table_for(request, pk)
    if seat is None:
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
