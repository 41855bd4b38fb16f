"""What a learner does in a lesson, apart from the pages: the question a step asks, the
learner's progress on each step, and progress moving to an account.

The engine answers every exercise: an exercise's question is made from its kind and rule (and
its position, where the lesson gives one) under the rule set the learner chose, from a fresh
seed; a check's questions come from ``question_for`` over the check's rules and kinds.
Questions are stored as the trainer stores them (:class:`AskedQuestion`: identity, never the
answer), and each step's are kept in order on its :class:`Progress` row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from games.loo.catalogue import UnknownRule
from games.loo.questions import (
    Question,
    QuestionError,
    coverage,
    question,
    question_at,
    question_for,
)
from games.models import new_seed
from lessons.course.models import Lesson, Progress, Step, StepKind
from lessons.trainer.models import AskedQuestion

#: Seeds tried for a generated question before giving up (a bounded search can miss).
SEEDS_TO_TRY = 3


def make_question(
    step: Step, preset: str, game: str, seed: int, *, again: bool = False
) -> Question:
    """The question ``step`` asks under ``preset`` from ``seed`` (an exercise's, or one of a
    check's). ``again``: another try at an exercise answered wrong, which the engine deals
    afresh where it can rather than ask the position whose answer was just shown. Raises
    QuestionError (or UnknownRule) if none can be made."""
    data = step.data
    if step.kind == StepKind.EXERCISE:
        if _authored(step, preset, game, again):
            return question_at(
                data["kind"],
                preset,
                game=game,
                position=data["position"],
                rule=data["rule"],
                card=data.get("card"),
                seed=seed,
            )
        return question(data["kind"], preset, game=game, rule=data["rule"], seed=seed)
    return question_for(preset, game, rules=data["rules"], kinds=data["kinds"], seed=seed)


def ask(
    step: Step, preset: str, owner: Any, session_key: str, *, again: bool = False
) -> AskedQuestion | None:
    """A new question for ``step``, stored for its learner; None if none could be made.
    ``again``: see :func:`make_question`."""
    for _ in range(SEEDS_TO_TRY):
        try:
            q = make_question(step, preset, step.lesson.game, new_seed(), again=again)
        except (QuestionError, UnknownRule):
            continue
        authored = _authored(step, preset, step.lesson.game, again)
        return AskedQuestion.store(
            q,
            owner=owner,
            session_key=session_key,
            position=step.data["position"] if authored else None,
            card=(step.data.get("card") or "") if authored else "",
        )
    return None


def _authored(step: Step, preset: str, game: str, again: bool) -> bool:
    """Whether the step's question is about its own position: an exercise with one, unless
    it is asked again and the engine can deal a fresh one about its rule."""
    data = step.data
    if step.kind != StepKind.EXERCISE or data.get("position") is None:
        return False
    return not (again and data["rule"] in coverage(preset, game).get(data["kind"], ()))


# -- progress -----------------------------------------------------------------------------------


@dataclass
class StepState:
    """A step as the lesson page shows it: its progress (None: not begun) and its questions."""

    step: Step
    progress: Progress | None
    questions: list[AskedQuestion] = field(default_factory=list)
    #: Its number among the lesson's steps of its kind, and how many there are.
    number: int = 1
    of: int = 1

    @property
    def done(self) -> bool:
        return self.progress is not None and self.progress.done is not None

    @property
    def star(self) -> bool:
        return self.done and bool(self.progress and self.progress.first_try)

    @property
    def answered(self) -> list[AskedQuestion]:
        return [q for q in self.questions if q.is_answered]

    @property
    def pending(self) -> AskedQuestion | None:
        """The question waiting for an answer, if any."""
        return next((q for q in self.questions if not q.is_answered), None)

    def pending_under(self, preset: str) -> AskedQuestion | None:
        """The question waiting for an answer under the rule set ``preset``, if any."""
        return next((q for q in self.questions if not q.is_answered and q.rules == preset), None)

    @property
    def latest(self) -> AskedQuestion | None:
        return self.questions[-1] if self.questions else None

    @property
    def count(self) -> int:
        """How many questions the step asks: a check's count, one for an exercise."""
        return int(self.step.data.get("count", 1)) if self.step.kind == StepKind.CHECK else 1


def lesson_states(request: HttpRequest, lesson: Lesson) -> list[StepState]:
    """Every step of ``lesson`` with this learner's progress and questions (three queries)."""
    steps = list(lesson.steps.all())
    rows = {
        p.step_id: p
        for p in Progress.objects.for_request(request)
        .filter(step__lesson=lesson)
        .prefetch_related("questions")
    }
    states = []
    for step in steps:
        progress = rows.get(step.key)
        questions = (
            sorted(progress.questions.all(), key=lambda q: (q.asked, q.pk)) if progress else []
        )
        states.append(StepState(step, progress, questions))
    return states


def progress_for(request: HttpRequest, step: Step, owner: Any, session_key: str) -> Progress:
    """The learner's progress row on ``step``, made if need be (another tab may make it at
    the same moment: then that one is the row)."""
    rows = Progress.objects.for_request(request).filter(step=step)
    found = rows.first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Progress.objects.create(owner=owner, session_key=session_key, step=step)
    except IntegrityError:
        return Progress.objects.get(pk=rows.get().pk)


def mark_done(progress: Progress, *, first_try: bool | None = None, right: int = 0) -> bool:
    """Record the step as done, once: False if it already was (another tab, a replayed
    POST)."""
    stored = Progress.objects.filter(pk=progress.pk, done__isnull=True).update(
        done=timezone.now(), first_try=first_try, right=right
    )
    if stored:
        progress.refresh_from_db()
    return bool(stored)


def give_progress_to(user: Any, session_key: str | None) -> int:
    """Give a browser session's progress to ``user``, who has just logged in or signed up
    there. A step the account has progress on already keeps the account's, unless only the
    session's is done: nothing done is lost. Returns how many rows changed hands."""
    if not session_key:
        return 0
    with transaction.atomic():
        theirs = {p.step_id: p for p in Progress.objects.filter(owner=user)}
        moved = 0
        for row in Progress.objects.filter(owner=None, session_key=session_key):
            mine = theirs.get(row.step_id)
            if mine is not None:
                if mine.done is not None or row.done is None:
                    row.delete()
                    continue
                mine.delete()
            row.owner, row.session_key = user, ""
            row.save(update_fields=["owner", "session_key"])
            moved += 1
    return moved
