"""The computer players' turn is the engine's (games.loo.autoplay); a practice table only
stores what it returns, so the notes keep the JSON shape stored tables were written in."""

from __future__ import annotations

import json

import pytest

from games.loo.autoplay import Autoplay
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.models import Opponents, PracticeTable
from games.naming import HUMAN


def _table(seed: str, laws: bool = False) -> Table:
    table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 5, seed, laws=laws))
    table.deal()
    return table


@pytest.mark.parametrize("opponents", list(Opponents))
def test_the_table_runs_the_engines_computer_players(opponents: str) -> None:
    ours, theirs = _table("autoplay:1"), _table("autoplay:1")
    notes = PracticeTable(opponents=opponents).run_bots(ours, [])
    assert notes == Autoplay(opponents, human=HUMAN).run(theirs, [])
    assert ours.to_dict() == theirs.to_dict()


@pytest.mark.parametrize("opponents", list(Opponents))
def test_a_computer_players_note_keeps_its_stored_shape(opponents: str) -> None:
    notes = []
    for n in range(20):  # deals until one where the others act before the human
        notes += Autoplay(opponents, human=HUMAN).run(_table(f"autoplay:{n}", laws=True), [])
    assert notes
    for note in notes:
        assert set(note) == {"action", "seat", "event", "reason"}
        assert note["seat"] != HUMAN
        assert json.loads(json.dumps(note)) == note
