"""Helpers for the trainer's tests: questions asked through the views or stored directly, and
a snapshot of every stored question to check that a refused request changed nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.questions import Question, question_for
from games.loo.rulesets import PRESETS
from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion

HTMX = {"HX-Request": "true"}


def one_per_kind() -> list[tuple[str, str, str]]:
    """(kind, rule set, game) for every kind the engine makes, under every rule set at each
    of its games where that kind asks about something: the secrecy and the pages are checked
    across all of them."""
    return [
        (k, p, g)
        for k in bank.kinds()
        for p in PRESETS
        for g in bank.games_of(p)
        if bank.coverage(p, g).get(k)
    ]


def make(kind: str, rules: str, game: str, seed: int = 7) -> Question:
    """A question of ``kind`` about some rule that kind asks about there."""
    return question_for(rules, game, kinds=(kind,), seed=seed)


def snapshot() -> list[dict[str, Any]]:
    return list(AskedQuestion.objects.order_by("pk").values())


@contextmanager
def unchanged() -> Iterator[None]:
    """Every stored question, its answer included, is the same after the block."""
    before = snapshot()
    yield
    assert snapshot() == before


class Learner:
    """Someone using the trainer through the views with a test client."""

    htmx = HTMX

    def __init__(self, client: Client) -> None:
        self.client = client

    def start(
        self, scope: str = "any", rules: str = "hoffmann", game: str = "three-card", kind: str = ""
    ) -> AskedQuestion:
        response = self.client.post(
            reverse("trainer:ask"), {"scope": scope, "rules": rules, "game": game, "kind": kind}
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        pk = int(response["Location"].strip("/").split("/")[-1])
        return AskedQuestion.objects.get(pk=pk)

    def store(self, q: Question, scope: str = "any") -> AskedQuestion:
        """``q`` stored for this client's browser session (made if need be)."""
        session = self.client.session
        if session.session_key is None:
            session.save()
            self.client.cookies["sessionid"] = session.session_key
        key = self.client.session.session_key or ""
        drill = bank.Drill(scope, q.rules, q.game)
        return AskedQuestion.store(q, session_key=key, drill=drill)

    def answer(self, asked: AskedQuestion, response: list[str], htmx: bool = False) -> Any:
        return self.client.post(
            reverse("trainer:question-answer", args=[asked.pk]),
            {"response": response},
            headers=HTMX if htmx else {},
        )

    def next(self, asked: AskedQuestion, htmx: bool = False) -> Any:
        return self.client.post(
            reverse("trainer:question-next", args=[asked.pk]), headers=HTMX if htmx else {}
        )

    def page(self, asked: AskedQuestion, htmx: bool = False) -> str:
        response = self.client.get(asked.get_absolute_url(), headers=HTMX if htmx else {})
        assert response.status_code == 200
        return str(response.content.decode())

    @staticmethod
    def wrong(q: Question) -> list[str]:
        """A wrong answer to ``q``."""
        others = [c.id for c in q.choices if c.id not in q.answer]
        if not q.multiple:
            return others[:1]
        return [*q.answer, *others[:1]] if others else list(q.answer[:-1])

    @staticmethod
    def text(html: str) -> str:
        """The words of a page, tags removed and spaces collapsed."""
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def learner(client: Client, db: None) -> Learner:
    return Learner(client)
