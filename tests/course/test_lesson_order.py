"""The course in order: a lesson's exercises show nothing that a later lesson teaches."""

from __future__ import annotations

import pytest

from games.loo.questions import QuestionError, question
from lessons.course.models import Lesson, Step, StepKind
from lessons.trainer.presenting import shown

pytestmark = pytest.mark.django_db


def test_no_exercise_shows_a_loo_before_the_lesson_that_teaches_it() -> None:
    """Issue 38: the third lesson's question about the stake showed "The last hand: somebody
    was looed", and the loo is taught by the fourth."""
    teaching = next(lesson for lesson in Lesson.objects.all() if "looed" in lesson.teaches)
    earlier = Step.objects.filter(
        kind=StepKind.EXERCISE, lesson__position__lt=teaching.position, data__position=None
    ).select_related("lesson")
    assert earlier.exists()
    for step in earlier:
        for preset in step.lesson.presets:
            for seed in range(1, 9):
                try:
                    q = question(
                        step.data["kind"],
                        preset,
                        game=step.lesson.game,
                        rule=step.data["rule"],
                        seed=seed,
                    )
                except QuestionError:  # no question from this seed: the course asks another
                    continue
                facts = " ".join(f"{f.label}: {f.text}" for f in shown(q).position.get("facts", ()))
                assert "looed" not in facts, (step.key, preset, seed, facts)
