"""A lesson's exercise feeds the learner's reviews: its answer schedules the rule it asks
about (lessons.trainer.reviews), wrong = Again, right = Good."""

from __future__ import annotations

from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from lessons.course.models import Lesson
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


def test_the_reviews_dashboard_links_each_rule_to_the_lesson_that_teaches_it(
    client: Client,
) -> None:
    lesson = Learner(client).lesson
    rule = lesson.teaches[0]
    first = next(x for x in Lesson.objects.order_by("position") if rule in x.teaches)

    page = client.get(reverse("trainer:reviews")).content.decode()

    row = page.split(f'href="/rules/{rule}/"')[1].split("</tr>")[0]
    assert f'<a href="{first.get_absolute_url()}">{escape(first.title)}</a>' in row
