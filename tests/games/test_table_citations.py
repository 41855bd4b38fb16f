"""What the practice table cites: the price of a loo under each rule set, and the passage of a
source that describes the game being played (issue 12, items 6 and 7)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games.links import forget_links
from games.loo.rulesets import RuleSet

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("rules", "loo_rule"),
    [
        ("hoffmann", "limited-loo"),
        # britannica's loo is the capped, unlimited one: s. 39, A45.
        ("britannica", "mixed-loo"),
        ("peel", "limited-loo"),
    ],
)
def test_the_stakes_name_the_loo_the_settlement_charges(
    client: Client, player: Any, rules: str, loo_rule: str
) -> None:
    table = player.new_table(rules=rules)
    hand = player.current_hand(table.pk)
    assert hand.loo_rule() == loo_rule
    page = client.get(table.get_absolute_url()).content.decode()
    stakes = page.split('id="table-stakes"', 1)[1].split("</section>", 1)[0]
    assert f'href="/rules/{loo_rule}/"' in stakes
    others = {"limited-loo", "unlimited-loo", "mixed-loo"} - {loo_rule}
    assert not any(f'href="/rules/{other}/"' in stakes for other in others)


@pytest.mark.parametrize(("game", "section"), [("five-card", "5c-play"), ("three-card", "3c-play")])
def test_parlett_is_cited_in_the_section_of_the_game_played(
    client: Client, player: Any, game: str, section: str
) -> None:
    # parlett describes each game in its own sections: following suit is "3c:Play" for
    # three-card Loo and "5c:Play" for five-card (RULES.md follow-suit).
    assert "five-card" in RuleSet.preset("parlett").games
    call_command("loadcontent", verbosity=0)
    forget_links()
    table = player.new_table(game=game, rules="parlett", players=5, seed=11)
    for _ in range(30):
        page = client.get(table.get_absolute_url()).content.decode()
        if 'href="/rules/follow-suit/"' in page:
            break
        if player.current_hand(table.pk).over:
            response = client.post(f"/play/{table.pk}/next/", {"version": table_version(table)})
            assert response.status_code == 302
        else:
            player.act(table.pk, player.decide(table.pk))
    assert f'href="/sources/parlett/#{section}"' in page
    other = "3c-play" if section == "5c-play" else "5c-play"
    assert f'href="/sources/parlett/#{other}"' not in page


def table_version(table: Any) -> int:
    table.refresh_from_db()
    return int(table.version)
