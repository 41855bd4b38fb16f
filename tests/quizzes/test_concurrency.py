"""Two requests at the same moment, on two threads with their own database connections: two
tabs answering the same question, and a double click on "submit". One answer counts, the
first one given stays, and nothing is counted twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, connection

from lessons.quizzes.models import SUBMITTED, Answer, Assignment, Attempt

from .conftest import make_assignment, make_quiz, right_response, wrong_response

pytestmark = pytest.mark.django_db(transaction=True)


def _at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls on threads that start together; their results, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # noqa: BLE001 - reported by the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # SQLite's in-memory test database shares one cache between threads, which locks whole
    # tables instead of waiting as the site's SQLite file does: a call refused so is made
    # again once the others are done (PostgreSQL runs them truly at once).
    for i, result in enumerate(results):
        if isinstance(result, OperationalError) and connection.vendor == "sqlite":
            assert "locked" in str(result)
            results[i] = calls[i]()
    return results


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

    first, second = _at_once(lambda: answer(right), lambda: answer(wrong))

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

    results = _at_once(submit, submit)
    assert sorted(results) == [False, True]


def test_starting_twice_at_once_starts_one_attempt(attempt, student) -> None:
    attempt.submit()
    assignment = attempt.assignment
    assignment.attempts_allowed = 3
    assignment.save()

    results = _at_once(
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

    saved, submitted = _at_once(revise, submit)

    assert not isinstance(saved, Exception) and submitted is True
    row = Answer.objects.get(attempt=attempt, position=0)
    ended = Attempt.objects.get(pk=attempt.pk).submitted
    if saved.grade is not None:
        assert row.response == right and row.correct is True and row.answered <= ended
    else:
        assert saved.refused == SUBMITTED and row.response == wrong and row.correct is False
