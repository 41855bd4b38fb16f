"""``flush``: five-card hands with flushes, "Whose flush loos the board?" (or, asked about the
exemption, "Who is excused from paying?"); the answer is
:func:`~games.loo.flushes.compare_flushes`'s. Also asked about a lesson's own hands."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..authored import hands_field, trump_field
from ..cards import PACK, SUIT_NAMES, Card, card
from ..flushes import compare_flushes
from ..messages import msg
from ..play import Trumps
from ..rulesets import RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    QuestionError,
)

FLUSH_RULES: Final = (
    "flush-loos-the-board",
    "flush-precedence",
    "flush-tie-break",
    "flush-payment-exemption",
)


def _flush_hands(
    rng: random.Random, trumps: Trumps, players: int, flushes: int
) -> list[list[Card]] | None:
    """``players`` five-card hands, ``flushes`` of them dealt a flush (others may hold one by
    chance): the elder hand first."""
    pack = list(PACK)
    rng.shuffle(pack)
    holders = set(rng.sample(range(players), flushes))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for seat in sorted(holders):
        suit = rng.choice(list(SUIT_NAMES))
        with_pam = trumps.pam is not None and trumps.pam in pack and rng.random() < 0.35
        of_suit = [c for c in pack if c.suit == suit and c is not trumps.pam]
        need = 4 if with_pam else 5
        if len(of_suit) < need:
            return None
        cards = of_suit[:need] + ([trumps.pam] if with_pam and trumps.pam else [])
        for c in cards:
            pack.remove(c)
        rng.shuffle(cards)
        hands[seat] = cards
    for seat in range(players):
        if seat not in holders:
            hands[seat], pack = pack[:5], pack[5:]
    return hands


def _make_flush(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    if ask.game != "five-card":
        raise QuestionError(f"flushes are shown only in five-card Loo, not {ask.game} Loo")
    trump = rng.choice(list(SUIT_NAMES))
    trumps = Trumps.of(ask.game, ask.rules, trump)
    if ask.version >= 5:
        # The table the text allows (parlett's five-card Loo is for five to ten, 5c:Players),
        # at most six hands to a page.
        low, high = ask.rules.players(ask.game)
        players = rng.randint(max(low, 3), max(min(high, 6), low))
    else:
        players = rng.randint(3, 6)
    several = ask.rule in ("flush-precedence", "flush-tie-break") or rng.random() < 0.6
    hands = _flush_hands(rng, trumps, players, rng.randint(2, 3) if several else 1)
    if hands is None:
        return None
    return _flush(ask, trump, hands)


def _flush(ask: Ask, trump: str, hands: Sequence[Sequence[Card]]) -> Question | None:
    """Whose flush among ``hands`` loos the board (or who is excused from paying), if the rule
    asked about decides it."""
    players = len(hands)
    result = compare_flushes(ask.game, ask.rules, trump, hands)
    bound = [a.rule for a in result.explanations]
    if result.winner is None or not ask.wants(bound):
        return None
    position = {
        "game": ask.game,
        "rules": ask.preset,
        "trump": trump,
        "hands": [[c.code for c in h] for h in hands],
    }
    labels = [" ".join(c.display for c in h) for h in hands]
    if ask.rule == "flush-payment-exemption":
        # Asked about the exemption: who, of the others, does not pay the flush.
        return ask.question(
            "flush",
            msg("question.flush-exempt", trump=trump, p=result.winner),
            ["flush-payment-exemption", *bound],
            position=position,
            choices=tuple(Choice(str(i), labels[i]) for i in range(players) if i != result.winner),
            answer=tuple(str(i) for i in result.exempt),
            explanations=result.explanations,
            multiple=True,
        )
    return ask.question(
        "flush",
        msg("question.flush", trump=trump),
        bound,
        position=position,
        choices=tuple(Choice(str(i), labels[i]) for i in range(players)),
        answer=(str(result.winner),),
        explanations=result.explanations,
    )


def _flush_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    trump = trump_field(data)
    if ask.game != "five-card":
        raise QuestionError(f"flushes are shown only in five-card Loo, not {ask.game} Loo")
    return _flush(ask, trump, hands_field(data))


def _flush_under(q: Question, rules: RuleSet) -> tuple[str, ...] | None:
    hands = [[card(c) for c in h] for h in q.position["hands"]]
    result = compare_flushes(q.game, rules, q.position["trump"], hands)
    if result.winner is None:
        return None
    if q.multiple:
        if result.winner != q.prompt.args["p"]:
            return None  # another flush loos the board: the question asks of another
        return tuple(str(i) for i in result.exempt)
    return (str(result.winner),)


FLUSH: Final = Kind(
    name="flush",
    title="Whose flush wins",
    make=_make_flush,
    rules=FLUSH_RULES,
    game="five-card",
    at=_flush_at,
    shows="flush",
    answer_under=_flush_under,
)
