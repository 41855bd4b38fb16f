"""The hint on the practice table (issue 38, games/practice/hint.py): opt-in for the browser
session, in learning mode only; on his turn the coach's choice is marked (a class, a star and a
description naming the reason) with its reason in one line, the same as the coach's best; over
the coach's limits the hint waits and the table is shown as ever."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from games.loo import analysis as engine
from games.loo.review import view_seed
from games.loo.view import view_for
from games.naming import HUMAN
from games.practice.hint import WAITS

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _switch(player: Any, pk: int, on: bool) -> None:
    response = player.client.post(
        reverse("games:table-hint", args=[pk]), {"hint": "on" if on else "off"}
    )
    assert response.status_code == 302


def _marked(html: str) -> list[str]:
    """The controls the hint marks: their opening tags."""
    return re.findall(r"<(?:button|label)[^>]*\bhinted\b[^>]*>", html)


def test_the_hint_is_off_until_turned_on_and_marks_the_coach_s_choice(player: Any) -> None:
    practice = player.new_table(players=5, opponents="sensible", seed=2)
    url = practice.get_absolute_url()
    html = player.client.get(url).content.decode()
    assert "Show the coach’s hint on my turn" in html
    assert not _marked(html) and 'id="table-hint"' not in html
    _switch(player, practice.pk, True)
    for _ in range(30):
        hand = player.current_hand(practice.pk)
        if hand.over:
            break
        view = view_for(hand, HUMAN)
        if view.options is not None and view.to_act == HUMAN and view.hand is not None:
            html = player.client.get(url).content.decode()
            marked = _marked(html)
            assert len(marked) >= 1, html
            assert all('aria-describedby="table-hint"' in tag for tag in marked if "button" in tag)
            best = engine.advice(view, samples=120, seed=view_seed(view)).best.action
            value = best.cards[0] if best.kind == "play" else best.choice
            assert any(f'value="{value}"' in tag for tag in marked), (marked, best)
            reason = re.search(r'<p id="table-hint" class="hint__text">(.*?)</p>', html, re.S)
            assert reason and "The coach’s choice." in reason.group(1)
            assert "counters" in reason.group(1)
            # The htmx fragment carries it too.
            fragment = player.client.get(url, headers=HTMX).content.decode()
            assert _marked(fragment) == marked
        player.act(practice.pk, player.decide(practice.pk))
    _switch(player, practice.pk, False)
    html = player.client.get(url).content.decode()
    assert not _marked(html) and "Show the coach’s hint on my turn" in html


@pytest.mark.parametrize("fields", [{"mode": "laws"}, {"takebacks": "honest"}])
def test_no_hint_in_laws_mode_or_at_an_honest_table(player: Any, fields: dict[str, str]) -> None:
    practice = player.new_table(players=5, seed=2, **fields)
    _switch(player, practice.pk, True)
    html = player.client.get(practice.get_absolute_url()).content.decode()
    assert "coach’s hint" not in html and not _marked(html) and "table-hint" not in html


@override_settings(
    RATE_LIMITS={**settings.RATE_LIMITS, "coach-per-session": (0, 600)},
)
def test_over_the_coach_s_limits_the_hint_waits(player: Any) -> None:
    practice = player.new_table(players=5, opponents="sensible", seed=2)
    _switch(player, practice.pk, True)
    response = player.client.get(practice.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert WAITS in html and not _marked(html)
