"""Attempts as students expect them (issue 27, Moodle's quiz the reference): answers revised
until submit when feedback comes later, a summary before submitting, "never submitted" for
attempts the close ended, each attempt its own questions, the close and what is left said on
the assignment's page, per-student exceptions, and a wait between attempts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.classes.models import Membership
from lessons.quizzes.models import Answer, AssignmentException, Attempt, AttemptRefused

from .conftest import (
    HTMX,
    NOW,
    client_for,
    make_assignment,
    make_quiz,
    right_response,
    text,
    wrong_response,
)

pytestmark = pytest.mark.django_db


def _start(client, assignment) -> Attempt:
    response = client.post(reverse("quizzes:attempt-start", args=[assignment.pk]))
    assert response.status_code == 302
    return Attempt.objects.filter(assignment=assignment).order_by("-number").first()


def _answer(client, attempt, number, response, **extra):
    url = reverse("quizzes:attempt-answer", args=[attempt.pk, number])
    return client.post(url, {"response": response}, **extra)


def _submit_url(attempt) -> str:
    return reverse("quizzes:attempt-submit", args=[attempt.pk])


# -- item 7: revising answers ---------------------------------------------------------------------


def test_with_feedback_after_the_attempt_an_answer_is_revised_until_submit(
    assignment, student, clock
) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    page = text(client.get(attempt.get_absolute_url()))
    assert "You can change your answers until you submit the attempt" in page

    _answer(client, attempt, 1, wrong_response(attempt, 0))
    page = client.get(attempt.get_absolute_url() + "?q=1")
    body = page.content.decode()
    assert "Your answer, saved" in text(page) and "You can change it" in text(page)
    # The question's form stays open, the saved choice ticked.
    wrong = wrong_response(attempt, 0)[0]
    assert f'value="{wrong}"' in body
    assert body.split(f'value="{wrong}"')[1].split(">")[0].strip().startswith("id=")
    assert " checked" in body.split(f'value="{wrong}"')[1].split(">")[0]

    _answer(client, attempt, 1, right_response(attempt, 0), headers=HTMX)
    row = Answer.objects.get(attempt=attempt, position=0)
    assert row.response == right_response(attempt, 0) and row.correct is True

    client.post(_submit_url(attempt))
    response = _answer(client, attempt, 1, wrong_response(attempt, 0), headers=HTMX)
    assert "has been submitted" in text(response)
    assert Answer.objects.get(attempt=attempt, position=0).correct is True
    assert "Your score: 1 of 3 right" in text(client.get(attempt.get_absolute_url()))


def test_with_feedback_after_each_answer_the_first_answer_stands(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, feedback="each")
    client = client_for(student)
    attempt = _start(client, assignment)
    assert "Your first answer to each question stands" in text(
        client.get(attempt.get_absolute_url())
    )
    _answer(client, attempt, 1, wrong_response(attempt, 0))
    response = _answer(client, attempt, 1, right_response(attempt, 0), headers=HTMX)
    assert "your first answer stands" in text(response)
    assert Answer.objects.get(attempt=attempt, position=0).correct is False


def test_a_revision_is_graded_by_regrade_as_it_was_on_submit(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    _answer(client, attempt, 1, right_response(attempt, 0))
    _answer(client, attempt, 1, wrong_response(attempt, 0))
    client.post(_submit_url(attempt))
    assert assignment.regrade() == (1, 0, 0)
    assert Answer.objects.get(attempt=attempt, position=0).correct is False


# -- item 8: the submit summary --------------------------------------------------------------------


def test_submit_shows_a_summary_first_then_submits_on_confirm(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    _answer(client, attempt, 2, right_response(attempt, 1))

    attempt_page = client.get(attempt.get_absolute_url()).content.decode()
    # The way to submit comes after the question and the list of questions.
    question = attempt_page.index('class="question__form"')
    questions = attempt_page.index('aria-label="Questions"')
    finish = attempt_page.index(_submit_url(attempt))
    assert question < questions < finish

    summary = client.get(_submit_url(attempt))
    assert summary.status_code == 200
    body = text(summary)
    assert "You have answered 1 of 3 questions" in body
    assert "Not answered Question 1 Question 3" in body
    html = summary.content.decode()
    assert f'href="{attempt.get_absolute_url()}?q=1"' in html
    assert f'href="{attempt.get_absolute_url()}?q=2"' not in html
    assert 'method="post"' in html and "Submit the attempt" in body
    assert Attempt.objects.get(pk=attempt.pk).submitted is None  # a GET submits nothing

    response = client.post(_submit_url(attempt))
    assert Attempt.objects.get(pk=attempt.pk).submitted is not None
    assert "Your attempt is submitted" in text(client.get(response.url))
    # Once over, the summary is the attempt's review.
    assert client.get(_submit_url(attempt)).url == attempt.get_absolute_url()


# -- item 9: never submitted --------------------------------------------------------------------


def test_an_attempt_the_close_ended_is_never_submitted_everywhere(
    assignment, student, teacher, clock
) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    _answer(client, attempt, 1, right_response(attempt, 0))
    clock.at = assignment.closes + timedelta(minutes=5)

    assert Attempt.objects.get(pk=attempt.pk).state == "never submitted"
    response = client.post(_submit_url(attempt))  # too late: it stays never submitted
    assert "It was never submitted" in text(client.get(response.url))
    assert Attempt.objects.get(pk=attempt.pk).submitted is None

    assert "never submitted" in text(client.get(attempt.get_absolute_url()))
    assert "never submitted (ended" in text(client.get(assignment.get_absolute_url()))
    mine = text(client.get(reverse("quizzes:my-assignments")))
    assert "never submitted" in mine
    results = text(client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk])))
    assert "student (Ann Example) never submitted 33%" in results
    answers = reverse("quizzes:student-results", args=[assignment.pk, student.pk])
    assert "never submitted" in text(client_for(teacher).get(answers))


def test_a_submitted_attempt_is_submitted(assignment, student, clock) -> None:
    attempt = Attempt.start(assignment, student)
    assert attempt.state == "in progress"
    attempt.submit()
    assert attempt.state == "submitted"


# -- item 9a: each attempt its own questions ------------------------------------------------------


def test_each_attempt_draws_its_own_questions_and_the_first_keeps_its_seeds(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, attempts_allowed=3, delay=0)
    first = Attempt.start(assignment, student)
    version = quiz.current
    seeds = list(first.answers.values_list("seed", flat=True))
    # The first attempt's questions are those made before attempts drew their own.
    assert seeds == [int(version.make_question(i, "all").seed) for i in range(3)]
    first.submit()
    second = Attempt.start(assignment, student)
    assert set(second.answers.values_list("seed", flat=True)).isdisjoint(seeds)
    # Reproducible: every student's second attempt asks the same (the same for all).
    assert list(second.answers.values_list("seed", flat=True)) == [
        int(version.make_question(i, "all", 2).seed) for i in range(3)
    ]


def test_a_blank_first_attempt_does_not_hand_the_second_its_answers(
    school_class, teacher, student, clock
) -> None:
    quiz = make_quiz(teacher, count=5)
    assignment = make_assignment(school_class, quiz, attempts_allowed=2, delay=0)
    client = client_for(student)
    first = _start(client, assignment)
    client.post(_submit_url(first))
    review = text(client.get(first.get_absolute_url()))
    assert "Not answered" in review  # its answers shown, as the setting allows

    second = _start(client, assignment)
    assert second.number == 2
    # Copying the first attempt's answers into the second does not make 5 of 5.
    for i in range(5):
        copied = right_response(first, i)
        q = second.answers.get(position=i).to_engine()
        ids = {c.id for c in q.choices}
        _answer(client, second, i + 1, copied if set(copied) <= ids else [q.choices[0].id])
    client.post(_submit_url(second))
    second = Attempt.objects.with_scores().get(pk=second.pk)
    assert second.total == 5 and second.right < 5


def test_score_only_never_shows_unanswered_answers(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, feedback="score", attempts_allowed=2)
    client = client_for(student)
    first = _start(client, assignment)
    client.post(_submit_url(first))
    body = text(client.get(first.get_absolute_url()))
    assert "The answer:" not in body and "Your score: 0 of 3 right" in body


# -- item 10: the assignment's page ---------------------------------------------------------------


def test_the_assignment_page_says_when_it_closes_and_when_no_attempt_is_left(
    assignment, student, clock
) -> None:
    client = client_for(student)
    page = text(client.get(assignment.get_absolute_url()))
    # Closes 24 November 10:00 UTC: 11:00 in the teacher's Paris.
    assert "closes Tuesday 24 November at 11:00" in page
    attempt = _start(client, assignment)
    page = text(client.get(assignment.get_absolute_url()))
    # The attempt under way says its end with its date, not a bare hour.
    assert "takes answers until Tuesday 24 November at 11:00" in page
    client.post(_submit_url(attempt))
    page = text(client.get(assignment.get_absolute_url()))
    assert "No attempt is left" in page and "Start" not in page


@pytest.mark.parametrize("archived", ["class", "student"])
def test_an_archived_class_or_student_sees_no_start_button(
    assignment, student, school_class, clock, archived
) -> None:
    if archived == "class":
        school_class.archived = timezone.now()
        school_class.save()
    else:
        Membership.objects.filter(student=student).update(archived=timezone.now())
    page = text(client_for(student).get(assignment.get_absolute_url()))
    assert "Start" not in page and "archived" in page
    with pytest.raises(AttemptRefused, match="archived"):
        Attempt.start(assignment, student)


# -- item 11: per-student exceptions --------------------------------------------------------------


def _except(teacher, assignment, student, **data) -> str:
    """Post the exception form; the text of the page it leads to."""
    client = client_for(teacher)
    url = reverse("quizzes:exception", args=[assignment.pk, student.pk])
    response = client.post(url, data)
    assert response.status_code == 302
    return text(client.get(response.url))


def test_an_extra_attempt_and_a_later_close_for_one_student(
    assignment, student, teacher, clock
) -> None:
    attempt = Attempt.start(assignment, student)
    attempt.submit()
    teacher_page = _except(
        teacher, assignment, student, extra_attempts="1", closes="2026-11-30T17:00"
    )
    assert "+1 attempt; extended to Monday 30 November at 17:00" in teacher_page

    client = client_for(student)
    page = text(client.get(assignment.get_absolute_url()))
    assert "(extended for you)" in page and "with 1 extra for you" in page
    assert "closes for you Monday 30 November at 17:00" in page
    # After the assignment's close, his attempt starts and runs to his own close.
    clock.at = assignment.closes + timedelta(hours=1)
    second = _start(client, assignment)
    assert second.number == 2
    assert second.deadline == datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    results = text(client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk])))
    assert "Exceptions student: +1 attempt; extended to Monday 30 November at 17:00" in results


def test_a_later_close_gives_an_attempt_in_progress_its_new_deadline(
    assignment, student, teacher, clock
) -> None:
    attempt = Attempt.start(assignment, student)
    _except(teacher, assignment, student, closes="2026-11-30T17:00")
    attempt.refresh_from_db()
    assert attempt.deadline > assignment.closes
    clock.at = assignment.closes + timedelta(hours=1)
    answer = attempt.answers.get(position=0)
    assert answer.record(answer.to_engine(), right_response(attempt, 0)).grade is not None


def test_a_bad_exception_is_refused_and_changes_nothing(
    assignment, student, teacher, clock
) -> None:
    page = _except(teacher, assignment, student, closes="2026-11-20T17:00", extra_attempts="2")
    assert "later than the assignment's" in page
    assert not AssignmentException.objects.exists()
    unlimited = make_assignment(assignment.school_class, assignment.quiz, attempts_allowed=None)
    assert "unlimited already" in _except(teacher, unlimited, student, extra_attempts="1")
    assert not AssignmentException.objects.exists()


def test_an_exception_taken_back(assignment, student, teacher, clock) -> None:
    _except(teacher, assignment, student, extra_attempts="1")
    assert AssignmentException.objects.get().extra_attempts == 1
    _except(teacher, assignment, student, extra_attempts="0", closes="")
    assert not AssignmentException.objects.exists()


# -- the wait between attempts ------------------------------------------------------------------


def test_unlimited_attempts_wait_a_minute_between_attempts(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, attempts_allowed=None)
    client = client_for(student)
    first = _start(client, assignment)
    client.post(_submit_url(first))
    page = text(client.get(assignment.get_absolute_url()))
    assert "You may start your next attempt Monday 23 November at 11:01" in page
    assert "Start" not in page
    with pytest.raises(AttemptRefused, match="next attempt"):
        Attempt.start(assignment, student)
    clock.at = NOW + timedelta(minutes=1)
    assert "Start a new attempt" in text(client.get(assignment.get_absolute_url()))
    assert Attempt.start(assignment, student).number == 2


def test_the_teacher_sets_the_wait(school_class, quiz, teacher, student, clock) -> None:
    url = reverse("quizzes:assign", args=[school_class.pk])
    form = {
        "what": f"quiz:{quiz.pk}",
        "opens": "2026-11-23T10:00",
        "closes": "2026-11-30T10:00",
        "attempts": "3",
        "grading": "highest",
        "feedback": "attempt",
        "delay": "30",
    }
    client_for(teacher).post(url, form)
    assignment = school_class.assignments.get()
    assert assignment.delay == 30 and assignment.delay_minutes() == 30
    Attempt.start(assignment, student).submit()
    clock.at = NOW + timedelta(minutes=29)
    with pytest.raises(AttemptRefused, match="11:30"):
        Attempt.start(assignment, student)
    response = client_for(teacher).post(url, form | {"delay": "-1"})
    assert response.status_code == 200 and school_class.assignments.count() == 1


def test_answers_after_the_close_wait_for_the_last_students_close(
    school_class, quiz, student, teacher, clock
) -> None:
    """Feedback after the close: while one student's extension runs, no classmate's review
    shows the answers he could pass on."""
    from .conftest import make_user

    assignment = make_assignment(school_class, quiz, feedback="closed")
    late = make_user("late")
    Membership.objects.create(school_class=school_class, student=late)
    _except(teacher, assignment, late, closes="2026-11-30T17:00")
    client = client_for(student)
    attempt = _start(client, assignment)
    client.post(_submit_url(attempt))

    clock.at = assignment.closes + timedelta(hours=1)
    body = text(client.get(attempt.get_absolute_url()))
    assert "The answer:" not in body and "Your score:" not in body
    assert "closes for everyone, 30 Nov 2026, 17:00" in body
    mine = text(client_for(late).get(reverse("quizzes:my-assignments")))
    assert "30 Nov 2026, 17:00 CET (extended for you)" in mine

    clock.at = datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    body = text(client.get(attempt.get_absolute_url()))
    assert "The answer:" in body and "Your score: 0 of 3 right" in body
