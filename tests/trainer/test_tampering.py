"""Bad input: a forged choice, another learner's question, an unknown rule, rule set or game, a
question the bank can no longer make, a second answer. Each gets a clear message and leaves
every stored question (and so every record) exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.loo.questions import VERSIONS
from lessons.trainer.models import AskedQuestion

from .conftest import HTMX, make, unchanged

pytestmark = pytest.mark.django_db

HTMX_OR_NOT = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])


def _said(learner: Any, asked: AskedQuestion, response: Any, htmx: bool) -> str:
    """What the learner reads: the fragment, or the page the redirect leads to."""
    if htmx:
        assert response.status_code == 200
        return str(learner.text(response.content.decode()))
    assert response.status_code == 302 and response["Location"] == asked.get_absolute_url()
    return str(learner.text(learner.page(asked)))


@pytest.fixture
def asked(learner: Any) -> AskedQuestion:
    """A select-all question (which cards may be played) of this client's session."""
    row: AskedQuestion = learner.store(make("legal-cards", "hoffmann", "three-card"))
    return row


@pytest.fixture
def single(learner: Any) -> AskedQuestion:
    """A one-answer question (who takes the trick) of this client's session."""
    row: AskedQuestion = learner.store(make("trick-winner", "peel", "five-card"))
    return row


@HTMX_OR_NOT
def test_a_choice_the_question_does_not_offer_is_refused(
    learner: Any, asked: AskedQuestion, htmx: bool
) -> None:
    with unchanged():
        response = learner.answer(asked, ["ZZ"], htmx=htmx)

    assert "“ZZ” is not one of this question's choices." in _said(learner, asked, response, htmx)


@HTMX_OR_NOT
def test_an_empty_answer_is_refused(learner: Any, asked: AskedQuestion, htmx: bool) -> None:
    with unchanged():
        response = learner.answer(asked, [], htmx=htmx)

    text = _said(learner, asked, response, htmx)
    assert "Tick every choice that applies (at least one)." in text


@HTMX_OR_NOT
def test_two_answers_to_a_one_answer_question_are_refused(
    learner: Any, single: AskedQuestion, htmx: bool
) -> None:
    ids = [c.id for c in single.to_engine().choices]

    with unchanged():
        response = learner.answer(single, ids[:2], htmx=htmx)

    assert "Choose one answer only: this question has one." in _said(
        learner, single, response, htmx
    )


@HTMX_OR_NOT
def test_a_second_answer_changes_nothing(learner: Any, single: AskedQuestion, htmx: bool) -> None:
    q = single.to_engine()
    learner.answer(single, list(q.answer))

    with unchanged():
        response = learner.answer(single, learner.wrong(q), htmx=htmx)
        again = learner.answer(single, list(q.answer), htmx=htmx)

    text = _said(learner, single, response, htmx)
    assert "You had already answered this question: your first answer stands." in text
    assert "Right." in text
    assert again.status_code == response.status_code


def test_a_race_between_two_answers_stores_the_first(learner: Any, single: AskedQuestion) -> None:
    """Two requests that both loaded the question unanswered: the second stores nothing."""
    q = single.to_engine()
    late = AskedQuestion.objects.get(pk=single.pk)
    assert single.record_answer(q, list(q.answer)) is not None

    with unchanged():
        assert late.record_answer(q, learner.wrong(q)) is None

    assert late.correct is True


@HTMX_OR_NOT
@pytest.mark.parametrize("action", ["question", "question-answer", "question-next"])
def test_another_sessions_question_is_not_found(
    learner: Any, asked: AskedQuestion, action: str, htmx: bool
) -> None:
    outsider = Client()
    url = reverse(f"trainer:{action}", args=[asked.pk])
    headers = HTMX if htmx else {}

    with unchanged():
        if action == "question":
            response = outsider.get(url, headers=headers)
        else:
            response = outsider.post(url, {"response": ["QH"]}, headers=headers)

    assert response.status_code == 404
    assert "There is no such question among yours" in response.content.decode()


def test_another_users_question_is_not_found(client: Client, learner: Any) -> None:
    owner = User.objects.create_user("ada")
    q = make("why-not", "peel", "three-card")
    theirs = AskedQuestion.store(q, owner=owner)
    client.force_login(User.objects.create_user("outsider"))

    with unchanged():
        response = learner.answer(theirs, [q.answer[0]])

    assert response.status_code == 404


