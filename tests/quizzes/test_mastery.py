"""Mastery by rule: one student's, and the class's weakest rules first, from the class's
quizzes, the trainer and the lessons' exercises; only the class's teacher sees it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.links import rule_name
from games.loo.questions import question_for
from lessons.classes.models import Membership
from lessons.quizzes.mastery import mastery
from lessons.quizzes.reports import capital
from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion

from .conftest import client_for, make_assignment, make_quiz, make_user, text

pytestmark = pytest.mark.django_db


def _answer_questions(
    owner, count: int, *, right: bool, lesson: bool, kind: str = "trick-winner"
) -> str:
    """``count`` questions of the trainer (or of a lesson: stored without a drill) answered
    by ``owner``, about one rule; that rule."""
    first = question_for("hoffmann", "three-card", kinds=[kind], seed=1)
    topic = bank.topic(first)
    drill = None if lesson else bank.Drill(f"rule:{topic}", "hoffmann", "three-card", "")
    for _ in range(count):
        q = bank.remake(first.kind, first.rules, first.game, first.rule, int(first.seed))
        asked = AskedQuestion.store(q, owner=owner, drill=drill)
        wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
        asked.record_answer(q, list(q.answer) if right else wrong)
    return topic


def _quiz_answers(teacher, school_class, student, right: bool) -> set[str]:
    """The student takes a quiz of the class; the rules its answers count under."""
    from lessons.quizzes.models import Attempt

    attempt = Attempt.start(make_assignment(school_class, make_quiz(teacher)), student)
    for answer in attempt.answers.all():
        q = answer.to_engine()
        wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
        answer.record(q, list(q.answer) if right else wrong)
    attempt.submit()
    return set(attempt.answers.values_list("topic", flat=True))


def test_a_students_mastery_counts_quizzes_trainer_and_lessons_per_rule(
    teacher, school_class, student, other_teacher, other_class, clock
) -> None:
    trained = _answer_questions(student, 3, right=True, lesson=False)
    _answer_questions(student, 2, right=False, lesson=True)
    rules = {r.rule: r for r in mastery(school_class, [student.pk])}
    assert rules[trained].by_source["trainer"].asked == 3
    assert rules[trained].by_source["trainer"].right == 3
    assert rules[trained].by_source["lessons"].asked == 2
    assert rules[trained].by_source["lessons"].right == 0
    assert rules[trained].total.percent == 60
    # His quiz answers in another teacher's class are not this teacher's to see.
    Membership.objects.create(school_class=other_class, student=student)
    _quiz_answers(other_teacher, other_class, student, right=False)
    assert all(r.by_source["quizzes"].asked == 0 for r in mastery(school_class, [student.pk]))
    topics = _quiz_answers(teacher, school_class, student, right=False)
    rules = {r.rule: r for r in mastery(school_class, [student.pk])}
    assert sum(rules[t].by_source["quizzes"].asked for t in topics) == 3
    # The page: the rule's title, the counts, the weakest first.
    member = Membership.objects.get(school_class=school_class, student=student)
    url = reverse("quizzes:mastery-student", args=[school_class.pk, member.pk])
    page = client_for(teacher).get(url)
    body = text(page)
    assert "Mastery: student (Ann Example)" in body
    name = capital(rule_name(trained))
    assert name in body
    ordered = mastery(school_class, [student.pk])
    percents = [r.total.percent for r in ordered]
    assert percents == sorted(percents)
    assert body.index(ordered[0].name) < body.index(ordered[-1].name)


def test_the_class_shows_its_weakest_rule_first_and_links_each_student(
    teacher, school_class, student, clock
) -> None:
    pupil = make_user("pupil")
    Membership.objects.create(school_class=school_class, student=pupil, real_name="Bo")
    strong = _answer_questions(student, 4, right=True, lesson=False)
    weak = _answer_questions(pupil, 4, right=False, lesson=False, kind="penalty")
    assert strong != weak
    body = text(client_for(teacher).get(reverse("quizzes:mastery", args=[school_class.pk])))
    assert body.index(capital(rule_name(weak))) < body.index(capital(rule_name(strong)))
    assert "0% 0 of 4" in body and "100% 4 of 4" in body
    assert "student (Ann Example)" in body and "pupil (Bo)" in body
    # A student archived in the class is left out of the class's figures.
    Membership.objects.filter(student=pupil).update(archived=school_class.created)
    body = text(client_for(teacher).get(reverse("quizzes:mastery", args=[school_class.pk])))
    assert capital(rule_name(weak)) not in body


def test_the_roster_and_the_results_link_to_a_students_mastery(
    teacher, school_class, student, quiz, clock
) -> None:
    member = Membership.objects.get(student=student)
    url = reverse("quizzes:mastery-student", args=[school_class.pk, member.pk])
    client = client_for(teacher)
    assert url in client.get(school_class.get_absolute_url()).content.decode()
    assignment = make_assignment(school_class, quiz)
    assert url in client.get(reverse("quizzes:results", args=[assignment.pk])).content.decode()


@pytest.mark.parametrize("actor", ["student", "outsider", "other_teacher", "staff"])
def test_only_the_classs_teacher_sees_its_mastery(
    actor, request, teacher, school_class, student, other_class, clock
) -> None:
    _answer_questions(student, 1, right=True, lesson=False)
    member = Membership.objects.get(student=student)
    user = request.getfixturevalue(actor)
    for url in (
        reverse("quizzes:mastery", args=[school_class.pk]),
        reverse("quizzes:mastery-student", args=[school_class.pk, member.pk]),
    ):
        response = client_for(user).get(url)
        assert response.status_code == 404
        assert b"Ann Example" not in response.content
    assert client_for(None).get(url).status_code == 302  # to the login page


def test_a_student_of_another_class_is_a_404(teacher, school_class, outsider, clock) -> None:
    other = Membership.objects.get(student=outsider)
    url = reverse("quizzes:mastery-student", args=[school_class.pk, other.pk])
    assert client_for(teacher).get(url).status_code == 404
