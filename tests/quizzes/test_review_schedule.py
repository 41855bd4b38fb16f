"""A quiz's answers feed the student's reviews (lessons.trainer.reviews): each stored answer
schedules the rule it exercises, wrong = Again, right = Good; a refused one changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

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


def test_the_teachers_mastery_page_counts_the_students_due_for_review(
    school_class, teacher, assignment, student, clock
) -> None:
    client = client_for(student)
    client.post(reverse("quizzes:attempt-start", args=[assignment.pk]))
    attempt = Attempt.objects.get(assignment=assignment)
    client.post(
        reverse("quizzes:attempt-answer", args=[attempt.pk, 1]),
        {"response": wrong_response(attempt, 0)},
    )
    rule = RuleReview.objects.get().rule
    url = reverse("quizzes:mastery", args=[school_class.pk])

    def due_cell() -> str:
        page = client_for(teacher).get(url).content.decode()
        return page.split(f'href="/rules/{rule}/"')[1].split("</tr>")[0].split("<td>")[-1]

    assert due_cell().startswith("0 of 1")
    RuleReview.objects.update(due=timezone.now() - timedelta(minutes=1))
    assert due_cell().startswith("1 of 1")
