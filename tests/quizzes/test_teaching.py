"""The teacher's side: making, previewing and editing a quiz; assigning it (or a lesson) to
a class, with dates read in the teacher's time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from lessons.quizzes.models import Assignment, Attempt, Quiz

from .conftest import client_for, text

pytestmark = pytest.mark.django_db

QUIZ = {
    "title": "Following suit",
    "rules": "hoffmann",
    "game": "three-card",
    "scope": "group:following",
    "kinds": ["legal-cards"],
    "count": "4",
    "same_for_all": "0",
}


def _assigning(quiz, **change: str) -> dict[str, str]:
    data = {
        "what": f"quiz:{quiz.pk}",
        "opens": "2026-12-01T09:00",
        "closes": "2026-12-08T17:30",
        "attempts": "1",
        "grading": "highest",
        "feedback": "attempt",
    }
    return data | change


def test_a_teacher_makes_a_quiz_and_previews_it_with_the_answers(teacher) -> None:
    client = client_for(teacher)
    assert client.get(reverse("quizzes:quiz-new")).status_code == 200
    response = client.post(reverse("quizzes:quiz-new"), QUIZ)
    quiz = Quiz.objects.get()
    assert response.url == quiz.get_absolute_url()
    version = quiz.current
    assert (version.count, version.same_for_all, version.kinds) == (4, False, ["legal-cards"])
    assert "follow-suit" in version.topics and version.topics_from == "the rules of following"

    body = text(client.get(response.url))
    assert "Following suit" in body and "a variant for each student" in body
    assert body.count("The answer:") == 4


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"game": "irish"}, "describes no"),
        ({"count": "51"}, "less than or equal to 50"),
        ({"count": "0"}, "A quiz asks one question at least"),
        ({"scope": "group:flushes", "kinds": ["trick-winner"]}, "No question of these kinds"),
        ({"scope": "lesson:nowhere"}, "Select a valid choice"),
    ],
)
def test_a_quiz_the_engine_cannot_ask_is_refused(teacher, change, error) -> None:
    response = client_for(teacher).post(reverse("quizzes:quiz-new"), QUIZ | change)
    assert response.status_code == 200
    assert error in text(response)
    assert not Quiz.objects.exists()


def test_the_rules_of_a_lesson(teacher) -> None:
    from lessons.course.models import Lesson, Unit

    unit = Unit.objects.create(slug="u", title="Unit")
    Lesson.objects.create(
        slug="following",
        unit=unit,
        title="Following",
        game="three-card",
        body="x",
        teaches=["follow-suit", "head-the-trick"],
    )
    data = QUIZ | {"scope": "lesson:following", "kinds": []}
    client_for(teacher).post(reverse("quizzes:quiz-new"), data)
    version = Quiz.objects.get().current
    assert version.topics == ["follow-suit", "head-the-trick"]
    assert "Following" in version.topics_from
    quiz = Quiz.objects.get()
    edit = client_for(teacher).get(reverse("quizzes:quiz-edit", args=[quiz.pk]))
    assert '<option value="lesson:following" selected>' in edit.content.decode()


def test_editing_after_students_started_makes_a_new_version(
    teacher, assignment, student, quiz, clock
) -> None:
    client = client_for(teacher)
    edit = client.get(reverse("quizzes:quiz-edit", args=[quiz.pk]))
    assert 'value="Following"' in edit.content.decode()
    attempt = Attempt.start(assignment, student)
    response = client.post(reverse("quizzes:quiz-edit", args=[quiz.pk]), QUIZ | {"count": "5"})
    assert "now version 2" in text(client.get(response.url))
    quiz.refresh_from_db()
    assert quiz.current.number == 2 and attempt.version.number == 1


def test_a_non_teacher_may_not_make_quizzes(student) -> None:
    assert client_for(student).post(reverse("quizzes:quiz-new"), QUIZ).status_code == 403


def test_assigning_reads_dates_in_the_teachers_time_zone(teacher, school_class, quiz) -> None:
    client = client_for(teacher)
    page = text(client.get(reverse("quizzes:class-assignments", args=[school_class.pk])))
    assert "Europe/Paris" in page and "Assign a quiz" in page
    data = _assigning(quiz, time_limit="20", attempts="0", grading="average", feedback="each")
    response = client.post(reverse("quizzes:assign", args=[school_class.pk]), data)
    assert response.status_code == 302
    a = Assignment.objects.get()
    assert a.opens == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)  # 09:00 in Paris
    assert (a.time_limit, a.attempts_allowed, a.grading, a.feedback) == (
        20,
        None,
        "average",
        "each",
    )
    listed = text(client.get(response.url))
    assert "1 Dec 2026, 09:00" in listed and "8 Dec 2026, 17:30" in listed


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"closes": "2026-11-30T09:00"}, "closes after it opens"),
        ({"attempts": "11"}, "less than or equal to 10"),
        ({"time_limit": "0"}, "1 to 1440 minutes"),
        ({"what": "quiz:999999"}, "Select a valid choice"),
    ],
)
def test_an_assignment_that_cannot_be_is_refused(
    teacher, school_class, quiz, change, error
) -> None:
    data = _assigning(quiz, **change)
    response = client_for(teacher).post(reverse("quizzes:assign", args=[school_class.pk]), data)
    assert response.status_code == 200 and error in text(response)
    assert not Assignment.objects.exists()


def test_another_teachers_quiz_cannot_be_assigned(other_teacher, teacher, school_class) -> None:
    from .conftest import make_quiz

    theirs = make_quiz(other_teacher)
    data = _assigning(theirs)
    response = client_for(teacher).post(reverse("quizzes:assign", args=[school_class.pk]), data)
    assert response.status_code == 200 and not Assignment.objects.exists()


def test_the_student_sees_his_assignments_across_his_classes(assignment, student, clock) -> None:
    body = text(client_for(student).get(reverse("quizzes:my-assignments")))
    assert "Following" in body and "Class 1" in body and "not started" in body
    assert "23 Nov 2026, 10:00 CET" in body  # opens at 09:00 UTC, shown in Paris time


def test_changing_an_assignment_moves_the_end_of_attempts_in_progress(
    teacher, assignment, student, quiz, clock
) -> None:
    attempt = Attempt.start(assignment, student)
    client = client_for(teacher)
    url = reverse("quizzes:assignment-edit", args=[assignment.pk])
    form = client.get(url).content.decode()
    assert f'<option value="quiz:{quiz.pk}" selected>' in form
    # Dates in Paris time: the close moves a day later, to 11:00 UTC.
    data = _assigning(quiz, opens="2026-11-23T10:00", closes="2026-11-25T12:00")
    response = client.post(url, data)
    assert response.status_code == 302
    assert "Attempts in progress given the new end: 1." in text(client.get(response.url))
    attempt.refresh_from_db()
    assert attempt.deadline == datetime(2026, 11, 25, 11, 0, tzinfo=UTC)


def test_what_was_assigned_stays_once_students_have_started(
    teacher, assignment, student, clock
) -> None:
    from .conftest import make_quiz

    Attempt.start(assignment, student)
    other = make_quiz(teacher, title="Another")
    response = client_for(teacher).post(
        reverse("quizzes:assignment-edit", args=[assignment.pk]), _assigning(other)
    )
    assert "Students have started this assignment" in text(response)
    assignment.refresh_from_db()
    assert assignment.quiz_id != other.pk


def test_deleting_an_assignment_asks_to_confirm(teacher, assignment, student, clock) -> None:
    Attempt.start(assignment, student)
    client = client_for(teacher)
    url = reverse("quizzes:assignment-delete", args=[assignment.pk])
    response = client.post(url)
    assert "Tick the box" in text(client.get(response.url))
    assert Assignment.objects.exists()
    client.post(url, {"confirm": "yes"})
    assert not Assignment.objects.exists() and not Attempt.objects.exists()


def test_an_archived_class_keeps_its_work_read_only(
    teacher, school_class, assignment, student, quiz, clock
) -> None:
    from django.utils import timezone

    from lessons.quizzes.models import AttemptRefused

    school_class.archived = timezone.now()
    school_class.save()
    client = client_for(teacher)
    response = client.post(reverse("quizzes:assign", args=[school_class.pk]), _assigning(quiz))
    assert "This class is archived" in text(client.get(response.url))
    assert Assignment.objects.count() == 1
    with pytest.raises(AttemptRefused, match="archived"):
        Attempt.start(assignment, student)
