"""A ``flush`` example: which of several five-card flushes loos the board, and who is excused
from paying, under each rule set (RULES.md 4.3, :func:`games.loo.flushes.compare_flushes`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.loo.cards import Card
from games.loo.flushes import FlushResult, compare_flushes
from lessons.examples.base import (
    COMMON_FIELDS,
    ExampleError,
    Ruleset,
    WorkedExample,
    apps_key,
    card_list,
    no_repeats,
    trump_of,
)


@dataclass(frozen=True)
class FlushRow:
    ruleset: Ruleset
    result: FlushResult
    players: int

    def key(self) -> object:
        r = self.result
        return (r.winner, r.exempt, r.pay, apps_key(r.explanations))

    @property
    def winner_name(self) -> str:
        return "nobody" if self.result.winner is None else flush_player(self.result.winner)

    @property
    def exempt_names(self) -> list[str]:
        return [flush_player(p) for p in self.result.exempt]

    @property
    def pay_names(self) -> list[str]:
        return [flush_player(p) for p in self.result.pay]


def flush_player(player: int | None) -> str:
    """The engine counts flush hands from the elder hand: "player 2" is the second hand."""
    if player is None:
        return "nobody"
    return "Player 1 (elder hand)" if player == 0 else f"Player {player + 1}"


class FlushExample(WorkedExample):
    kind = "flush"
    FIELDS = COMMON_FIELDS | {"game", "trump", "turn_up", "hands"}
    REQUIRED = ("game", "trump", "hands")

    def __init__(
        self,
        game: str,
        trump: str,
        turn_up: Card | None,
        hands: tuple[tuple[Card, ...], ...],
        rows: tuple[FlushRow, ...],
        options: dict[str, str | int],
    ) -> None:
        self.game, self.trump, self.turn_up, self.hands = game, trump, turn_up, hands
        self.rows = rows
        self.options = options

    @property
    def players(self) -> list[tuple[str, tuple[Card, ...]]]:
        return [(flush_player(i), hand) for i, hand in enumerate(self.hands)]

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> FlushExample:
        game = str(data["game"])
        trump, turn_up = trump_of(data)
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise ExampleError('"hands" must be a list of hands, from the elder hand')
        cards = tuple(card_list(h, f"hand of {flush_player(i)}") for i, h in enumerate(hands))
        places = [(f"the hand of {flush_player(i)}", h) for i, h in enumerate(cards)]
        no_repeats([("the turn-up", [turn_up] if turn_up else []), *places])
        rows = tuple(
            FlushRow(r, compare_flushes(game, r.rules, trump, cards), len(cards)) for r in rulesets
        )
        return cls(game, trump, turn_up, cards, rows, data.get("options") or {})
