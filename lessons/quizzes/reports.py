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

from django.db.models import Count, Q
from django.utils import timezone

from games.links import rule_name, rule_url
from games.loo.questions import Question
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
    #: The question's text (by question: the prompt of its most answered variant).
    text: str = ""

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.asked) if self.asked else 0


@dataclass
class ChoiceCount:
    """One option of a question, as the page words it, and how many chose it."""

    text: str
    chosen: int = 0
    #: The answer in every variant that offered it (False: a wrong option in at least one).
    right: bool = True
    #: Chosen where it was not the answer: the option a misconception leads to.
    chosen_wrong: int = 0


@dataclass
class QuestionChoices:
    """What the class chose at one question of the quiz (by position and kind of question):
    each option with its count, the right ones marked. Variants (a question each, or a new
    question each attempt) are counted together by the options' wording."""

    number: int
    kind: str
    prompt: str = ""
    answered: int = 0
    #: The distinct questions (variants) counted, and the answers to those left uncounted.
    variants: int = 0
    uncounted: int = 0
    choices: list[ChoiceCount] = field(default_factory=list)

    @property
    def misconceptions(self) -> list[ChoiceCount]:
        """The wrong options chosen most often: one, or those tied for most (none if no wrong
        option was chosen). A tie is told as one: naming one of them would be a guess."""
        most = max((c.chosen_wrong for c in self.choices), default=0)
        return [c for c in self.choices if most and c.chosen_wrong == most]


#: Distinct questions the per-choice analysis makes again (each a few milliseconds of the
#: engine, once per process): the most answered first; answers to the others are counted as
#: uncounted. A same-for-all quiz has one per question and version; a quiz of a variant
#: each, one per student and question (20 students of a 50-question quiz).
MAX_REMADE = 1000


def _answered(assignment: Assignment, students: Iterable[int]) -> Any:
    return Answer.objects.filter(
        attempt__assignment=assignment, attempt__student__in=students, answered__isnull=False
    )


def _shares(answered: Any, key: str) -> list[tuple[Any, int, int]]:
    """(key, answered, right) of the answers grouped by ``key``, counted by the database."""
    rows = (
        answered.values(key)
        .annotate(asked=Count("pk"), right=Count("pk", filter=Q(correct=True)))
        .order_by(key)
    )
    return [(r[key], r["asked"], r["right"]) for r in rows]


def results(assignment: Assignment, now: datetime) -> dict[str, Any]:
    """Every student's state, grade, attempts and time; per question and per rule, the share
    answered right; per question, the options chosen (a fixed number of queries, whatever the
    class's size or the attempts stored: answers are counted by the database)."""
    memberships = list(
        Membership.objects.filter(school_class=assignment.school_class).select_related("student")
    )
    rows = {m.student_id: StudentRow(m) for m in memberships}
    attempts = (
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
    answered = _answered(assignment, list(rows))
    # The options chosen at each student's first attempt: a count of students, which one
    # student's hundred attempts do not outweigh, and their first thoughts.
    choices = choice_analysis(answered.filter(attempt__number=1))
    by_question = [
        Share(f"Question {position + 1}", right, asked, text=choices[position].prompt)
        if position in choices
        else Share(f"Question {position + 1}", right, asked)
        for position, asked, right in _shares(answered, "position")
    ]
    by_rule = [
        Share(capital(rule_name(topic)), right, asked, url=rule_url(topic))
        for topic, asked, right in _shares(answered, "topic")
    ]
    return {
        "rows": list(rows.values()),
        "by_question": by_question,
        "by_rule": sorted(by_rule, key=lambda s: (s.percent, s.label)),
        "choices": [choices[k] for k in sorted(choices)],
    }


IDENTITY = ("kind", "rules", "game", "rule", "seed", "version")


def choice_analysis(answered: Any) -> dict[int, QuestionChoices]:
    """By position: the options of the question asked there and how many chose each (two
    queries: the most answered distinct questions, then their responses, counted)."""
    questions = list(
        answered.values("position", *IDENTITY).annotate(n=Count("pk")).order_by("-n", "position")
    )
    kept = questions[:MAX_REMADE]
    found: dict[int, QuestionChoices] = {}
    for q in questions[MAX_REMADE:]:
        group = found.setdefault(q["position"], QuestionChoices(q["position"] + 1, q["kind"]))
        group.uncounted += q["n"]
    if not kept:
        return found
    responses = (
        answered.filter(seed__in={q["seed"] for q in kept})
        .values("position", *IDENTITY, "response")
        .annotate(n=Count("pk"))
        .order_by()
    )
    chosen: dict[tuple[Any, ...], list[tuple[list[str], int]]] = defaultdict(list)
    for r in responses:
        chosen[(r["position"], *(r[f] for f in IDENTITY))].append((r["response"] or [], r["n"]))
    for q in kept:
        key = (q["position"], *(q[f] for f in IDENTITY))
        group = found.setdefault(q["position"], QuestionChoices(q["position"] + 1, q["kind"]))
        made = _question(*key[1:])
        if made is None:
            group.uncounted += q["n"]
            continue
        prompt, options, answer = made
        group.prompt = group.prompt or prompt
        group.variants += 1
        group.answered += q["n"]
        counts = {c.text: c for c in group.choices}
        for option_id, wording in options:
            count = counts.get(wording)
            if count is None:
                count = counts[wording] = ChoiceCount(wording)
                group.choices.append(count)
            count.right = count.right and option_id in answer
        labels = dict(options)
        for response, n in chosen.get(key, ()):
            for option_id in response:
                count = counts.get(labels.get(option_id, option_id))
                if count is None:
                    continue
                count.chosen += n
                if option_id not in answer:
                    count.chosen_wrong += n
    return found


def remade(answer: Answer) -> Question:
    """The answer's question made again (:meth:`Answer.to_engine`), once per process for the
    same question: a student's many attempts at a quiz the same for all ask the same questions
    again, and some take the engine 10 ms to find. Raises :class:`StaleAnswer`."""
    return _remade(*answer.identity_fields().values())


@functools.lru_cache(maxsize=512)
def _remade(kind: str, rules: str, game: str, rule: str, seed: int, version: int) -> Question:
    q = Answer(kind=kind, rules=rules, game=game, rule=rule, seed=seed, version=version)
    return q.to_engine()


@functools.lru_cache(maxsize=4096)
def _question(
    kind: str, rules: str, game: str, rule: str, seed: int, version: int
) -> tuple[str, tuple[tuple[str, str], ...], frozenset[str]] | None:
    """A stored question's prompt, options (id, wording) and answer, made again once per
    process (the same question is asked of many students); None if it cannot be. Room for a
    class of 80 with a variant each of a 50-question quiz: the answers CSV of such a class
    reads every one in turn, and a smaller cache would make them all again at each download."""
    try:
        made = _remade(kind, rules, game, rule, seed, version)
    except StaleAnswer:
        return None
    page = shown(made)
    return page.prompt, tuple((c.id, c.text) for c in page.choices), frozenset(made.answer)


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


def response_words(response: list[str] | None, identity: Iterable[Any]) -> str:
    """The choices given, as the question's page labels them (their ids if it cannot be made
    again)."""
    if response is None:
        return ""
    made = _question(*identity)
    labels = dict(made[1]) if made is not None else {}
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
