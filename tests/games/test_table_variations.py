"""Club law and unlimited loo as variations of a practice table (issue 38, the player's side):
chosen where the rule set and the game offer them (RULES.md part 2), refused in plain words
elsewhere, played and cited as applied, named in the heading, and kept by a finished hand's
shared replay and by a seed's link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.rulesets import PRESETS, RuleSet
from games.loo.table import Table, TableConfig
from games.models import PracticeHand, PracticeTable, deal_seed
from games.practice.forms import NewTableForm
from games.variations import agreed, title_words

pytestmark = pytest.mark.django_db

#: Where each source offers each variation, as RULES.md part 2 reads them (club law: hoffmann
#: ¶12 both games, britannica s. 40 and peel p. 26 three-card, parlett 5c:Bidding five-card;
#: unlimited loo: hoffmann ¶8, britannica s. 36, parlett's "both games", peel's three-card
#: variations, p. 26). White Knuckle offers neither.
OFFERED = {
    "club-law": {
        ("hoffmann", "three-card"),
        ("hoffmann", "five-card"),
        ("britannica", "three-card"),
        ("parlett", "five-card"),
        ("peel", "three-card"),
    },
    "unlimited-loo": {
        ("hoffmann", "three-card"),
        ("hoffmann", "five-card"),
        ("britannica", "three-card"),
        ("britannica", "five-card"),
        ("britannica", "irish"),
        ("parlett", "three-card"),
        ("parlett", "five-card"),
        ("peel", "three-card"),
    },
}
NAMES = {"club-law": "club law", "unlimited-loo": "unlimited loo"}


def _form(game: str, rules: str, variations: list[str]) -> NewTableForm:
    return NewTableForm(
        {
            "game": game,
            "rules": rules,
            "players": 5,
            "opponents": "beginner",
            "mode": "learning",
            "variations": variations,
        }
    )


@pytest.mark.parametrize("variation", sorted(OFFERED))
@pytest.mark.parametrize("rules", sorted(PRESETS))
@pytest.mark.parametrize("game", ["three-card", "five-card", "irish"])
def test_a_variation_is_offered_where_the_source_offers_it_for_the_game(
    variation: str, rules: str, game: str
) -> None:
    form = _form(game, rules, [variation])
    if not RuleSet.preset(rules).supports(game):
        # The rule set describes no such game: that refusal alone, not one of the variation.
        assert not form.is_valid()
        assert "rules" in form.errors and "variations" not in form.errors
        return
    if (rules, game) in OFFERED[variation]:
        assert form.is_valid(), form.errors
        assert form.options()
        return
    assert not form.is_valid()
    (said,) = form.errors["variations"]
    assert PRESETS[rules].title in said
    assert NAMES[variation] in said
    assert said.endswith(f"or leave {NAMES[variation]} out.")


def test_an_unknown_variation_is_refused_in_words() -> None:
    form = _form("three-card", "hoffmann", ["mixed-loo"])
    assert not form.is_valid()
    assert "choose club law or unlimited loo" in form.errors["variations"][0]


def test_a_refused_variation_deals_nothing_and_says_why_on_the_chooser(client: Client) -> None:
    before = PracticeTable.objects.count()
    response = client.post(
        reverse("games:table-create"),
        {
            "game": "three-card",
            "rules": "parlett",
            "players": 5,
            "opponents": "beginner",
            "mode": "learning",
            "variations": ["club-law"],
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Parlett (modern) gives club law for five-card Loo only" in page
    # The choice is kept, checked, for the player to change.
    assert re.search(r'name="variations" value="club-law"[^>]*checked', page)
    assert PracticeTable.objects.count() == before


def _club_seed(game: str, rules: str, players: int) -> int:
    """A public seed whose first deal turns up a club, found by dealing as a table does."""
    for seed in range(400):
        config = TableConfig(game, RuleSet.preset(rules), players, deal_seed(seed))
        hand = Table(config).deal()
        if hand.trump == "C" and hand.setup.rules.single_deal != "one-card":
            return seed
    raise AssertionError("no seed below 400 turns up a club")


@pytest.mark.parametrize(("game", "rules"), [("three-card", "hoffmann"), ("five-card", "parlett")])
def test_a_hand_under_club_law_forces_everyone_to_play_and_cites_the_source(
    client: Client, player: Any, game: str, rules: str
) -> None:
    seed = _club_seed(game, rules, 5)
    table = player.new_table(game=game, rules=rules, players=5, seed=seed, variations=["club-law"])
    assert table.options == {"club-law": "on"}
    hand = player.current_hand(table.pk)
    assert hand.club_law and hand.miss is None
    page = client.get(table.get_absolute_url()).content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert heading is not None
    assert "with club law" in heading.group(1)
    # Cited as applied: the rule's page and the passage of this rule set's source.
    agreed = page.split('id="table-variations"', 1)[1].split("</details>", 1)[0]
    assert 'href="/rules/club-law/"' in agreed
    assert f'href="/sources/{rules}/#' in agreed
    finished = player.play_out(table.pk)
    # Nobody passed: club law forced every seat to play.
    assert "pass" not in finished.declared
    assert any("club-law" in event.rules for event in finished.events)


def test_a_loo_under_unlimited_loo_costs_the_pool_at_the_start_of_the_deal(
    client: Client, player: Any
) -> None:
    table = player.new_table(
        game="three-card", rules="hoffmann", players=5, seed=3, variations=["unlimited-loo"]
    )
    assert table.options == {"loo-payment": "pool"}
    looed_hand = None
    fixed = RuleSet.preset("hoffmann").loo_amount * 3  # a limited loo: the stake of three
    for _ in range(25):
        hand = player.play_out(table.pk)
        # A loo where the pool held more than a limited loo (loos carried over): there the
        # unlimited loo differs from the limited one.
        if set(hand.looed) - {hand.setup.dealer} and hand.pool_at_start > fixed:
            looed_hand = hand
            break
        table.refresh_from_db()
        response = client.post(
            reverse("games:table-next", args=[table.pk]), {"version": table.version}
        )
        assert response.status_code == 302
    assert looed_hand is not None, "no loo after a double in 25 deals"
    assert looed_hand.loo_rule() == "unlimited-loo"
    # The loo is the pool as it stood at the start of the deal (A31), not the fixed stake.
    cost = looed_hand.pool_at_start
    # Those looed who did not deal (the dealer also stakes the deal) paid exactly the loo.
    looed = set(looed_hand.looed) - {looed_hand.setup.dealer}
    assert looed
    for seat in looed:
        assert looed_hand.tricks_won().get(seat, 0) == 0
        assert looed_hand.setup.balances[seat] - looed_hand.balances[seat] == cost
    settle = [e for e in looed_hand.events if "unlimited-loo" in e.rules]
    assert settle
    page = client.get(table.get_absolute_url()).content.decode()
    stakes = page.split('id="table-stakes"', 1)[1].split("</section>", 1)[0]
    assert 'href="/rules/unlimited-loo/"' in stakes
    agreed = page.split('id="table-variations"', 1)[1].split("</details>", 1)[0]
    assert 'href="/sources/hoffmann/#' in agreed
    # The finished hand's replay, and its shared replay, say the variation it was played under.
    record = PracticeHand.objects.get(table=table, number=looed_hand.setup.hand_number)
    shared = client.get(PracticeHand.share_url(table.pk, record.number)).content.decode()
    assert re.search(r"<h1>[^<]*with unlimited loo</h1>", shared)
    assert 'id="table-variations"' in shared
    # ... and "Play this deal yourself" deals it under the same variation.
    token = PracticeHand.share_token(table.pk, record.number)
    response = client.post(reverse("games:shared-play", args=[token]))
    assert response.status_code == 302
    copy = PracticeTable.objects.exclude(pk=table.pk).get()
    assert copy.options == {"loo-payment": "pool"}
    assert player.current_hand(copy.pk).setup.rules.loo_payment == "pool"


def test_a_seed_link_keeps_the_variations(client: Client, player: Any) -> None:
    table = player.new_table(
        game="three-card", rules="peel", players=5, seed=8, variations=["club-law", "unlimited-loo"]
    )
    link = table.seed_url
    assert "variations=club-law" in link and "variations=unlimited-loo" in link
    page = client.get(link).content.decode()
    assert "with club law and unlimited loo" in page
    # The table already dealt from it is listed (the same variations), and the form keeps them.
    assert f'href="{table.get_absolute_url()}"' in page
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    assert fields["seed"] == "8"
    assert re.findall(r'name="variations" value="([\w-]+)"', page) == ["club-law", "unlimited-loo"]
    # The same seed without the variations is another table.
    plain = client.get(link.split("?")[0]).content.decode()
    assert f'href="{table.get_absolute_url()}"' not in plain
    copy = player.new_table(
        game="three-card",
        rules="peel",
        players=5,
        seed=8,
        variations=["club-law", "unlimited-loo"],
    )
    assert copy.options == table.options
    assert player.current_hand(copy.pk).setup.rules == player.current_hand(table.pk).setup.rules


def test_a_table_without_variations_says_none(client: Client, player: Any) -> None:
    table = player.new_table()
    assert table.options == {}
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="table-variations"' not in page


def test_a_lessons_detail_of_a_variation_is_said_with_it_and_other_options_by_name() -> None:
    # content/lessons.txt agrees "club-law=on, club-law-games=three-card" under every rule set.
    lesson = {"club-law": "on", "club-law-games": "three-card"}
    assert title_words("hoffmann", lesson) == "with club law"
    (said,) = agreed("hoffmann", lesson)
    assert said.rule == "club-law" and said.help.endswith("Club law applies to: three-card Loo.")
    assert title_words("hoffmann", {"must": "off", "loo-payment": "pool"}) == (
        "with unlimited loo and must (nobody may pass)"
    )
    assert agreed("hoffmann", {}) == [] and title_words("peel", None) == ""
