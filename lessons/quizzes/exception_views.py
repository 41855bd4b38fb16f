"""The teacher's exceptions: for one student (on his page of the results, started or not) and
for a group ticked on the roster (the assignment's exceptions page, with the log of every
change). The rules are :mod:`lessons.quizzes.exceptions`'."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from games.http import AuthenticatedHttpRequest
from lessons.classes.models import Membership
from lessons.quizzes import exceptions
from lessons.quizzes.exceptions import ExceptionForm
from lessons.quizzes.models import Assignment
from lessons.quizzes.views import _assignment_for_teacher, _in_zone


def _quiz_assignment(request: AuthenticatedHttpRequest, pk: int) -> Assignment:
    assignment = _assignment_for_teacher(request, pk)
    if assignment.quiz_id is None:
        raise Http404("A lesson takes no exception.")
    return assignment


def _said(name: str, what: str) -> str:
    return f"{name}: {what}." if what else f"{name} has the assignment's dates and attempts."


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_exceptions(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: every student of the roster with his exception, the form for the students ticked,
    and the log of changes; POST: give the students ticked the exception (or take theirs
    back)."""
    assignment = _quiz_assignment(request, pk)
    zone = assignment.time_zone()
    form = None
    if request.method == "POST":
        members = list(
            Membership.objects.active()
            .filter(school_class=assignment.school_class_id)
            .select_related("student")
        )
        with timezone.override(zone):
            form = ExceptionForm(assignment, request.POST, members=members)
            valid = form.is_valid()
        if valid:
            students = form.students()
            what = exceptions.apply(assignment, students, form, request.user)
            names = ", ".join(m.student.get_username() for m in members if m.student_id in students)
            messages.success(request, _said(names, what))
            return redirect("quizzes:exceptions", assignment.pk)
    context = exceptions.page_context(assignment, form)
    return _in_zone(request, zone, "quizzes/exceptions.html", context)


@login_required
@require_POST
def set_exception(request: AuthenticatedHttpRequest, pk: int, student: int) -> HttpResponse:
    """Give one student (started or not) his own open, a later close, extra attempts or
    extra time (all empty: take it back); his attempts in progress get their new deadline."""
    assignment = _assignment_for_teacher(request, pk)
    membership = (
        Membership.objects.filter(school_class=assignment.school_class, student=student)
        .select_related("student")
        .first()
    )
    if membership is None or assignment.quiz_id is None:
        raise Http404("No such student in this quiz's class.")
    back = redirect("quizzes:student-results", assignment.pk, student)
    with timezone.override(assignment.time_zone()):
        form = ExceptionForm(assignment, request.POST)
        valid = form.is_valid()
    if not valid:
        for errors in form.errors.values():
            for text in errors:
                messages.error(request, text)  # type: ignore[arg-type]
        return back
    what = exceptions.apply(assignment, [student], form, request.user)
    messages.success(request, _said(membership.student.get_username(), what))
    return back
