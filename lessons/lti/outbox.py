"""Grades back to the platform's gradebook (Assignment and Grade Services).

When an attempt at a placed quiz ends, or the quiz is regraded, a :class:`ScoreOutbox` row is
written for each student concerned, in the transaction of the change; nothing goes over the
network there. After the commit a background thread of the worker sends what is due
(``settings.LTI_SEND``: "thread", "inline" or "off"), and ``manage.py send_lti_scores`` (cron,
or ``--loop`` as a worker of its own) sends what is due later: retries, and grades held until
the assignment closes when its answers and scores are shown only then, and the grades of
attempts that their close or time limit ended (:func:`queue_ended`).

A row is sent with the grade the quiz's rule gives *when it is sent* (highest, last, first
attempt or the average: :meth:`Assignment.kept`, worked out as every page works it out,
:func:`lessons.quizzes.grades.standings`), so a later change is never overtaken by an earlier
one; its timestamp is that of the last change. A failed send is tried again after 30 s, 1 min,
2 min … (at most 6 h) and given up after :attr:`ScoreOutbox.MAX_TRIES` tries; the teacher sees
each student's state on the class's LTI page and may send again.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector

from lessons.lti.models import LtiAccount, Placement, ScoreOutbox
from lessons.lti.tool import http, registration_of
from lessons.quizzes.grades import scored, standings
from lessons.quizzes.models import Assignment, Attempt, Feedback

log = logging.getLogger(__name__)

#: How long a worker holds a row it is sending.
LEASE = timedelta(seconds=60)
FIRST_WAIT = 30
LONGEST_WAIT = 6 * 3600


def wait_after(tries: int) -> timedelta:
    return timedelta(seconds=min(LONGEST_WAIT, FIRST_WAIT * 2 ** max(0, tries - 1)))


def release_time(assignment: Assignment, now: datetime) -> datetime:
    """When a grade may reach the gradebook: at once, or when the assignment's last close
    has passed if its scores are shown only then (the gradebook would show them sooner)."""
    if assignment.feedback == Feedback.CLOSED:
        return max(now, assignment.final_close)
    return now


def queue(assignment: Assignment, students: list[int]) -> int:
    """Write (or renew) the outbox rows of these students at this assignment, if it was
    placed in a course; after the commit, the sender is woken. How many rows."""
    placement = Placement.objects.filter(assignment=assignment, kind=Placement.QUIZ).first()
    if placement is None or not students:
        return 0
    now = timezone.now()
    due = release_time(assignment, now)
    for student in students:
        ScoreOutbox.objects.update_or_create(
            placement=placement,
            student_id=student,
            defaults={
                "changed": now,
                "next_try": due,
                "tries": 0,
                "lease": None,
                "sent": None,
                "failed": None,
                "error": "",
            },
        )
    transaction.on_commit(wake)
    return len(students)


def on_attempt_ended(sender: Any, attempt: Attempt, **kwargs: Any) -> None:
    queue(attempt.assignment, [attempt.student_id])


def on_regraded(sender: Any, assignment: Assignment, **kwargs: Any) -> None:
    students = list(
        Attempt.objects.filter(assignment=assignment).values_list("student", flat=True).distinct()
    )
    queue(assignment, students)


def queue_ended(now: datetime | None = None) -> int:
    """Queue the grades of attempts at placed quizzes that their close or time limit ended
    without a submit (no request ended them: ``send_lti_scores`` looks for them), unless a
    grade was queued since they ended. How many rows."""
    now = now or timezone.now()
    newer = ScoreOutbox.objects.filter(
        placement__assignment=OuterRef("assignment"),
        student=OuterRef("student"),
        changed__gte=OuterRef("deadline"),
    )
    ended = (
        Attempt.objects.filter(
            assignment__lti_placement__kind=Placement.QUIZ,
            submitted__isnull=True,
            deadline__lte=now,
        )
        .exclude(Exists(newer))
        .values_list("assignment", "student")
        .distinct()
    )
    students: dict[int, list[int]] = {}
    for assignment, student in ended:
        students.setdefault(assignment, []).append(student)
    return sum(
        queue(assignment, students[assignment.pk])
        for assignment in Assignment.objects.filter(pk__in=students)
    )


def send_again(placements: Any) -> int:
    """The teacher's "send again": every row of these placements not sent, due now."""
    now = timezone.now()
    count = ScoreOutbox.objects.filter(placement__in=placements, sent__isnull=True).update(
        failed=None, tries=0, next_try=now, lease=None
    )
    transaction.on_commit(wake)
    return count


# -- sending ------------------------------------------------------------------------------------


class NotSent(Exception):
    """A grade that cannot be sent: the message says why (for the teacher)."""


def kept_grade(assignment: Assignment, student: int, now: datetime) -> tuple[float, bool] | None:
    """The student's grade by the quiz's rule, and whether he is done (no attempt left);
    None before any attempt has ended."""
    attempts = Attempt.objects.filter(assignment=assignment, student=student).order_by("number")
    standing = standings(scored(attempts), now, {assignment.pk: assignment}).get(
        (student, assignment.pk)
    )
    if standing is None or standing.kept is None:
        return None
    allowed = assignment.terms_for(student).attempts_allowed
    done = allowed is not None and standing.attempts >= allowed
    return float(standing.kept), done


