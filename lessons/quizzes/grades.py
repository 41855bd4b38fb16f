"""Grades: what every page and CSV file says of a student's work at an assignment.

**One rounding rule everywhere.** An attempt's score is the share of its questions answered
right (a question left blank counts as wrong), kept exact as a fraction; the grade kept
(highest, last, first attempt, or the average of the attempts that ended) is worked out from
those exact scores, and rounded **once**, at the end, to a whole percent, **halves up**: 1 right
of 8 is 12.5%, shown 13% on the results page, the gradebook, the student's own page and both
CSV files (a float formatted with ``:.0f`` rounds 12.5 to 12, Django's ``floatformat`` to 13:
the two disagreed).

A student's standing at an assignment (:class:`Standing`) comes from one pass over his
attempts (:func:`standings`), which the results page and the gradebook share, so that they
cannot disagree either. The attempts are read as plain values (:func:`scored`), not models: a
class with one student of 1,131 attempts spent a fifth of its results page building them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import NamedTuple

from lessons.quizzes.models import (
    IN_PROGRESS,
    NEVER_SUBMITTED,
    SUBMITTED_STATE,
    Assignment,
    AttemptQuerySet,
)

NOT_STARTED = "not started"
LESSON_DONE = "done"
LESSON_NOT_DONE = "not done"


def score(right: int, total: int) -> Fraction:
    """The exact percentage of ``total`` questions answered right (0 for none asked)."""
    return Fraction(100 * right, total) if total else Fraction(0)


def whole(value: Fraction | float | None) -> int | None:
    """``value`` (a percentage) rounded to a whole percent, halves up; None stays None."""
    if value is None:
        return None
    return math.floor(Fraction(value) + Fraction(1, 2))


def whole_percent(right: int, total: int) -> int:
    """``right`` of ``total`` as a whole percent, halves up (0 when nothing was asked): the
    same as ``whole(score(right, total))``, in integers (a results page asks it hundreds of
    times)."""
    return (200 * right + total) // (2 * total) if total else 0


def kept(assignment: Assignment, scores: list[Fraction]) -> Fraction | None:
    """The grade kept (:meth:`Assignment.kept`: highest, last, first or average) of the exact
    scores, in order of attempt: it picks or averages them, which keeps them exact."""
    found = assignment.kept(scores)  # type: ignore[arg-type]
    return None if found is None else Fraction(found)


@dataclass
class Standing:
    """A student's work at one assignment: his attempts' exact scores (those that ended, in
    order), his state, the time spent and his last answer."""

    attempts: int = 0
    scores: list[Fraction] = field(default_factory=list)
    state: str = NOT_STARTED
    seconds: float = 0.0
    last: datetime | None = None
    kept: Fraction | None = None

    @property
    def grade(self) -> int | None:
        """The grade kept as a whole percent (None: no attempt has ended)."""
        return whole(self.kept)


class Scored(NamedTuple):
    """An attempt as its standing reads it, in plain values: whose, at which assignment, its
    start, deadline and hand-in, its answers right and in all, its last answer."""

    pk: int
    student_id: int
    assignment_id: int
    started: datetime
    deadline: datetime
    submitted: datetime | None
    right: int
    total: int
    last_answer: datetime | None

    def is_over(self, now: datetime) -> bool:
        """As :meth:`Attempt.is_over <lessons.quizzes.models.Attempt.is_over>`."""
        return self.submitted is not None or now >= self.deadline

    def state_at(self, now: datetime) -> str:
        """As :meth:`Attempt.state_at <lessons.quizzes.models.Attempt.state_at>`."""
        if not self.is_over(now):
            return IN_PROGRESS
        return SUBMITTED_STATE if self.submitted is not None else NEVER_SUBMITTED


def scored(attempts: AttemptQuerySet) -> Iterator[Scored]:
    """``attempts`` (ordered as the caller wants them) with their scores, one query: each
    attempt a group of its own (its pk is among the values grouped by)."""
    rows = attempts.with_scores().values_list(*Scored._fields)
    return (Scored._make(row) for row in rows)


def standings(
    attempts: Iterable[Scored], now: datetime, assignments: dict[int, Assignment]
) -> dict[tuple[int, int], Standing]:
    """(student pk, assignment pk) → :class:`Standing`, from ``attempts`` (:func:`scored`, in
    order of number). The state is "in progress" while an attempt is, else the state of the
    last one that ended (submitted, or never submitted: ended by the close or its time
    limit)."""
    found: dict[tuple[int, int], Standing] = {}
    for a in attempts:
        s = found.setdefault((a.student_id, a.assignment_id), Standing())
        s.attempts += 1
        over = a.is_over(now)
        end = (a.submitted or a.deadline) if over else (a.last_answer or now)
        s.seconds += max(0.0, (min(end, now) - a.started).total_seconds())
        if a.last_answer and (s.last is None or a.last_answer > s.last):
            s.last = a.last_answer
        if over:
            s.scores.append(score(a.right, a.total))
            if s.state != IN_PROGRESS:
                s.state = a.state_at(now)
        else:
            s.state = IN_PROGRESS
    for (_, assignment), s in found.items():
        s.kept = kept(assignments[assignment], s.scores)
    return found


def seconds_words(seconds: float, attempts: int) -> str:
    """Time spent, as the results page says it ("" before any attempt)."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if attempts else ""
