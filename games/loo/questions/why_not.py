"""``why-not``: a card the rules forbid there, "Why may you not play the 6♦?" (one of four
rules); the answer is the rule that excluded it. Also asked about a lesson's own position."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ..cards import Card, parse_card
from ..messages import msg
from ..play import LegalMoves, RuleApplication, top_sequence
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
    if ask.version >= 5:
        also |= also_forbidding(moves, forbidden)
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


def also_forbidding(moves: LegalMoves, forbidden: Card) -> set[str]:
    """The rules that forbid ``forbidden`` too but that the engine does not cite, since another
    rule it names excludes the card first: offered beside the answer they would be right as
    well (issue 25). On a lead where the ace (or king) of trumps must be led, the rules for
    two trumps, heads-up and trump after trick are satisfied by it and not cited (A6), yet
    each alone would forbid a card that is not its choice (hoffmann ¶4: "If he has two trumps
    he is bound to lead one of them"). Following, Pam barred from a club led by his identity
    is no card of the suit led either (follow suit); and where a void player must trump in
    (void-trump ``always``), a discard on a trumped trick is forbidden by trumping as well as
    by overtrumping."""
    p = moves.position
    t, rules, game = p.trumps, p.rules, p.game
    trumps_held = sorted(
        (c for c in p.hand if c in t.members[t.suit]), key=t.rank_of_card.__getitem__, reverse=True
    )
    cited = {a.rule for a in moves.explanations}
    out: set[str] = set()
    if p.trick:
        if forbidden is t.pam and "pam-identity" in cited:
            out.add("follow-suit")
        if (
            "must-overtrump" in cited
            and rules.void_trump == "always"
            and forbidden not in trumps_held
        ):
            out.add("must-trump")
        return out
    if not cited & {"lead-ace-of-trumps", "lead-king-when-ace-turned"}:
        return out
    # Each rule's own choice, as if the ace (or king) did not prevail over it.
    later = p.trick_number > 1
    allowed: dict[str, set[Card]] = {}
    if len(trumps_held) >= 2:
        two = rules.two_trumps_rule(game)
        if later and rules.trump_after_trick == "highest" and two == "any-trump":
            two = "highest"  # as lead_cards has it (A41)
        if two == "highest":
            allowed["lead-highest-of-two-or-three"] = {trumps_held[0]}
        elif two == "any-trump" or (two == "heads-up-only" and p.declared == 2):
            allowed["lead-trump-holding-two"] = set(trumps_held)
        threshold = rules.heads_up_threshold
        if two != "highest" and threshold != "n/a" and p.declared <= int(threshold):
            top = top_sequence(p, trumps_held) if rules.heads_up_sequence_exception == "on" else []
            allowed["lead-highest-trump-heads-up"] = set(top or trumps_held[:1])
    if later and trumps_held and rules.trump_after_trick == "highest":
        allowed["trump-after-trick"] = {trumps_held[0]}
    return {rule for rule, cards in allowed.items() if forbidden not in cards}


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
    """The choices that forbid the card under ``rules`` (None: it may be played there). Under
    another reading a choice may forbid it as well (hoffmann's heads-up rule with three
    declared, A8; trumping in, A15, A16): the question then has two right answers there."""
    card = q.prompt.args["card"]
    moves = moves_under(q, rules)
    if moves.why_not(card) is None:
        return None
    forbidding = {a.rule for a in moves.explanations if card in a.excluded}
    forbidding |= also_forbidding(moves, card)
    return tuple(c.id for c in q.choices if c.id in forbidding)


WHY_NOT: Final = Kind(
    name="why-not",
    title="Why not this card",
    make=_make_why_not,
    rules=FOLLOW_RULES + LEAD_RULES,
    at=_why_not_at,
    shows="cards",
    answer_under=_why_not_under,
)
