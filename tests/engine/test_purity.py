"""The engine is pure Python: importing it loads no Django (STYLE.md, rule 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, games.loo, games.loo.cli, games.loo.flushes; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_no_engine_module_imports_from_django_or_the_project() -> None:
    for path in (ROOT / "games" / "loo").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for forbidden in (
            "import django",
            "from django",
            "from games.",
            "from lessons",
            "import lessons",
        ):
            assert forbidden not in text, f"{path.name}: {forbidden}"
