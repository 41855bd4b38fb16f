"""``why-not``: a card the rules forbid there, "Why may you not play the 6♦?" (one of four
rules); the answer is the rule that excluded it. Also asked about a lesson's own position."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ..cards import Card, parse_card
from ..messages import msg
from ..play import LegalMoves, RuleApplication
from ..rulesets import RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    QuestionError,
    hand_position,
    rule_label,
    seats_from,
    shown_position,
    stored_coverage,
)
from .deals import bound_positions
from .legal_cards import FOLLOW_RULES, LEAD_RULES, LEGAL_CARDS, card_position_at, moves_under


def _make_why_not(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, binding in bound_positions(ask, rng, attempt):
        made = _why_not(
            ask,
            rng,
            moves,
            binding[0],
            None,
            seat,
            hand.players,
            hand_position(hand, seat, ask.preset),
        )
        if made is not None:
            return made
    return None


def _why_not(
    ask: Ask,
    rng: random.Random,
    moves: LegalMoves,
    app: RuleApplication,
    forbidden: Card | None,
    seat: int,
    players: int,
    position: dict[str, Any],
) -> Question | None:
    """Why ``seat`` may not play ``forbidden`` (None: a card that ``app``'s rule is the reason
    for; another rule may have excluded some of its cards first, the one the learner is
    told), or None if there is no such card."""
    if forbidden is None:
        reasons = {c: moves.why_not(c) for c in app.excluded}
        cards = [c for c, why in reasons.items() if why is not None and why.rule == app.rule]
        if not cards:
            return None
        forbidden = cards[rng.randrange(len(cards))]
    why = moves.why_not(forbidden)
    if why is None:
        return None
    ids = [why.rule, *rng.sample(_distractors(ask, rng, moves, forbidden), 3)]
    rng.shuffle(ids)
    return ask.question(
        "why-not",
        msg("question.why-not", p=seat, card=forbidden),
        [why.rule],
        seats_from(seat, players),
        position=position,
        choices=tuple(Choice(r, rule_label(r)) for r in ids),
        answer=(why.rule,),
        explanations=(why,),
    )


def _distractors(ask: Ask, rng: random.Random, moves: LegalMoves, forbidden: Card) -> list[str]:
    """Rules that could plausibly have forbidden ``forbidden`` in this position: the lead rules
    on a lead, the following rules otherwise (Pam's only at five-card Loo), less every rule
    that did exclude it (those are right too). From version 3, only the family's rules that
    bind a card play under the question's rule set (a rule the rule set never applies is a
    give-away), or if they are fewer than three, all of them and as many more as it takes:
    the other family's that bind, then the family's others."""
    game = ask.game
    also = {a.rule for a in moves.explanations if forbidden in a.excluded}
    family = LEAD_RULES if not moves.position.trick else FOLLOW_RULES
    others = FOLLOW_RULES if not moves.position.trick else LEAD_RULES
    pool = [
        r for r in family if r not in also and (game == "five-card" or not r.startswith("pam-"))
    ]
    if ask.version >= 3:
        binds = set(stored_coverage()[ask.preset][game][LEGAL_CARDS.name])
        near = [r for r in pool if r in binds]
        for more in (
            [r for r in others if r in binds and r not in also],
            [r for r in pool if r not in binds],
        ):
            if len(near) >= 3:
                break
            near += rng.sample(more, min(3 - len(near), len(more)))
        pool = near
    if len(pool) < 3:
        pool += [r for r in others if r not in also and r not in pool and not r.startswith("pam-")]
    return pool


def _why_not_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    """Why the learner may not play ``card`` (None: a card that the rule asked about
    excluded) in an authored position."""
    found = card_position_at(ask, data)
    if found is None:
        return None
    p, moves, binding = found
    forbidden = None if card is None else parse_card(card)
    if forbidden is not None and forbidden not in p.hand:
        raise QuestionError(f"the card asked about, {forbidden.code}, is not in the hand")
    position = shown_position(p, ask.preset)
    return _why_not(ask, rng, moves, binding[0], forbidden, 0, p.declared, position)


def _why_not_under(q: Question, rules: RuleSet) -> tuple[str, ...] | None:
    why = moves_under(q, rules).why_not(q.prompt.args["card"])
    return None if why is None else (why.rule,)


WHY_NOT: Final = Kind(
    name="why-not",
    title="Why not this card",
    make=_make_why_not,
    rules=FOLLOW_RULES + LEAD_RULES,
    at=_why_not_at,
    shows="cards",
    answer_under=_why_not_under,
)
