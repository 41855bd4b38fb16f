"""``legal-cards``: a position in the play, "Which of your cards may you play?" (select all);
the answer is :func:`~games.loo.play.legal`'s. Also asked about a lesson's own position."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..authored import authored_position
from ..messages import msg
from ..play import LegalMoves, Position, RuleApplication, legal
from ..rulesets import RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    bound_by,
    hand_position,
    message_keys,
    seats_from,
    shown_position,
)
from .deals import bound_positions

#: Rules that bind a card played to a trick, and rules that bind a lead: the distractors of
#: ``why-not`` come from the same family as its answer.
FOLLOW_RULES: Final = (
    "follow-suit",
    "head-the-trick",
    "must-trump",
    "must-overtrump",
    "pam-identity",
    "pam-led-trump-must-be-played",
    "pam-be-civil",
)


LEAD_RULES: Final = (
    "lead-ace-of-trumps",
    "lead-king-when-ace-turned",
    "lead-trump-holding-two",
    "lead-highest-trump-heads-up",
    "lead-highest-of-two-or-three",
    "trump-after-trick",
)


def _make_legal_cards(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, binding in bound_positions(ask, rng, attempt):
        return _legal_cards(
            ask, rng, moves, binding, seat, hand.players, hand_position(hand, seat, ask.preset)
        )
    return None


def _legal_cards(
    ask: Ask,
    rng: random.Random,
    moves: LegalMoves,
    binding: Sequence[RuleApplication],
    seat: int,
    players: int,
    position: dict[str, Any],
) -> Question:
    """Which of his cards ``seat`` may play, where ``binding`` bound his moves."""
    held = moves.position.hand
    choices = [Choice(c.code, c.display) for c in held]
    rng.shuffle(choices)
    return ask.question(
        "legal-cards",
        msg("question.legal-cards", p=seat),
        [a.rule for a in binding],
        seats_from(seat, players),
        position=position,
        choices=tuple(choices),
        answer=tuple(c.code for c in held if c in moves.legal),
        explanations=moves.explanations + moves.notes,
        multiple=True,
    )


def card_position_at(
    ask: Ask, data: Mapping[str, Any]
) -> tuple[Position, LegalMoves, list[RuleApplication]] | None:
    """An authored position of the play (the learner is the player to move), his legal moves
    and the rules that bound them (the target rule's, if one is asked); None if none did."""
    p = authored_position(data, game=ask.game, rules=ask.rules)
    moves = legal(p, seat=0)
    binding = bound_by(moves, ask.rule)
    return (p, moves, binding) if binding else None


def _legal_cards_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    found = card_position_at(ask, data)
    if found is None:
        return None
    p, moves, binding = found
    return _legal_cards(ask, rng, moves, binding, 0, p.declared, shown_position(p, ask.preset))


def moves_under(q: Question, rules: RuleSet) -> LegalMoves:
    """The legal moves of ``q``'s position (what the ``legal`` command takes) under ``rules``."""
    return legal(authored_position(q.position, game=q.game, rules=rules), seat=0)


def _legal_cards_under(q: Question, rules: RuleSet) -> tuple[str, ...]:
    return tuple(c.code for c in moves_under(q, rules).legal)


#: The words that make two held trumps "of equal value" through a trump between them that is
#: the turn-up or was played (RULES.md A9, the lost footnote [28]).
_EQUAL_BY_GAP: Final = frozenset(
    {"part.equal-turn-up", "part.equal-played", "part.equal-turn-up-played"}
)


def _legal_cards_reads(q: Question) -> tuple[str, ...]:
    """hoffmann's heads-up leader may lead "either" of his highest trumps when they are "in
    sequence or of equal value" (¶4, Law 11): what makes them of equal value was in a
    footnote our copy lacks (A9). Where a trump turned up or played between them is what lets
    the lower be led, the answer rests on that reading (no value of the option says the
    other: in sequence only)."""
    keys = {k for a in q.explanations for k in message_keys(a.message)}
    return ("heads-up-sequence-exception",) if keys & _EQUAL_BY_GAP else ()


LEGAL_CARDS: Final = Kind(
    name="legal-cards",
    title="Which cards may be played",
    make=_make_legal_cards,
    rules=FOLLOW_RULES + LEAD_RULES,
    at=_legal_cards_at,
    shows="cards",
    answer_under=_legal_cards_under,
    reads=_legal_cards_reads,
)
