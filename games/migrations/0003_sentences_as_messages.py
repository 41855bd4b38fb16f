"""Stored tables and hands say their sentences as messages (the engine's format version 2).

Before, a table's notes held English written in the third person ("seat 3 played the QH: the
only choice") and its state the trace as English. This migration rewrites what was stored:

- a computer player's reason is read back into the message it was written from (every
  reason the bots wrote has one of a few fixed shapes); one that does not match is kept as
  it was written, and still shows;
- the rules that bound the human's decision are worked out again by the engine from the
  hand's seed and actions (they were its own words, with seats numbered), and kept as
  messages; if that cannot be done, the words stay as they were;
- a table's state is stored again in the engine's format version 2. The engine reads
  version 1 too (checked on everything but its sentences), so a state left alone still
  loads.

Nothing is lost: anything that cannot be read is left as it was. Going back keeps the new
form (the engine before this change cannot read it, so there is nothing better to do).
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations

_CARD = r"([2-9TJQKA][SHDC])"
_MEAN = r"([+-]\d+\.\d)"
#: Each shape of reason the computer players wrote, and the message it says.
_REASONS: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = [
    (
        re.compile(rf"^seat (\d+) played the {_CARD}: the only choice \(([\w-]+)\)$"),
        "bot.only-card-rule",
        ("p", "card", "rule"),
    ),
    (
        re.compile(rf"^seat (\d+) played the {_CARD}: the only choice$"),
        "bot.only-card",
        ("p", "card"),
    ),
    (
        re.compile(r"^seat (\d+) chose to ([\w-]+): the only choice \(([\w-]+)\)$"),
        "bot.only-choice-rule",
        ("p", "choice", "rule"),
    ),
    (
        re.compile(r"^seat (\d+) chose to ([\w-]+): the only choice$"),
        "bot.only-choice",
        ("p", "choice"),
    ),
    (
        re.compile(
            rf"^seat (\d+) played the {_CARD}: the best of (\d+) legal cards over (\d+) sampled "
            rf"deals \({_MEAN} counters on average\)$"
        ),
        "bot.best-card",
        ("p", "card", "n", "samples", "mean"),
    ),
    (
        re.compile(
            r"^seat (\d+) passed: a hand like this is looed in (\d+%) of (\d+) sampled deals$"
        ),
        "bot.pass",
        ("p", "risk", "samples"),
    ),
    (
        re.compile(
            rf"^seat (\d+) took miss: the unseen miss did better than its own cards "
            rf"\({_MEAN}\)$"
        ),
        "bot.take-miss",
        ("p", "mean"),
    ),
    (
        re.compile(
            rf"^seat (\d+) drew (\d+): the best of (\d+) ways to exchange \({_MEAN} "
            r"counters on average, looed in (\d+%)\)$"
        ),
        "bot.draw",
        ("p", "n", "ways", "mean", "looed"),
    ),
    (
        re.compile(
            rf"^seat (\d+) chose to ([\w-]+): {_MEAN} counters on average, looed in "
            r"(\d+%) of (\d+) sampled deals$"
        ),
        "bot.choice",
        ("p", "choice", "mean", "looed", "samples"),
    ),
    (re.compile(r"^a random legal card$"), "bot.random-card", ()),
    (re.compile(r"^lets the result stand$"), "bot.let-stand", ()),
    (re.compile(r"^a random choice$"), "bot.random-choice", ()),
    (re.compile(r"^a careless slip: a card the rules forbid \(([\w-]+)\)$"), "bot.slip", ("rule",)),
]
_NUMBERS = {"n", "samples", "ways"}


def reason_message(reason: Any) -> dict[str, Any]:
    """A stored reason as a message's JSON form (one already a message is kept)."""
    if isinstance(reason, dict):
        return reason
    text = str(reason)
    for pattern, key, names in _REASONS:
        found = pattern.match(text)
        if found:
            args: dict[str, Any] = {}
            for name, value in zip(names, found.groups(), strict=True):
                if name == "p":
                    args[name] = int(value) - 1  # "seat 3" is seat index 2
                elif name in _NUMBERS:
                    args[name] = int(value)
                else:
                    args[name] = value
            return {"key": key, "args": args}
    return {"key": "text", "args": {"text": text}}


def _bound_rules(setup: dict[str, Any], log: list[dict[str, Any]], action: int) -> list[Any]:
    """The rules that bound the decision logged at ``action``, worked out again (as the table
    noted them: those that excluded a card, or shaped a declaration)."""
    from games.loo.hand import Action, Hand, setup_from_dict

    hand = Hand.replay(setup_from_dict(setup), [Action.from_dict(a) for a in log[:action]])
    options = hand.options()
    return [a for a in options.explanations if a.excluded or options.kind != "play"]


def upgrade_notes(
    notes: list[dict[str, Any]], setup: dict[str, Any] | None, log: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``notes`` with their sentences as messages (see the module's docstring)."""
    out = []
    for note in notes:
        note = dict(note)
        if "reason" in note:
            note["reason"] = reason_message(note["reason"])
        if "explanations" in note and any("message" not in e for e in note["explanations"]):
            note["explanations"] = _upgrade_explanations(note, setup, log)
        out.append(note)
    return out


def _upgrade_explanations(
    note: dict[str, Any], setup: dict[str, Any] | None, log: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    old = note["explanations"]
    kept = [
        {"rule": e["rule"], "message": {"key": "text", "args": {"text": e.get("text", "")}}}
        for e in old
    ]
    if setup is None:
        return kept
    try:
        bound = _bound_rules(setup, log, int(note["action"]))
    except Exception:  # noqa: BLE001 (an old hand the engine cannot replay keeps its words)
        return kept
    if [a.rule for a in bound] != [e["rule"] for e in old]:
        return kept
    return [{"rule": a.rule, "message": a.message.to_dict()} for a in bound]


def _upgrade_table(practice: Any) -> None:
    state = practice.state or {}
    hand = state.get("hand") or {}
    notes = upgrade_notes(practice.notes or [], hand.get("setup"), hand.get("log") or [])
    fields = []
    if notes != practice.notes:
        practice.notes = notes
        fields.append("notes")
    if state.get("version") == 1:
        try:
            from games.loo.table import Table

            upgraded = Table.from_dict(state).to_dict()
        except Exception:  # noqa: BLE001 (left as it was: the engine reads version 1 too)
            upgraded = None
        if upgraded is not None:
            upgraded["history"] = state.get("history", [])
            practice.state = upgraded
            fields.append("state")
    if fields:
        practice.save(update_fields=fields)


def forwards(apps: Any, schema_editor: Any) -> None:
    PracticeTable = apps.get_model("games", "PracticeTable")
    PracticeHand = apps.get_model("games", "PracticeHand")
    for practice in PracticeTable.objects.iterator(chunk_size=200):
        _upgrade_table(practice)
    for record in PracticeHand.objects.iterator(chunk_size=200):
        notes = upgrade_notes(record.notes or [], record.setup, record.log or [])
        if notes != record.notes:
            record.notes = notes
            record.save(update_fields=["notes"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_careless_opponents")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
