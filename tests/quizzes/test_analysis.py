"""The item analysis: answers grouped by the question asked (kind, rule, position), never by
its number in an attempt; every option counted, right options left unticked included; the
common wrong answers named by what was ticked; the same figures in the CSV."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import timedelta

import pytest
from django.urls import reverse

from lessons.classes.models import Membership
from lessons.quizzes import analysis
from lessons.quizzes.models import Answer, Attempt
from lessons.trainer.presenting import shown

from .conftest import NOW, client_for, make_assignment, make_quiz, make_user, text

pytestmark = pytest.mark.django_db


def _pupils(school_class, n: int) -> list:
    users = []
    for i in range(n):
        user = make_user(f"pupil{i}")
        Membership.objects.create(school_class=school_class, student=user, real_name=f"Pupil {i}")
        users.append(user)
    return users


def _answer_all(attempt: Attempt, choose) -> None:
    """Answer each question with ``choose(question)`` and submit."""
    for answer in attempt.answers.all():
        q = answer.to_engine()
        answer.record(q, choose(q))
    attempt.submit()


def _asked_as(answer: Answer) -> tuple:
    """What the student saw, found by the test from the engine: the question's kind, rule
    set, game, prompt, position, choices and answer (its seed left out)."""
    q = answer.to_engine()
    return (
        q.kind,
        q.rules,
        q.game,
        shown(q).prompt,
        json.dumps(q.position, sort_keys=True, default=str),
        tuple((c.id, c.label) for c in q.choices),
        tuple(sorted(q.answer)),
    )


def test_two_attempts_of_different_questions_are_never_summed(teacher, school_class, clock) -> None:
    """Three students, two attempts each: the second attempt asks other questions at the same
    numbers. Each item counts the answers to one question as the students saw it, and as
    many items as there were different questions."""
    quiz = make_quiz(teacher, count=4, kinds=["legal-cards", "trick-winner"])
    assignment = make_assignment(school_class, quiz, attempts_allowed=2)
    students = _pupils(school_class, 3)
    for i, user in enumerate(students):
        # The first attempt: the first i questions right; the second: all right.
        first = Attempt.start(assignment, user)
        for answer in first.answers.all():
            q = answer.to_engine()
            wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
            answer.record(q, list(q.answer) if answer.position < i else wrong)
        first.submit()
        clock.at += timedelta(minutes=5)
        _answer_all(Attempt.start(assignment, user), lambda q: list(q.answer))
    answers = list(Answer.objects.filter(attempt__assignment=assignment))
    expected = Counter()
    right = Counter()
    for a in answers:
        expected[_asked_as(a)] += 1
        right[_asked_as(a)] += bool(a.correct)
    # The two attempts differ at some number (else this test would prove nothing).
    by_number = {(a.attempt.number, a.position): _asked_as(a) for a in answers}
    assert any(by_number[(1, p)] != by_number[(2, p)] for p in range(4))

    found = analysis.analyse(assignment, [u.pk for u in students], clock.at)
    assert len(found.items) == len(expected)
    assert sorted((it.asked, it.right) for it in found.items) == sorted(
        (expected[k], right[k]) for k in expected
    )
    # Each item is one question: the prompt and the options of every answer counted in it.
    for it in found.items:
        assert it.made is not None
        members = [a for a in answers if analysis.made_again(*_identity(a)).key == it.key]
        assert len({_asked_as(a) for a in members}) == 1
        assert len(members) == it.asked

    # The page shows each question as asked, with its figures.
    body = text(client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk])))
    assert body.count("Asked 3 times:") == sum(1 for k in expected if expected[k] == 3)
    assert "Question 1 " not in body  # nothing is grouped by number


def _identity(answer: Answer) -> tuple:
    return tuple(answer.identity_fields().values())


def _multi_select_quiz(teacher):
    """A quiz whose first question asks to tick every card that may be played, two of them
    right and one wrong (the test looks for one among the quiz's seeds)."""
    for seed in range(1, 200):
        quiz = make_quiz(teacher, kinds=["legal-cards"], count=1, seed=seed)
        q = quiz.current.make_question(0, "all", 1)
        wrong = [c.id for c in q.choices if c.id not in q.answer]
        if q.multiple and len(q.answer) == 2 and wrong:
            return quiz, q
        quiz.delete()
    pytest.fail("no seed of 200 asks a question with two right cards and a wrong one")


def test_a_right_option_left_unticked_by_everyone_is_shown(teacher, school_class, clock) -> None:
    """Everyone ticks one of the two right cards: nobody is right, everyone partly right, and
    the other right card shows as left unticked by all (the page used to say "No wrong option
    chosen")."""
    quiz, q = _multi_select_quiz(teacher)
    assignment = make_assignment(school_class, quiz)
    students = _pupils(school_class, 3)
    ticked, missed = q.answer[0], q.answer[1]
    for user in students:
        _answer_all(Attempt.start(assignment, user), lambda _: [ticked])
    found = analysis.analyse(assignment, [u.pk for u in students], NOW)
    (item,) = found.items
    assert (item.asked, item.right, item.partly, item.wrong) == (3, 0, 3, 3)
    options = {o.id: o for o in item.choices}
    assert (options[ticked].ticked, options[ticked].unticked) == (3, 0)
    assert (options[missed].ticked, options[missed].unticked) == (0, 3)
    labels = {c.id: c.text for c in shown(q).choices}
    (common,) = item.common_wrong
    assert (common.ticked, common.missed, common.n) == (labels[ticked], labels[missed], 3)

    client = client_for(teacher)
    body = text(client.get(reverse("quizzes:results", args=[assignment.pk])))
    assert f"{labels[missed]} (a right option) was left unticked by 3 of 3 answers." in body
    assert f"{labels[ticked]} (left unticked: {labels[missed]}): 3 times" in body
    assert "Asked 3 times: 0 right, 3 partly right, 3 wrong, 0 left blank (0% right)." in body
    assert "No wrong answer given" not in body

    response = client.get(reverse("quizzes:items-csv", args=[assignment.pk]))
    raw = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw)))
    question = [r for r in rows if r["line"] == "question"]
    assert len(question) == 1 and question[0]["question id"] == item.key
    assert (question[0]["asked"], question[0]["right"], question[0]["partly right"]) == (
        "3",
        "0",
        "3",
    )
    by_option = {r["option or answer"]: r for r in rows if r["line"] == "option"}
    assert by_option[labels[missed]]["count"] == "0"
    assert by_option[labels[missed]]["right option left unticked"] == "3"
    assert by_option[labels[ticked]]["count"] == "3"
    (wrong_line,) = [r for r in rows if r["line"] == "wrong answer"]
    assert wrong_line["option or answer"] == f"{labels[ticked]} (left unticked: {labels[missed]})"
    assert wrong_line["count"] == "3"


