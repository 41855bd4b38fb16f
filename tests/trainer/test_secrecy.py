"""The answer is never in a page before it is given: the server keeps the question (only its
identity is stored) and the page shows the prompt, the position and the choices. Checked for
every kind under every rule set and game, as a whole page and as the htmx fragment."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from games.loo.questions import Question
from games.naming import say
from lessons.trainer.models import AskedQuestion
from lessons.trainer.presenting import shown

from .conftest import make, one_per_kind

pytestmark = pytest.mark.django_db

CASES = one_per_kind()
IDS = [f"{k}-{p}-{g}" for k, p, g in CASES]


def _without_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'"x-csrftoken": "[^"]*"', "", html)


def _other_answer(q: Question) -> tuple[str, ...]:
    """An answer other than the real one, made of the same choices."""
    ids = [c.id for c in q.choices]
    if q.multiple:
        return tuple(i for i in ids if i not in q.answer) or tuple(ids[:1])
    return (next(i for i in ids if i not in q.answer),)


def _disguised(q: Question) -> Question:
    """The same question with another answer, no explanations and no target rule."""
    changes: dict[str, Any] = {"answer": _other_answer(q), "explanations": (), "rule": None}
    if "topic" in {f.name for f in dataclasses.fields(q)}:
        changes["topic"] = "ante"
    return dataclasses.replace(q, **changes)


@pytest.mark.parametrize(("kind", "rules", "game"), CASES, ids=IDS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_the_page_of_a_question_is_the_same_whatever_its_answer(
    learner: Any, monkeypatch: pytest.MonkeyPatch, kind: str, rules: str, game: str, htmx: bool
) -> None:
    q = make(kind, rules, game)
    asked = learner.store(q)

    real = _without_tokens(learner.page(asked, htmx))
    disguised = _disguised(q)
    monkeypatch.setattr(AskedQuestion, "to_engine", lambda self: disguised)
    other = _without_tokens(learner.page(asked, htmx))

    assert real == other
    # The page names seats as the table does, by the number at the question's table.
    players = q.position.get("players") or len(q.position.get("hands") or ()) or None
    for explanation in q.explanations:
        assert say(explanation.message, players) not in learner.text(real)
    # The prompt as the engine says it (a quotation with its text's faults corrected).
    assert shown(q).prompt in learner.text(real)
    assert "verdict" not in real and "is-answer" not in real


@pytest.mark.parametrize(("kind", "rules", "game"), CASES[:: max(1, len(CASES) // 12)])
def test_no_page_states_the_seed(learner: Any, kind: str, rules: str, game: str) -> None:
    """With the seed the engine's command line would make the question, answer and all."""
    asked = learner.store(make(kind, rules, game, seed=987654321))

    assert "987654321" not in learner.page(asked)
    assert "987654321" not in learner.page(asked, htmx=True)
