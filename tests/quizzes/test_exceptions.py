"""Exceptions for anyone, any time (issue 37): for a student before he starts, for a group
ticked on the roster, his own open, extra time on a timed quiz honoured by the server, and the
log of every change; and the countdown of a timed attempt: the server's seconds left in the
page, the time left in words with each question, the hand-in at zero."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lessons.classes.models import Membership
from lessons.quizzes.models import AssignmentException, Attempt, AttemptRefused, ExceptionChange
from lessons.quizzes.timing import GRACE, left_in_words

from .conftest import (
    HTMX,
    NOW,
    client_for,
    make_assignment,
    make_user,
    right_response,
    text,
)

pytestmark = pytest.mark.django_db


def _group_url(assignment) -> str:
    return reverse("quizzes:exceptions", args=[assignment.pk])


def _start(client, assignment) -> Attempt:
    response = client.post(reverse("quizzes:attempt-start", args=[assignment.pk]))
    assert response.status_code == 302
    return Attempt.objects.filter(assignment=assignment).order_by("-number").first()


@pytest.fixture
def classmates(school_class, student):
    """Two more students of class 1 (three with ``student``)."""
    made = []
    for name in ("bea", "cyd"):
        user = make_user(name)
        Membership.objects.create(school_class=school_class, student=user)
        made.append(user)
    return made


# -- before anyone starts -------------------------------------------------------------------------


def test_a_student_who_has_not_started_is_linked_to_his_page_and_given_an_exception(
    school_class, quiz, teacher, student, clock
) -> None:
    """The assignment opens tomorrow; the student is away then: his own open is today."""
    assignment = make_assignment(
        school_class, quiz, opens=NOW + timedelta(days=1), closes=NOW + timedelta(days=2)
    )
    teacher_client = client_for(teacher)
    results = teacher_client.get(reverse("quizzes:results", args=[assignment.pk]))
    page_url = reverse("quizzes:student-results", args=[assignment.pk, student.pk])
    assert page_url in results.content.decode()  # linked though he has no attempt

    with pytest.raises(AttemptRefused, match="not open yet"):
        Attempt.start(assignment, student)
    response = teacher_client.post(
        reverse("quizzes:exception", args=[assignment.pk, student.pk]),
        {"opens": "2026-11-23T11:00", "extra_attempts": "1"},  # Paris: 10:00 UTC
    )
    assert response.status_code == 302
    assert "opens Monday 23 November at 11:00; +1 attempt" in text(teacher_client.get(page_url))

    page = text(client_for(student).get(assignment.get_absolute_url()))
    assert "23 Nov 2026, 11:00 CET (for you)" in page
    assert "Start the quiz" in page
    assert Attempt.start(assignment, student).number == 1


def test_a_students_own_open_is_before_his_close(assignment, teacher, student, clock) -> None:
    client = client_for(teacher)
    url = reverse("quizzes:exception", args=[assignment.pk, student.pk])
    client.post(url, {"opens": "2026-11-30T11:00"})  # after the assignment's close
    assert not AssignmentException.objects.exists()
    page = text(client.get(reverse("quizzes:student-results", args=[assignment.pk, student.pk])))
    assert "A student's open is before his close." in page


# -- for a group ---------------------------------------------------------------------------------


def test_a_group_exception_before_anyone_starts_and_its_log(
    assignment, teacher, student, classmates, clock
) -> None:
    bea, cyd = classmates
    client = client_for(teacher)
    response = client.post(
        _group_url(assignment),
        {"students": [student.pk, bea.pk], "extra_attempts": "2", "closes": "2026-11-30T17:00"},
    )
    assert response.status_code == 302
    given = {e.student_id: e for e in AssignmentException.objects.all()}
    assert set(given) == {student.pk, bea.pk}
    assert all(e.extra_attempts == 2 for e in given.values())

    page = text(client.get(_group_url(assignment)))
    words = "+2 attempts; extended to Monday 30 November at 17:00"
    assert f"student (Ann Example) {words}" in page
    assert f"bea {words}" in page and "cyd none" in page
    assert "(2 of 3 students)" in page
    assert page.count(f"teacher: bea, {words}") == 1
    assert page.count(f"teacher: student, {words}") == 1

    # Each of them sees his own terms; the third the assignment's.
    assert "with 2 extra for you" in text(client_for(bea).get(assignment.get_absolute_url()))
    assert "extra for you" not in text(client_for(cyd).get(assignment.get_absolute_url()))

    # Taken back for one: logged as such.
    client.post(_group_url(assignment), {"students": [bea.pk]})
    assert set(AssignmentException.objects.values_list("student", flat=True)) == {student.pk}
    changes = list(ExceptionChange.objects.filter(student=bea).order_by("pk"))
    assert [c.what for c in changes] == [words, ""]
    assert all(c.teacher == teacher for c in changes)
    assert "teacher: bea, taken back" in text(client.get(_group_url(assignment)))


def test_a_group_exception_needs_a_student_ticked(assignment, teacher, student, clock) -> None:
    response = client_for(teacher).post(_group_url(assignment), {"extra_attempts": "1"})
    assert response.status_code == 200
    assert "Tick at least one student." in text(response)
    assert not AssignmentException.objects.exists() and not ExceptionChange.objects.exists()


def test_a_student_of_another_class_cannot_be_ticked(
    assignment, teacher, student, outsider, clock
) -> None:
    response = client_for(teacher).post(
        _group_url(assignment), {"students": [outsider.pk], "extra_attempts": "1"}
    )
    assert response.status_code == 200
    assert not AssignmentException.objects.exists()


# -- extra time ----------------------------------------------------------------------------------


def test_extra_time_is_honoured_by_the_server(
    school_class, quiz, teacher, student, classmates, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=10)
    bea = classmates[0]
    client_for(teacher).post(
        _group_url(assignment), {"students": [student.pk], "extra_minutes": "5"}
    )
    mine = Attempt.start(assignment, student)
    hers = Attempt.start(assignment, bea)
    assert mine.deadline == NOW + timedelta(minutes=15)
    assert hers.deadline == NOW + timedelta(minutes=10)

    clock.at = NOW + timedelta(minutes=12)
    answer = mine.answers.get(position=0)
    assert answer.record(answer.to_engine(), right_response(mine, 0)).grade is not None
    late = hers.answers.get(position=0)
    assert "ran out" in late.record(late.to_engine(), right_response(hers, 0)).refused

    clock.at = NOW + timedelta(minutes=16)
    answer = mine.answers.get(position=1)
    assert "ran out" in answer.record(answer.to_engine(), right_response(mine, 1)).refused


def test_extra_time_given_during_an_attempt_moves_its_deadline(
    school_class, quiz, teacher, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=10)
    attempt = Attempt.start(assignment, student)
    clock.at = NOW + timedelta(minutes=9)
    client_for(teacher).post(
        reverse("quizzes:exception", args=[assignment.pk, student.pk]), {"extra_minutes": "20"}
    )
    attempt.refresh_from_db()
    assert attempt.deadline == NOW + timedelta(minutes=30)
    page = text(client_for(student).get(assignment.get_absolute_url()))
    assert "30 minutes an attempt (with 20 extra for you)" in page


def test_an_untimed_assignment_offers_no_extra_time(assignment, teacher, student, clock) -> None:
    client = client_for(teacher)
    page = text(client.get(_group_url(assignment)))
    assert "Extra time" not in page
    client.post(_group_url(assignment), {"students": [student.pk], "extra_minutes": "5"})
    assert not AssignmentException.objects.exists()  # the field is not there: nothing given


# -- the countdown -------------------------------------------------------------------------------


def _seconds_left(html: str) -> int:
    found = re.search(r'data-seconds-left="(\d+)"', html)
    assert found, "no countdown in the page"
    return int(found.group(1))


def test_the_attempt_page_carries_the_servers_seconds_left(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=20)
    client = client_for(student)
    attempt = _start(client, assignment)
    clock.at = NOW + timedelta(minutes=7, seconds=30)
    response = client.get(attempt.get_absolute_url())
    html = response.content.decode()
    assert _seconds_left(html) == 12 * 60 + 30
    assert 'data-deadline="2026-11-23T11:20:00+01:00"' in html  # the class's zone
    assert "js/countdown.js" in html
    page = text(response)
    assert "12 minutes left: answers are accepted until 11:20 CET (Europe/Paris)." in page


def test_each_answer_page_warns_near_the_end_without_javascript(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=20, feedback="each")
    client = client_for(student)
    attempt = _start(client, assignment)
    clock.at = NOW + timedelta(minutes=16)
    url = reverse("quizzes:attempt-answer", args=[attempt.pk, 1])
    # Without JavaScript: the answer redirects to the next page, which says how long is left.
    response = client.post(url, {"response": right_response(attempt, 0)})
    page = text(client.get(response.url))
    assert "Only 4 minutes left. Send your answers now" in page
    # With htmx, the question's fragment says it too.
    clock.at = NOW + timedelta(minutes=19, seconds=30)
    fragment = client.get(f"{attempt.get_absolute_url()}?q=2", headers=HTMX)
    assert "Only under a minute left." in text(fragment)


def test_no_countdown_once_the_attempt_is_over(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=20)
    client = client_for(student)
    attempt = _start(client, assignment)
    clock.at = NOW + timedelta(minutes=21)
    assert 'id="countdown"' not in client.get(attempt.get_absolute_url()).content.decode()


def test_the_countdowns_hand_in_at_zero_submits_the_attempt_at_its_end(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=20)
    client = client_for(student)
    attempt = _start(client, assignment)
    submit = reverse("quizzes:attempt-submit", args=[attempt.pk])
    clock.at = attempt.deadline + timedelta(seconds=GRACE - 1)  # the request took a moment
    client.post(submit, {"timer": "1"})
    attempt.refresh_from_db()
    assert attempt.submitted == attempt.deadline
    assert attempt.state_at(clock.at) == "submitted"


def test_a_late_submit_is_never_submitted(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=20, attempts_allowed=2)
    client = client_for(student)
    first = _start(client, assignment)
    clock.at = first.deadline + timedelta(seconds=1)
    client.post(reverse("quizzes:attempt-submit", args=[first.pk]))  # no countdown: no grace
    first.refresh_from_db()
    assert first.submitted is None
    second = _start(client, assignment)
    clock.at = second.deadline + timedelta(seconds=GRACE + 1)
    client.post(reverse("quizzes:attempt-submit", args=[second.pk]), {"timer": "1"})
    second.refresh_from_db()
    assert second.submitted is None


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "under a minute"),
        (59, "under a minute"),
        (60, "1 minute"),
        (12 * 60 + 59, "12 minutes"),
        (3600 + 5 * 60, "1 hour 5 minutes"),
        (2 * 3600, "2 hours"),
        (2 * 86400 + 3 * 3600 + 60, "2 days 3 hours"),
    ],
)
def test_time_left_in_words(seconds, words) -> None:
    assert left_in_words(seconds) == words


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_exceptions_page_reads_as_many_queries_whatever_the_roster(
    assignment, teacher, student, classmates, clock
) -> None:
    client = client_for(teacher)
    client.post(_group_url(assignment), {"students": [student.pk], "extra_attempts": "1"})
    few = _queries(client, _group_url(assignment))
    for i in range(12):
        user = make_user(f"more{i}")
        Membership.objects.create(school_class=assignment.school_class, student=user)
    members = Membership.objects.filter(school_class=assignment.school_class)
    everyone = list(members.values_list("student", flat=True))
    client.post(_group_url(assignment), {"students": everyone, "extra_attempts": "2"})
    assert _queries(client, _group_url(assignment)) == few
