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
"""

from __future__ import annotations

from collections.abc import Mapping

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
    "authored_position",
    "cards_field",
    "flag_field",
    "hands_field",
    "trump_field",
    "turn_up_field",
    "whole_field",
]
