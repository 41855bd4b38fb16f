"""The teacher's figures: an assignment's results page (the students, the item analysis by
what was asked, by kind and rule, by rule) and its CSV files (the students, the answers, the
item analysis), the class's gradebook and its CSV, and regrading. The views read, authorize,
call :mod:`~lessons.quizzes.reports`, :mod:`~lessons.quizzes.analysis` and
:mod:`~lessons.quizzes.gradebook`, and render."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from games.http import AuthenticatedHttpRequest
from lessons.classes.access import class_for_teacher
from lessons.quizzes import analysis, charts, csvexport, gradebook, reports
from lessons.quizzes.models import Assignment
from lessons.quizzes.signals import assignment_regraded
from lessons.quizzes.views import _assignment_for_teacher, _in_zone
from lessons.quizzes.zones import teacher_zone


@login_required
@require_safe
def show_results(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assignment = _assignment_for_teacher(request, pk)
    now = timezone.now()
    context: dict[str, Any] = {"assignment": assignment, "now": now}
    if assignment.lesson_id:
        context["lesson_rows"] = reports.lesson_rows(assignment)
    else:
        results = reports.results(assignment, now)
        context.update(results)
        context["rule_chart"] = charts.chart(
            results["rule_chart_shares"], "Share answered right, by rule"
        )
        context["reports"] = reports.problem_reports(assignment)
        context["exceptions"] = [
            (e, e.words(assignment.time_zone()))
            for e in assignment.exceptions.select_related("student")
        ]
    return _in_zone(request, assignment.time_zone(), "quizzes/results.html", context)


@login_required
@require_POST
def regrade(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assignment = _assignment_for_teacher(request, pk)
    graded, changed, failed = assignment.regrade()
    assignment_regraded.send(Assignment, assignment=assignment)
    text = f"Regraded {graded} answers: {changed} changed."
    if failed:
        text += f" {failed} could not be made again by this version of the question bank."
    messages.success(request, text)
    return redirect("quizzes:results", assignment.pk)


# -- CSV ----------------------------------------------------------------------------------------


@login_required
@require_safe
def download_answers(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseBase:
    """One row per answer: student and real name, attempt, question, rule (id and title),
    response, correct, time; streamed."""
    assignment = _assignment_for_teacher(request, pk)
    header, rows = reports.answer_rows(assignment)
    return csvexport.csv_response(f"assignment-{assignment.pk}-answers.csv", header, rows)


@login_required
@require_safe
def download_results(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseBase:
    """One row per student, as the results page: state, grade (a number), attempts, time."""
    assignment = _assignment_for_teacher(request, pk)
    found = reports.results(assignment, timezone.now())
    header, rows = reports.result_rows(assignment, found["rows"])
    return csvexport.csv_response(f"assignment-{assignment.pk}-results.csv", header, rows)


@login_required
@require_safe
def download_items(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseBase:
    """The item analysis: each question as asked, its options and common wrong answers."""
    assignment = _assignment_for_teacher(request, pk)
    students = assignment.school_class.memberships.values_list("student_id", flat=True)
    found = analysis.analyse(assignment, list(students), timezone.now())
    return csvexport.csv_response(
        f"assignment-{assignment.pk}-questions.csv", analysis.ITEM_HEADER, analysis.item_rows(found)
    )


# -- the gradebook --------------------------------------------------------------------------------


@login_required
@require_safe
def show_gradebook(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    school_class = class_for_teacher(request.user, pk)
    zone = teacher_zone(request.user)
    context = {
        "school_class": school_class,
        **gradebook.gradebook(school_class, timezone.now(), zone),
    }
    return _in_zone(request, zone, "quizzes/gradebook.html", context)


@login_required
@require_safe
def download_gradebook(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseBase:
    school_class = class_for_teacher(request.user, pk)
    book = gradebook.gradebook(school_class, timezone.now(), teacher_zone(request.user))
    header, rows = gradebook.gradebook_rows(book)
    return csvexport.csv_response(f"class-{school_class.pk}-gradebook.csv", header, rows)
