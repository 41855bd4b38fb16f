"""Issue 25, finding 4: a question is only offered when its position can happen under its rule
set. A loo is a real payment in every source (hoffmann ¶8, "pays … into the pool"; the
britannica, s. 34: the next pool is "the loos" alone; peel p. 23, "the amount of the loo"), so
a hand "after a loo" carries something, and a looed player pays more than nothing.

:func:`position_problems` is the invariant, checked over seeds of every kind x rule set x game
(``SEEDS`` a combination under ``LOO_TEST_PROFILE``: tests/profile.py)."""

from __future__ import annotations

import pytest

from games.loo import RuleSet
from games.loo.hand import Hand, HandSetup
from games.loo.questions import KINDS, Question, QuestionError, question
from games.loo.rulesets import PRESET_IDS
from tests.profile import size

#: Seeds per kind x rule set x game: 12 under ``ci``, 100 under ``thorough``. The coach's
#: questions take about a second each to make: 1 and 5.
SEEDS = size(ci=12, thorough=100)
DECLARE_SEEDS = size(ci=1, thorough=5)

COMBOS = [
    pytest.param(kind, preset, game)
    for kind in KINDS
    if kind != "source"  # about the texts: no position at a table
    for preset in PRESET_IDS
    for game in RuleSet.preset(preset).games
    if kind != "flush" or game == "five-card"
    if kind != "penalty" or RuleSet.preset(preset).penalties != "none"
]

#: What a single loo in a looed position costs at least under a fixed loo: peel's single (a
#: deal of one card each, A39) is looed for half the full loo (p. 23).
LOO_RULES = ("looed", "limited-loo", "unlimited-loo", "mixed-loo")


def smallest_loo(setup: HandSetup) -> int:
    """The least a loo can have put into the pool at this table."""
    rules, game = setup.rules, setup.game
    if rules.loo_payment != "fixed":
        return 1
    loo = rules.loo_amount * rules.stake(game)
    return min(loo, max(1, loo // 2)) if rules.single_deal != "none" else loo


def setup_problems(setup: HandSetup) -> list[str]:
    """What cannot be about the table a hand begins at."""
    problems = []
    if setup.first and (setup.pool or setup.hand_number != 1 or setup.prev_no_loo):
        problems.append(f"a first deal with something before it: {setup}")
    after_loo = not setup.first and not setup.prev_no_loo and not setup.prev_flush
    if after_loo and setup.pool < smallest_loo(setup):
        problems.append(f"a deal after a loo that carries {setup.pool}")
    return problems


def hand_problems(hand: Hand) -> list[str]:
    """What cannot be about a hand played (or begun) from a possible table."""
    problems = []
    for p in hand.payments:
        if p.amount <= 0:
            problems.append(f"a payment of {p.amount} ({p.rule})")
    if hand.looed and hand.loo_amount() <= 0:
        problems.append(f"a loo of {hand.loo_amount()}")
    return problems


def shown_problems(q: Question) -> list[str]:
    """What the position shows that cannot be."""
    pos, problems = q.position, []
    if pos.get("last_hand_looed") and not pos.get("carried"):
        problems.append("somebody was looed, and nothing is carried")
    if "pool" in pos and "stake" in pos and pos["pool"] <= 0:
        problems.append(f"a pool of {pos['pool']}")
    return problems


def position_problems(q: Question) -> list[str]:
    """Everything that makes ``q``'s position impossible under its rule set ([] if none): the
    table it begins at, the hand replayed to the moment asked about, and what it shows."""
    problems = shown_problems(q)
    if q.origin is not None:
        setup, log, _ = q.origin
        problems += setup_problems(setup)
        problems += hand_problems(Hand.replay(setup, log))
    return problems


@pytest.mark.parametrize(("kind", "preset", "game"), COMBOS)
def test_every_position_can_happen_under_its_rule_set(kind: str, preset: str, game: str) -> None:
    made = 0
    for seed in range(DECLARE_SEEDS if kind == "declare" else SEEDS):
        try:
            q = question(kind, preset, game=game, seed=seed)
        except QuestionError:
            continue  # no question of this kind here (the coverage says which)
        assert position_problems(q) == [], (kind, preset, game, seed)
        made += 1
    assert made >= 1, "no seed made a question here: nothing was checked"


def test_a_hand_after_a_loo_carries_the_loo() -> None:
    """The finding's own example: under the britannica a looed player paid 0 from a pool of 0
    in a hand said to follow a loo (s. 34: the next pool is the loos)."""
    seen = 0
    for seed in range(200):
        q = question("settlement", "britannica", game="three-card", seed=seed)
        assert q.origin is not None
        setup = q.origin[0]
        if not setup.first and not setup.prev_no_loo and not setup.prev_flush:
            seen += 1
            assert setup.pool > 0
        assert q.position["pool"] > 0
        assert position_problems(q) == []
    assert seen > 20


def test_an_ante_question_after_a_loo_carries_something() -> None:
    """About 8% of ante questions said "somebody was looed" with "counters carried: 0"."""
    looed = 0
    for preset in PRESET_IDS:
        for seed in range(60):
            q = question("procedure", preset, rule="ante", seed=seed)
            if q.position["last_hand_looed"]:
                looed += 1
                assert q.position["carried"] >= smallest_loo(q.origin[0]), (preset, seed)  # type: ignore[index]
    assert looed > 50


def test_older_versions_keep_their_positions() -> None:
    """Version 4 drew the carried pool at random, nothing included: kept, so that a stored
    question is made again exactly (tests/engine/test_question_versions.py checks them all)."""
    q = question("procedure", "britannica", rule="ante", seed=3, version=4)
    assert q.version == 4
