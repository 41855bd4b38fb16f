"""Taking an assignment through the views: one question per page (a fragment with htmx, a
redirect without), every answer saved once, the feedback setting obeyed, late answers
refused with a message, two tabs and double clicks harmless."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from lessons.quizzes.models import Answer, Attempt

from .conftest import (
    HTMX,
    NOW,
    client_for,
    make_assignment,
    right_response,
    text,
    wrong_response,
)

pytestmark = pytest.mark.django_db


def _start(client, assignment) -> Attempt:
    response = client.post(reverse("quizzes:attempt-start", args=[assignment.pk]))
    assert response.status_code == 302
    return Attempt.objects.get(assignment=assignment)


def _answer_url(attempt, number) -> str:
    return reverse("quizzes:attempt-answer", args=[attempt.pk, number])


def _answer_labels(attempt, position) -> list[str]:
    """The labels of a question's right choices, as a page would show them."""
    from lessons.trainer.presenting import shown

    q = attempt.answers.get(position=position).to_engine()
    page = shown(q)
    return [c.text for c in page.choices if c.id in q.answer]


def test_the_student_takes_the_quiz_as_plain_forms(assignment, student, clock) -> None:
    client = client_for(student)
    page = client.get(reverse("quizzes:assignment", args=[assignment.pk]))
    assert "Start the quiz" in text(page)
    attempt = _start(client, assignment)

    page = client.get(attempt.get_absolute_url())
    assert page.status_code == 200
    assert "Question 1 of 3" in text(page)
    response = client.post(_answer_url(attempt, 1), {"response": right_response(attempt, 0)})
    assert response.status_code == 302
    page = client.get(response.url)
    assert "Your answer to question 1 is saved" in text(page)
    assert "Question 2 of 3" in text(page)  # the next question not answered

    response = client.post(reverse("quizzes:attempt-submit", args=[attempt.pk]))
    assert response.status_code == 302
    review = text(client.get(response.url))
    assert "Your score: 1 of 3 right" in review


def test_an_answer_with_htmx_returns_the_next_question_as_a_fragment(
    assignment, student, clock
) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)

    fragment = client.post(
        _answer_url(attempt, 1), {"response": right_response(attempt, 0)}, headers=HTMX
    )

    assert fragment.status_code == 200
    body = fragment.content.decode()
    assert body.lstrip().startswith('<section id="attempt-question"')
    assert "<html" not in body
    assert "Question 2 of 3" in text(fragment)
    # A page asked for with htmx is the fragment as well.
    again = client.get(attempt.get_absolute_url() + "?q=1", headers=HTMX)
    assert again.content.decode().lstrip().startswith('<section id="attempt-question"')


def test_a_reload_or_a_second_device_resumes_where_the_attempt_was(
    assignment, student, clock
) -> None:
    phone, laptop = client_for(student), client_for(student)
    attempt = _start(phone, assignment)
    phone.post(_answer_url(attempt, 1), {"response": right_response(attempt, 0)})

    assert _start(laptop, assignment) == attempt
    page = text(laptop.get(attempt.get_absolute_url()))
    assert "Question 2 of 3" in page and "1 of 3 questions answered" in page


def test_with_feedback_after_each_answer_two_tabs_answering_the_same_question_count_once(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, feedback="each")
    one, two = client_for(student), client_for(student)
    attempt = _start(one, assignment)

    one.post(_answer_url(attempt, 1), {"response": right_response(attempt, 0)})
    response = two.post(
        _answer_url(attempt, 1), {"response": wrong_response(attempt, 0)}, headers=HTMX
    )

    assert "your first answer stands" in text(response)
    stored = Answer.objects.get(attempt=attempt, position=0)
    assert stored.correct is True and stored.response == right_response(attempt, 0)


def test_an_answer_after_the_close_is_refused_with_a_clear_message(
    assignment, student, clock
) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    clock.at = assignment.closes + timedelta(minutes=1)

    response = client.post(
        _answer_url(attempt, 1), {"response": right_response(attempt, 0)}, headers=HTMX
    )

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="attempt-question"')
    assert "answers are no longer accepted" in text(response)
    assert "This attempt has ended" in text(response)
    assert not Answer.objects.filter(attempt=attempt, answered__isnull=False).exists()
    # Without JavaScript: a redirect to the attempt, which says the same.
    response = client.post(_answer_url(attempt, 1), {"response": right_response(attempt, 0)})
    assert "answers are no longer accepted" in text(client.get(response.url))


