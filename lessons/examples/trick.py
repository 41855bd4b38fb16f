"""A ``trick`` example: who takes a trick under each rule set (RULES.md 4.2,
:func:`games.loo.play.trick_winner`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.loo.cards import Card
from games.loo.play import TrickResult, trick_winner
from lessons.examples.base import (
    COMMON_FIELDS,
    Ruleset,
    WorkedExample,
    apps_key,
    card_list,
    no_repeats,
    trump_of,
)


@dataclass(frozen=True)
class TrickRow:
    ruleset: Ruleset
    result: TrickResult

    def key(self) -> object:
        return (self.result.winner, self.result.card, apps_key(self.result.explanations))


class TrickExample(WorkedExample):
    kind = "trick"
    FIELDS = COMMON_FIELDS | {"game", "trump", "turn_up", "trick"}
    REQUIRED = ("game", "trump", "trick")

    def __init__(
        self,
        game: str,
        trump: str,
        turn_up: Card | None,
        trick: tuple[Card, ...],
        rows: tuple[TrickRow, ...],
        options: dict[str, str | int],
    ) -> None:
        self.game, self.trump, self.turn_up, self.trick = game, trump, turn_up, trick
        self.rows = rows
        self.options = options

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> TrickExample:
        game = str(data["game"])
        trump, turn_up = trump_of(data)
        trick = card_list(data["trick"], "trick")
        if turn_up is not None:
            no_repeats([("the turn-up", [turn_up]), ("the trick", trick)])
        rows = tuple(TrickRow(r, trick_winner(game, r.rules, trump, trick)) for r in rulesets)
        return cls(game, trump, turn_up, trick, rows, data.get("options") or {})
