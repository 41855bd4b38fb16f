"""``trick-winner``: a complete trick, "Who takes this trick?"; the answer is
:func:`~games.loo.play.trick_winner`'s. Also asked about a lesson's own trick."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..authored import cards_field, trump_field
from ..cards import Card, card
from ..messages import msg
from ..play import trick_winner
from ..rulesets import RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
)
from .deals import deal_hand, play_decisions

TRICK_RULES: Final = ("trick-winner", "pam-highest-trump", "pam-identity")


def _make_trick_winner(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    for _ in play_decisions(hand, rng):
        pass
    for trick in hand.tricks:
        made = _trick_winner(ask, hand.trump, trick.laid)
        if made is not None:
            return made
    return None


def _trick_winner(ask: Ask, trump: str, cards: Sequence[Card]) -> Question | None:
    """Who takes the trick of ``cards``, if the rule asked about decides it."""
    result = trick_winner(ask.game, ask.rules, trump, list(cards))
    # The rule that decided it first: Pam's over the plain order of the cards.
    bound = sorted({a.rule for a in result.explanations}, key=TRICK_RULES.index, reverse=True)
    if not ask.wants(bound):
        return None
    return ask.question(
        "trick-winner",
        msg("question.trick-winner", trump=trump),
        bound,
        position={
            "game": ask.game,
            "rules": ask.preset,
            "trump": trump,
            "trick": [c.code for c in cards],
        },
        choices=tuple(Choice(str(i), c.display) for i, c in enumerate(cards)),
        answer=(str(result.winner),),
        explanations=result.explanations,
    )


def _trick_winner_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    trump = trump_field(data)
    return _trick_winner(ask, trump, cards_field(data, "trick", default=None))


def _trick_winner_under(q: Question, rules: RuleSet) -> tuple[str, ...]:
    cards = [card(c) for c in q.position["trick"]]
    return (str(trick_winner(q.game, rules, q.position["trump"], cards).winner),)


TRICK_WINNER: Final = Kind(
    name="trick-winner",
    title="Who takes the trick",
    make=_make_trick_winner,
    rules=TRICK_RULES,
    at=_trick_winner_at,
    shows="trick",
    answer_under=_trick_winner_under,
)