def test_the_most_common_wrong_answers_are_named_by_what_was_ticked(
    teacher, school_class, clock
) -> None:
    """Two students give one wrong answer, one another: named in that order, by the
    options' words."""
    quiz = make_quiz(teacher, kinds=["trick-winner"], count=1)
    q = quiz.current.make_question(0, "all", 1)
    wrong = [c.id for c in q.choices if c.id not in q.answer]
    if len(wrong) < 2:
        pytest.skip("this question has fewer than two wrong options")
    assignment = make_assignment(school_class, quiz)
    students = _pupils(school_class, 4)
    for user, response in zip(
        students, [[wrong[0]], [wrong[0]], [wrong[1]], list(q.answer)], strict=True
    ):
        _answer_all(Attempt.start(assignment, user), lambda _, r=response: r)
    (item,) = analysis.analyse(assignment, [u.pk for u in students], NOW).items
    labels = {c.id: c.text for c in shown(q).choices}
    assert [(w.ticked, w.n) for w in item.common_wrong] == [
        (labels[wrong[0]], 2),
        (labels[wrong[1]], 1),
    ]
    assert (item.asked, item.right, item.percent) == (4, 1, 25)


def test_a_blank_in_an_ended_attempt_counts_as_asked(teacher, school_class, clock) -> None:
    quiz = make_quiz(teacher, kinds=["trick-winner"], count=2)
    assignment = make_assignment(school_class, quiz)
    (user,) = _pupils(school_class, 1)
    attempt = Attempt.start(assignment, user)
    first = attempt.answers.get(position=0)
    first.record(first.to_engine(), list(first.to_engine().answer))
    # In progress: the blank may still be answered, and is not counted yet.
    found = analysis.analyse(assignment, [user.pk], clock.at)
    assert sum(it.asked for it in found.items) == 1
    attempt.submit()
    found = analysis.analyse(assignment, [user.pk], clock.at)
    assert sum(it.asked for it in found.items) == 2
    assert sum(it.blank for it in found.items) == 1
    assert sum(s.blank for s in found.by_rule) == 1


def test_the_rules_read_as_a_share_over_the_questions_asked(teacher, school_class, clock) -> None:
    quiz = make_quiz(teacher, kinds=["trick-winner"], count=2)
    assignment = make_assignment(school_class, quiz)
    students = _pupils(school_class, 2)
    for user in students:
        _answer_all(Attempt.start(assignment, user), lambda q: list(q.answer))
    found = analysis.analyse(assignment, [u.pk for u in students], clock.at)
    body = text(client_for(teacher).get(reverse("quizzes:results", args=[assignment.pk])))
    for share in found.by_rule:
        assert share.percent == 100
        assert f"{share.label}: 100% right over {share.asked} questions" in body
    assert sum(s.asked for s in found.by_rule) == 4
