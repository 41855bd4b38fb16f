"""A practice table of expert computer players (games.loo.bots.ExpertBot): offered by the
chooser, stored on the table, and playing a hand to its end through the views."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.models import PracticeTable
from games.naming import say, stored_message


def test_the_chooser_offers_expert_opponents(client: Client, db: None) -> None:
    text = client.get(reverse("games:choose")).content.decode()

    assert 'name="opponents" value="expert"' in text
    assert "Experts: they weigh every decision over sampled deals" in text


def test_a_table_of_experts_plays_a_hand_to_its_end_through_the_views(
    client: Client, player: Any
) -> None:
    for seed in range(6):
        table = player.new_table(game="three-card", players=5, opponents="expert", seed=seed)
        assert table.opponents == "expert"
        hand = player.play_out(table.pk, seed)
        table.refresh_from_db()
        reasons = [stored_message(n["reason"]) for n in table.notes if "reason" in n]
        # The experts weighed their decisions (a single choice has the sensible reasons).
        assert any(r.key.startswith("bot.expert-") for r in reasons), reasons
        page = client.get(table.get_absolute_url()).content.decode()
        assert "you and expert players" in page
        # Once the hand is over, the cards an expert played, if he played out all he was
        # dealt face up, are told with their reasons; one who passed keeps his to himself.
        took = {a.seat for a in hand.log if a.kind == "declare" and a.choice == "take-miss"}
        shown = {
            s for s in hand.in_play if s != 0 and s not in took and len(hand.start_of_play[s]) == 3
        }
        told = [r for r in reasons if r.key == "bot.expert-card" and r.args["p"] in shown]
        passed = [r for r in reasons if r.key == "bot.expert-pass"]
        for reason in told:
            assert escape(say(reason, table.players)) in page
        for reason in passed:
            assert escape(say(reason, table.players)) not in page
        if told and passed:
            return
    raise AssertionError("no hand in six where one expert played out his cards and another passed")


def test_an_unknown_level_of_opponents_is_refused_and_deals_nothing(
    client: Client, db: None
) -> None:
    data = {"game": "three-card", "rules": "hoffmann", "players": 4, "mode": "learning"}

    response = client.post(reverse("games:table-create"), data | {"opponents": "grandmaster"})

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not PracticeTable.objects.exists()