def test_a_forged_choice_is_refused_and_nothing_stored(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    response = client.post(_answer_url(attempt, 1), {"response": ["ZZ"]}, headers=HTMX)
    assert "is not one of this question's choices" in text(response)
    assert not Answer.objects.filter(attempt=attempt, answered__isnull=False).exists()


@pytest.mark.parametrize("feedback", ["attempt", "closed", "score"])
def test_no_right_answer_is_sent_during_the_attempt(
    school_class, quiz, student, clock, feedback
) -> None:
    assignment = make_assignment(school_class, quiz, feedback=feedback)
    client = client_for(student)
    attempt = _start(client, assignment)
    response = client.post(
        _answer_url(attempt, 1), {"response": wrong_response(attempt, 0)}, headers=HTMX
    )
    back = client.get(attempt.get_absolute_url() + "?q=1")

    for page in (response, back):
        body = text(page)
        assert "The answer:" not in body and "Not quite" not in body and "Right." not in body
        assert "This question was about" not in body
    assert "Your answer, saved" in text(back)
    assert str(attempt.answers.get(position=0).seed) not in back.content.decode()


def test_feedback_after_each_answer_shows_the_answer_at_once(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, feedback="each")
    client = client_for(student)
    attempt = _start(client, assignment)
    response = client.post(
        _answer_url(attempt, 1), {"response": wrong_response(attempt, 0)}, headers=HTMX
    )
    body = text(response)
    assert "Not quite" in body and "The answer:" in body
    for label in _answer_labels(attempt, 0):
        assert label in body
    assert "Next question" in body


def _finish(client, attempt) -> None:
    for i in range(3):
        client.post(_answer_url(attempt, i + 1), {"response": right_response(attempt, i)})
    client.post(reverse("quizzes:attempt-submit", args=[attempt.pk]))


def test_after_the_attempt_the_answers_are_shown(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    _finish(client, attempt)
    body = text(client.get(attempt.get_absolute_url()))
    assert "Your score: 3 of 3 right" in body and "The answer:" in body


def test_score_only_never_shows_the_answers(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, feedback="score")
    client = client_for(student)
    attempt = _start(client, assignment)
    _finish(client, attempt)
    clock.at = assignment.closes + timedelta(days=1)
    body = text(client.get(attempt.get_absolute_url()))
    assert "Your score: 3 of 3 right" in body and "The answer:" not in body


def test_after_the_close_shows_nothing_until_it_closes(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, feedback="closed")
    client = client_for(student)
    attempt = _start(client, assignment)
    _finish(client, attempt)
    body = text(client.get(attempt.get_absolute_url()))
    assert "Your score:" not in body and "The answer:" not in body
    assert "shown after the assignment closes" in body
    assign_page = text(client.get(assignment.get_absolute_url()))
    assert "of 3 right" not in assign_page

    clock.at = assignment.closes
    body = text(client.get(attempt.get_absolute_url()))
    assert "Your score: 3 of 3 right" in body and "The answer:" in body


def test_an_attempt_past_its_time_limit_is_over_without_submitting(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=5, attempts_allowed=2)
    client = client_for(student)
    _start(client, assignment)
    clock.at = NOW + timedelta(minutes=6)
    body = text(client.get(assignment.get_absolute_url()))
    assert "Start a new attempt" in body and "Attempt 1" in body


def test_submitting_twice_says_so(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    url = reverse("quizzes:attempt-submit", args=[attempt.pk])
    client.post(url)
    response = client.post(url)
    assert "already been submitted" in text(client.get(response.url))
    assert Attempt.objects.filter(assignment=assignment).count() == 1


def test_a_problem_report_records_the_question_by_its_identity(assignment, student, clock) -> None:
    client = client_for(student)
    attempt = _start(client, assignment)
    response = client.post(
        reverse("quizzes:report", args=[attempt.pk, 2]), {"note": "The picture is wrong"}
    )
    assert response.status_code == 302
    report = assignment.reports.get()
    teacher = assignment.school_class.teacher
    page = text(client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk])))
    assert (
        f"seed {report.seed}, question bank version {report.version}: “The picture is wrong”"
        in page
    )
    assert "Hoffmann" in page
    answer = attempt.answers.get(position=1)
    assert (report.kind, report.rules, report.game, report.seed, report.version) == (
        answer.kind,
        answer.rules,
        answer.game,
        answer.seed,
        answer.version,
    )


def test_a_lesson_assignment_links_to_the_lesson(school_class, student, clock) -> None:
    from lessons.course.models import Lesson, Unit
    from lessons.quizzes.models import Assignment

    unit = Unit.objects.create(slug="u", title="Unit")
    lesson = Lesson.objects.create(
        slug="first", unit=unit, title="First steps", game="three-card", body="x"
    )
    assignment = Assignment.objects.create(
        school_class=school_class, lesson=lesson, opens=NOW, closes=NOW + timedelta(days=1)
    )
    client = client_for(student)
    body = text(client.get(assignment.get_absolute_url()))
    assert "First steps" in body and "done when you complete the lesson" in body
    response = client.post(reverse("quizzes:attempt-start", args=[assignment.pk]))
    assert "is a lesson" in text(client.get(response.url))


@pytest.mark.parametrize("archived", ["class", "student"])
def test_an_attempt_under_way_takes_no_answer_once_archived(
    assignment, student, school_class, clock, archived
) -> None:
    from django.utils import timezone

    from lessons.classes.models import Membership
    from lessons.quizzes.models import AttemptRefused

    client = client_for(student)
    attempt = _start(client, assignment)
    client.post(_answer_url(attempt, 1), {"response": right_response(attempt, 0)})
    if archived == "class":
        school_class.archived = timezone.now()
        school_class.save()
    else:
        Membership.objects.filter(student=student).update(archived=timezone.now())

    response = client.post(
        _answer_url(attempt, 2), {"response": right_response(attempt, 1)}, headers=HTMX
    )

    assert "archived" in text(response) and "takes no new answer" in text(response)
    assert not Answer.objects.filter(attempt=attempt, position=1, answered__isnull=False).exists()
    assert Answer.objects.get(attempt=attempt, position=0).correct is True
    # No new attempt starts either, once this one is over.
    attempt.submitted = timezone.now()
    attempt.save()
    with pytest.raises(AttemptRefused, match="archived"):
        Attempt.start(assignment, student)
