"""The stored question and the record read from the answers: no database beyond the rows
themselves, and each rule's streak and accuracy worked out in one query."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError

from games.loo.catalogue import UnknownRule
from games.loo.questions import QuestionError
from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion, Record, RuleRecord, StaleQuestion

from .conftest import make


def test_a_rules_record_counts_its_answers_and_its_latest_streak() -> None:
    record = RuleRecord("follow-suit")
    for correct in (True, False, True, True):
        record.add(correct)

    assert (record.asked, record.right, record.missed, record.streak) == (4, 3, 1, 2)
    assert record.accuracy == 75
    assert record.name == "Follow suit if you can"


def test_the_rules_to_review_are_those_missed_most() -> None:
    record = Record("")
    for rule_id, answers in {
        "follow-suit": [False, False, True],
        "must-trump": [False, True, True, True],
        "head-the-trick": [True],
        "trick-winner": [False],
    }.items():
        record.rules[rule_id] = RuleRecord(rule_id)
        for correct in answers:
            record.rules[rule_id].add(correct)

    assert [r.rule for r in record.to_review()] == ["follow-suit", "trick-winner", "must-trump"]
    assert [r.rule for r in record.to_review(1)] == ["follow-suit"]


@pytest.mark.django_db
def test_the_record_of_a_learner_is_his_answers_in_order(learner: Any) -> None:
    rows = [learner.store(make("why-not", "peel", "three-card", seed=s)) for s in range(4)]
    for row, right in zip(rows, (True, False, True, True), strict=True):
        q = row.to_engine()
        assert row.record_answer(q, list(q.answer) if right else learner.wrong(q)) is not None
    learner.store(make("why-not", "peel", "three-card", seed=9))  # not answered: not counted

    record = AskedQuestion.objects.filter(session_key=rows[0].session_key).record()

    assert (record.asked, record.right, record.streak) == (4, 3, 2)
    assert sum(r.asked for r in record.rules.values()) == 4
    assert set(record.rules) == {r.topic for r in rows}


@pytest.mark.django_db
def test_a_stored_question_keeps_its_identity_not_its_answer() -> None:
    q = make("declaration", "hoffmann", "three-card")
    row = AskedQuestion.store(
        q, session_key="s" * 32, drill=bank.Drill("any", "hoffmann", "three-card")
    )

    stored = AskedQuestion.objects.filter(pk=row.pk).values().get()

    assert stored["topic"] == q.topic and stored["seed"] == q.seed
    assert stored["response"] is None and stored["correct"] is None
    assert set(stored) == {
        "id",
        "owner_id",
        "session_key",
        "kind",
        "rules",
        "game",
        "rule",
        "seed",
        "version",
        "position",
        "card",
        "topic",
        "scope",
        "wanted_kind",
        "previous_id",
        "asked",
        "response",
        "correct",
        "answered",
    }
    assert row.to_engine() == q
    assert stored["position"] is None and stored["card"] == ""


@pytest.mark.django_db
def test_a_question_about_a_lessons_own_position_keeps_the_position() -> None:
    from games.loo.questions import question_at

    position = {"trump": "S", "hand": ["QH", "3S", "7D"], "trick": ["TH"]}
    q = question_at("why-not", "hoffmann", game="three-card", position=position, card="7D", seed=4)
    row = AskedQuestion.store(q, session_key="s" * 32, position=position, card="7D")

    again = AskedQuestion.objects.get(pk=row.pk).to_engine()

    assert again == q and again.answer == ("follow-suit",)


# A check constraint: each database enforces it itself.
@pytest.mark.both_databases
@pytest.mark.django_db
def test_a_question_belongs_to_an_account_or_a_session() -> None:
    with pytest.raises(IntegrityError):
        AskedQuestion.store(make("trick-winner", "hoffmann", "three-card"))


@pytest.mark.django_db
def test_a_question_is_followed_by_one_question_at_most() -> None:
    user = User.objects.create_user("ada")
    first = AskedQuestion.store(make("trick-winner", "hoffmann", "three-card"), owner=user)
    second = AskedQuestion.store(
        make("legal-cards", "hoffmann", "three-card"), owner=user, previous=first
    )

    third = AskedQuestion.store(
        make("why-not", "hoffmann", "three-card"), owner=user, previous=first
    )

    assert third == second and AskedQuestion.objects.count() == 2


@pytest.mark.django_db
def test_an_answer_not_made_of_the_choices_raises_and_stores_nothing() -> None:
    q = make("legal-cards", "britannica", "irish")
    row = AskedQuestion.store(q, session_key="s" * 32)

    with pytest.raises(QuestionError):
        row.record_answer(q, ["not-a-card"])

    row.refresh_from_db()
    assert row.answered is None


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "value"), [("version", 0), ("rule", "no-such-rule")])
def test_a_question_the_bank_can_no_longer_make_is_stale(field: str, value: Any) -> None:
    row = AskedQuestion.store(make("legal-cards", "hoffmann", "three-card"), session_key="s" * 32)
    setattr(row, field, value)

    with pytest.raises(StaleQuestion):
        row.to_engine()


def test_scopes_name_their_rules() -> None:
    assert bank.scope_rules("any") is None
    assert "follow-suit" in (bank.scope_rules("group:following") or ())
    assert bank.scope_rules("rule:must-trump") == ("must-trump",)
    with pytest.raises(UnknownRule):
        bank.scope_rules("rule:nothing")
    with pytest.raises(KeyError):
        bank.scope_rules("group:nothing")
    assert bank.scope_name("group:following") == "the rules of following"
    assert bank.scope_name("rule:follow-suit") == "“follow suit if you can”"


def test_a_drill_without_a_kind_asks_about_the_play() -> None:
    drill = bank.Drill("rule:shuffle-and-cut", "hoffmann", "three-card")

    assert "source" not in drill.kinds
    assert drill.askable() == ()
    assert bank.Drill("rule:shuffle-and-cut", "hoffmann", "three-card", "source").askable() == (
        "shuffle-and-cut",
    )
