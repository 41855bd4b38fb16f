"""The teacher's results: per student, per question, per rule; each student's answers; the
gradebook; the CSV downloads; queries that do not grow with the class."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.links import rule_name
from lessons.classes.models import Membership
from lessons.quizzes.csvexport import safe_cell
from lessons.quizzes.models import Answer, Attempt
from lessons.quizzes.reports import capital
from lessons.trainer.presenting import shown

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


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


#: The queries of each results page, whatever the number of students and questions.
#: results: 6, the exceptions, and the item analysis (1: the answers counted by question
#: asked, response and grade).
# results: 9, one of them whether the assignment was placed in a learning platform (lessons.lti).
QUERIES = {"results": 9, "gradebook": 10}


def _class_of(school_class, n: int, first: int = 0) -> list:
    students = []
    for i in range(first, first + n):
        user = make_user(f"pupil{i}")
        Membership.objects.create(school_class=school_class, student=user, real_name=f"=Pupil {i}")
        students.append(user)
    return students


def test_the_results_show_each_student_and_the_shares(assignment, student, teacher, clock) -> None:
    attempt = _take(assignment, student, right=2)
    page = client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk]))
    body = text(page)
    assert "student (Ann Example) submitted 67% 1" in body
    # Each question as asked, with its figures (the attempt's questions differ, so each is an
    # item of its own).
    for answer in attempt.answers.all():
        prompt = shown(answer.to_engine()).prompt
        assert prompt in body
    assert body.count("Asked 1 time: 1 right") == 2
    assert body.count("Asked 1 time: 0 right") == 1
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
    assert response.streaming  # written as it is read
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    header = "student name attempt question kind rule rule_title response correct time"
    assert rows[0] == [h.replace("_", " ") for h in header.split()]
    assert len(rows) == 4
    assert [r[8] for r in rows[1:]] == ["yes", "no", "no"]
    assert all(r[0] == "student" and r[1] == "Ann Example" for r in rows[1:])
    assert all(r[9].endswith("+01:00") for r in rows[1:])  # Paris
    for row, answer in zip(rows[1:], attempt.answers.all(), strict=True):
        # The rule's title as the results page gives it, beside its id.
        assert row[5] == answer.topic and row[6] == capital(rule_name(answer.topic))
        # The response as the page labelled the choices given.
        labels = {c.id: c.text for c in shown(answer.to_engine()).choices}
        assert row[7] == "; ".join(labels[r] for r in answer.response)


def test_the_gradebook_csv_neutralises_formulas(teacher, school_class, quiz, clock) -> None:
    assignment = make_assignment(school_class, quiz)
    (pupil,) = _class_of(school_class, 1)
    _take(assignment, pupil, right=3)
    response = client_for(teacher).get(reverse("quizzes:gradebook-csv", args=[school_class.pk]))
    rows = _csv(response)
    title = "Following (2026-11-23)"  # opened at 10:00 in Paris
    assert rows[0] == ["student", "name", "left the class", f"{title} grade", f"{title} status"]
    assert rows[1] == ["pupil0", "'=Pupil 0", "", "100", "submitted"]


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
    assert "By rule, across the class's quizzes" in body and "0% right over" in body
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


# -- an attempt-heavy student: every page costs the same queries -------------------------------


def _many_attempts(assignment, student, count: int) -> None:
    """``count`` submitted attempts of the student, written at once: each a copy of his
    first (answered) attempt's answers."""
    first = _take(assignment, student, right=2)
    answers = list(first.answers.all())
    Attempt.objects.bulk_create(
        Attempt(
            assignment=assignment,
            student=student,
            version=first.version,
            number=n,
            started=first.started,
            deadline=first.deadline,
            submitted=first.submitted,
        )
        for n in range(2, count + 1)
    )
    made = Attempt.objects.filter(assignment=assignment, student=student, number__gt=1)
    fields = ("kind", "rules", "game", "rule", "seed", "version", "position", "topic")
    Answer.objects.bulk_create(
        Answer(
            attempt=attempt,
            response=a.response,
            correct=a.correct,
            answered=a.answered,
            **{f: getattr(a, f) for f in fields},
        )
        for attempt in made
        for a in answers
    )


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        assert response.status_code == 200
        if response.streaming:
            b"".join(response.streaming_content)
    return len(queries)


@pytest.mark.parametrize(
    "page",
    [
        "results",
        "gradebook",
        "answers-csv",
        "results-csv",
        "items-csv",
        "gradebook-csv",
        "mastery",
        "mastery-student",
    ],
)
def test_the_pages_cost_the_same_queries_for_one_attempt_or_three_hundred(
    page, teacher, school_class, clock
) -> None:
    """300 attempts of 10 answers each from one student (as 'unlimited attempts' allowed):
    every page is read in as many queries as with a single attempt (answers are counted by
    the database; the CSV streams its rows in chunks)."""
    quiz = make_quiz(teacher, count=10)
    light, heavy = _class_of(school_class, 2)
    assignments = [make_assignment(school_class, quiz) for _ in range(2)]
    client = client_for(teacher)

    args = {
        "results": [assignments[0].pk],
        "answers-csv": [assignments[0].pk],
        "results-csv": [assignments[0].pk],
        "items-csv": [assignments[0].pk],
        # The heavy student's own page: none of his answers at first, then 3,000.
        "mastery-student": [school_class.pk, Membership.objects.get(student=heavy).pk],
    }.get(page, [school_class.pk])
    url = reverse(f"quizzes:{page}", args=args)
    _take(assignments[0], light, right=2)
    client.get(url)  # the session and the user, loaded once
    few = _queries(client, url)
    _many_attempts(assignments[0], heavy, 300)
    assert Answer.objects.filter(attempt__student=heavy).count() == 3000
    assert _queries(client, url) == few


def test_a_students_attempts_are_shown_a_page_at_a_time(
    teacher, school_class, quiz, clock, django_assert_max_num_queries
) -> None:
    assignment = make_assignment(school_class, quiz, attempts_allowed=None)
    (pupil,) = _class_of(school_class, 1)
    _many_attempts(assignment, pupil, 300)
    client = client_for(teacher)
    url = reverse("quizzes:student-results", args=[assignment.pk, pupil.pk])
    client.get(url)
    # A page of 20 attempts of 3 answers (60 answers), made again by the engine: the same
    # bound for the first page and the last.
    for query in ("", "?page=15"):
        with django_assert_max_num_queries(80):
            body = text(client.get(url + query))
    assert "300 attempts; attempts 281 to 300 shown." in body
    assert "Attempt 300:" in body and "Attempt 280:" not in body
    assert "Page 15 of 15" in body and "Earlier attempts" in body
    assert "Later attempts" not in body
    first = text(client.get(url))
    assert "Attempt 1:" in first and "Attempt 20:" in first and "Attempt 21:" not in first
    assert "Later attempts" in first
