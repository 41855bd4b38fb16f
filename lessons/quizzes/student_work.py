"""A student's assignments and his state in each: the list of all his classes' work
(``/quizzes/mine/``) and, given to the classes app at start-up, the list on each class's page
(lessons.classes.work)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from lessons.classes.models import SchoolClass
from lessons.classes.work import Work
from lessons.quizzes import reports
from lessons.quizzes.models import (
    IN_PROGRESS,
    NEVER_SUBMITTED,
    SUBMITTED_STATE,
    Assignment,
    AssignmentException,
    Attempt,
    Terms,
)


def rows_for(
    student: Any, classes: QuerySet[SchoolClass] | list[SchoolClass]
) -> list[dict[str, Any]]:
    """Each assignment of these classes, by close: the assignment, the student's state, the
    teacher's time zone (dates are shown in it), and its close for him (his own, if
    extended). A fixed number of queries."""
    assignments = list(
        Assignment.objects.filter(school_class__in=classes)
        .select_related("school_class__teacher__teacher", "quiz__current", "lesson")
        .order_by("closes", "pk")
    )
    attempts = defaultdict(list)
    for a in Attempt.objects.filter(assignment__in=assignments, student=student):
        attempts[a.assignment_id].append(a)
    exceptions = {
        e.assignment_id: e
        for e in AssignmentException.objects.filter(assignment__in=assignments, student=student)
    }
    done_lessons = reports.lessons_done([student.pk], [a.lesson for a in assignments if a.lesson])
    now = timezone.now()
    rows = []
    for a in assignments:
        states = {t.state_at(now) for t in attempts[a.pk]}
        if a.lesson_id:
            state = "done" if (student.pk, a.lesson_id) in done_lessons else "not done"
        else:
            order = (IN_PROGRESS, SUBMITTED_STATE, NEVER_SUBMITTED)
            state = next((s for s in order if s in states), "not started")
        closes = Terms.of(a, exceptions.get(a.pk)).closes  # his own, if extended
        rows.append({"assignment": a, "state": state, "zone": a.time_zone(), "closes": closes})
    return rows


def work_in_class(student: Any, school_class: SchoolClass) -> list[Work]:
    """The class's assignments for its page: open ones first, then those to come, then
    those closed."""
    now = timezone.now()
    work = [
        Work(
            title=r["assignment"].title,
            url=r["assignment"].get_absolute_url(),
            closes=r["closes"],
            zone=r["zone"],
            state=r["state"],
            open=r["assignment"].opens <= now < r["closes"],
            closed=r["closes"] <= now,
        )
        for r in rows_for(student, [school_class])
    ]
    return sorted(work, key=lambda w: (not w.open, w.closed))
