"""Mastery by rule: how a student, or a class, has done on each rule of the catalogue in the
class's quizzes, in the trainer and in the lessons' exercises, the weakest rules first (as
Lichess shows a coach his student's puzzle dashboard, by theme).

Everything is counted by the database: a query for the quizzes' answers and one for the
questions the trainer and the lessons asked (a lesson's question is stored without a drill:
its ``scope`` is empty), each grouped by rule; so a page costs the same few queries whatever
the number of answers stored. The quizzes are those of the class only: a student's work in
another teacher's class is not this teacher's to see; the trainer and the lessons are his own
practice under his account (never a browser session's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from games.links import rule_name, rule_url
from lessons.classes.models import SchoolClass
from lessons.classes.progress import course_lessons, progress_of
from lessons.course.models import Lesson
from lessons.quizzes.models import Answer
from lessons.quizzes.reports import Share
from lessons.trainer.models import AskedQuestion, RuleReview

SOURCES = ("quizzes", "trainer", "lessons")


def tally(asked: int = 0, right: int = 0) -> Share:
    """Answers about a rule from one source: how many, how many right, and the share."""
    return Share("", right, asked)


@dataclass
class RuleMastery:
    """One rule: the answers about it in each source, and overall."""

    rule: str
    by_source: dict[str, Share] = field(default_factory=lambda: {s: tally() for s in SOURCES})
    #: The first lesson of the course that teaches it, and whether the student has done it
    #: (on a class's page: how many of its students have).
    lesson: Lesson | None = None
    lesson_done: int = 0
    #: How many of the students have it due for review now (lessons.trainer.reviews).
    due: int = 0

    @property
    def name(self) -> str:
        name = rule_name(self.rule)
        return name[:1].upper() + name[1:]

    @property
    def url(self) -> str:
        return rule_url(self.rule)

    @property
    def total(self) -> Share:
        return tally(
            sum(t.asked for t in self.by_source.values()),
            sum(t.right for t in self.by_source.values()),
        )

    @property
    def cells(self) -> list[Share]:
        return [self.by_source[s] for s in SOURCES]


def mastery(school_class: SchoolClass, students: Iterable[int]) -> list[RuleMastery]:
    """Each rule ``students`` have answered about, weakest first: the lowest share right
    overall, then the most answers (five queries, whatever is stored)."""
    students = list(students)
    found: dict[str, RuleMastery] = {}

    def of(rule: str) -> RuleMastery:
        return found.setdefault(rule, RuleMastery(rule))

    right = Count("pk", filter=Q(correct=True))
    quizzes = (
        Answer.objects.filter(
            attempt__assignment__school_class=school_class,
            attempt__student__in=students,
            answered__isnull=False,
        )
        .values("topic")
        .annotate(asked=Count("pk"), right=right)
        .order_by()
    )
    for row in quizzes:
        of(row["topic"]).by_source["quizzes"] = tally(row["asked"], row["right"])
    lesson = Q(scope="")
    asked = (
        AskedQuestion.objects.filter(owner__in=students, answered__isnull=False)
        .values("topic")
        .annotate(
            trainer=Count("pk", filter=~lesson),
            trainer_right=Count("pk", filter=~lesson & Q(correct=True)),
            lessons=Count("pk", filter=lesson),
            lessons_right=Count("pk", filter=lesson & Q(correct=True)),
        )
        .order_by()
    )
    for row in asked:
        rule = of(row["topic"])
        rule.by_source["trainer"] = tally(row["trainer"], row["trainer_right"])
        rule.by_source["lessons"] = tally(row["lessons"], row["lessons_right"])
    found.pop("", None)
    due = RuleReview.objects.filter(owner__in=students).due().values("rule")
    for row in due.annotate(students=Count("pk")).order_by():
        if row["rule"] in found:
            found[row["rule"]].due = row["students"]
    _lessons(found, students)
    return sorted(found.values(), key=lambda r: (r.total.percent, -r.total.asked, r.rule))


def _lessons(found: dict[str, RuleMastery], students: list[int]) -> None:
    """The lesson that teaches each rule, and how many of ``students`` have done it (two
    queries)."""
    lessons = course_lessons()
    teaching: dict[str, Lesson] = {}
    for lesson in lessons:
        for rule_id in lesson.teaches:
            teaching.setdefault(rule_id, lesson)
    steps = {lesson.slug: lesson.steps_count for lesson in lessons}
    done: dict[str, int] = {}
    for progress in progress_of(students).values():
        for slug, mark in progress.marks.items():
            if mark.done >= steps.get(slug, 0) > 0:
                done[slug] = done.get(slug, 0) + 1
    for rule in found.values():
        rule.lesson = teaching.get(rule.rule)
        if rule.lesson is not None:
            rule.lesson_done = done.get(rule.lesson.slug, 0)


def context(school_class: SchoolClass, students: Iterable[int]) -> dict[str, Any]:
    rules = mastery(school_class, students)
    return {"rules": rules, "sources": SOURCES, "answered": sum(r.total.asked for r in rules)}
