"""The computer players' pace (issue 26, item 7) and the first decision's autofocus (item 5):
the pace is a plain form kept for the browser session, bad input changes nothing; the table
page puts focus on the player's first decision without JavaScript, and nowhere when nothing
is his to do or an error is to be read first."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import PracticeTable

pytestmark = pytest.mark.django_db


def _page(client: Client, table: PracticeTable, **headers: Any) -> str:
    response = client.get(reverse("games:table", args=[table.pk]), headers=headers)
    assert response.status_code == 200
    return str(response.content.decode())


def _pace(client: Client, table: PracticeTable, data: dict[str, Any]) -> Any:
    return client.post(reverse("games:table-pace", args=[table.pk]), data)


def _form(text: str) -> str:
    match = re.search(r'<form id="table-pace"[^>]*>', text)
    assert match, "no pace form on the table page"
    return match.group(0)


def test_the_pace_is_kept_for_the_browser_session(client: Client, player: Any) -> None:
    table = player.new_table()
    assert 'data-pause="450" data-hold="1200"' in _form(_page(client, table))  # normal

    response = _pace(client, table, {"pace": "fast", "wait": "on"})

    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    text = _page(client, table)
    assert _form(text).endswith('data-pause="200" data-hold="600" data-wait>')
    assert re.search(r'<input type="radio" name="pace" value="fast"[^>]*checked', text)
    # Another table of the same session keeps it; another browser does not have it.
    other_table = player.new_table(seed=2)
    assert "data-wait" in _form(_page(client, other_table))
    stranger = Client()
    assert _pace(stranger, table, {"pace": "slow"}).status_code == 404
    assert 'data-pause="200"' in _form(_page(client, table))


@pytest.mark.parametrize("data", [{"pace": "warp"}, {}, {"pace": ["slow", "x"], "wait": "on"}])
def test_a_pace_not_offered_changes_nothing_and_says_why(
    client: Client, player: Any, data: dict[str, Any]
) -> None:
    table = player.new_table()
    _pace(client, table, {"pace": "slow"})
    version = PracticeTable.objects.get(pk=table.pk).version

    response = _pace(client, table, data)

    assert response.status_code == 302
    text = _page(client, table)
    if data.get("pace") != ["slow", "x"]:
        assert "Choose a pace: instant, fast, normal or slow." in text
        assert 'data-pause="900" data-hold="2400">' in _form(text)
    assert PracticeTable.objects.get(pk=table.pk).version == version


def _autofocused(text: str) -> list[str]:
    return re.findall(r"<(?:button|input)\b[^>]*\bautofocus\b[^>]*>", text)


def test_focus_is_on_the_first_decision_without_javascript(client: Client, player: Any) -> None:
    table = player.new_table(players=5)
    seen = set()
    for step in range(100):
        text = _page(client, table)
        hand = player.current_hand(table.pk)
        (focused,) = _autofocused(text)
        # The htmx fragment marks the same control (play.js focuses it once the cards arrive).
        assert _autofocused(_page(client, table, HX_Request="true")) == [focused]
        if hand.over:
            assert "Deal the next hand" in text.split(focused, 1)[1].split("</button>", 1)[0]
            seen.add("deal")
            if seen >= {"card", "choice"}:
                break
            version = PracticeTable.objects.get(pk=table.pk).version
            client.post(reverse("games:table-next", args=[table.pk]), {"version": version})
            continue
        if 'name="card"' in focused:
            cards = re.findall(r'<button type="submit" name="card"[^>]*>', text)
            legal = [c for c in cards if "aria-disabled" not in c]
            assert legal[0] == focused
            seen.add("card")
        elif 'name="choice"' in focused:
            assert focused == re.findall(r'<button type="submit" name="choice"[^>]*>', text)[0]
            seen.add("choice")
        elif 'name="discards"' in focused:
            seen.add("discard")
        else:
            seen.add("wait")
        player.act(table.pk, player.decide(table.pk, step))
    assert {"card", "choice", "deal"} <= seen, seen


def test_no_autofocus_when_an_error_is_to_be_read_first(client: Client, player: Any) -> None:
    table = player.new_table()
    data = player.decide(table.pk)
    data.update(kind="play", card="XX")

    player.act(table.pk, data)

    text = _page(client, table)
    assert "You do not hold that card." in text or "That is not" in text
    assert _autofocused(text) == []
    assert len(_autofocused(_page(client, table))) == 1  # the message was read once
