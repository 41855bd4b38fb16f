"""Two answers about the same rule at the same moment (two tabs, a lesson and the trainer) on
two threads with their own connections: one schedule for the learner and rule, both reviews
counted in it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from lessons.trainer import reviews
from lessons.trainer.models import RuleReview
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_answers_at_once_make_one_schedule_with_both_reviews() -> None:
    user = User.objects.create_user("eve")

    def answer(right: bool) -> RuleReview | None:
        return reviews.review(user, "", "follow-suit", right, rules="peel", game="three-card")

    results = at_once(lambda: answer(True), lambda: answer(False))

    assert all(isinstance(r, RuleReview) for r in results), results
    row = RuleReview.objects.get()
    assert (row.reviews, row.lapses) == (2, 1)
