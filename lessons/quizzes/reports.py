"""What a teacher reads of a class's work: an assignment's results (each student's state,
grade, attempts and time; the share answered right by question and by rule), the gradebook (a
row a student, a column an assignment; the rules the class most often gets wrong) and the rows
of their CSV downloads. Each is a fixed number of queries, whatever the class's size.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.utils import timezone

from games.links import rule_name, rule_url
from games.loo.rulesets import GAME_NAMES, PRESETS
from lessons.classes.models import Membership, SchoolClass
from lessons.classes.progress import course_lessons, marks_in_order, progress_of
from lessons.course.models import Lesson
from lessons.quizzes.models import Answer, Assignment, Attempt, StaleAnswer
from lessons.trainer import bank
from lessons.trainer.presenting import shown
from lessons.trainer.views import practise_url


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def percent(right: int, total: int) -> float:
    return 100 * right / total if total else 0.0


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
    state: str = "not started"
    attempts: int = 0
    kept: float | None = None
    seconds: float = 0.0
    last: datetime | None = None
    percents: list[float] = field(default_factory=list)

    @property
    def time(self) -> str:
        minutes, seconds = divmod(round(self.seconds), 60)
        return f"{minutes} min {seconds:02d} s" if self.attempts else ""


@dataclass
class Share:
    label: str
    right: int = 0
    asked: int = 0
    url: str = ""

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.asked) if self.asked else 0


def results(assignment: Assignment, now: datetime) -> dict[str, Any]:
    """Every student's state, grade, attempts and time; per question and per rule, the share
    answered right (a fixed number of queries, whatever the class's size)."""
    memberships = list(
        Membership.objects.filter(school_class=assignment.school_class).select_related("student")
    )
    rows = {m.student_id: StudentRow(m) for m in memberships}
    attempts = list(
        Attempt.objects.filter(assignment=assignment, student__in=rows)
        .with_scores()
        .order_by("student", "number")
    )
    for a in attempts:
        row = rows[a.student_id]
        row.attempts += 1
        end = a.ended() if a.is_over(now) else (a.last_answer or now)
        row.seconds += max(0.0, (min(end, now) - a.started).total_seconds())
        if a.is_over(now):
            row.percents.append(percent(a.right, a.total))
            if row.state != "in progress":
                row.state = a.state_at(now)
        else:
            row.state = "in progress"
    for row in rows.values():
        row.kept = assignment.kept(row.percents)
    by_question: dict[int, Share] = {}
    by_rule: dict[str, Share] = {}
    answered = Answer.objects.filter(
        attempt__assignment=assignment, attempt__student__in=rows, answered__isnull=False
    ).values_list("position", "topic", "correct")
    for position, topic, correct in answered:
        share = by_question.setdefault(position, Share(f"Question {position + 1}"))
        share.asked += 1
        share.right += bool(correct)
        share = by_rule.setdefault(topic, Share(capital(rule_name(topic)), url=rule_url(topic)))
        share.asked += 1
        share.right += bool(correct)
    return {
        "rows": list(rows.values()),
        "by_question": [by_question[k] for k in sorted(by_question)],
        "by_rule": sorted(by_rule.values(), key=lambda s: (s.percent, s.label)),
    }


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


# -- the gradebook --------------------------------------------------------------------------------


def gradebook(school_class: SchoolClass, now: datetime) -> dict[str, Any]:
    memberships = list(
        Membership.objects.filter(school_class=school_class).select_related("student")
    )
    students = [m.student_id for m in memberships]
    assignments = list(
        Assignment.objects.filter(school_class=school_class)
        .select_related("quiz__current", "lesson")
        .order_by("opens", "pk")
    )
    percents: dict[tuple[int, int], list[float]] = defaultdict(list)
    last: dict[int, datetime] = {}
    started: set[tuple[int, int]] = set()
    for a in (
        Attempt.objects.filter(assignment__in=assignments, student__in=students)
        .with_scores()
        .order_by("number")
    ):
        started.add((a.student_id, a.assignment_id))
        if a.is_over(now):
            percents[(a.student_id, a.assignment_id)].append(percent(a.right, a.total))
        if a.last_answer and (a.student_id not in last or a.last_answer > last[a.student_id]):
            last[a.student_id] = a.last_answer
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
            key = (m.student_id, a.pk)
            if a.lesson_id:
                cells.append("done" if (m.student_id, a.lesson_id) in done else "")
            else:
                kept = a.kept(percents.get(key, []))
                cells.append(
                    f"{kept:.0f}%"
                    if kept is not None
                    else ("in progress" if key in started else "")
                )
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
    # The rules the class most often gets wrong.
    wrong = (
        Answer.objects.filter(
            attempt__assignment__in=assignments, attempt__student__in=students, correct=False
        )
        .values_list("topic", "rules", "game")
        .annotate(n=Count("pk"))
        .order_by("-n", "topic")
    )
    teaching: dict[str, Lesson] = {}
    for lesson in lessons:
        for rule_id in lesson.teaches:
            teaching.setdefault(rule_id, lesson)
    missed: dict[str, dict[str, Any]] = {}
    for topic, preset, game, n in wrong:
        if topic in missed:
            missed[topic]["n"] += n
            continue
        missed[topic] = {
            "name": capital(rule_name(topic)),
            "n": n,
            "url": rule_url(topic),
            "lesson": teaching.get(topic),
            "trainer": practise_url(f"rule:{topic}", preset, game),
        }
    worst = sorted(missed.values(), key=lambda r: -r["n"])[:10]
    return {"assignments": assignments, "rows": rows, "worst": worst}


def gradebook_rows(book: dict[str, Any]) -> tuple[list[str], Iterator[list[Any]]]:
    """The gradebook (:func:`gradebook`) as a header and rows: a student's name and his cell
    for each assignment."""
    header = ["student", "name", *(a.title for a in book["assignments"])]
    rows = (
        [r["membership"].student.get_username(), r["membership"].real_name, *r["cells"]]
        for r in book["rows"]
    )
    return header, rows


# -- the answers, for their CSV -------------------------------------------------------------------


def response_words(answer: Answer) -> str:
    """The choices given, as the question's page labels them (their ids if it cannot be made
    again)."""
    if answer.response is None:
        return ""
    try:
        labels = _labels(*answer.identity_fields().values())
    except StaleAnswer:
        labels = {}
    return "; ".join(labels.get(r, r) for r in answer.response)


@functools.lru_cache(maxsize=256)
def _labels(kind: str, rules: str, game: str, rule: str, seed: int, version: int) -> dict[str, str]:
    """A question's choices by id (the same question is asked of many students)."""
    q = Answer(kind=kind, rules=rules, game=game, rule=rule, seed=seed, version=version)
    return {c.id: c.text for c in shown(q.to_engine()).choices}


def answer_rows(assignment: Assignment) -> tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]:
    """A header and one row per answer: student, attempt, question, kind, rule, response,
    correct, time (in the assignment's time zone)."""
    zone = assignment.time_zone()
    students = Membership.objects.filter(school_class=assignment.school_class).values("student")
    answers = (
        Answer.objects.filter(attempt__assignment=assignment, attempt__student__in=students)
        .select_related("attempt__student")
        .order_by("attempt__student__username", "attempt__number", "position")
    )
    rows = (
        (
            a.attempt.student.get_username(),
            a.attempt.number,
            a.number,
            a.kind,
            a.topic,
            response_words(a),
            "" if a.correct is None else ("yes" if a.correct else "no"),
            timezone.localtime(a.answered, zone).isoformat() if a.answered else "",
        )
        for a in answers
    )
    header = ("student", "attempt", "question", "kind", "rule", "response", "correct", "time")
    return header, rows
