"""Two requests at the same moment, on two threads with their own database connections: two
tabs answering the same question, and a double click on "submit". One answer counts, the
first one given stays, and nothing is counted twice."""

from __future__ import annotations

from typing import Any

import pytest

from lessons.quizzes.models import SUBMITTED, Answer, Assignment, Attempt
from tests.concurrency import at_once

from .conftest import make_assignment, make_quiz, right_response, wrong_response

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def attempt(teacher, school_class, student, clock) -> Attempt:
    assignment = make_assignment(school_class, make_quiz(teacher))
    return Attempt.start(assignment, student)


def test_two_tabs_answering_the_same_question_at_once_count_once(attempt) -> None:
    """With feedback after each answer (the first answer stands)."""
    Assignment.objects.filter(pk=attempt.assignment_id).update(feedback="each")
    right, wrong = right_response(attempt, 0), wrong_response(attempt, 0)

    def answer(response: list[str]) -> Any:
        row = Answer.objects.get(attempt=attempt, position=0)  # each tab read it unanswered
        return row.record(row.to_engine(), response)

    first, second = at_once(lambda: answer(right), lambda: answer(wrong))

    assert not isinstance(first, Exception) and not isinstance(second, Exception)
    stored = [s for s in (first, second) if s.grade is not None]
    refused = [s for s in (first, second) if s.refused]
    assert len(stored) == 1 and len(refused) == 1
    row = Answer.objects.get(attempt=attempt, position=0)
    assert row.response in (right, wrong)
    assert row.correct == (row.response == right) == stored[0].grade.correct


def test_submitting_twice_at_once_submits_once(attempt) -> None:
    def submit() -> Any:
        return Attempt.objects.get(pk=attempt.pk).submit()

    results = at_once(submit, submit)
    assert sorted(results) == [False, True]


def test_starting_twice_at_once_starts_one_attempt(attempt, student) -> None:
    attempt.submit()
    assignment = attempt.assignment
    assignment.attempts_allowed = 3
    assignment.save()

    results = at_once(
        lambda: Attempt.start(assignment, student), lambda: Attempt.start(assignment, student)
    )

    assert not any(isinstance(r, Exception) for r in results), results
    assert results[0].pk == results[1].pk
    assert Attempt.objects.filter(assignment=assignment).count() == 2
    assert Answer.objects.filter(attempt=results[0]).count() == 3


def test_a_revision_and_a_submit_at_once_leave_the_attempt_consistent(attempt) -> None:
    """Feedback after the attempt: an answer revised while the attempt is submitted is either
    in before the submit (and graded in its score) or refused after it, never stored into a
    submitted attempt."""
    right, wrong = right_response(attempt, 0), wrong_response(attempt, 0)
    row = Answer.objects.get(attempt=attempt, position=0)
    row.record(row.to_engine(), wrong)

    def revise() -> Any:
        row = Answer.objects.get(attempt=attempt, position=0)
        return row.record(row.to_engine(), right)

    def submit() -> Any:
        return Attempt.objects.get(pk=attempt.pk).submit()

    saved, submitted = at_once(revise, submit)

    assert not isinstance(saved, Exception) and submitted is True
    row = Answer.objects.get(attempt=attempt, position=0)
    ended = Attempt.objects.get(pk=attempt.pk).submitted
    if saved.grade is not None:
        assert row.response == right and row.correct is True and row.answered <= ended
    else:
        assert saved.refused == SUBMITTED and row.response == wrong and row.correct is False
