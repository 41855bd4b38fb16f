"""Quizzes, attempts and answers: versions, dates, limits, attempts, grading methods,
answers stored once, regrading from the stored identity. The clock is frozen."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.loo.questions import question
from lessons.quizzes.models import (
    ALREADY,
    SUBMITTED,
    Answer,
    Attempt,
    AttemptRefused,
    Grading,
)

from .conftest import NOW, make_assignment, make_quiz, right_response, wrong_response

pytestmark = pytest.mark.django_db


def test_an_attempt_keeps_the_identity_of_its_questions_never_their_answers(
    assignment, student, clock
) -> None:
    attempt = Attempt.start(assignment, student)

    rows = list(attempt.answers.values())
    assert len(rows) == 3
    for row in rows:
        assert row["response"] is None and row["correct"] is None
        assert "answer" not in row
        q = question(
            row["kind"], row["rules"], game=row["game"], rule=row["rule"] or None, seed=row["seed"]
        )
        assert q.kind == row["kind"]


def test_every_student_gets_the_same_questions_or_a_variant_of_his_own(
    teacher, school_class, student, clock
) -> None:
    from lessons.classes.models import Membership

    from .conftest import make_user

    second = make_user("second")
    Membership.objects.create(school_class=school_class, student=second)
    same = make_assignment(school_class, make_quiz(teacher))
    variant = make_assignment(school_class, make_quiz(teacher, same_for_all=False))

    def seeds(a, who):
        return list(Attempt.start(a, who).answers.values_list("seed", flat=True))

    assert seeds(same, student) == seeds(same, second)
    mine, theirs = seeds(variant, student), seeds(variant, second)
    assert mine != theirs
    # Reproducible: the variant is a function of the quiz's seed and the student.
    version = variant.quiz.current
    assert [int(version.make_question(i, student.pk).seed) for i in range(3)] == mine


def test_with_feedback_after_each_answer_an_answer_is_stored_once(
    school_class, quiz, student, clock
) -> None:
    attempt = Attempt.start(make_assignment(school_class, quiz, feedback="each"), student)
    answer = attempt.answers.get(position=0)
    q = answer.to_engine()

    first = answer.record(q, right_response(attempt, 0))
    again = Answer.objects.get(pk=answer.pk).record(q, wrong_response(attempt, 0))

    assert first.grade is not None and first.grade.correct
    assert again.refused == ALREADY
    assert Answer.objects.get(pk=answer.pk).correct is True


def test_an_answer_after_the_close_is_refused_with_the_time(assignment, student, clock) -> None:
    attempt = Attempt.start(assignment, student)
    answer = attempt.answers.get(position=0)
    clock.at = assignment.closes + timedelta(seconds=1)

    saved = answer.record(answer.to_engine(), right_response(attempt, 0))

    assert "closed" in saved.refused and "CET" in saved.refused  # the teacher's time zone
    assert Answer.objects.get(pk=answer.pk).answered is None


def test_an_answer_past_the_time_limit_is_refused(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(school_class, quiz, time_limit=10)
    attempt = Attempt.start(assignment, student)
    assert attempt.deadline == NOW + timedelta(minutes=10)
    answer = attempt.answers.get(position=0)

    clock.at = NOW + timedelta(minutes=9, seconds=59)
    assert answer.record(answer.to_engine(), right_response(attempt, 0)).grade is not None
    clock.at = NOW + timedelta(minutes=10)
    late = attempt.answers.get(position=1)
    saved = late.record(late.to_engine(), right_response(attempt, 1))
    assert "time for this attempt ran out" in saved.refused
    assert attempt.is_over()


def test_a_time_limit_never_runs_past_the_close(school_class, quiz, student, clock) -> None:
    assignment = make_assignment(
        school_class, quiz, time_limit=60, closes=NOW + timedelta(minutes=20)
    )
    assert Attempt.start(assignment, student).deadline == assignment.closes


def test_an_attempt_cannot_start_before_it_opens_or_after_it_closes(
    school_class, quiz, student, clock
) -> None:
    assignment = make_assignment(school_class, quiz, opens=NOW + timedelta(minutes=1))
    with pytest.raises(AttemptRefused, match="not open yet"):
        Attempt.start(assignment, student)
    clock.at = assignment.closes
    with pytest.raises(AttemptRefused, match="closed"):
        Attempt.start(assignment, student)


def test_attempts_allowed_and_unlimited(school_class, quiz, student, clock) -> None:
    two = make_assignment(school_class, quiz, attempts_allowed=2)
    first = Attempt.start(two, student)
    assert Attempt.start(two, student) == first  # the one in progress
    first.submit()
    second = Attempt.start(two, student)
    assert second.number == 2
    second.submit()
    with pytest.raises(AttemptRefused, match="every attempt"):
        Attempt.start(two, student)

    unlimited = make_assignment(school_class, quiz, attempts_allowed=None, delay=0)
    for n in range(1, 13):
        attempt = Attempt.start(unlimited, student)
        assert attempt.number == n
        attempt.submit()


def test_submitting_twice_changes_nothing(assignment, student, clock) -> None:
    attempt = Attempt.start(assignment, student)
    assert attempt.submit() is True
    when = attempt.submitted
    clock.at = NOW + timedelta(minutes=5)
    assert Attempt.objects.get(pk=attempt.pk).submit() is False
    assert Attempt.objects.get(pk=attempt.pk).submitted == when
    answer = attempt.answers.get(position=0)
    assert answer.record(answer.to_engine(), right_response(attempt, 0)).refused == SUBMITTED


@pytest.mark.parametrize(
    ("grading", "kept"),
    [(Grading.HIGHEST, 80.0), (Grading.LAST, 50.0), (Grading.FIRST, 20.0), (Grading.AVERAGE, 50.0)],
)
def test_the_grade_kept(school_class, quiz, grading, kept) -> None:
    assignment = make_assignment(school_class, quiz, grading=grading)
    assert assignment.kept([20.0, 80.0, 50.0]) == kept
    assert assignment.kept([]) is None


def test_editing_a_quiz_that_students_have_started_makes_a_new_version(
    assignment, quiz, student, clock
) -> None:
    first = quiz.current
    quiz.save_version(**_fields(first, title="Renamed before anyone started"))
    assert quiz.current == first and first.title == "Renamed before anyone started"

    attempt = Attempt.start(assignment, student)
    quiz.save_version(**_fields(first, count=5))

    quiz.refresh_from_db()
    assert quiz.current.number == 2 and quiz.current.count == 5
    attempt.refresh_from_db()
    assert attempt.version == first and attempt.answers.count() == 3


def _fields(version, **changes):
    names = ["title", "rules", "game", "topics", "topics_from", "kinds", "count", "same_for_all"]
    fields = {n: getattr(version, n) for n in names} | {"seed": version.seed}
    return fields | changes


def test_regrading_grades_every_answer_again_from_its_seed(
    teacher, school_class, student, clock
) -> None:
    assignment = make_assignment(school_class, make_quiz(teacher, same_for_all=False))
    attempt = Attempt.start(assignment, student)
    for i in range(3):
        answer = attempt.answers.get(position=i)
        answer.record(answer.to_engine(), right_response(attempt, i))
    # A wrong grade stored (as if the engine had graded it wrongly then).
    Answer.objects.filter(attempt=attempt, position=1).update(correct=False)

    assert assignment.regrade() == (3, 1, 0)
    assert list(attempt.answers.values_list("correct", flat=True)) == [True, True, True]


def test_a_question_of_an_older_bank_version_is_reported_not_regraded(
    assignment, student, clock
) -> None:
    attempt = Attempt.start(assignment, student)
    answer = attempt.answers.get(position=0)
    answer.record(answer.to_engine(), right_response(attempt, 0))
    attempt.answers.update(version=1)
    assert assignment.regrade() == (0, 0, 1)


def test_deleting_accounts_takes_their_quizzes_attempts_and_answers(
    teacher, assignment, student, clock
) -> None:
    """A student's attempts never go by cascade (issue 27): a plain delete is refused, and
    deleting his account (before_deleting, then delete) hands them to a placeholder; his
    teacher's account takes the classes, and with them their attempts."""
    from django.db.models import ProtectedError

    from lessons.classes.models import DELETED_ACCOUNT, before_deleting

    attempt = Attempt.start(assignment, student)
    answer = attempt.answers.get(position=0)
    answer.record(answer.to_engine(), right_response(attempt, 0))

    with pytest.raises(ProtectedError):
        student.delete()
    before_deleting(student)
    student.delete()
    kept = Attempt.objects.select_related("student").get(pk=attempt.pk)
    assert kept.student.username.startswith(DELETED_ACCOUNT) and kept.answers.count()
    Attempt.start(assignment, _another_student(assignment))
    teacher.delete()  # his classes, quizzes, assignments and their attempts go with him
    assert not Answer.objects.exists() and not Attempt.objects.exists()


def _another_student(assignment):
    from lessons.classes.models import Membership

    from .conftest import make_user

    user = make_user("another")
    Membership.objects.create(school_class=assignment.school_class, student=user)
    return user
