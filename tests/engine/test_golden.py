"""The engine says exactly what the golden trace says (tests/engine/golden.py): every sentence
of 66 seeded sessions (each game and preset, learning and laws mode, every kind of computer
player), from the point of view each is meant for. A deliberate change of wording rewrites
the file (``python -m tests.engine.golden``) in the commit that makes it."""

from __future__ import annotations

import json

from tests.engine.golden import PATH, golden


def test_the_engine_says_what_the_golden_trace_says() -> None:
    expected = json.loads(PATH.read_text())
    actual = json.loads(json.dumps(golden(), ensure_ascii=False))
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=True):
        assert got == want, got["session"]
