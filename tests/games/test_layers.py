"""The arrows run one way: lessons/ → games/ → games/loo/. The import contracts in
pyproject.toml (``lint-imports``, run by ``make lint``) check every import statement; what they
cannot see is a model named by its app label in a string, which this test looks for. The
practice side asks the reading side through the interface it defines
(games.links.provide_citations)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
READING_APPS = {"lessons", "course", "classes", "quizzes", "trainer"}


def _names_the_reading_side(tree: ast.AST) -> list[str]:
    """Every string that names the reading side without importing it: an app label "lessons"
    (or one of its sub-apps) given to apps.get_model or a lazy "app.Model" reference, or a
    module given to importlib.import_module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            head = node.value.split(".")[0]
            if head in READING_APPS and (node.value == head or "." in node.value):
                found.append(repr(node.value))
    return found


def test_the_practice_side_never_names_the_reading_side() -> None:
    offenders = {
        str(path.relative_to(GAMES)): names
        for path in GAMES.rglob("*.py")
        if (names := _names_the_reading_side(ast.parse(path.read_text(), str(path))))
    }
    assert offenders == {}


def test_the_check_sees_every_way_of_naming_the_reading_side() -> None:
    for source in (
        "import importlib\nimportlib.import_module('lessons.views')",
        "from django.apps import apps\napps.get_model('lessons', 'Passage')",
        "models.ForeignKey('quizzes.Quiz', on_delete=models.CASCADE)",
    ):
        assert _names_the_reading_side(ast.parse(source)), source
    assert _names_the_reading_side(ast.parse("text = 'lessons learnt'")) == []


def test_the_reading_side_gives_the_table_its_citations() -> None:
    from games import links

    assert links._citations, "lessons/apps.py registers the citations at start-up"
