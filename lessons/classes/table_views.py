"""The pages of a class's tables (issue 29): the teacher opens them, seats the students,
starts them and takes away one nobody came to; a student sits at one. The tables themselves
(the felt, the watch page, the reveal) are ``games``' people pages; these only list and
arrange them. Every class is found through :mod:`lessons.classes.access`: anyone else's is a
404, and nothing is changed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.models import PeopleTable
from games.people import outcomes
from lessons.classes import forms, tables
from lessons.classes.access import class_for_student, class_for_teacher
from lessons.classes.models import ClassTable, SchoolClass


def listed(school_class: SchoolClass, user: Any) -> list[dict[str, Any]]:
    """The class's latest 30 tables for its page, by number: each with its seats (who sits
    there, by username, or nobody), its status, ``user``'s seat there (None: he has none, or
    left it) and whether he may sit there; no card and no score (a class page tells nothing
    of a hand)."""
    rows = []
    latest = school_class.tables.order_by("-number").select_related("table")[:30]
    for class_table in sorted(latest.prefetch_related("table__seats__user"), key=_number):
        table = class_table.table
        seats = list(table.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk and s.left is None), None)
        rows.append(
            {
                "ct": class_table,
                "table": table,
                "seats": seats,
                "mine": mine,
                "people": sum(s.user_id is not None for s in seats),
                "hosted": table.host_id == user.pk,
                "waiting": table.status == table.Status.WAITING,
            }
        )
    # A student sits at one open table of the class at a time.
    seated = any(r["mine"] and r["table"].status != PeopleTable.Status.CLOSED for r in rows)
    for r in rows:
        r["may_sit"] = r["waiting"] and r["ct"].students_choose and not seated
    return rows


def _number(class_table: ClassTable) -> int:
    return class_table.number


def _back(school_class: SchoolClass) -> HttpResponse:
    return redirect(f"{school_class.get_absolute_url()}#tables")


def _class_table(school_class: SchoolClass, number: int) -> ClassTable:
    return get_object_or_404(school_class.tables.select_related("table"), number=number)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def open_tables(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The form of a class's new tables; its POST opens them, the students seated or not."""
    school_class = class_for_teacher(request.user, pk)
    if school_class.is_archived:
        messages.error(request, tables.ARCHIVED_TABLES)
        return _back(school_class)
    form = forms.ClassTablesForm(school_class, request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            made = tables.open_for_class(
                school_class,
                request.user,
                tables=form.cleaned_data["tables"],
                students_choose=form.cleaned_data["seating"] == "choose",
                **form.settings(),
            )
        except outcomes.Refused as refusal:
            form.add_error(None, str(refusal))
        else:
            n = len(made)
            messages.success(
                request,
                f"{n} table{'s' if n != 1 else ''} opened: start each when its students are ready.",
            )
            return _back(school_class)
    context = {
        "school_class": school_class,
        "form": form,
        "students": len(tables.students(school_class)),
        "unseated": len(tables.unseated(school_class)),
        "open_now": tables.open_count(school_class),
        "max_open": tables.MAX_OPEN_TABLES,
    }
    return render(request, "classes/tables_new.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_seats(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """Who sits where at one of the class's tables, until it starts."""
    school_class = class_for_teacher(request.user, pk)
    class_table = _class_table(school_class, number)
    roster = tables.students(school_class)
    form = forms.SeatsForm(
        class_table.table, roster, request.POST if request.method == "POST" else None
    )
    error = ""
    if form.is_bound and form.is_valid():
        try:
            tables.change_seats(class_table, request.user, form.wanted())
        except outcomes.Refused as refusal:
            error = str(refusal)
        else:
            messages.success(request, f"The seats of table {number} are changed.")
            return _back(school_class)
    context = {"school_class": school_class, "ct": class_table, "form": form, "error": error}
    status = 400 if error or form.errors else 200
    return render(request, "classes/table_seats.html", context, status=status)


@login_required
@require_POST
def start_tables(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Start one of the class's tables (``table``: its number) or every one that waits."""
    school_class = class_for_teacher(request.user, pk)
    number = request.POST.get("table", "")
    if number:
        chosen = [_class_table(school_class, int(number) if number.isdigit() else 0)]
    else:
        chosen = list(
            school_class.tables.filter(table__host_id=request.user.pk).select_related("table")
        )
    try:
        said = tables.start(chosen, request.user)
    except outcomes.Refused as refusal:
        messages.error(request, str(refusal))
    else:
        for sentence in said or ["No table was waiting to start."]:
            messages.info(request, sentence)
    return _back(school_class)


@login_required
@require_POST
def take_away(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """Take away one of the class's tables that has not started."""
    school_class = class_for_teacher(request.user, pk)
    class_table = _class_table(school_class, number)
    try:
        tables.take_away(class_table, request.user)
    except outcomes.Refused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, tables.TAKEN_AWAY.format(number=number))
    return _back(school_class)


@login_required
@require_POST
def sit(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """A student of the class sits at one of its tables where students choose: his table's
    page next."""
    school_class = class_for_student(request.user, pk)
    class_table = _class_table(school_class, number)
    try:
        if not school_class.memberships.active().filter(student_id=request.user.pk).exists():
            raise outcomes.Refused(outcomes.NOT_INVITED)
        tables.sit(class_table, request.user)
    except outcomes.Refused as refusal:
        messages.error(request, str(refusal))
        return _back(school_class)
    return redirect(class_table.table)
