"""The rules' explanations (``content/rules.txt``): one block per rule of the engine's
catalogue, each with a worked example that the engine can work out, or a line saying why it
has none."""

from __future__ import annotations

import json
from pathlib import Path

from games.loo import catalogue
from games.loo.errors import LooError
from lessons.content.blocks import Block, ContentError, file_name, parse
from lessons.examples import worked_example


def read_rules(root: Path) -> dict[str, Block]:
    path = root / "rules.txt"
    where = file_name(path, root)
    if not path.is_file():
        raise ContentError(where, 0, "missing file")
    rules: dict[str, Block] = {}
    for b in parse(path.read_text(encoding="utf-8"), where, "rules"):
        if b.id not in catalogue.rule_ids():
            raise b.error(f"unknown rule id {b.id!r}: it is not in the engine's rule catalogue")
        if b.id in rules:
            raise b.error(f"the rule {b.id!r} has a block already, on line {rules[b.id].line}")
        rules[b.id] = b
        _check_example(b)
    return rules


def _check_example(b: Block) -> None:
    """A rule has a worked example that the engine can work out, or says why it has none."""
    if b.get("example") and b.get("no-example"):
        raise b.error("give either 'example:' or 'no-example:', not both", b.line_of("no-example"))
    if not b.get("example"):
        if not b.get("no-example"):
            raise b.error(
                f"the rule {b.id!r} needs an 'example:' line, or a 'no-example:' line saying "
                "why it cannot have one"
            )
        return
    line = b.line_of("example")
    try:
        data = json.loads(b.get("example"))
    except json.JSONDecodeError as error:
        # The value may go on over several lines: point at the line of the fault.
        raise b.error(
            f"the example is not valid JSON: {error.msg}", line + error.lineno - 1
        ) from None
    try:
        worked_example(data)
    except (LooError, KeyError, TypeError, ValueError) as error:
        raise b.error(f"impossible example: {error}", line) from None
