"""The words beside each declaring button (``games.forms.CHOICE_HELP``)."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_taking_the_miss_says_the_miss_is_taken_unseen(client: Client, player: Any) -> None:
    """Issue 26: "Exchange your hand, unseen, for the miss" hung "unseen" on the hand, which
    the player has seen; it is the miss he takes without seeing it."""
    for seed in range(1, 40):
        table = player.new_table(seed=seed)
        html = unescape(client.get(table.get_absolute_url()).content.decode())
        if 'value="take-miss"' in html:
            break
    else:
        raise AssertionError("the miss was never offered")
    assert "Take the miss, sight unseen, in place of your own cards; you must then play." in html
    assert "Exchange your hand, unseen" not in html


def test_the_heading_names_every_declaring_button(client: Client, player: Any) -> None:
    """Issue 38: the Britannica's dealer facing one player has two buttons, "Take miss" and
    "Play miss for the pool", and the heading said "Your turn to declare: take miss"."""
    for seed in range(1, 80):
        table = player.new_table(rules="britannica", players=3, seed=seed)
        html = unescape(client.get(table.get_absolute_url()).content.decode())
        if 'value="defend-miss"' in html:
            break
    else:
        raise AssertionError("the dealer never faced one player")
    assert 'value="take-miss"' in html and 'value="play"' not in html
    assert "Your turn to declare: take miss or play miss for the pool" in html
