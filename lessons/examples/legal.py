"""A ``legal`` example: a position (RULES.md 4.1), and which cards each rule set allows in
it, and why (:func:`games.loo.play.legal`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.loo.authored import authored_position
from games.loo.cards import Card
from games.loo.play import LegalMoves, Position, legal
from lessons.examples.base import COMMON_FIELDS, Ruleset, WorkedExample, apps_key


@dataclass(frozen=True)
class ExampleRow:
    """The cards one rule set allows in a position, and why."""

    ruleset: Ruleset
    hand: tuple[Card, ...]
    moves: LegalMoves

    @property
    def preset(self) -> str:
        return self.ruleset.preset

    @property
    def title(self) -> str:
        return self.ruleset.title

    def key(self) -> object:
        return (self.moves.legal, apps_key(self.moves.explanations), apps_key(self.moves.notes))


class LegalExample(WorkedExample):
    kind = "legal"
    FIELDS = COMMON_FIELDS | {
        "game",
        "trump",
        "turn_up",
        "declared",
        "trick_number",
        "hand",
        "trick",
        "pam_be_civil",
        "played",
    }
    REQUIRED = ("game", "trump", "declared", "hand")

    def __init__(
        self, position: Position, rows: tuple[ExampleRow, ...], options: dict[str, str | int]
    ) -> None:
        self.position = position
        self.game = position.game
        self.rows = rows
        self.options = options

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> LegalExample:
        rows = []
        for ruleset in rulesets:
            position = authored_position(data, game=str(data["game"]), rules=ruleset.rules)
            rows.append(ExampleRow(ruleset, position.hand, legal(position)))
        return cls(rows[0].moves.position, tuple(rows), data.get("options") or {})
