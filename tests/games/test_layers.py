"""The arrows run one way: lessons/ → games/ → games/loo/. The practice side asks the reading
side through the interface it defines (games.links.provide_citations)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"


def _reaches_the_reading_side(tree: ast.AST) -> list[str]:
    """Every way a module names the reading side: an import statement (at any depth, in a
    function too), importlib.import_module / __import__ of it, or an app label "lessons" (or
    one of its sub-apps) given to apps.get_model or a lazy "app.Model" reference."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "lessons"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "lessons":
                found.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            head = node.value.split(".")[0]
            if head in {"lessons", "course", "classes", "quizzes", "trainer"} and (
                node.value == head or "." in node.value
            ):
                found.append(repr(node.value))
    return found


def test_the_practice_side_never_imports_the_reading_side() -> None:
    offenders = {
        str(path.relative_to(GAMES)): names
        for path in GAMES.rglob("*.py")
        if (names := _reaches_the_reading_side(ast.parse(path.read_text(), str(path))))
    }
    assert offenders == {}


def test_the_layer_check_sees_every_way_of_reaching_the_reading_side() -> None:
    for source in (
        "import lessons.models",
        "def f():\n    from lessons.classes import models",
        "import importlib\nimportlib.import_module('lessons.views')",
        "from django.apps import apps\napps.get_model('lessons', 'Passage')",
        "models.ForeignKey('quizzes.Quiz', on_delete=models.CASCADE)",
    ):
        assert _reaches_the_reading_side(ast.parse(source)), source
    assert _reaches_the_reading_side(ast.parse("from . import lessons_helper")) == []


def test_the_reading_side_gives_the_table_its_citations() -> None:
    from games import links

    assert links._citations, "lessons/apps.py registers the citations at start-up"
