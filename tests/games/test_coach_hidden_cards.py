"""The coach never depends on a card the human cannot see (issue 28): at tables whose deals
differ only in such cards, where the same decisions of the human met the same actions of the
computer players, the coach's answer at each of his decisions is the same, byte for byte but
for the table's number; and once the hand is over, so is the review of his decisions, for any
two cards he never saw (those of a player who passed, the miss nobody took, the stock).

The tables and the swaps are those of tests/games/test_nothing_depends_on_a_hidden_card.py,
whose helpers this reuses: a second table dealt the original's pack with two hidden cards
swapped, the human's requests made there too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PracticeTable
from tests.games.test_nothing_depends_on_a_hidden_card import (
    HTMX,
    _counterfactual,
    _decision,
    _follow,
    _log,
    _normalised,
    _same,
    _swaps,
)

pytestmark = pytest.mark.django_db

#: (game, rule set, players, seed, the human takes the miss or draws where he may)
TABLES = [
    ("three-card", "hoffmann", 5, 3, False),
    ("three-card", "britannica", 4, 17, True),
    ("five-card", "hoffmann", 5, 10, False),
    ("five-card", "parlett", 5, 5, True),
]


def _answer(client: Client, practice: PracticeTable) -> str:
    response = client.get(reverse("games:table-coach", args=[practice.pk]), headers=HTMX)
    assert response.status_code == 200
    return _normalised(response.content.decode(), practice.pk)


def _review(client: Client, practice: PracticeTable, number: int) -> str:
    response = client.get(reverse("games:hand-review", args=[practice.pk, number]))
    assert response.status_code == 200
    html = _normalised(response.content.decode(), practice.pk)
    return html[html.index("<main") :]


def _alike(
    rng: random.Random,
    player: Any,
    original: PracticeTable,
    owner: Any,
    start_version: int,
    posted: list[dict[str, Any]],
    *,
    by_anyone: bool = False,
) -> Iterator[tuple[str, Client, PracticeTable]]:
    """Tables whose deal differs from ``original``'s in two cards the human cannot see (any he
    never saw, ``by_anyone``), each in a browser of its own, where his requests so far met the
    same play: (the two cards, its browser, the table)."""
    hand = player.current_hand(original.pk)
    for a, b, swapped in _swaps(rng, hand, player, by_anyone=by_anyone):
        other = _counterfactual(original, swapped, owner, start_version)
        theirs = Client()
        theirs.force_login(owner)
        _follow(theirs, other, posted)
        if _log(other) == _log(original):  # else the computer players acted otherwise
            yield f"{a} <-> {b}", theirs, other


@override_settings(
    RATE_LIMITS={**settings.RATE_LIMITS, "coach-per-session": (1000, 600)},
)
@pytest.mark.parametrize(("game", "rules", "players", "seed", "reveal"), TABLES)
def test_the_coach_is_the_same_whatever_the_hidden_cards(
    client: Client, player: Any, game: str, rules: str, players: int, seed: int, reveal: bool
) -> None:
    owner = get_user_model().objects.create_user("learner", password="x-9-long-enough")
    client.force_login(owner)
    original = player.new_table(
        game=game, rules=rules, players=players, opponents="sensible", seed=seed
    )
    start_version = original.version
    rng = random.Random(f"coach:{game}:{seed}")
    posted: list[dict[str, Any]] = []
    compared = asked = 0
    for _ in range(60):
        original.refresh_from_db()
        hand = player.current_hand(original.pk)
        if hand.over:
            break
        if not player.waiting(hand):
            asked += 1
            answer = _answer(client, original)
            assert 'class="coach__option' in answer
            for what, theirs, other in _alike(rng, player, original, owner, start_version, posted):
                _same(answer, _answer(theirs, other), f"the coach, {what}")
                compared += 1
                break
        data = _decision(player, original.pk, reveal)
        response = client.post(reverse("games:table-act", args=[original.pk]), data)
        assert response.status_code == 302
        posted.append(data)
    else:
        raise AssertionError("the hand did not end")
    assert asked and compared >= max(1, asked // 2), (compared, asked)
    hand = player.current_hand(original.pk)
    number = hand.setup.hand_number
    mine = _review(client, original, number)
    assert "decision" in mine
    for what, theirs, other in _alike(
        rng, player, original, owner, start_version, posted, by_anyone=True
    ):
        _same(mine, _review(theirs, other, number), f"the review, {what}")
        break
    else:
        raise AssertionError("no deal that differs in cards nobody saw met the same play")
