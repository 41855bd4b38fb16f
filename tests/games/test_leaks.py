"""No response ever shows a card hidden from the player.

Seeded hands, every game under every rule set that describes it and several table sizes (two
deals at each table under ``LOO_TEST_PROFILE=ci``; seven, hundreds in all, under
``thorough``: tests/profile.py), are played through the HTTP views (htmx and plain POSTs,
learning and laws mode, with some illegal attempts; in laws mode against careless opponents,
whose irregularities stand, the human now and then declaring before his turn or exposing a
card). After every response the full engine state is loaded from the database and the cards
the human may not know are worked out from it; the response's body and headers must not
contain any of them in any form: code (``QH``), display (``Q♥``) or label (``queen of
hearts``). The finished hands' replays are checked step by step the same way.
"""

from __future__ import annotations

import random
import re
import zlib
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from games.loo.cards import Card
from games.loo.hand import Hand
from games.loo.rulesets import PRESETS
from games.models import MAX_PLAYERS, PracticeHand, PracticeTable
from games.naming import HUMAN
from tests.profile import size, thorough

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
DEALS_PER_TABLE = size(ci=2, thorough=7)
#: How many irregularities must have been committed in laws mode (by the human, by the careless
#: opponents) for the pages after them to have been checked.
IRREGULARITIES = size(ci=(1, 3), thorough=(5, 10))


