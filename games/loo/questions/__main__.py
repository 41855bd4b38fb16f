"""``python -m games.loo.questions``: write ``data/coverage.json`` again, after a change to what
a kind can ask about (a test fails until it is what the generators find)."""

import json
import pathlib

from . import build_coverage

target = pathlib.Path(__file__).parent.parent / "data" / "coverage.json"
target.write_text(json.dumps(build_coverage(), indent=1) + "\n", encoding="utf-8")
print(f"wrote {target}")
