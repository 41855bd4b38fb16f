"""``penalty`` (version 3): an irregularity let stand at a laws table (a rule set whose source
states penalties), then the hand played out: what does the offender receive or pay, all told?

From version 5 the position's "pool" is the pool as it stood when the irregularity was
committed, before any penalty, whatever the irregularity (before, a misdeal showed the pool
of the fresh deal, its penalty included, and every other irregularity the pool before its
penalty); and hoffmann's Law 6 offence is told as exposing another player's cards, not
looking at them (looking is peel's offence, p. 24)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

from ..hand import Action, Hand
from ..hand.irregular import IRREGULARITIES
from ..hand.laws import OFFENCE_RULE
from ..messages import Message, msg
from ..play import RuleApplication
from .base import (
    Ask,
    Kind,
    Question,
    QuestionError,
    seats_from,
    table_position,
)
from .deals import deal_hand, random_step
from .settlement import amounts, counters, settled_payments

#: What a ``penalty`` question can be about: an irregularity let stand at a laws table (a
#: rule set whose source states penalties), and what follows it.
PENALTY_RULES: Final = (
    "penalty-misdeal",
    "faced-card-in-pack",
    "penalty-interfering-with-deal",
    "penalty-declare-out-of-turn",
    "declare-in-turn",
    "look-at-cards-in-turn",
    "penalty-look-at-miss",
    "penalty-look-at-others-cards",
    "penalty-exposed-card",
    "penalty-play-out-of-turn",
    "penalty-revoke",
    "penalty-fail-to-head",
    "penalty-lead-violation",
    "revoke-replay",
    "penalty-destination",
)


#: For a target rule that is not an irregularity's own, the irregularities that bring it up.
_COMMITTED_FOR: Final = {
    "declare-in-turn": ("declare-early",),
    "look-at-cards-in-turn": ("look-early",),
}


def _irregularity_rule(what: str) -> str:
    return IRREGULARITIES[what.partition(":")[0]]


#: How a question tells each irregularity (what happened, never what it costs).
OFFENCE_TOLD: Final = {
    "misdeal": "question.offence.misdeal",
    "faced-card": "question.offence.faced-card",
    "interfere": "question.offence.interfere",
    "declare-early": "question.offence.declare-early",
    "look-early": "question.offence.look-early",
    "look-miss": "question.offence.look-miss",
    "look-hand": "question.offence.look-hand",
    "expose": "question.offence.expose",
    "play-early": "question.offence.play-early",
}


def _brings_up(what: str, rule: str | None) -> bool:
    """Whether committing ``what`` brings ``rule`` up (any rule, if None)."""
    if rule is None or rule in ("penalty-destination", _irregularity_rule(what)):
        return True
    return what in _COMMITTED_FOR.get(rule, ())


def _told(hand: Hand, what: str, version: int) -> str:
    """The sentence that tells ``what`` was committed at ``hand``'s table: under hoffmann,
    from version 5, Law 6's "exposing a card or cards of another player"."""
    if what == "look-hand" and version >= 5 and hand.rules.penalties == "hoffmann-laws":
        return "question.offence.expose-hand"
    return OFFENCE_TOLD[what]


def _offences_open(hand: Hand, rule: str | None, version: int = 5) -> list[tuple[Action, Message]]:
    """What some player could commit now that the laws let stand (about ``rule``, if one is
    asked): an irregularity of the deal or the declarations, a card the rules forbid, or a
    card played out of turn; each with how a question tells it."""
    found: list[tuple[Action, Message]] = []
    for seat in range(hand.players):
        for what in hand.irregularities(seat):
            if not _brings_up(what, rule):
                continue
            if what in ("misdeal", "faced-card") and seat != hand.dealer:
                continue
            if what == "look-hand":
                for other in range(hand.players):
                    if other != seat and hand.hands[other]:
                        action = Action("irregular", seat, f"look-hand:{other}")
                        found.append((action, msg(_told(hand, what, version), p=seat, o=other)))
            elif what in ("expose", "play-early"):
                for c in hand.irregular_cards(seat):
                    action = Action("irregular", seat, what, (c.code,))
                    found.append((action, msg(OFFENCE_TOLD[what], p=seat, card=c)))
            else:
                found.append((Action("irregular", seat, what), msg(OFFENCE_TOLD[what], p=seat)))
    to_act = hand.to_act
    if hand.phase == "play" and to_act is not None and hand.laws_apply():
        moves = hand.legal_moves(to_act)
        for c in hand.hands[to_act]:
            why = moves.why_not(c)
            if why is not None and (rule is None or rule in _CARD_OFFENCE_RULES.get(why.rule, ())):
                found.append(
                    (
                        Action.play(to_act, c),
                        msg("question.offence.card", p=to_act, card=c, had=(why.rule,)),
                    )
                )
        if rule in (None, "penalty-play-out-of-turn", "penalty-destination"):
            for other in hand.active():
                if other != to_act and hand.hands[other]:
                    c = hand.hands[other][0]
                    found.append(
                        (
                            Action.play(other, c),
                            msg("question.offence.out-of-turn", p=other, card=c),
                        )
                    )
    return found


