"""The engine is pure Python: importing it loads no Django (STYLE.md, rule 1). That no engine
module imports Django or the rest of the project is an import-linter contract (``make lint``,
pyproject.toml); here, what a process really loads, and that no engine import goes round."""

from __future__ import annotations

import ast
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


def _engine_imports() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports, inside functions too (an import
    put in a function to dodge a cycle still goes round it), but not under TYPE_CHECKING."""
    base = ROOT / "games" / "loo"
    modules: dict[str, Path] = {}
    for path in base.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(n)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom):
                parent = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join(parent + ([node.module] if node.module else []))
                found = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            # A module's own packages are imported before it: no edge back to them.
            edges[name] |= {
                f for f in found if f in modules and not (name + ".").startswith(f + ".")
            }
    return edges


def test_no_import_cycle_in_the_engine() -> None:
    edges = _engine_imports()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), list(edges[start])
        while todo:
            m = todo.pop()
            if m == goal:
                return True
            if m not in seen:
                seen.add(m)
                todo.extend(edges[m])
        return False

    cycles = sorted(m for m in edges if reaches(m, m))
    assert not cycles, f"modules on an import cycle: {', '.join(cycles)}"
