"""The table of a teacher's question about a whole table (what the settlement pays, what the
player may do now): how many sit at it and who dealt, asked first in a form of their own
(``quizzes/own/cards.html``), and the fields of the editor's second step that name its seats,
drawn for that table (:class:`~lessons.quizzes.own_forms.PositionForm` builds them here).

Seats are counted from the student, seat 0 ("you"), round the table to his left, as the
engine counts them (``games.loo.questions.AUTHORED_FIELDS``); a choice names a seat as the
engine's refusals do ("seat 3") and as the student's page does ("the second player on your
left"), so that the teacher can match the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from django import forms

from games.loo.authored import DECLARED_CHOICES
from games.loo.questions.declaration import DECLARATION_LABELS
from games.loo.rulesets import HAND_SIZE, RuleSet
from games.naming import seat_name

#: The most counters a pool may hold in the editor (an unlimited loo grows, but not so far).
MAX_POOL: Final = 999


@dataclass(frozen=True)
class Table:
    """The table the seats are drawn for: ``players`` and (for a declaring moment) the
    ``dealer``, a seat counted from the student."""

    players: int
    dealer: int

    @property
    def declarers(self) -> list[int]:
        """The seats that declare before the student, in turn from the dealer's left (all the
        others when the student deals)."""
        return list(range(self.dealer + 1 if self.dealer else 1, self.players))


def table_of(rules: RuleSet, game: str, source: Mapping[str, Any] | None) -> Table:
    """The table ``source`` (a form's data or first values) names, within what ``rules`` seat
    at ``game``; where it names none, or one they do not seat, four players (or the nearest
    they seat) with the dealer on the student's right, so that the student declares first."""
    low, high = rules.players(game)
    players = _whole((source or {}).get("players"), low, high, min(max(low, 4), high))
    dealer = _whole((source or {}).get("dealer"), 0, players - 1, players - 1)
    return Table(players, dealer)


def _whole(value: Any, low: int, high: int, default: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if low <= number <= high else default


def seat_words(seat: int, players: int) -> str:
    """A seat as the editor offers it: "You (the student)", "Seat 2 (the player on your left)"."""
    if seat == 0:
        return "You (the student)"
    return f"Seat {seat + 1} ({seat_name(seat, players)})"


def seat_choices(players: int, none: str | None = None) -> list[tuple[Any, str]]:
    """A select's choices: the table's seats, after ``none`` (the empty choice) if given."""
    found: list[tuple[Any, str]] = [("", none)] if none is not None else []
    return found + [(s, seat_words(s, players)) for s in range(players)]


def fresh_pool(rules: RuleSet, game: str, players: int) -> int:
    """The pool of a first deal once the stake is put up: the dealer's stake, or every
    player's where each puts one in (britannica)."""
    stake = rules.stake(game)
    return stake * players if rules.ante == "all-players-fresh-pool" else stake


def players_field(rules: RuleSet, game: str, table: Table, label: str) -> forms.Field:
    low, high = rules.players(game)
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        choices=[(n, str(n)) for n in range(low, high + 1)],
        initial=table.players,
    )


def pool_field(
    rules: RuleSet, game: str, table: Table, label: str, *, required: bool
) -> forms.Field:
    """The counters in the pool: a number input (required for a settlement, where the first
    deal's pool is offered; a declaring moment's may be left to the engine)."""
    return forms.IntegerField(
        label=label,
        min_value=1,
        max_value=MAX_POOL,
        required=required,
        initial=fresh_pool(rules, game, table.players) if required else None,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


#: The seats a question needs named: the dealer (on the student's right unless said), whose
#: settlement is asked (the student's unless said); the others may be nobody.
REQUIRED_SEATS: Final = ("dealer", "asked")


def seat_field(name: str, table: Table, label: str) -> forms.Field:
    required = name in REQUIRED_SEATS
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        empty_value=None,
        required=required,
        choices=seat_choices(table.players, None if required else "Nobody"),
        initial={"dealer": table.dealer, "asked": 0}.get(name),
    )


def seats_field(table: Table, label: str) -> forms.Field:
    return forms.TypedMultipleChoiceField(
        label=label,
        coerce=int,
        choices=seat_choices(table.players),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


def taker_fields(name: str, game: str, table: Table) -> dict[str, forms.Field]:
    """One select a trick of the hand: who took it."""
    return {
        f"{name}-{i + 1}": forms.TypedChoiceField(
            label=f"Trick {i + 1}",
            coerce=int,
            empty_value=None,
            required=False,
            choices=seat_choices(table.players, "—"),
        )
        for i in range(HAND_SIZE[game])
    }


def declaration_fields(name: str, game: str, table: Table) -> dict[str, forms.Field]:
    """One select for each player who declares before the student, in turn from the
    dealer's left (at five-card and Irish Loo, play or pass: they have no miss)."""
    offered = DECLARED_CHOICES if game == "three-card" else ("play", "pass")
    choices = [("", "Choose")] + [(c, DECLARATION_LABELS[c]) for c in offered]
    return {
        f"{name}-{i + 1}": forms.ChoiceField(
            label=seat_words(seat, table.players),
            choices=choices,
            error_messages={"required": f"Say what seat {seat + 1} declared."},
        )
        for i, seat in enumerate(table.declarers)
    }


def takers(cleaned: Mapping[str, Any], name: str, game: str) -> tuple[list[int], str]:
    """Who took each trick, in turn, and what is wrong with them ("": nothing): filled from
    the first trick, with no gap (or all empty: nobody played)."""
    slots = [cleaned.get(f"{name}-{i + 1}") for i in range(HAND_SIZE[game])]
    filled = [s for s in slots if s is not None]
    if filled and any(s is None for s in slots[: len(filled)]):
        return filled, "Who took each trick: fill them from the first trick, with no gap."
    return filled, ""


def declarations(cleaned: Mapping[str, Any], name: str, table: Table) -> list[str]:
    return [cleaned.get(f"{name}-{i + 1}") or "" for i in range(len(table.declarers))]


__all__ = ["Table", "seat_choices", "seat_words", "table_of"]
