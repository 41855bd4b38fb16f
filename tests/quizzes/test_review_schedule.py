"""A quiz's answers feed the student's reviews (lessons.trainer.reviews): each stored answer
schedules the rule it exercises, wrong = Again, right = Good; a refused one changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lessons.quizzes.models import Answer, Attempt
from lessons.trainer.models import RuleReview

from .conftest import client_for, right_response, wrong_response

pytestmark = pytest.mark.django_db


def test_a_quiz_answer_schedules_its_rule_for_the_student(assignment, student, clock) -> None:
    client = client_for(student)
    assert client.post(reverse("quizzes:attempt-start", args=[assignment.pk])).status_code == 302
    attempt = Attempt.objects.get(assignment=assignment)
    url = reverse("quizzes:attempt-answer", args=[attempt.pk, 1])

    client.post(url, {"response": wrong_response(attempt, 0)})

    answer = Answer.objects.get(attempt=attempt, position=0)
    row = RuleReview.objects.get()
    assert (row.owner, row.rule, row.last_rating) == (student, answer.topic, 1)
    assert (row.rules, row.game) == (answer.rules, answer.game)

    client.post(reverse("quizzes:attempt-submit", args=[attempt.pk]))
    client.post(url, {"response": right_response(attempt, 0)})  # refused: submitted

    row.refresh_from_db()
    assert (row.reviews, row.last_rating) == (1, 1)
