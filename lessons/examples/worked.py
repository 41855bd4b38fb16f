"""Working an example out: its kind chosen, its fields checked, and the kind's own module
asked for the engine's answer under each rule set."""

from __future__ import annotations

from games.loo.rulesets import GAMES
from lessons.examples.base import ExampleError, WorkedExample, rulesets_for
from lessons.examples.flush import FlushExample
from lessons.examples.hand import HandExample
from lessons.examples.legal import LegalExample
from lessons.examples.trick import TrickExample

#: The kinds of example, by the name a ``kind`` field gives (the first is the default).
KINDS: dict[str, type[WorkedExample]] = {
    cls.kind: cls for cls in (LegalExample, TrickExample, FlushExample, HandExample)
}


def worked_example(data: object) -> WorkedExample:
    """Work out an example under each rule set; raises :class:`ExampleError` (or another
    :class:`LooError`) naming the problem when it cannot be worked out."""
    if not isinstance(data, dict):
        raise ExampleError("the example must be a JSON object")
    kind = data.get("kind", "legal")
    if kind not in KINDS:
        raise ExampleError(f"unknown example kind {kind!r} (kinds: {', '.join(KINDS)})")
    cls = KINDS[kind]
    unknown = set(data) - cls.FIELDS
    if unknown:
        raise ExampleError(
            f"unknown field(s) in a {kind} example: {', '.join(sorted(unknown))} "
            f"(fields: {', '.join(sorted(cls.FIELDS))})"
        )
    missing = [name for name in cls.REQUIRED if name not in data]
    if missing:
        raise ExampleError(f"a {kind} example needs {', '.join(repr(m) for m in missing)}")
    game = data["game"]
    if game not in GAMES:
        raise ExampleError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    return cls.work_out(data, rulesets_for(data, str(game)))
