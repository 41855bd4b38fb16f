"""The hint on the table and the analysis board never rest on a card the human cannot see
(issue 38). At tables whose deals differ only in such cards, where the same decisions of the
human met the same actions of the computer players, the table page with the hint on is the
same at each of his decisions, byte for byte but for the table's number (the hint marks the
same option with the same reason); there is no board of the hand while it is played; and once
it is over, the board of each of his decisions shows the same figures, deals and lines of play
(only "Every card at this moment", the finished hand's own cards, may differ), and so does
the board of a decision weighed under another rule set (the what-if's rule sets, those
offered and those refused with their reasons, the same too).

The tables and the swaps are those of tests/games/test_coach_hidden_cards.py."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PracticeHand, PracticeTable
from games.practice import analysis
from tests.games.test_coach_hidden_cards import _alike
from tests.games.test_nothing_depends_on_a_hidden_card import (
    _decision,
    _normalised,
    _page,
    _same,
)

pytestmark = pytest.mark.django_db

#: (game, rule set, players, seed, the human takes the miss or draws where he may)
TABLES = [
    ("three-card", "hoffmann", 5, 3, False),
    ("five-card", "parlett", 5, 5, True),
]


def _hint_on(client: Client, practice: PracticeTable) -> None:
    response = client.post(reverse("games:table-hint", args=[practice.pk]), {"hint": "on"})
    assert response.status_code == 302


def _board(client: Client, practice: PracticeTable, number: int, step: int, rules: str = "") -> str:
    url = reverse("games:hand-board", args=[practice.pk, number, step])
    query = {"deal": 2, "where": 1, "card": "AS", **({"rules": rules} if rules else {})}
    response = client.get(url, query)
    assert response.status_code == 200
    html = _normalised(response.content.decode(), practice.pk)
    # Weighed under that rule set, not refused (the refusal comes before the figures).
    assert not rules or ("Weighed under" in html and "board-refusal" not in html)
    # From the figures on: the finished hand's own cards come before them.
    return html[html.index('<section id="figures"') :]


@override_settings(
    RATE_LIMITS={**settings.RATE_LIMITS, "coach-per-session": (1000, 600)},
)
@pytest.mark.parametrize(("game", "rules", "players", "seed", "reveal"), TABLES)
def test_the_hint_and_the_board_are_the_same_whatever_the_hidden_cards(
    client: Client, player: Any, game: str, rules: str, players: int, seed: int, reveal: bool
) -> None:
    owner = get_user_model().objects.create_user("learner", password="x-9-long-enough")
    client.force_login(owner)
    original = player.new_table(
        game=game, rules=rules, players=players, opponents="sensible", seed=seed
    )
    _hint_on(client, original)
    start_version = original.version
    rng = random.Random(f"hint:{game}:{seed}")
    posted: list[dict[str, Any]] = []
    compared = hinted = 0
    for _ in range(60):
        original.refresh_from_db()
        hand = player.current_hand(original.pk)
        if hand.over:
            break
        number = hand.setup.hand_number
        # No board of the hand in play, at any step of it.
        for step in range(len(hand.log) + 1):
            url = reverse("games:hand-board", args=[original.pk, number, step])
            assert client.get(url).status_code == 404
        if not player.waiting(hand):
            page = _page(client, original)
            assert "/board/" not in page
            if 'id="table-hint"' in page:
                hinted += 1
                assert page.count('class="hinted"') + page.count(' hinted"') >= 1
            for what, theirs, other in _alike(rng, player, original, owner, start_version, posted):
                _hint_on(theirs, other)
                _same(page, _page(theirs, other), f"the hint, {what}")
                compared += 1
                break
        data = _decision(player, original.pk, reveal)
        response = client.post(reverse("games:table-act", args=[original.pk]), data)
        assert response.status_code == 302
        posted.append(data)
    else:
        raise AssertionError("the hand did not end")
    assert hinted and compared >= 1, (hinted, compared)
    hand = player.current_hand(original.pk)
    number = hand.setup.hand_number
    record = PracticeHand.objects.get(table=original, number=number)
    steps = analysis.decision_steps(record)
    assert steps
    boards = {step: _board(client, original, number, step) for step in steps}
    assert all("Lines of play in deal 2" in html for html in boards.values())
    # What-if under another rule set (the same cards and play): the first it may be weighed
    # under, at his first two decisions.
    others = {}
    for step in steps[:2]:
        held = analysis.other_rule_sets(analysis.finished_position(record, step, {})).held
        if held:
            others[step] = (held[0][0], _board(client, original, number, step, held[0][0]))
    assert others
    for what, theirs, other in _alike(
        rng, player, original, owner, start_version, posted, by_anyone=True
    ):
        for step, mine in boards.items():
            _same(mine, _board(theirs, other, number, step), f"the board at {step}, {what}")
        for step, (rules, mine) in others.items():
            again = _board(theirs, other, number, step, rules)
            _same(mine, again, f"the board at {step} under {rules}, {what}")
        break
    else:
        raise AssertionError("no deal that differs in cards nobody saw met the same play")
