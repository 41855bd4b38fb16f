"""The arrows run one way: lessons/ → games/ → games/loo/. The practice side asks the reading
side through the interface it defines (games.links.provide_citations)."""

from __future__ import annotations

import re
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"


def test_the_practice_side_never_imports_the_reading_side() -> None:
    importing = re.compile(r"^\s*(from|import)\s+lessons\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(GAMES))
        for path in GAMES.rglob("*.py")
        if importing.search(path.read_text())
    ]
    assert offenders == []


def test_the_reading_side_gives_the_table_its_citations() -> None:
    from games import links

    assert links._citations, "lessons/apps.py registers the citations at start-up"
