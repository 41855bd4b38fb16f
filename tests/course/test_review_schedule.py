"""A lesson's exercise feeds the learner's reviews: its answer schedules the rule it asks
about (lessons.trainer.reviews), wrong = Again, right = Good."""

from __future__ import annotations

import pytest
from django.test import Client

from lessons.trainer.models import AskedQuestion, RuleReview

from .test_progress import Learner

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("right", [True, False])
def test_an_exercise_answer_schedules_its_rule(client: Client, right: bool) -> None:
    learner = Learner(client)
    step = next(s for s in learner.steps if s.kind == "exercise")

    learner.do(step, right=right)

    asked = AskedQuestion.objects.get()
    row = RuleReview.objects.get()
    assert (row.rule, row.session_key) == (asked.topic, client.session.session_key)
    assert (row.last_rating, row.lapses) == ((3, 0) if right else (1, 1))
    assert (row.rules, row.game) == (asked.rules, asked.game)
