"""What a teacher reads of an assignment: its results (each student's state, grade, attempts
and time; the item analysis of :mod:`~lessons.quizzes.analysis`), the problems reported, and
the rows of its CSV downloads (the students, the answers). Each is a fixed number of queries,
whatever the class's size. The gradebook is :mod:`~lessons.quizzes.gradebook`; grades and
their rounding, :mod:`~lessons.quizzes.grades`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.links import rule_name, rule_url
from games.loo.questions import Question
from games.loo.rulesets import GAME_NAMES, PRESETS
from lessons.classes.models import Membership
from lessons.classes.progress import course_lessons, progress_of
from lessons.course.models import Lesson
from lessons.quizzes.analysis import IDENTITY, MAX_REMADE, analyse, capital, made_again
from lessons.quizzes.grades import Standing, scored, seconds_words, standings, whole_percent
from lessons.quizzes.models import Answer, Assignment, Attempt
from lessons.trainer import bank

__all__ = ["capital", "results", "result_rows", "answer_rows"]


def lessons_done(students: Sequence[int], lessons: Iterable[Lesson]) -> set[tuple[int, str]]:
    """(student pk, lesson slug) for each of ``lessons`` every step of which the student has
    done (two queries)."""
    slugs = {lesson.slug for lesson in lessons}
    if not slugs:
        return set()
    steps = {lesson.slug: lesson.steps_count for lesson in course_lessons() if lesson.slug in slugs}
    return {
        (student, slug)
        for student, progress in progress_of(students).items()
        for slug, mark in progress.marks.items()
        if slug in steps and mark.done >= steps[slug]
    }


# -- an assignment's results --------------------------------------------------------------------


@dataclass
class StudentRow:
    membership: Membership
    standing: Standing = field(default_factory=Standing)

    @property
    def state(self) -> str:
        return self.standing.state

    @property
    def attempts(self) -> int:
        return self.standing.attempts

    @property
    def grade(self) -> int | None:
        return self.standing.grade

    @property
    def time(self) -> str:
        return seconds_words(self.standing.seconds, self.standing.attempts)


@dataclass
class Share:
    label: str
    right: int = 0
    asked: int = 0
    url: str = ""

    @property
    def percent(self) -> int:
        return whole_percent(self.right, self.asked)


def results(assignment: Assignment, now: datetime) -> dict[str, Any]:
    """Every student's state, grade, attempts and time, and the item analysis
    (:mod:`~lessons.quizzes.analysis`): a fixed number of queries, whatever the class's size or
    the attempts stored (answers are counted by the database)."""
    memberships = list(
        Membership.objects.filter(school_class=assignment.school_class).select_related("student")
    )
    rows = {m.student_id: StudentRow(m) for m in memberships}
    mine = Attempt.objects.filter(assignment=assignment, student__in=rows)
    attempts = scored(mine.order_by("student", "number"))
    for (student, _), standing in standings(attempts, now, {assignment.pk: assignment}).items():
        rows[student].standing = standing
    found = analyse(assignment, list(rows), now)
    return {
        "rows": list(rows.values()),
        "analysis": found,
        "by_rule": found.by_rule,
        "rule_chart_shares": [Share(s.label, s.right, s.asked) for s in found.by_rule],
        "max_remade": MAX_REMADE,
    }


RESULT_HEADER = (
    "student",
    "name",
    "left the class",
    "status",
    "grade",
    "attempts",
    "seconds",
    "last answer",
)


def result_rows(
    assignment: Assignment, rows: Iterable[StudentRow]
) -> tuple[tuple[str, ...], Iterator[list[Any]]]:
    """The results page's students as a header and rows: the grade a number (a whole percent,
    :mod:`~lessons.quizzes.grades`; blank before an attempt has ended), the state in a column
    of its own, the day he left the class (blank if he has not)."""
    zone = assignment.time_zone()

    def row(r: StudentRow) -> list[Any]:
        m, s = r.membership, r.standing
        return [
            m.student.get_username(),
            m.real_name,
            timezone.localtime(m.left, zone).date().isoformat() if m.left else "",
            s.state,
            "" if s.grade is None else s.grade,
            s.attempts,
            round(s.seconds) if s.attempts else "",
            timezone.localtime(s.last, zone).isoformat() if s.last else "",
        ]

    return RESULT_HEADER, (row(r) for r in rows)


def remade(answer: Answer) -> Question:
    """The answer's question made again (:meth:`Answer.to_engine`), once per process for the
    same question: a student's many attempts at a quiz the same for all ask the same questions
    again, and some take the engine 10 ms to find. Raises :class:`StaleAnswer`."""
    return _remade(*answer.identity_fields().values(), answer.own_id)


@functools.lru_cache(maxsize=512)
def _remade(
    kind: str, rules: str, game: str, rule: str, seed: int, version: int, own: int | None
) -> Question:
    q = Answer(kind=kind, rules=rules, game=game, rule=rule, seed=seed, version=version)
    q.own_id = own
    return q.to_engine()


def lesson_rows(assignment: Assignment) -> list[tuple[Membership, bool]]:
    """For an assignment of a lesson: each member of the class, and whether he has done it."""
    memberships = list(
        Membership.objects.filter(school_class=assignment.school_class).select_related("student")
    )
    done = lessons_done([m.student_id for m in memberships], [assignment.lesson])  # type: ignore[list-item]
    return [(m, (m.student_id, assignment.lesson_id) in done) for m in memberships]


def problem_reports(assignment: Assignment) -> list[dict[str, Any]]:
    """The problems students reported with the assignment's questions (the latest 50), with
    the question's kind, rule set, game and rule as a page names them."""
    return [
        {
            "report": r,
            "kind": bank.kind_name(r.kind),
            "rules": PRESETS[r.rules].title if r.rules in PRESETS else r.rules,
            "game": GAME_NAMES.get(r.game, r.game),
            "rule": (capital(rule_name(r.rule)), rule_url(r.rule)) if r.rule else None,
        }
        for r in assignment.reports.select_related("reporter")[:50]
    ]


