"""Tampered, stale and malformed requests: each gets a clear answer and leaves the stored
table exactly as it was (its state and its version)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import PracticeTable

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

#: Peel's first deal is a must: everyone plays, there is no miss. The human (seat 0) is the
#: elder hand and, holding the ace of trumps, must lead it (lead-ace-of-trumps).
MUST_DEAL: dict[str, Any] = {
    "game": "three-card",
    "rules": "hoffmann",
    "prev_no_loo": True,
    "players": 4,
    "dealer": 3,
    "hands": [["AH", "5C", "7D"], ["KH", "3C", "4D"], ["QS", "9C", "8D"], ["JS", "TC", "6D"]],
    "turn_up": "2H",
}


@contextmanager
def unchanged(table: PracticeTable) -> Iterator[None]:
    table.refresh_from_db()
    state, version, notes = table.state, table.version, table.notes
    yield
    table.refresh_from_db()
    assert table.state == state
    assert table.version == version
    assert table.notes == notes


def _post(client: Client, table: PracticeTable, data: dict[str, Any], htmx: bool) -> Any:
    return client.post(
        reverse("games:table-act", args=[table.pk]), data, headers=HTMX if htmx else {}
    )


def _answer(client: Client, response: Any, htmx: bool) -> str:
    """What the player reads: the fragment, or the page the redirect leads to."""
    if htmx:
        assert response.status_code == 200
        return str(response.content.decode())
    assert response.status_code == 302
    return str(client.get(response["Location"]).content.decode())


@pytest.fixture
def declaring(player: Any) -> PracticeTable:
    table: PracticeTable = player.stacked_table(**MUST_DEAL)
    return table


@pytest.fixture
def leading(client: Client, declaring: PracticeTable) -> PracticeTable:
    """The same table once everyone has declared: the human is to lead."""
    _post(client, declaring, {"version": 1, "kind": "declare", "choice": "play"}, htmx=True)
    declaring.refresh_from_db()
    hand = declaring.to_engine().hand
    assert hand is not None and hand.phase == "play" and hand.to_act == 0
    return declaring


HTMX_OR_NOT = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])


@HTMX_OR_NOT
def test_a_card_not_held_is_refused_without_naming_it(
    client: Client, leading: PracticeTable, htmx: bool
) -> None:
    with unchanged(leading):
        response = _post(client, leading, {"version": 2, "kind": "play", "card": "KH"}, htmx)
        text = _answer(client, response, htmx)

    assert "You do not hold that card." in text
    assert not re.search(r"\bKH\b|K♥|king of hearts", text)


@HTMX_OR_NOT
def test_an_illegal_card_is_refused_with_the_rule_that_forbids_it(
    client: Client, leading: PracticeTable, htmx: bool
) -> None:
    with unchanged(leading):
        response = _post(client, leading, {"version": 2, "kind": "play", "card": "5C"}, htmx)
        text = _answer(client, response, htmx)

    assert "The 5♣ may not be played." in text
    assert "You hold the ace of trumps (A♥), so you must lead it." in text
    assert 'href="/rules/lead-ace-of-trumps/"' in text


@HTMX_OR_NOT
def test_an_action_of_the_wrong_phase_is_refused(
    client: Client, declaring: PracticeTable, htmx: bool
) -> None:
    with unchanged(declaring):
        response = _post(client, declaring, {"version": 1, "kind": "play", "card": "AH"}, htmx)
        text = _answer(client, response, htmx)

    assert "That cannot be done now: it is time to declare." in text


@HTMX_OR_NOT
def test_a_choice_the_rules_do_not_offer_is_refused(
    client: Client, declaring: PracticeTable, htmx: bool
) -> None:
    """A must: passing is not among the choices."""
    with unchanged(declaring):
        response = _post(
            client, declaring, {"version": 1, "kind": "declare", "choice": "pass"}, htmx
        )
        text = _answer(client, response, htmx)

    assert "That choice is not open to you now." in text


@HTMX_OR_NOT
def test_a_stale_version_is_not_applied_and_the_current_table_is_shown(
    client: Client, leading: PracticeTable, htmx: bool
) -> None:
    with unchanged(leading):
        response = _post(client, leading, {"version": 1, "kind": "play", "card": "AH"}, htmx)
        text = _answer(client, response, htmx)

    assert "This page was out of date" in text
    assert "Your turn: lead a card" in text


def test_a_double_submission_is_applied_once(client: Client, leading: PracticeTable) -> None:
    data = {"version": 2, "kind": "play", "card": "AH"}
    _post(client, leading, data, htmx=True)
    leading.refresh_from_db()
    after_first = (leading.state, leading.version)

    with unchanged(leading):
        text = _answer(client, _post(client, leading, data, htmx=True), htmx=True)

    assert "This page was out of date" in text
    assert (leading.state, leading.version) == after_first


def test_a_race_lost_to_another_request_is_not_stored(
    client: Client, leading: PracticeTable
) -> None:
    """Two requests load the same version; the second to store finds it changed."""
    first = PracticeTable.objects.get(pk=leading.pk)
    second = PracticeTable.objects.get(pk=leading.pk)
    table = first.to_engine()
    assert first.update_from_engine(table, [])

    assert not second.update_from_engine(second.to_engine(), [])
    leading.refresh_from_db()
    assert leading.version == 3


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "play", "card": "AH"},
        {"version": "", "kind": "play", "card": "AH"},
        {"version": "two", "kind": "play", "card": "AH"},
        {"version": "-1", "kind": "play", "card": "AH"},
    ],
    ids=["no-version", "empty-version", "word-version", "negative-version"],
)
@HTMX_OR_NOT
def test_a_request_without_a_readable_version_is_a_bad_request(
    client: Client, leading: PracticeTable, data: dict[str, Any], htmx: bool
) -> None:
    with unchanged(leading):
        response = _post(client, leading, data, htmx)

    assert response.status_code == 400
    assert "lacks the table's version" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "dance"}, "That is not a move in this game."),
        ({"kind": "play"}, "Choose a card to play."),
        ({"kind": "play", "card": "<script>alert(1)</script>"}, "You do not hold that card."),
        ({"kind": "play", "card": "ZZ"}, "You do not hold that card."),
        ({"kind": "play", "card": "5C", "civil": "1"}, "“Pam, be civil” is called only"),
        ({"kind": "replay", "choice": "demand"}, "it is time to play a card"),
        ({"kind": "declare", "choice": "play", "discards": ["AH"]}, "it is time to play a card"),
    ],
    ids=[
        "unknown-kind",
        "no-card",
        "markup",
        "not-a-card",
        "civil-off-the-ace",
        "replay",
        "declare",
    ],
)
@HTMX_OR_NOT
def test_garbage_gets_a_clear_message(
    client: Client, leading: PracticeTable, data: dict[str, Any], message: str, htmx: bool
) -> None:
    with unchanged(leading):
        response = _post(client, leading, {"version": 2, **data}, htmx)
        text = _answer(client, response, htmx)

    assert message in text
    assert "<script>alert(1)</script>" not in text


@HTMX_OR_NOT
def test_discards_that_are_not_held_are_refused(client: Client, player: Any, htmx: bool) -> None:
    table = player.new_table(game="five-card", rules="hoffmann", players=3, seed=8)
    hand = player.current_hand(table.pk)
    assert hand.phase == "exchange" and hand.to_act == 0
    stranger = min(c.code for c in player.hidden_cards(hand))

    with unchanged(table):
        data = {"version": table.version, "kind": "declare", "choice": "play"}
        response = _post(client, table, {**data, "discards": [stranger]}, htmx)
        text = _answer(client, response, htmx)

    assert "You may only discard your own cards." in text
    assert not re.search(rf"\b{stranger}\b", text)


@pytest.mark.parametrize("view_name", ["games:table-next", "games:table-takeback"])
def test_the_table_controls_refuse_a_missing_version(
    client: Client, leading: PracticeTable, view_name: str
) -> None:
    with unchanged(leading):
        response = client.post(reverse(view_name, args=[leading.pk]), {"version": "x"})

    assert response.status_code == 400


@pytest.mark.parametrize("view_name", ["games:table-next", "games:table-takeback"])
def test_the_table_controls_refuse_a_stale_version(
    client: Client, leading: PracticeTable, view_name: str
) -> None:
    with unchanged(leading):
        response = client.post(reverse(view_name, args=[leading.pk]), {"version": 1}, follow=True)

    assert "This page was out of date" in response.content.decode()


def test_an_action_by_get_is_not_allowed(client: Client, leading: PracticeTable) -> None:
    with unchanged(leading):
        response = client.get(reverse("games:table-act", args=[leading.pk]), {"version": 2})

    assert response.status_code == 405


def test_a_post_without_the_csrf_token_is_forbidden(leading: PracticeTable) -> None:
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = Client().cookies
    with unchanged(leading):
        response = checked.post(
            reverse("games:table-act", args=[leading.pk]),
            {"version": 2, "kind": "play", "card": "AH"},
        )

    assert response.status_code == 403