def _configs() -> list[tuple[str, str, int]]:
    configs = []
    for preset in PRESETS.values():
        for game in preset.rules.games:
            low, high = preset.rules.players(game)
            high = min(high, MAX_PLAYERS)
            for players in sorted({low, (low + high) // 2, high}):
                configs.append((game, preset.id, players))
    return configs


CONFIGS = _configs()


_CODE = re.compile(r"\b[AKQJT98765432][SHDC]\b")
_DISPLAY = re.compile(r"(?:10|[AKQJ98765432])[♠♥♦♣]")
_LABEL = re.compile(
    r"\b(?:ace|king|queen|knave|ten|nine|eight|seven|six|five|four|three|two) of "
    r"(?:spades|hearts|diamonds|clubs)\b"
)


def _card_mentions(text: str) -> dict[str, set[str]]:
    """Every card named in ``text``, in each of the three forms, with where it was found."""
    return {
        "code": set(_CODE.findall(text)),
        "display": set(_DISPLAY.findall(text)),
        "label": set(_LABEL.findall(text)),
    }


def _check(response: Any, hidden: set[Card], where: str) -> None:
    forms = {
        "code": {c.code for c in hidden},
        "display": {c.display for c in hidden},
        "label": {c.label for c in hidden},
    }
    headers = "\n".join(f"{k}: {v}" for k, v in response.items())
    # A shared replay's signed token (table and hand numbers, and a signature) is letters and
    # digits at random: "JC" in it names no card.
    body = re.sub(r"/play/shared/[\w:.-]+/", "/play/shared/TOKEN/", response.content.decode())
    for text, part in ((headers, "headers"), (body, "body")):
        for form, named in _card_mentions(text).items():
            leaked = named & forms[form]
            if leaked:
                first = min(text.find(x) for x in leaked)
                raise AssertionError(
                    f"{where}: the {part} shows {sorted(leaked)}, hidden from the player:\n"
                    f"...{text[max(0, first - 300) : first + 300]}..."
                )


def _stored(pk: int) -> tuple[PracticeTable, Hand]:
    table = PracticeTable.objects.get(pk=pk)
    hand = table.to_engine().hand
    assert hand is not None
    return table, hand


def _decision(player: Any, table: PracticeTable, hand: Hand, rng: random.Random) -> dict[str, Any]:
    """Usually a legal decision; now and then an attempt at any card the human holds; in laws
    mode, now and then declaring before his turn while he waits, or exposing a card."""
    irregular = hand.irregularities(HUMAN)
    if player.waiting(hand):
        if "declare-early" in irregular and rng.random() < 0.3:
            return {"version": table.version, "kind": "irregular", "irregularity": "declare-early"}
        return {"version": table.version, "kind": "wait"}
    if "expose" in irregular and rng.random() < 0.06:
        exposed = rng.choice(hand.hands[HUMAN]).code
        return {"version": table.version, "kind": "irregular", "irregularity": "expose"} | {
            "card": exposed
        }
    data: dict[str, Any] = player.post_data(
        player.human_decision(hand, rng.random()), table.version
    )
    if data["kind"] == "play" and rng.random() < 0.2:
        data["card"] = rng.choice(hand.hands[HUMAN]).code
    return data


#: The irregularities committed in laws mode, by the human and by the careless opponents.
IRREGULAR: dict[str, int] = {"you": 0, "them": 0}


def _play_table(client: Client, player: Any, game: str, rules: str, players: int) -> int:
    seed = zlib.crc32(f"{game}:{rules}:{players}".encode()) % 10_000
    rng = random.Random(seed)
    laws = rules in ("hoffmann", "peel") and players % 2 == 1
    url = reverse("games:table-create")
    data = {"game": game, "rules": rules, "players": players, "seed": seed}
    # In laws mode the opponents are careless: their irregularities stand, and are shown.
    data |= {
        "opponents": "careless" if laws else "beginner",
        "mode": "laws" if laws else "learning",
    }
    response = client.post(url, data)
    assert response.status_code == 302
    pk = PracticeTable.objects.latest("pk").pk
    where = f"{game}/{rules}/{players} table {pk}"
    table, hand = _stored(pk)
    _check(client.get(response["Location"]), player.hidden_cards(hand), f"{where} first page")
    finished = 0
    for deal in range(DEALS_PER_TABLE):
        for step in range(80):
            if hand.over:
                break
            htmx = rng.random() < 0.5
            response = player.act(pk, _decision(player, table, hand, rng), htmx=htmx)
            table, hand = _stored(pk)
            hidden = player.hidden_cards(hand)
            _check(response, hidden, f"{where} deal {deal + 1} action {step}")
            if not htmx:
                _check(client.get(response["Location"]), hidden, f"{where} redirect {step}")
        else:
            raise AssertionError(f"{where}: deal {deal + 1} did not end")
        finished += 1
        for event in hand.events:
            if event.kind == "irregular":
                IRREGULAR["you" if event.seat == HUMAN else "them"] += 1
        _check_replay(client, player, table, deal + 1, rng, where)
        response = client.post(
            reverse("games:table-next", args=[pk]), {"version": table.version}, headers=HTMX
        )
        table, hand = _stored(pk)
        _check(response, player.hidden_cards(hand), f"{where} deal {deal + 2} dealt")
    return finished


def _check_replay(
    client: Client, player: Any, table: PracticeTable, number: int, rng: random.Random, where: str
) -> None:
    record = PracticeHand.objects.get(table=table, number=number)
    url = reverse("games:hand-replay", args=[table.pk, number])
    for step in {0, record.steps, rng.randint(0, record.steps)}:
        response = client.get(url, {"step": step}, headers=HTMX if step % 2 else {})
        hidden = set(player.hidden_cards(record.replay(step)))
        _check(response, hidden, f"{where} replay of deal {number}, step {step}")


def test_the_configurations_cover_every_game_and_rule_set() -> None:
    assert {(game, rules) for game, rules, _ in CONFIGS} == {
        (game, p.id) for p in PRESETS.values() for game in p.rules.games
    }
    assert DEALS_PER_TABLE >= 2  # a next deal is dealt at every table
    if thorough():
        assert len(CONFIGS) * DEALS_PER_TABLE >= 200


# Dozens of tables from one browser: not what the limits on dealing are about (see
# test_table_limits), so they are raised here.
@override_settings(
    SESSION_TABLES=1000,
    RATE_LIMITS={**settings.RATE_LIMITS, "tables-per-session": (1000, 600)},
)
def test_no_response_shows_a_hidden_card(client: Client, player: Any) -> None:
    IRREGULAR.update(you=0, them=0)
    hands = sum(_play_table(client, player, *config) for config in CONFIGS)
    # Both sides committed irregularities, and the pages showed none of the hidden cards.
    you, them = IRREGULARITIES
    assert IRREGULAR["you"] >= you and IRREGULAR["them"] >= them, IRREGULAR

    assert hands == len(CONFIGS) * DEALS_PER_TABLE