# -- the answers, for their CSV -------------------------------------------------------------------


def response_words(response: list[str] | None, identity: Iterable[Any]) -> str:
    """The choices given, as the question's page labels them (their ids if it cannot be made
    again)."""
    if response is None:
        return ""
    made = made_again(*identity)
    labels = {c.id: c.text for c in made.shown.choices} if made is not None else {}
    return "; ".join(labels.get(r, r) for r in response)


#: Answers read from the database at a time while the CSV streams.
CHUNK = 2000


def answer_rows(assignment: Assignment) -> tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]:
    """A header and one row per answer: student, his real name, attempt, question, kind, rule
    (id and title), response, correct, time (in the assignment's time zone). The rows are read
    in chunks as they are written, so that the CSV of an attempt-heavy class streams."""
    zone = assignment.time_zone()
    names = dict(
        Membership.objects.filter(school_class=assignment.school_class).values_list(
            "student_id", "real_name"
        )
    )
    answers = (
        Answer.objects.filter(attempt__assignment=assignment, attempt__student__in=list(names))
        .order_by("attempt__student__username", "attempt__number", "position")
        .values_list(
            "attempt__student__username",
            "attempt__student_id",
            "attempt__number",
            "position",
            "topic",
            "response",
            "correct",
            "answered",
            *IDENTITY,
        )
    )
    titles: dict[str, str] = {}
    rows = (
        (
            username,
            names.get(student, ""),
            number,
            position + 1,
            identity[0],
            topic,
            titles.get(topic) or titles.setdefault(topic, capital(rule_name(topic))),
            response_words(response, identity),
            "" if correct is None else ("yes" if correct else "no"),
            timezone.localtime(answered, zone).isoformat() if answered else "",
        )
        for username, student, number, position, topic, response, correct, answered, *identity in (
            answers.iterator(chunk_size=CHUNK)
        )
    )
    header = (
        "student",
        "name",
        "attempt",
        "question",
        "kind",
        "rule",
        "rule title",
        "response",
        "correct",
        "time",
    )
    return header, rows
