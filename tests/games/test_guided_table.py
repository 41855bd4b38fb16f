"""A lesson's guided hand at the practice table: once it is over it is not taken back, and the
trick log never folds away a line marked with the lesson's rule."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.hand import Action
from games.models import PracticeHand, PracticeTable
from games.naming import HUMAN, say
from games.practice.service import GUIDED_HAND_OVER

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
TAKE_BACK = "Take back your last decision"


def _guided(table: PracticeTable, rule: str = "follow-suit") -> PracticeTable:
    """Make ``table`` a lesson's guided hand (as the course deals one) watching ``rule``."""
    PracticeTable.objects.filter(pk=table.pk).update(
        guide={"lesson": "Follow suit", "banner": "Follow suit.", "rule": rule, "back": "/learn/"}
    )
    table.refresh_from_db()
    return table


def _step(player: Any, table: PracticeTable) -> None:
    """The human's next decision, through the views: he plays rather than pass."""
    hand = player.current_hand(table.pk)
    options = hand.options() if hand.to_act == HUMAN else None
    if options is not None and options.kind == "declare" and "play" in options.choices:
        table.refresh_from_db()
        player.act(table.pk, player.post_data(Action.declare(HUMAN, "play"), table.version))
    else:
        player.act(table.pk, player.decide(table.pk))


def _page(client: Client, table: PracticeTable, htmx: bool = False) -> str:
    response = client.get(table.get_absolute_url(), headers=HTMX if htmx else {})
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_finished_guided_hand_offers_no_take_back_and_refuses_one(
    client: Client, player: Any, htmx: bool
) -> None:
    table = _guided(player.new_table(players=4, seed=11))
    assert TAKE_BACK not in _page(client, table)  # nothing to take back yet
    player.play_out(table.pk)
    table.refresh_from_db()

    assert TAKE_BACK not in _page(client, table, htmx)
    response = client.post(
        reverse("games:table-takeback", args=[table.pk]),
        {"version": table.version},
        headers=HTMX if htmx else {},
        follow=not htmx,
    )

    assert response.status_code == 200
    assert GUIDED_HAND_OVER in unescape(response.content.decode())
    assert player.current_hand(table.pk).over
    assert PracticeHand.objects.filter(table=table).exists()
    before = table.version
    table.refresh_from_db()
    assert table.version == before


def test_the_next_hand_at_a_guided_table_follows_the_rule_of_any_table(
    client: Client, player: Any
) -> None:
    """Past the guided hand, a take-back is offered or refused as at any table: by the
    engine's rule (``Table.takeback_refusal``), not the lesson's."""
    table = _guided(player.new_table(players=4, seed=11))
    player.play_out(table.pk)
    table.refresh_from_db()
    client.post(reverse("games:table-next", args=[table.pk]), {"version": table.version})
    player.act(table.pk, player.decide(table.pk))
    table.refresh_from_db()

    refusal = table.to_engine().takeback_refusal(HUMAN)
    page = _page(client, table)
    assert GUIDED_HAND_OVER not in page
    if refusal is None:
        assert TAKE_BACK in page
    else:
        assert TAKE_BACK not in page and say(refusal) in page


def _earlier(page: str) -> str:
    """The folded part of the trick log: its <details> tag and what it holds."""
    start = page.index('<details class="log-earlier"')
    return page[start : page.index("</details>", start)]


def test_a_line_marked_with_the_lessons_rule_is_not_folded_away(
    client: Client, player: Any
) -> None:
    # The deal's line (deal-order) is folded under "Earlier in this deal" once a trick is
    # taken; marked with the lesson's rule, the fold is open.
    table = _guided(player.new_table(players=4, seed=11), rule="deal-order")
    while not player.current_hand(table.pk).tricks:
        _step(player, table)

    for htmx in (False, True):
        earlier = _earlier(_page(client, table, htmx))
        assert "log-line--lesson" in earlier
        assert earlier.startswith('<details class="log-earlier" open>')


def test_a_fold_without_a_marked_line_stays_closed(client: Client, player: Any) -> None:
    table = _guided(player.new_table(players=4, seed=11), rule="pam-be-civil")
    while not player.current_hand(table.pk).tricks:
        _step(player, table)

    earlier = _earlier(_page(client, table))
    assert "log-line--lesson" not in earlier
    assert earlier.startswith('<details class="log-earlier">')
