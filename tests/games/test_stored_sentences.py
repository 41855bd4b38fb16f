"""Tables and hands stored before the engine's sentences were data (format version 1: English
in the trace and in the notes) still load and show, and the migration turns them into
messages: nothing a player saved is lost."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.loo.cards import PACK
from games.loo.messages import message_from_dict, render, rule_name
from games.loo.table import Table
from games.models import PracticeHand, PracticeTable
from games.naming import say, stored_message

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0003_sentences_as_messages")


def version_1(state: dict[str, Any]) -> dict[str, Any]:
    """A table's stored state as the engine wrote it before: its sentences in English, in the
    third person with numbered seats."""

    def text(data: dict[str, Any]) -> str:
        return render(message_from_dict(data), None)

    old = dict(state, version=1)
    hand = dict(state["hand"], version=1)
    inner = dict(hand["state"])
    inner["events"] = [
        {k: v for k, v in dict(e, text=text(e["message"])).items() if k != "message"}
        for e in inner["events"]
    ]
    inner["payments"] = [dict(p, reason=text(p["reason"])) for p in inner["payments"]]
    inner["offences"] = [
        {k: v for k, v in dict(o, text=text(o["message"])).items() if k != "message"}
        for o in inner["offences"]
    ]
    if inner["flush"]:
        inner["flush"] = dict(
            inner["flush"],
            explanations=[
                {"rule": a["rule"], "text": a["text"], "excluded": a["excluded"]}
                for a in inner["flush"]["explanations"]
            ],
        )
    hand["state"] = inner
    old["hand"] = hand
    return old


#: Reasons the site never wrote in English (a note of them is a message already, which the
#: migration keeps): a last card is the only card in hand (issue 26).
NEWER_REASONS = ("bot.last-card",)


def old_notes(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Notes as the site wrote them before: the bots' reasons as English with card codes,
    the rules that bound the human as their English."""
    out = []
    for note in notes:
        note = dict(note)
        if "reason" in note and note["reason"].get("key") not in NEWER_REASONS:
            message = message_from_dict(note["reason"])
            reason = render(message, None)
            rule = message.args.get("rule")
            if rule:
                # The old wording named the rule by its id: "the only choice (follow-suit)".
                name = rule_name(rule)
                for now in (f", under the rule “{name}”", f" (“{name}”)"):
                    reason = reason.replace(now, f" ({rule})")
            reason = reason[:1].lower() + reason[1:]
            for c in PACK:
                reason = reason.replace(c.display, c.code)
            note["reason"] = reason.replace("than his own cards", "than its own cards")
        if "explanations" in note:
            note["explanations"] = [
                {"rule": e["rule"], "text": render(message_from_dict(e["message"]), 0)}
                for e in note["explanations"]
            ]
        out.append(note)
    return out


def page(client: Client, table: PracticeTable) -> str:
    """The table page, less its CSRF tokens (new at every request) and the signatures of its
    share links (they carry the second they were signed in)."""
    html = client.get(table.get_absolute_url()).content.decode()
    html = re.sub(r"/play/shared/[^/\"]+/", "/play/shared/SIGNED/", html)
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)


def played_table(player: Any) -> PracticeTable:
    """A sensible-opponents table with reasons of every shape in its notes and, for the human,
    the rules that bound him."""
    for seed in range(1, 40):
        table = player.new_table(players=5, seed=seed, opponents="sensible")
        for _ in range(12):
            hand = player.current_hand(table.pk)
            if hand.over:
                break
            player.act(table.pk, player.decide(table.pk))
        table.refresh_from_db()
        if any("explanations" in n for n in table.notes) and any(
            "reason" in n for n in table.notes
        ):
            return table
    raise AssertionError("no table bound the human")


def test_a_table_stored_before_loads_shows_and_is_migrated_to_messages(
    client: Client, player: Any
) -> None:
    table = played_table(player)
    new_state, new_notes = table.state, table.notes
    page_before = page(client, table)
    PracticeTable.objects.filter(pk=table.pk).update(
        state=version_1(new_state), notes=old_notes(new_notes)
    )

    # Unmigrated, the old form still loads and shows (its notes as they were written).
    old = PracticeTable.objects.get(pk=table.pk)
    assert old.to_engine().to_dict() == Table.from_dict(new_state).to_dict()
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    explained = [e["text"] for n in old.notes for e in n.get("explanations", ())]
    assert escape(explained[-1]) in response.content.decode()
    # The computer players' reasons wait for the end of the hand (they tell of hidden cards).
    # (Not those of a player whose cards were never all shown, or who gave up his hand: the
    # same reason in the form stored now tells which. An only card of a player who gave up
    # his hand is told in the form stored now, which says it rests on no other card; the old
    # English is not read for that, and is kept back: such a reason is not the one compared.)
    last = max(
        i
        for i, n in enumerate(old.notes)
        if isinstance(n.get("reason"), str)
        and not stored_message(new_notes[i]["reason"]).key.startswith(("bot.only", "bot.last"))
    )
    told_now = escape(say(stored_message(new_notes[last]["reason"]), table.players)) in page_before
    assert told_now <= old.hand_over
    assert (escape(old.notes[last]["reason"]) in response.content.decode()) == told_now

    # Migrated, it is exactly what the site stores now, and the page is the same.
    migration.forwards(apps, None)
    table.refresh_from_db()
    assert table.state == new_state
    assert table.notes == new_notes
    assert page(client, table) == page_before
    assert ("Why: " in page_before) == table.hand_over


