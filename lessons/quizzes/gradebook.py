"""A class's gradebook: a row a student, a column an assignment (the grade kept and the
student's state in it), each student's lessons and last activity, and the rules across the
class's quizzes, the weakest first; and its CSV: numbers in the grade cells (blank for work
not done), the state in a column of its own, a header of its own for each assignment (its
title and the day it opened: a quiz may be assigned twice), and the day a student left the
class. A fixed number of queries, whatever the class's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Count, Q
from django.utils import timezone

from games.links import rule_url
from lessons.classes.models import Membership, SchoolClass
from lessons.classes.progress import course_lessons, marks_in_order, progress_of
from lessons.course.models import Lesson
from lessons.quizzes.analysis import rule_title
from lessons.quizzes.grades import (
    LESSON_DONE,
    LESSON_NOT_DONE,
    NOT_STARTED,
    Standing,
    scored,
    standings,
    whole_percent,
)
from lessons.quizzes.models import Answer, Assignment, Attempt
from lessons.trainer.views import practise_url

#: Rules listed under "by rule" on the gradebook, the weakest first.
RULES_SHOWN = 10


@dataclass(frozen=True)
class Cell:
    """A student's work at one assignment: the grade kept (a whole percent; None: none yet,
    or a lesson) and his state ("not started", "in progress", "submitted", "never submitted";
    for a lesson "done" or "not done")."""

    grade: int | None
    status: str

    @property
    def words(self) -> str:
        """What the gradebook's page shows: the grade, else the state (nothing if not
        started)."""
        if self.grade is not None:
            return f"{self.grade}%"
        return "" if self.status in (NOT_STARTED, LESSON_NOT_DONE) else self.status


@dataclass
class RuleRow:
    """A rule across the class's quizzes: "Follow suit: 78% right over 45 questions"."""

    topic: str
    asked: int
    right: int
    lesson: Lesson | None
    trainer: str

    @property
    def name(self) -> str:
        return rule_title(self.topic)

    @property
    def url(self) -> str:
        return rule_url(self.topic)

    @property
    def percent(self) -> int:
        return whole_percent(self.right, self.asked)

    @property
    def wrong(self) -> int:
        return self.asked - self.right


def column_titles(assignments: list[Assignment], zone: ZoneInfo) -> list[str]:
    """A title for each assignment, each different: its title and the day it opened (in the
    teacher's time zone); then the hour, then a number, if two are still the same."""
    titles = []
    for a in assignments:
        opens = timezone.localtime(a.opens, zone)
        titles.append(f"{a.title} ({opens:%Y-%m-%d})")
    seen = Counter(titles)
    for i, a in enumerate(assignments):
        if seen[titles[i]] > 1:
            opens = timezone.localtime(a.opens, zone)
            titles[i] = f"{a.title} ({opens:%Y-%m-%d %H:%M})"
    again = Counter(titles)
    numbered: Counter[str] = Counter()
    for i, title in enumerate(titles):
        if again[title] > 1:
            numbered[title] += 1
            titles[i] = f"{title} #{numbered[title]}"
    return titles


def gradebook(school_class: SchoolClass, now: datetime, zone: ZoneInfo) -> dict[str, Any]:
    """The gradebook's rows, columns and rules (dates in ``zone``, the reader's)."""
    memberships = list(
        Membership.objects.filter(school_class=school_class).select_related("student")
    )
    students = [m.student_id for m in memberships]
    assignments = list(
        Assignment.objects.filter(school_class=school_class)
        .select_related("quiz__current", "lesson")
        .order_by("opens", "pk")
    )
    found = standings(
        scored(
            Attempt.objects.filter(assignment__in=assignments, student__in=students).order_by(
                "student", "assignment", "number"
            )
        ),
        now,
        {a.pk: a for a in assignments},
    )
    last: dict[int, datetime] = {}
    for (student, _), s in found.items():
        if s.last and (student not in last or s.last > last[student]):
            last[student] = s.last
    lessons = course_lessons()
    progress = progress_of(students)
    steps = {lesson.slug: lesson.steps_count for lesson in lessons}
    done = {
        (student, slug)
        for student, p in progress.items()
        for slug, mark in p.marks.items()
        if mark.done >= steps.get(slug, 0)
    }
    for student, p in progress.items():
        if p.last_step and (student not in last or p.last_step > last[student]):
            last[student] = p.last_step
    rows = []
    for m in memberships:
        cells = []
        for a in assignments:
            if a.lesson_id:
                finished = (m.student_id, a.lesson_id) in done
                cells.append(Cell(None, LESSON_DONE if finished else LESSON_NOT_DONE))
            else:
                s = found.get((m.student_id, a.pk), Standing())
                cells.append(Cell(s.grade, s.state))
        marks = marks_in_order(progress.get(m.student_id), lessons)
        rows.append(
            {
                "membership": m,
                "cells": cells,
                "lessons": [
                    (lesson, mark) for lesson, mark in zip(lessons, marks, strict=True) if mark.done
                ],
                "last": last.get(m.student_id),
            }
        )
    return {
        "assignments": assignments,
        "columns": list(zip(assignments, column_titles(assignments, zone), strict=True)),
        "rows": rows,
        "by_rule": _by_rule(assignments, students, lessons, now),
        "zone": zone,
    }


def _by_rule(
    assignments: list[Assignment], students: list[int], lessons: list[Lesson], now: datetime
) -> list[RuleRow]:
    """The rules across the class's quizzes, the weakest first (those asked most among equal
    shares): the questions asked (answered, or left blank in an attempt that ended) and
    answered right, counted by the database."""
    counted = (
        Answer.objects.filter(
            Q(answered__isnull=False)
            | Q(attempt__submitted__isnull=False)
            | Q(attempt__deadline__lte=now),
            attempt__assignment__in=assignments,
            attempt__student__in=students,
        )
        .values_list("topic", "rules", "game")
        .annotate(asked=Count("pk"), right=Count("pk", filter=Q(correct=True)))
        .order_by("-asked", "topic")
    )
    teaching: dict[str, Lesson] = {}
    for lesson in lessons:
        for rule_id in lesson.teaches:
            teaching.setdefault(rule_id, lesson)
    found: dict[str, RuleRow] = {}
    for topic, preset, game, asked, right in counted:
        if topic in found:
            found[topic].asked += asked
            found[topic].right += right
            continue
        found[topic] = RuleRow(
            topic, asked, right, teaching.get(topic), practise_url(f"rule:{topic}", preset, game)
        )
    ordered = sorted(found.values(), key=lambda r: (r.percent, -r.asked, r.topic))
    return ordered[:RULES_SHOWN]


def gradebook_rows(book: dict[str, Any]) -> tuple[list[str], Iterator[list[Any]]]:
    """The gradebook (:func:`gradebook`) as a header and rows: a student's username, real
    name and the day he left the class (blank if he has not), then for each assignment his
    grade (a whole percent, blank if none) and his state."""
    zone = book["zone"]
    header = ["student", "name", "left the class"]
    for _, title in book["columns"]:
        header += [f"{title} grade", f"{title} status"]

    def row(r: dict[str, Any]) -> list[Any]:
        m = r["membership"]
        left = timezone.localtime(m.left, zone).date().isoformat() if m.left else ""
        cells: list[Any] = [m.student.get_username(), m.real_name, left]
        for c in r["cells"]:
            cells += ["" if c.grade is None else c.grade, c.status]
        return cells

    return header, (row(r) for r in book["rows"])
