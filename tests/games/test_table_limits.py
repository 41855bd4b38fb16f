"""How many practice tables a browser deals (issue 17): per session or account and per client
address in a window, and the tables a session without an account keeps."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PracticeTable

pytestmark = pytest.mark.django_db

DEAL = {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
LIMITS = settings.RATE_LIMITS


def _deal(client: Client, seed: int = 1) -> Any:
    return client.post(reverse("games:table-create"), {**DEAL, "mode": "learning", "seed": seed})


@override_settings(RATE_LIMITS={**LIMITS, "tables-per-session": (3, 600)})
def test_a_session_deals_so_many_tables_in_a_while() -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    for seed in range(3):
        assert _deal(client, seed).status_code == 302
    refused = _deal(client, 9)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many practice tables" in refused.content.decode()
    assert PracticeTable.objects.count() == 3
    # Another browser at the same address may still deal.
    assert _deal(Client(REMOTE_ADDR="10.0.0.1")).status_code == 302


@override_settings(RATE_LIMITS={**LIMITS, "tables-per-address": (4, 600)})
def test_an_address_deals_so_many_tables_however_many_sessions_it_makes() -> None:
    for seed in range(4):
        assert _deal(Client(REMOTE_ADDR="10.0.0.2"), seed).status_code == 302
    assert _deal(Client(REMOTE_ADDR="10.0.0.2")).status_code == 429
    assert PracticeTable.objects.count() == 4
    assert _deal(Client(REMOTE_ADDR="10.0.0.3")).status_code == 302


@override_settings(RATE_LIMITS={**LIMITS, "tables-per-session": (2, 600)})
def test_an_account_counts_its_tables_whatever_its_browsers() -> None:
    user = User.objects.create_user("ada", password="a-long-enough-password-9")
    first, second = Client(), Client()
    first.force_login(user)
    second.force_login(user)
    assert _deal(first).status_code == 302
    assert _deal(second).status_code == 302
    assert _deal(first).status_code == 429


@override_settings(SESSION_TABLES=3)
def test_a_session_keeps_its_newest_tables_never_a_hand_in_progress(player: Any) -> None:
    client = player.client
    tables = [player.new_table(players=4, seed=seed) for seed in range(3)]
    # All three hands in progress: no room, and nothing is removed.
    refused = _deal(client, 7)
    assert refused.status_code == 409
    assert "with a hand in progress" in refused.content.decode()
    assert PracticeTable.objects.count() == 3
    # The second hand is played to its end: it goes, the oldest in progress stays.
    player.play_out(tables[1].pk)
    assert _deal(client, 8).status_code == 302
    kept = set(PracticeTable.objects.values_list("pk", flat=True))
    assert tables[0].pk in kept and tables[2].pk in kept and tables[1].pk not in kept
    assert len(kept) == 3


@override_settings(SESSION_TABLES=2)
def test_an_account_keeps_every_table(client: Client) -> None:
    user = User.objects.create_user("ada", password="a-long-enough-password-9")
    client.force_login(user)
    for seed in range(4):
        assert _deal(client, seed).status_code == 302
    assert PracticeTable.objects.filter(owner=user).count() == 4


def test_the_chooser_says_how_many_tables_a_browser_keeps(client: Client) -> None:
    page = client.get(reverse("games:choose")).content.decode()
    assert "Without an account this browser keeps 20 tables" in page