def test_a_question_that_does_not_exist_is_not_found(learner: Any) -> None:
    response = learner.client.get(reverse("trainer:question", args=[99999]))

    assert response.status_code == 404
    assert "Start again from the trainer" in response.content.decode()


@HTMX_OR_NOT
def test_a_question_of_an_earlier_bank_cannot_be_answered(
    learner: Any, asked: AskedQuestion, htmx: bool
) -> None:
    choice = asked.to_engine().choices[0].id
    AskedQuestion.objects.filter(pk=asked.pk).update(version=min(VERSIONS) - 1)

    with unchanged():
        response = learner.answer(asked, [choice], htmx=htmx)

    text = _said(learner, asked, response, htmx)
    assert "This question can no longer be asked: the question bank has changed" in text
    assert 'name="response"' not in learner.page(asked)


@HTMX_OR_NOT
def test_the_next_question_waits_for_an_answer(
    learner: Any, asked: AskedQuestion, htmx: bool
) -> None:
    with unchanged():
        response = learner.next(asked, htmx=htmx)

    assert "Answer this question before the next one." in _said(learner, asked, response, htmx)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"scope": "rule:no-such-rule"},
            "There is no rule called “no-such-rule” in the catalogue.",
        ),
        ({"scope": "group:nonsense"}, "“group:nonsense” is not a rule, a group of rules"),
        ({"scope": "everything"}, "“everything” is not a rule, a group of rules"),
        ({"rules": "hoyle"}, "There is no rule set called “hoyle”."),
        ({"game": "whist"}, "There is no game called “whist”."),
        ({"kind": "essay"}, "There is no kind of question called “essay”."),
        ({"rules": "peel", "game": "irish"}, "Peel (1891) describes no Irish Loo"),
        (
            {"scope": "rule:pam-identity", "game": "three-card"},
            "No question asks about “which card is Pam, and which suit it belongs to” under "
            "Hoffmann (1909) at three-card Loo yet",
        ),
        (
            {"scope": "rule:ante", "kind": "legal-cards"},
            "No question of the kind “Which cards may be played” asks about",
        ),
        (
            {"rules": "britannica", "kind": "penalty"},
            "There are no questions of the kind “What an irregularity costs” under Britannica "
            "(1911) at three-card Loo: they are asked under Hoffmann (1909) and Peel (1891) "
            "only. Choose another kind of question, or a rule set and game where they are asked.",
        ),
        (
            {"kind": "flush"},
            "There are no questions of the kind “Whose flush wins” under Hoffmann (1909) at "
            "three-card Loo: they are asked at five-card Loo only.",
        ),
    ],
)
def test_an_impossible_drill_is_refused_with_the_reason(
    learner: Any, fields: dict[str, str], message: str
) -> None:
    data = {"scope": "any", "rules": "hoffmann", "game": "three-card", **fields}

    with unchanged():
        posted = learner.client.post(reverse("trainer:ask"), data)
        linked = learner.client.get(reverse("trainer:choose"), data)

    for response in (posted, linked):
        assert response.status_code == 200
        assert message in learner.text(response.content.decode())
    assert not AskedQuestion.objects.exists()


def test_a_drill_the_bank_cannot_serve_says_so(
    learner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.loo.questions import QuestionError
    from lessons.trainer import bank

    def refuse(self: Any, seed: int) -> Any:
        raise QuestionError("nothing found")

    monkeypatch.setattr(bank.Drill, "ask", refuse)

    with unchanged():
        response = learner.client.post(
            reverse("trainer:ask"), {"scope": "any", "rules": "hoffmann", "game": "three-card"}
        )

    assert "No question about any rule could be made just now." in learner.text(
        response.content.decode()
    )


def test_a_post_without_its_csrf_token_is_refused(asked: AskedQuestion) -> None:
    strict = Client(enforce_csrf_checks=True)

    with unchanged():
        response = strict.post(reverse("trainer:question-answer", args=[asked.pk]), {})

    assert response.status_code == 403


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_pages_answer_only_their_methods(client: Client, method: str) -> None:
    assert getattr(client, method)(reverse("trainer:choose")).status_code == 405
    assert getattr(client, method)(reverse("trainer:coverage")).status_code == 405