def test_a_finished_hand_stored_before_is_migrated(player: Any) -> None:
    table = player.new_table(players=4, seed=3, opponents="sensible")
    player.play_out(table.pk)
    record = PracticeHand.objects.get(table=table)
    notes = record.notes
    PracticeHand.objects.filter(pk=record.pk).update(notes=old_notes(notes))
    migration.forwards(apps, None)
    record.refresh_from_db()
    assert record.notes == notes


@pytest.mark.parametrize(
    ("old", "shown"),
    [
        (
            "seat 3 played the QH: the only choice (follow-suit)",
            "The second player on your left played the Q♥: the only choice, under the rule "
            "“follow suit if you can”",
        ),
        ("seat 1 chose to pass: the only choice", "You chose to pass: the only choice"),
        (
            "seat 2 drew 3: the best of 4 ways to exchange (+1.5 counters on average, looed in "
            "20%)",
            "The player on your left drew 3: the best of 4 ways to exchange (+1.5 counters on "
            "average, looed in 20%)",
        ),
        (
            "seat 4 took miss: the unseen miss did better than its own cards (-0.5)",
            "The third player on your left took miss: the unseen miss did better than his own "
            "cards (-0.5)",
        ),
        (
            "a careless slip: a card the rules forbid (follow-suit)",
            "a careless slip: a card the rules forbid (“follow suit if you can”)",
        ),
        ("something else entirely", "something else entirely"),
    ],
)
def test_an_old_reason_is_read_back_into_its_message(old: str, shown: str) -> None:
    assert say(message_from_dict(migration.reason_message(old))) == shown


def test_a_hand_stored_before_a_rule_was_read_anew_still_loads(client: Client, player: Any) -> None:
    """A48: a dealer's flush now loos the board when everyone else passes; a five-card hand
    stored under the old reading (the dealer took the pool) loads as the rules now play it."""
    table = player.stacked_table(
        game="five-card",
        rules="hoffmann",
        players=3,
        dealer=1,
        hands=[
            ["AS", "KS", "2D", "3D", "4H"],
            ["2C", "5C", "8C", "9C", "TC"],
            ["QH", "9H", "3H", "5S", "6S"],
        ],
        turn_up="7H",
    )
    state = dict(table.state)
    hand = dict(state["hand"])
    inner = dict(hand["state"], outcome="all-pass", looed=[])
    hand["state"] = inner
    state["hand"] = hand
    PracticeTable.objects.filter(pk=table.pk).update(state=state)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200


def test_a_last_card_stored_as_forced_by_a_rule_is_shown_as_the_only_card_left(
    client: Client, player: Any
) -> None:
    """Issue 26: before, a computer player's last card was noted as "the only choice, under
    the rule “the first lead”" (or "follow suit if you can"). A hand stored so shows it, at the
    table and in its replay, as what it was: the only card left in his hand."""
    table = player.new_table(players=4, seed=3, opponents="sensible")
    player.play_out(table.pk)
    table.refresh_from_db()
    record = PracticeHand.objects.get(table=table)

    def as_before(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        old = []
        for note in notes:
            reason = note.get("reason") or {}
            if reason.get("key") == "bot.last-card":
                args = dict(reason["args"], rule="elder-leads-first")
                note = dict(note, reason={"key": "bot.only-card-rule", "args": args})
            old.append(note)
        return old

    last = sum(1 for n in record.notes if (n.get("reason") or {}).get("key") == "bot.last-card")
    assert last >= 2
    PracticeTable.objects.filter(pk=table.pk).update(notes=as_before(table.notes))
    PracticeHand.objects.filter(pk=record.pk).update(notes=as_before(record.notes))
    pages = [
        client.get(table.get_absolute_url()).content.decode(),
        client.get(
            reverse("games:hand-replay", args=[table.pk, record.number]), {"step": record.steps}
        ).content.decode(),
    ]
    for html in pages:
        assert escape("under the rule “the first lead”") not in html
        assert html.count("the only card left in his hand") == last
