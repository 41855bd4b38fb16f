"""Peel's single deal at the practice table (A39): the first deal shows the turned-up card,
each player's card face up, who takes the pool and who is looed, each line cited; the next
deal is an ordinary one with the miss."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_peel_table_opens_with_the_single_and_then_deals_the_miss(
    client: Client, player: Any
) -> None:
    practice = player.new_table(rules="peel", players=4)
    html = client.get(practice.get_absolute_url()).content.decode()
    text = _text(html)
    hand = player.current_hand(practice.pk)
    assert hand.outcome == "single-deal"
    assert "Deal 1, the single, is over" in text
    assert "one card face up to each player" in text
    for seat_cards in hand.hands:
        assert seat_cards[0].display in text
    assert ("takes the pool" in text) == bool(hand.in_play)
    assert "looed a single loo" in text
    assert 'href="/rules/single/"' in html
    # Issue 38: named as Peel's single (p. 18), not "the hand after a hand with no loo".
    assert "The single (one card each, for the dealer's stake)" in text
    assert "hand after a hand with no loo" not in text.lower()
    # The next deal: an ordinary one, with the miss, the loos of the single in its pool.
    practice.refresh_from_db()
    response = client.post(
        reverse("games:table-next", args=[practice.pk]), {"version": practice.version}
    )
    assert response.status_code == 302
    nxt = player.current_hand(practice.pk)
    assert nxt.outcome != "single-deal" and nxt.setup.pool == hand.pool
    assert nxt.miss is not None or nxt.miss_holder is not None or nxt.club_law


def test_the_singles_face_up_cards_lie_at_the_seats(client: Client, player: Any) -> None:
    # Issue 38: the cards were only listed under the settlement, not on the felt; each lies
    # in front of its player's seat, as a trick's cards do, the winning one marked.
    practice = player.new_table(rules="peel", players=5)
    html = client.get(practice.get_absolute_url()).content.decode()
    hand = player.current_hand(practice.pk)
    assert hand.outcome == "single-deal"
    seats = html.split('id="table-seats"')[1].split("</section>")[0]
    slot_of = {
        int(seat): slot for slot, seat in re.findall(r'class="at-([\w-]+)" data-seat="(\d)"', seats)
    }
    assert len(slot_of) == 4  # the opponents round the felt; the learner's at its foot
    slot_of[0] = "you"
    felt = html.split('id="table-trick"')[1].split("</section>")[0]
    lying = dict(re.findall(r'trick-cards__play at-([\w-]+)[^"]*" data-card="(\w\w)"', felt))
    assert lying == {slot_of[seat]: cards[0].code for seat, cards in enumerate(hand.hands)}
    winning = re.findall(r'is-winning" data-card="(\w\w)"', felt)
    assert winning == [hand.hands[s][0].code for s in hand.in_play]
    assert ("takes the pool" in felt) == bool(hand.in_play)


def test_five_card_peel_has_no_single_deal(client: Client, player: Any) -> None:
    practice = player.new_table(rules="peel", game="five-card", players=4)
    assert player.current_hand(practice.pk).outcome != "single-deal"


def test_a_peel_game_is_finished_by_sharing_the_pool(client: Client, player: Any) -> None:
    # p. 17 (A54): "a finish may be made at any moment, either by an equal division of the
    # amount in the pool among the players".
    practice = player.new_table(rules="peel", players=4)
    text = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "End the game, as Peel describes (p. 17)" in text
    table = practice.to_engine()
    pool, mine = table.pool, table.balances[0]

    practice.refresh_from_db()
    version = practice.version
    url = reverse("games:table-finish", args=[practice.pk])
    bad = client.post(url, {"version": version, "way": "walk-out"})
    assert bad.status_code == 302
    practice.refresh_from_db()
    assert practice.version == version  # nothing stored

    response = client.post(url, {"version": version, "way": "divide"})
    assert response.status_code == 302
    page = _text(client.get(response["Location"]).content.decode())
    assert "equal division of the pool" in page
    assert "The game is over" in page and "Deal the next hand" not in page
    assert "End the game" not in page and "One last deal" not in page
    table = player.current_hand(practice.pk)  # the hand is unchanged
    practice.refresh_from_db()
    after = practice.to_engine()
    assert after.pool == 0 and after.session_over
    assert after.balances[0] - mine in (pool // 4, pool // 4 + 1)
    # Nothing else may be dealt.
    refused = client.post(
        reverse("games:table-next", args=[practice.pk]), {"version": practice.version}
    )
    assert refused.status_code == 302
    practice.refresh_from_db()
    assert practice.to_engine().hand_number == 1


def test_other_rule_sets_offer_no_such_finish(client: Client, player: Any) -> None:
    practice = player.new_table(rules="hoffmann", players=4)
    hand = player.play_out(practice.pk)
    assert hand.over
    text = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "End the game" not in text
    practice.refresh_from_db()
    response = client.post(
        reverse("games:table-finish", args=[practice.pk]),
        {"version": practice.version, "way": "divide"},
    )
    assert response.status_code == 302
    page = _text(client.get(response["Location"]).content.decode())
    assert "cannot be finished that way" in page


def test_you_withdraw_at_your_turn_to_deal(client: Client, player: Any) -> None:
    # p. 17 (A54): "A player may withdraw from the game at any time when it is his turn to
    # deal. In that case he pays for his deal".
    practice = player.new_table(rules="peel", players=3)
    for _ in range(6):
        practice.refresh_from_db()
        table = practice.to_engine()
        if table.may_withdraw(0):
            break
        text = _text(client.get(practice.get_absolute_url()).content.decode())
        assert "Withdraw at your deal" not in text
        client.post(reverse("games:table-next", args=[practice.pk]), {"version": practice.version})
        player.play_out(practice.pk)
    else:
        raise AssertionError("the deal never came round to you")
    text = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "Withdraw at your deal: pay for it and leave" in text
    mine = table.balances[0]
    response = client.post(
        reverse("games:table-finish", args=[practice.pk]),
        {"version": practice.version, "way": "withdraw"},
    )
    page = _text(client.get(response["Location"]).content.decode())
    assert "You withdraw from the game at your turn to deal, paying 3" in page
    assert "you withdrew at your turn to deal" in page and "Deal the next hand" not in page
    practice.refresh_from_db()
    assert practice.to_engine().balances[0] == mine - 3


def test_one_last_deal_in_which_all_stand(client: Client, player: Any) -> None:
    practice = player.new_table(rules="peel", players=4)
    practice.refresh_from_db()
    client.post(
        reverse("games:table-finish", args=[practice.pk]),
        {"version": practice.version, "way": "last-round"},
    )
    practice.refresh_from_db()
    client.post(reverse("games:table-next", args=[practice.pk]), {"version": practice.version})
    hand = player.current_hand(practice.pk)
    assert hand.setup.last_round and hand.miss is None
    text = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "The last round: everyone stands" in text
    hand = player.play_out(practice.pk)
    assert hand.over and hand.looed == []
    page = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "The game is over" in page and "the last deal was played with everyone standing" in page
    assert "Deal the next hand" not in page


def test_a_finished_game_offers_no_take_back_and_refuses_one(client: Client, player: Any) -> None:
    practice = player.new_table(rules="peel", players=4)
    practice.refresh_from_db()
    client.post(reverse("games:table-next", args=[practice.pk]), {"version": practice.version})
    hand = player.play_out(practice.pk)
    assert any(a.seat == 0 for a in hand.log)  # a decision a take-back could undo
    practice.refresh_from_db()
    client.post(
        reverse("games:table-finish", args=[practice.pk]),
        {"version": practice.version, "way": "divide"},
    )
    practice.refresh_from_db()
    state = practice.state
    page = _text(client.get(practice.get_absolute_url()).content.decode())
    assert "Take back your last decision" not in page
    response = client.post(
        reverse("games:table-takeback", args=[practice.pk]), {"version": practice.version}
    )
    assert response.status_code == 302
    practice.refresh_from_db()
    assert practice.state == state


def test_after_sharing_the_pool_the_table_shows_the_counters_as_they_now_stand(
    client: Client, player: Any
) -> None:
    practice = player.new_table(rules="peel", players=4)
    practice.refresh_from_db()
    client.post(
        reverse("games:table-finish", args=[practice.pk]),
        {"version": practice.version, "way": "divide"},
    )
    practice.refresh_from_db()
    table = practice.to_engine()
    page = _text(client.get(practice.get_absolute_url()).content.decode())
    assert f"You now hold {table.balances[0]} counters" in page
    assert "0 counters carry to the next pool" in page
