"""The teacher's results: per student, per question, per rule; each student's answers; the
gradebook; the CSV downloads; queries that do not grow with the class."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from lessons.classes.models import Membership
from lessons.quizzes.csvexport import safe_cell
from lessons.quizzes.models import Attempt

from .conftest import (
    client_for,
    make_assignment,
    make_quiz,
    make_user,
    right_response,
    text,
    wrong_response,
)

pytestmark = pytest.mark.django_db


def _take(assignment, student, right: int) -> Attempt:
    """The student answers the first ``right`` questions right, the rest wrong, and submits."""
    attempt = Attempt.start(assignment, student)
    for i in range(attempt.answers.count()):
        answer = attempt.answers.get(position=i)
        response = right_response(attempt, i) if i < right else wrong_response(attempt, i)
        answer.record(answer.to_engine(), response)
    attempt.submit()
    return attempt


#: The queries of each results page, whatever the number of students and questions.
QUERIES = {"results": 8, "gradebook": 10}  # results: 7, and the exceptions


def _class_of(school_class, n: int, first: int = 0) -> list:
    students = []
    for i in range(first, first + n):
        user = make_user(f"pupil{i}")
        Membership.objects.create(school_class=school_class, student=user, real_name=f"=Pupil {i}")
        students.append(user)
    return students


def test_the_results_show_each_student_and_the_shares(assignment, student, teacher, clock) -> None:
    _take(assignment, student, right=2)
    page = client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk]))
    body = text(page)
    assert "student (Ann Example) submitted 67% 1" in body
    assert "Question 1 1 1 100%" in body and "Question 3 0 1 0%" in body
    assert '<svg role="img"' in page.content.decode()
    assert "Share answered right, by rule" in body


def test_a_students_answers_show_the_right_answers_and_why(
    assignment, student, teacher, clock
) -> None:
    _take(assignment, student, right=1)
    url = reverse("quizzes:student-results", args=[assignment.pk, student.pk])
    body = text(client_for(teacher).get(url))
    assert "Attempt 1: 1 of 3 right" in body
    assert body.count("The answer:") == 3 and "Not quite" in body


@pytest.mark.parametrize("page", ["results", "gradebook"])
def test_the_results_pages_do_not_grow_with_the_class(
    page, teacher, school_class, quiz, clock, django_assert_num_queries
) -> None:
    """Pinned for 2 and for 5 students (each answering every question)."""
    assignment = make_assignment(school_class, quiz)
    client = client_for(teacher)
    pk = assignment.pk if page == "results" else school_class.pk
    url = reverse(f"quizzes:{page}", args=[pk])
    for user in _class_of(school_class, 2):
        _take(assignment, user, right=1)
    client.get(url)  # the session and the user, loaded once
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(url).status_code == 200
    for user in _class_of(school_class, 3, first=2):
        _take(assignment, user, right=2)
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(url).status_code == 200


def test_the_answers_csv_is_one_row_per_answer_in_utf8_with_a_bom(
    assignment, student, teacher, clock
) -> None:
    attempt = _take(assignment, student, right=1)
    response = client_for(teacher).get(reverse("quizzes:answers-csv", args=[assignment.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0] == [
        "student",
        "attempt",
        "question",
        "kind",
        "rule",
        "response",
        "correct",
        "time",
    ]
    assert len(rows) == 4
    assert [r[6] for r in rows[1:]] == ["yes", "no", "no"]
    assert all(r[0] == "student" and r[7].endswith("+01:00") for r in rows[1:])  # Paris
    # The response as the page labelled the choices given.
    from lessons.trainer.presenting import shown

    for row, answer in zip(rows[1:], attempt.answers.all(), strict=True):
        labels = {c.id: c.text for c in shown(answer.to_engine()).choices}
        assert row[5] == "; ".join(labels[r] for r in answer.response)


def test_the_gradebook_csv_neutralises_formulas(teacher, school_class, quiz, clock) -> None:
    assignment = make_assignment(school_class, quiz)
    (pupil,) = _class_of(school_class, 1)
    _take(assignment, pupil, right=3)
    response = client_for(teacher).get(reverse("quizzes:gradebook-csv", args=[school_class.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["student", "name", "Following"]
    assert rows[1] == ["pupil0", "'=Pupil 0", "100%"]


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+44", "'+44"),
        ("-3", "'-3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("Ann", "Ann"),
        (None, ""),
    ],
)
def test_cells_that_a_spreadsheet_would_run_are_neutralised(value, cell) -> None:
    assert safe_cell(value) == cell


def test_the_gradebook_shows_grades_and_the_rules_most_often_wrong(
    teacher, school_class, student, clock
) -> None:
    assignment = make_assignment(school_class, make_quiz(teacher))
    _take(assignment, student, right=0)
    body = text(client_for(teacher).get(reverse("quizzes:gradebook", args=[school_class.pk])))
    assert "student (Ann Example) 0%" in body
    assert "Rules the class most often gets wrong" in body and "wrong answer" in body
    assert "practise it in the trainer" in body


def test_regrading_from_the_results_page(assignment, student, teacher, clock) -> None:
    attempt = _take(assignment, student, right=3)
    attempt.answers.filter(position=0).update(correct=False)
    client = client_for(teacher)
    response = client.post(reverse("quizzes:regrade", args=[assignment.pk]))
    assert "Regraded 3 answers: 1 changed." in text(client.get(response.url))
    assert attempt.answers.filter(correct=True).count() == 3


@pytest.mark.parametrize("page", ["results", "gradebook"])
def test_the_results_pages_do_not_grow_with_the_questions(
    page, teacher, school_class, clock, django_assert_num_queries
) -> None:
    students = _class_of(school_class, 2)
    client = client_for(teacher)
    for count in (2, 8):
        assignment = make_assignment(school_class, make_quiz(teacher, count=count))
        for user in students:
            _take(assignment, user, right=1)
        pk = assignment.pk if page == "results" else school_class.pk
        url = reverse(f"quizzes:{page}", args=[pk])
        client.get(url)
        with django_assert_num_queries(QUERIES[page]):
            assert client.get(url).status_code == 200