def grades_service(placement: Placement) -> AssignmentsGradesService:
    context = placement.context
    connector = ServiceConnector(registration_of(context.platform), http())
    return AssignmentsGradesService(
        connector,
        {
            "scope": context.ags_scopes,
            "lineitems": context.lineitems_url,
            "lineitem": placement.lineitem_url,
        },
    )


def lineitem_of(placement: Placement, service: AssignmentsGradesService) -> LineItem:
    """The placement's gradebook column: the one the platform made for its link, else one
    found or made in the course's line items (then kept)."""
    if placement.lineitem_url:
        return LineItem({"id": placement.lineitem_url})
    if not placement.context.lineitems_url or not service.can_create_lineitem():
        raise NotSent("The platform has given no gradebook column for this activity.")
    wanted = (
        LineItem()
        .set_label(placement.title[:100])
        .set_score_maximum(100)
        .set_tag("lanterloo")
        .set_resource_id(f"lanterloo-assignment-{placement.assignment_id}")
    )
    if placement.resource_link_id:
        wanted.set_resource_link_id(placement.resource_link_id)
    made = service.find_or_create_lineitem(wanted, find_by="resource_id")
    url = str(made.get_id() or "")
    if not url:
        raise NotSent("The platform made no gradebook column for this activity.")
    Placement.objects.filter(pk=placement.pk).update(lineitem_url=url)
    placement.lineitem_url = url
    return made


def send_one(row: ScoreOutbox, now: datetime) -> float:
    """Send the row's grade (network: never called inside a transaction); the score sent."""
    placement = row.placement
    assignment = placement.assignment
    if assignment is None:
        raise NotSent("The assignment is gone.")
    if not placement.context.platform.active:
        raise NotSent("The platform is switched off in Lanterloo's admin.")
    account = LtiAccount.objects.filter(
        user=row.student_id, issuer=placement.context.platform.issuer
    ).first()
    if account is None:
        raise NotSent("This student did not come from the course's platform.")
    found = kept_grade(assignment, row.student_id, now)
    if found is None:
        raise NotSent("No attempt of this student has ended.")
    score, done = found
    service = grades_service(placement)
    if not service.can_put_grade():
        raise NotSent("The platform does not let Lanterloo send grades to this course.")
    grade = (
        Grade()
        .set_score_given(round(score, 4))
        .set_score_maximum(100)
        .set_timestamp(row.changed.isoformat())
        .set_activity_progress("Completed" if done else "Submitted")
        .set_grading_progress("FullyGraded")
        .set_user_id(account.subject)
    )
    service.put_grade(grade, lineitem_of(placement, service))
    return score


def _claim(row: ScoreOutbox, now: datetime) -> bool:
    """Hold the row for this worker (another worker holding it, or done with it: False)."""
    return bool(
        ScoreOutbox.objects.due(now)
        .filter(pk=row.pk, tries=row.tries, changed=row.changed)
        .update(lease=now + LEASE)
    )


def _error_text(error: Exception) -> str:
    response = getattr(error, "response", None)
    if response is not None:
        return f"The platform answered {response.status_code}."
    return str(error)[:500] or error.__class__.__name__


def send_due(limit: int = 100) -> tuple[int, int]:
    """Send the rows due now, each outside any transaction: (sent, failed to send)."""
    sent = failed = 0
    now = timezone.now()
    rows = list(
        ScoreOutbox.objects.due(now).select_related(
            "placement__context__platform", "placement__assignment__school_class"
        )[:limit]
    )
    for row in rows:
        if not _claim(row, now):
            continue
        try:
            score = send_one(row, now)
        except (NotSent, LtiException, requests.RequestException) as error:
            tries = row.tries + 1
            gave_up = isinstance(error, NotSent) or tries >= ScoreOutbox.MAX_TRIES
            ScoreOutbox.objects.filter(pk=row.pk, changed=row.changed).update(
                tries=tries,
                lease=None,
                error=_error_text(error),
                next_try=now + wait_after(tries),
                failed=now if gave_up else None,
            )
            failed += 1
            continue
        ScoreOutbox.objects.filter(pk=row.pk, changed=row.changed).update(
            sent=timezone.now(), score=score, lease=None, error="", tries=row.tries + 1
        )
        sent += 1
    return sent, failed


# -- the background sender -----------------------------------------------------------------------

_running = threading.Lock()
#: The last sender thread started (the tests join it).
last_thread: threading.Thread | None = None


def _send_in_thread() -> None:
    try:
        while sum(send_due()) > 0:
            pass
    except Exception:  # a sender must never take the worker down; cron tries again
        log.exception("Sending grades to a platform failed")
    finally:
        connection.close()
        _running.release()


def wake() -> None:
    """After a commit that queued grades: send them (``settings.LTI_SEND``)."""
    global last_thread
    mode = getattr(settings, "LTI_SEND", "thread")
    if mode == "inline":
        send_due()
    elif mode == "thread" and _running.acquire(blocking=False):
        last_thread = threading.Thread(target=_send_in_thread, name="lti-grades", daemon=True)
        last_thread.start()
