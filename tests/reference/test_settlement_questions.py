"""The answers of the ``settlement`` and ``penalty`` questions, worked out again by the second
model (issue 25).

Each question comes from a hand (its ``origin``: the setup and the actions up to the moment it
asks about). The hand is played again from them, its facts read as the differential tests read
them, and :func:`tests.reference.payments.settle` says what the asked seat receives or pays in
the settlement (the stake put up before the deal is not counted: "receive or pay" is the
settlement). The answer the question accepts must be that; the tricks it shows must be the
hand's. A failure names the question by its command line.

Sizes (``LOO_TEST_PROFILE``, tests/profile.py): 40 seeds per kind x rule set x game under
``ci``, 300 under ``thorough`` (about 15 s).
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.loo.hand import Hand
from games.loo.questions import Question, question
from games.loo.rulesets import RuleSet
from tests.profile import size

from .drive import facts_of
from .payments import Facts, settle

SEEDS = size(ci=40, thorough=300)

#: The penalty questions exist under the two sources that state penalties.
CASES = [
    ("settlement", name, game)
    for name in ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")
    for game in RuleSet.preset(name).games
] + [
    ("penalty", name, game) for name in ("hoffmann", "peel") for game in ("three-card", "five-card")
]


def before_of(hand: Hand) -> str:
    """How the pool the hand began with was made, as its setup records it."""
    setup = hand.setup
    if setup.first:
        return "first"
    if setup.prev_flush:
        return "flush"
    return "no-loo" if setup.prev_no_loo else "loo"


def expected(q: Question) -> tuple[int, Facts, Hand, int]:
    """What the model says the asked seat receives (negative: pays), with the hand's facts,
    the hand and the table seat of the learner (seat 0 of the question)."""
    assert q.origin is not None, "a question about a hand keeps where it came from"
    setup, log, _ = q.origin
    hand = Hand.replay(setup, log)
    assert hand.over, "a settlement question asks about a finished hand"
    facts = facts_of(hand, before_of(hand))
    learner = (hand.dealer - q.position["dealer"]) % hand.players
    asked = q.position.get("asked", q.position.get("offender"))
    seat = (asked + learner) % hand.players
    result = settle(facts)
    result.payments = [p for p in result.payments if p[3] != "ante"]
    nets, _ = result.nets(hand.players)
    return nets[seat], facts, hand, learner


def problem_of(q: Question) -> str | None:
    """What is wrong with the question's answer (or position), in words; None if nothing."""
    amount, facts, hand, learner = expected(q)
    shown = q.position.get("tricks")
    if shown is not None:
        tricks = [(s + learner) % hand.players for s in shown]
        if tuple(tricks) != facts.tricks:
            return f"shows tricks {shown}, the hand's are {facts.tricks} (from seat {learner})"
    answer = int(q.answer[0])
    if answer != amount:
        what = ", ".join(sorted({i.what for i in facts.irregular})) or "no irregularity"
        return f"answers {answer:+d}, the model {amount:+d} ({hand.outcome}; {what})"
    return None


@pytest.mark.parametrize(("kind", "name", "game"), CASES)
def test_answers_agree_with_the_second_model(kind: str, name: str, game: str) -> None:
    found: list[tuple[str, str]] = []
    for seed in range(SEEDS):
        q = question(kind, name, game=game, seed=seed)
        problem = problem_of(q)
        if problem is not None:
            command = f"question --kind {kind} --rules {name} --game {game} --seed {seed}"
            found.append((problem.split(" (", 1)[-1], f"{command}: {problem}"))
    if found:
        classes = Counter(k for k, _ in found)
        pytest.fail(
            f"{len(found)} of {SEEDS} {kind} questions ({name}, {game}) disagree with the model "
            f"({dict(classes)}):\n" + "\n".join(line for _, line in found[:8])
        )
