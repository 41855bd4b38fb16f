"""Share links that foretell nothing (issue 26, item 2).

A practice table deals its first hand from its public seed (or a stacked pack) and every later
hand from a secret seed of its own, made when it is dealt and kept in its stored state: two
tables dealt from one seed, or a copy made from a shared hand, agree on that first deal and
never after it. A finished hand is shared by its replay, from which anyone may play that one
deal at a new table, limited as every new table is.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client, override_settings
from django.urls import reverse

from games.loo.hand import Hand, stack_pack
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig, first_deal_of
from games.models import SHARE_SALT, PracticeHand, PracticeTable

pytestmark = pytest.mark.django_db

LIMITS = settings.RATE_LIMITS


def _dealt(hand: Hand) -> list[Any]:
    """Every card of a deal where it fell (each hand, the miss, the turn-up) and the dealer, as
    the deal began."""
    dealt = Hand.deal(hand.setup)
    return [dealt.dealt, dealt.miss, dealt.turn_up, dealt.setup.dealer]


def _next_deal(client: Client, practice: PracticeTable, player: Any) -> Hand:
    """Play the hand in progress out, deal the next one, and give it."""
    player.play_out(practice.pk)
    practice.refresh_from_db()
    response = client.post(
        reverse("games:table-next", args=[practice.pk]), {"version": practice.version}
    )
    assert response.status_code == 302
    return player.current_hand(practice.pk)


# -- at the engine ------------------------------------------------------------------------------


def _table(later_seed: str | None) -> Table:
    return Table(
        TableConfig("five-card", RuleSet.preset("hoffmann"), 4, "public", later_seed=later_seed)
    )


def _first_two(table: Table) -> tuple[Hand, Hand]:
    first = table.deal()
    while not first.over:
        table.step(first.choices()[0])
    return first, table.deal()


def test_a_later_seed_changes_every_deal_after_the_first_and_none_keeps_one_seed() -> None:
    mine, mine_next = _first_two(_table("one secret"))
    theirs, theirs_next = _first_two(_table("another secret"))
    plain, plain_next = _first_two(_table(None))

    assert _dealt(mine) == _dealt(theirs) == _dealt(plain)
    assert mine_next.dealt != theirs_next.dealt
    # Without one, the later deals are the public seed's, as the CLI, simulations and the golden
    # trace deal them.
    assert plain_next.setup.seed == "public"
    assert mine_next.setup.seed == "one secret"


def test_a_stored_table_without_a_later_seed_still_loads_and_deals_as_before() -> None:
    table = _table("secret")
    data = table.to_dict()
    assert data["config"]["later_seed"] == "secret"
    del data["config"]["later_seed"]
    old = Table.from_dict(data)
    assert old.config.later_seed is None
    assert "later_seed" not in old.to_dict()["config"]


@pytest.mark.parametrize(
    ("game", "rules", "players"),
    [("three-card", "hoffmann", 5), ("five-card", "peel", 4), ("irish", "britannica", 4)],
)
def test_a_finished_hand_dealt_again_gives_every_seat_the_same_cards(
    game: str, rules: str, players: int
) -> None:
    ruleset = RuleSet.preset(rules)
    table = Table(TableConfig(game, ruleset, players, "original", later_seed="later"))
    for _ in range(3):
        hand = table.deal()
        pack, start = first_deal_of(hand.setup)
        copy = Table(
            TableConfig(
                game,
                ruleset,
                players,
                "copy",
                first_pack=pack,
                start=start,
                first_dealer=hand.setup.dealer,
                later_seed="its own",
            )
        )
        assert _dealt(copy.deal()) == _dealt(hand)
        while not hand.over:
            table.step(hand.choices()[0])


# -- at the practice table ----------------------------------------------------------------------


def test_two_tables_from_one_seed_agree_on_the_first_deal_only(client: Client, player: Any) -> None:
    other_client = Client()
    other = type(player)(other_client)
    mine = player.new_table(game="three-card", rules="hoffmann", players=4, seed=77)
    theirs = other.new_table(game="three-card", rules="hoffmann", players=4, seed=77)
    assert _dealt(player.current_hand(mine.pk)) == _dealt(other.current_hand(theirs.pk))
    # Its own secret seed, kept in the stored state alone.
    assert mine.state["config"]["later_seed"] != theirs.state["config"]["later_seed"]

    assert _next_deal(client, mine, player).dealt != _next_deal(other_client, theirs, other).dealt


def test_every_table_deals_its_later_hands_from_a_secret_seed(player: Any) -> None:
    """Plain, seeded and stacked alike (a guided hand is dealt by PracticeTable.deal_new too)."""
    ruleset = RuleSet.preset("hoffmann")
    pack = stack_pack(
        "three-card",
        ruleset,
        4,
        0,
        [["AS", "KS", "QS"], ["2H", "3H", "4H"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]],
        "9S",
        ["5D", "6D", "7D"],
    )
    stacked = PracticeTable.deal_new(
        game="three-card",
        rules="hoffmann",
        players=4,
        seed=5,
        opponents="beginner",
        laws=False,
        session_key="s",
        first_pack=pack,
        engine_seed="guided:5",
    )
    plain = player.new_table(players=4)
    for table in (stacked, plain):
        later = table.state["config"]["later_seed"]
        assert len(later) == 24 and later != table.state["config"]["seed"]


def _share_link(client: Client, practice: PracticeTable) -> str:
    page = client.get(practice.get_absolute_url()).content.decode()
    found = re.search(r'<p class="share">Share this deal: <a href="([^"]+)"', page)
    assert found, "no share link once the hand is over"
    return found.group(1)


def test_a_hand_in_progress_is_never_shared(client: Client, player: Any) -> None:
    practice = player.new_table(players=4, seed=3)
    page = client.get(practice.get_absolute_url()).content.decode()
    assert 'class="share"' not in page and "/play/shared/" not in page
    assert practice.seed_url not in page


@pytest.mark.parametrize("number", [1, 2])
def test_a_shared_hand_deals_that_hand_again_and_new_cards_after_it(
    client: Client, player: Any, number: int
) -> None:
    original = player.new_table(game="three-card", rules="hoffmann", players=4, seed=12)
    if number == 2:
        _next_deal(client, original, player)
    shared_hand = player.play_out(original.pk)
    original.refresh_from_db()
    link = _share_link(client, original)
    assert signing.loads(link.split("/")[-2], salt=SHARE_SALT) == [original.pk, number]
    assert original.seed_url not in link

    # Another browser opens the link: the replay, and a way to play the deal.
    friend_client = Client()
    friend = type(player)(friend_client)
    replay = friend_client.get(link)
    assert replay.status_code == 200
    text = replay.content.decode()
    assert "Play this deal yourself" in text and "the deals after it are new cards" in text
    play = re.search(r'<form method="post" action="([^"]+/play/)"', text)
    assert play
    response = friend_client.post(play.group(1))
    assert response.status_code == 302
    copy = PracticeTable.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert copy.pk != original.pk and copy.session_key == friend_client.session.session_key

    assert _dealt(friend.current_hand(copy.pk)) == _dealt(shared_hand)
    # The next deal at the copy is not the next at the original.
    copy_next = _next_deal(friend_client, copy, friend)
    original_next = _next_deal(client, original, player)
    assert copy_next.dealt != original_next.dealt
    # And nothing at the copy names its secret seed, nor the original's.
    page = friend_client.get(copy.get_absolute_url()).content.decode()
    for table in (copy, original):
        table.refresh_from_db()
        assert table.state["config"]["later_seed"] not in page


@pytest.mark.parametrize("token", ["nothing", "e30:1:abc", "WzEsMV0:1tX:forged"])
def test_a_bad_token_deals_nothing(client: Client, token: str) -> None:
    response = client.post(reverse("games:shared-play", args=[token]))
    assert response.status_code == 404
    assert PracticeTable.objects.count() == 0


def test_dealing_a_shared_hand_is_a_post(client: Client, player: Any) -> None:
    practice = player.new_table(players=4, seed=3)
    player.play_out(practice.pk)
    token = PracticeHand.share_token(practice.pk, 1)
    assert client.get(reverse("games:shared-play", args=[token])).status_code == 405


@override_settings(RATE_LIMITS={**LIMITS, "tables-per-session": (1, 600)})
def test_dealing_a_shared_hand_is_limited_as_every_new_table(client: Client, player: Any) -> None:
    practice = player.new_table(players=4, seed=3)  # the one table this window allows
    player.play_out(practice.pk)
    token = PracticeHand.share_token(practice.pk, 1)

    refused = client.post(reverse("games:shared-play", args=[token]))

    assert refused.status_code == 429
    assert PracticeTable.objects.count() == 1


@override_settings(SESSION_TABLES=1)
def test_a_shared_hand_needs_room_in_a_session(player: Any) -> None:
    practice = player.new_table(players=4, seed=3)
    player.play_out(practice.pk)
    token = PracticeHand.share_token(practice.pk, 1)
    friend = Client()
    other = type(player)(friend)
    in_play = other.new_table(players=4, seed=4)

    refused = friend.post(reverse("games:shared-play", args=[token]))

    assert refused.status_code == 409
    assert "with a hand in progress" in refused.content.decode()
    assert list(PracticeTable.objects.filter(session_key=in_play.session_key)) == [in_play]
