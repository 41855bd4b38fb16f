"""Grades: one rounding rule (whole percents, halves up, rounded once), and the results page,
its CSV, the gradebook and its CSV agreeing to the digit on a class with partial, late, never
submitted, in progress and removed students; numeric CSV cells with the state beside them;
a header of its own for each assignment."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from fractions import Fraction
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from lessons.classes.models import Membership
from lessons.quizzes.gradebook import column_titles
from lessons.quizzes.grades import score, whole, whole_percent
from lessons.quizzes.models import AssignmentException, Attempt, Grading

from .conftest import NOW, client_for, make_assignment, make_quiz, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("right", "total", "percent"),
    [(1, 8, 13), (3, 8, 38), (5, 8, 63), (1, 3, 33), (2, 3, 67), (0, 5, 0), (7, 7, 100)],
)
def test_a_score_is_a_whole_percent_halves_up(right, total, percent) -> None:
    assert whole_percent(right, total) == percent == whole(score(right, total))


def test_an_average_is_rounded_once_at_the_end() -> None:
    # 1 of 8 and 0 of 8: 6.25%, 6; 1 of 8 and 2 of 8: 18.75%, 19; 1 of 8 and 1 of 16... a
    # half exactly: 12.5% kept exact, 13, where a float formatted with :.0f says 12.
    assert whole((Fraction(100, 8) + 0) / 2) == 6
    assert whole((Fraction(100, 8) + Fraction(200, 8)) / 2) == 19
    assert whole(Fraction(25, 2)) == 13 and f"{12.5:.0f}" == "12"
    assert whole(None) is None


class Tables(HTMLParser):
    """The rows of each table of a page, by the table's class: each row its cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("class") or "", [])
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []
        elif tag == "span" and "visually-hidden" in (attrs.get("class") or ""):
            self.hidden += 1

    def handle_endtag(self, tag) -> None:
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell is not None and self.table is not None:
            self.table[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "span" and self.hidden:
            self.hidden -= 1

    def handle_data(self, data) -> None:
        if self.cell is not None and not self.hidden:
            self.cell.append(data)


def _tables(response) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(response.content.decode())
    return parser.tables


def _csv(response) -> list[dict[str, str]]:
    raw = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(raw)))


def _pupil(school_class, name: str):
    user = make_user(name)
    Membership.objects.create(school_class=school_class, student=user, real_name=name.title())
    return user


def _answer(attempt: Attempt, right: int, given: int | None = None) -> None:
    """Answer the first ``given`` questions (all by default), the first ``right`` of them
    right and the others wrong."""
    answers = list(attempt.answers.all())
    for answer in answers[: len(answers) if given is None else given]:
        q = answer.to_engine()
        wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
        answer.record(q, list(q.answer) if answer.position < right else wrong)


def test_the_pages_and_both_csv_files_agree_to_the_digit(teacher, school_class, clock) -> None:
    """A quiz of 8 questions: 1 right of 8 is 12.5%, which the gradebook used to give as 12%
    and the results page as 13%."""
    quiz = make_quiz(teacher, count=8)
    assignment = make_assignment(school_class, quiz, closes=NOW + timedelta(hours=1))
    one, partial, gone, never, late, busy, idle = (
        _pupil(school_class, n) for n in ("one", "partial", "gone", "never", "late", "busy", "idle")
    )
    for student in (late, busy):
        AssignmentException.objects.create(
            assignment=assignment, student=student, closes=NOW + timedelta(days=1)
        )
    attempt = Attempt.start(assignment, one)
    _answer(attempt, right=1)
    attempt.submit()
    attempt = Attempt.start(assignment, partial)  # 3 right, 5 left blank
    _answer(attempt, right=3, given=3)
    attempt.submit()
    attempt = Attempt.start(assignment, gone)
    _answer(attempt, right=8)
    attempt.submit()
    Membership.objects.filter(student=gone).update(left=NOW + timedelta(minutes=30))
    _answer(Attempt.start(assignment, never), right=2)  # the close ends it
    clock.at = NOW + timedelta(hours=2)  # after the class's close: these two have an exception
    attempt = Attempt.start(assignment, late)
    _answer(attempt, right=4)
    attempt.submit()
    _answer(Attempt.start(assignment, busy), right=5, given=6)

    # The same quiz assigned again the same day, graded on the average of two attempts.
    again = make_assignment(
        school_class,
        quiz,
        opens=NOW - timedelta(minutes=30),
        closes=NOW + timedelta(days=2),
        attempts_allowed=2,
        grading=Grading.AVERAGE,
    )
    for right in (1, 2):  # 12.5% and 25%: 18.75%, kept 19
        attempt = Attempt.start(again, one)
        _answer(attempt, right=right)
        attempt.submit()
        clock.at += timedelta(minutes=5)

    expected = {
        "one": ("submitted", "13"),
        "partial": ("submitted", "38"),
        "gone": ("submitted", "100"),
        "never": ("never submitted", "25"),
        "late": ("submitted", "50"),
        "busy": ("in progress", ""),
        "idle": ("not started", ""),
    }
    client = client_for(teacher)

    # The results page, and its CSV.
    page = _tables(client.get(reverse("quizzes:results", args=[assignment.pk])))
    shown = {row[0].split()[0]: (row[1], row[2]) for row in page["results-students"][1:]}
    assert shown == {name: (state, f"{g}%" if g else "") for name, (state, g) in expected.items()}
    rows = _csv(client.get(reverse("quizzes:results-csv", args=[assignment.pk])))
    assert {r["student"]: (r["status"], r["grade"]) for r in rows} == expected
    assert {r["student"] for r in rows if r["left the class"]} == {"gone"}

    # The gradebook, and its CSV: a column for each assignment, each titled differently.
    # Both open the same day (10:00 and 10:30 in Paris): their hour tells them apart.
    first, second = "Following (2026-11-23 10:00)", "Following (2026-11-23 10:30)"
    book = _tables(client.get(reverse("quizzes:gradebook", args=[school_class.pk])))["gradebook"]
    assert book[0][1:3] == [first, second]
    cells = {row[0].split()[0]: row[1:3] for row in book[1:]}
    for name, (state, grade) in expected.items():
        words = f"{grade}%" if grade else ("–" if state == "not started" else state)
        assert cells[name][0] == words, name
    assert cells["one"][1] == "19%"
    rows = _csv(client.get(reverse("quizzes:gradebook-csv", args=[school_class.pk])))
    assert {r["student"]: (r[f"{first} status"], r[f"{first} grade"]) for r in rows} == expected
    assert {r["student"]: r[f"{second} grade"] for r in rows}["one"] == "19"
    assert {r["student"] for r in rows if r["left the class"]} == {"gone"}
    # Numbers, not words: every grade cell is blank or a whole number.
    for r in rows:
        for title in (first, second):
            assert r[f"{title} grade"] == "" or r[f"{title} grade"].isdigit()


def test_column_titles_are_unique(teacher, school_class) -> None:
    quiz = make_quiz(teacher)
    same = [make_assignment(school_class, quiz) for _ in range(2)]
    other_day = make_assignment(
        school_class, quiz, opens=NOW + timedelta(days=1), closes=NOW + timedelta(days=2)
    )
    titles = column_titles([*same, other_day], ZoneInfo("Europe/Paris"))
    assert titles == [
        "Following (2026-11-23 10:00) #1",
        "Following (2026-11-23 10:00) #2",
        "Following (2026-11-24)",
    ]


def test_the_integer_rule_is_the_exact_rule() -> None:
    for total in range(1, 60):
        for right in range(total + 1):
            assert whole_percent(right, total) == whole(score(right, total)), (right, total)