#: The rules a card offence brings up: the penalty it falls under, and for a revoke the
#: demand to play the hand again.
_CARD_OFFENCE_RULES: Final = {
    broken: (
        penalty,
        "penalty-destination",
        *(("revoke-replay",) if penalty == "penalty-revoke" else ()),
    )
    for broken, penalty in OFFENCE_RULE.items()
}


def _make_penalty(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """An irregularity let stand at a laws table, then the hand played out: what does the
    offender receive or pay, all told? The answer is the hand's settlement."""
    if ask.rules.penalties == "none":
        raise QuestionError(
            f"the {ask.preset} rules state no penalties: a penalty question needs a rule set "
            "whose source does (hoffmann, peel)"
        )
    hand = deal_hand(
        ask.rules,
        ask.game,
        rng,
        attempt,
        session=ask.played,
        laws=True,
        played_before=ask.version >= 5,
    )
    committed: tuple[int, Message, int] | None = None
    pool = 0
    while not hand.over:
        if committed is None and rng.random() < 0.2:
            offences = _offences_open(hand, ask.rule, ask.version)
            if offences:
                action, told = offences[rng.randrange(len(offences))]
                start = len(hand.events)
                pool = hand.pool_at_start
                hand.apply(action)
                committed = (action.seat, told, start)
                continue
        random_step(hand, rng)
    if committed is None or hand.outcome == "flush":
        return None
    offender, told, start = committed
    lines = [
        e
        for e in hand.events[start:]
        if (e.seat == offender or e.kind in ("replay", "penalty", "irregular"))
        and e.kind != "declare"  # his declaration in turn, as anyone's
        and any(r in PENALTY_RULES for r in e.rules)
    ]

    # The penalty first: what a learner's record counts the question under, and what each
    # line is told under (the rule asked about, if the line applies it).
    def first(rules: Iterable[str]) -> list[str]:
        return sorted(
            (r for r in rules if r in PENALTY_RULES),
            key=lambda r: (
                r != ask.rule,
                not r.startswith("penalty-") or r == "penalty-destination",
            ),
        )

    apps = [RuleApplication(first(e.rules)[0], e.message) for e in lines]
    bound = first(r for e in lines for r in e.rules)
    if not bound or not ask.wants(bound):
        return None
    net, paid, settled = settled_payments(hand, offender)
    apps += settled
    if not paid:
        apps.append(RuleApplication(bound[0], msg("question.penalty-nothing", p=offender)))
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    stake, loo = hand.stake, hand.loo_amount()
    candidates = {net + d for d in (stake, -stake, loo, -loo, 3 * stake, -3 * stake)}
    candidates |= {0, -stake, -loo, -4 * stake}
    picked = amounts(rng, net, candidates)
    position = table_position(
        ask,
        hand,
        seats,
        stake=stake,
        pool=pool if ask.version >= 5 else hand.pool_at_start,
        played=sorted(seats(s) for s in hand.in_play),
        tricks=[seats(t.winner) for t in hand.tricks if t.winner is not None],
        offender=seats(offender),
    )
    prompt = msg("question.penalty", told=told, p=offender)
    return counters(
        ask, hand, prompt, bound, seats, learner, position, picked, net, apps, kind="penalty"
    )


PENALTY: Final = Kind(
    name="penalty",
    title="What an irregularity costs",
    make=_make_penalty,
    rules=PENALTY_RULES,
    since=3,
    shows="settlement",
)
