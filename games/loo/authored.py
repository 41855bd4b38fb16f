"""Positions written by hand, read into the engine's types by one parser.

A position someone wrote — the command line's JSON (``python -m games.loo legal``), a lesson's
exercise (:func:`games.loo.questions.question_at`), a rule page's worked example
(``lessons/examples/``) — has the fields of the ``legal`` command: ``trump``, ``hand``,
``trick``, ``turn_up``, ``declared``, ``trick_number``, ``pam_be_civil``, ``played``; a trick
has ``trump`` and ``trick``, flushes ``trump`` and ``hands``. They are all read here, so that
each accepts the same fields and refuses the same mistakes in the same words. Which fields a
caller allows, and which it requires, stay its own: the command line refuses an unknown
field, a worked example names its kinds' fields.

A list of cards is a list of codes (``["QH", "3S"]``) or one string of codes separated by
spaces (``"QH 3S"``). Every mistake is a :class:`~games.loo.errors.PositionError` or a
:class:`~games.loo.errors.CardError`, naming the field.

The fields of a whole table (a teacher's settlement or declaring moment, issue 37) are read
here too: ``players`` (a count), ``dealer`` and ``asked`` (seats), ``in_play`` and ``tricks``
(lists of seats), ``defender`` and ``miss_holder`` (a seat or none), ``pool`` (a count),
``must`` (a flag), ``declarations`` (what the players before the learner declared). A seat is
counted from the learner, who is seat 0, round the table to his left. Whether such a position
can happen at all is :mod:`games.loo.possible`'s business; these only read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .cards import Card, parse_card, parse_cards, parse_suit
from .errors import PositionError
from .play import Position
from .rulesets import RuleSet

#: How an error names a field's cards, where its name alone would not say.
_WHAT = {"played": "cards played earlier"}


def cards_field(data: Mapping[str, object], name: str, *, default: object = ()) -> tuple[Card, ...]:
    """The cards of field ``name`` (``default`` if it is absent)."""
    value = data.get(name, default)
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list | tuple):
        raise PositionError(f'field {name!r} must be a list of cards, such as ["QH", "3S"]')
    return parse_cards(value, what=_WHAT.get(name, name.replace("_", " ")))


def whole_field(data: Mapping[str, object], name: str, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"field {name!r} must be a whole number, not {value!r}")
    return value


def flag_field(data: Mapping[str, object], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise PositionError(f"field {name!r} must be true or false, not {value!r}")
    return value


def count_field(data: Mapping[str, object], name: str, default: int | None = None) -> int:
    """A whole number of at least 0 (``players``, ``pool``); required if ``default`` is None."""
    if name not in data and default is None:
        raise PositionError(f"field {name!r} is required")
    value = whole_field(data, name, 0 if default is None else default)
    if value < 0:
        raise PositionError(f"field {name!r} cannot be negative, not {value}")
    return value


def seat_field(
    data: Mapping[str, object], name: str, players: int, default: int | None = None
) -> int | None:
    """A seat of a table of ``players``, counted from the learner (seat 0); ``default`` if the
    field is absent or null."""
    value = data.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"field {name!r} must be a seat number, not {value!r}")
    if not 0 <= value < players:
        raise PositionError(
            f"field {name!r} must be a seat of the table, 0 (you) to {players - 1}, not {value}"
        )
    return value


def seats_field(data: Mapping[str, object], name: str, players: int) -> tuple[int, ...]:
    """A list of seats (``in_play``: each once; ``tricks``: a seat for each trick)."""
    value = data.get(name, [])
    if not isinstance(value, list | tuple):
        raise PositionError(f"field {name!r} must be a list of seat numbers, such as [0, 2]")
    seats = []
    for item in value:
        seat = seat_field({name: item}, name, players)
        if seat is None:
            raise PositionError(f"field {name!r} must be a list of seat numbers, not {value!r}")
        seats.append(seat)
    return tuple(seats)


#: What a player may declare (three-card Loo; five-card and Irish Loo: play or pass).
DECLARED_CHOICES: Final = ("play", "pass", "take-miss", "defend-miss", "defend-master")


def declarations_field(
    data: Mapping[str, object], players: int
) -> tuple[tuple[int | None, str], ...]:
    """The declarations made before the learner's turn, in turn from the dealer's left: each a
    choice (``"pass"``) or, as a question shows them, ``[seat, choice]``."""
    value = data.get("declarations", [])
    if not isinstance(value, list | tuple):
        raise PositionError(
            'field \'declarations\' must be a list of declarations, such as ["pass", "play"]'
        )
    made: list[tuple[int | None, str]] = []
    for item in value:
        seat: int | None = None
        choice = item
        if isinstance(item, list | tuple) and len(item) == 2:
            seat = seat_field({"declarations": item[0]}, "declarations", players)
            choice = item[1]
        if not isinstance(choice, str) or choice not in DECLARED_CHOICES:
            raise PositionError(
                f"a declaration must be one of {', '.join(DECLARED_CHOICES)}, not {item!r}"
            )
        made.append((seat, choice))
    return tuple(made)


def card_list(data: Mapping[str, object], name: str) -> list[Card]:
    """The cards of field ``name`` as written, a card written twice kept twice (so that
    :mod:`games.loo.possible` can say where it is twice): each code read as
    :func:`cards_field` reads it."""
    value = data.get(name, ())
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list | tuple):
        raise PositionError(f'field {name!r} must be a list of cards, such as ["QH", "3S"]')
    return [parse_card(item) for item in value]


def trump_field(data: Mapping[str, object]) -> str:
    return parse_suit(data.get("trump"))


def turn_up_field(data: Mapping[str, object]) -> Card | None:
    """The turn-up, if the position shows one (left out, null or "")."""
    value = data.get("turn_up")
    return None if value is None or value == "" else parse_card(value)


def hands_field(data: Mapping[str, object]) -> list[tuple[Card, ...]]:
    """The hands of field ``hands`` (flushes): a list of hands, each a list of cards."""
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list | str) for h in hands):
        raise PositionError("field 'hands' must be a list of hands, each a list of five cards")
    return [cards_field({f"hand {i + 1}": h}, f"hand {i + 1}") for i, h in enumerate(hands)]


def authored_position(data: Mapping[str, object], *, game: str, rules: RuleSet) -> Position:
    """The position ``data`` describes, at ``game`` under ``rules`` (a caller may take those
    from the data or from elsewhere): validated as every :class:`Position` is."""
    return Position(
        game=game,
        rules=rules,
        trump=trump_field(data),
        hand=cards_field(data, "hand", default=None),
        trick=cards_field(data, "trick"),
        turn_up=turn_up_field(data),
        declared=whole_field(data, "declared", 2),
        trick_number=whole_field(data, "trick_number", 1),
        pam_be_civil=flag_field(data, "pam_be_civil"),
        played=cards_field(data, "played"),
    )


__all__ = [
    "DECLARED_CHOICES",
    "authored_position",
    "card_list",
    "cards_field",
    "count_field",
    "declarations_field",
    "flag_field",
    "hands_field",
    "seat_field",
    "seats_field",
    "trump_field",
    "turn_up_field",
    "whole_field",
]
