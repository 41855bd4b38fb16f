"""The coach models the table you sit at (issue 38): its figures against what the table's own
players make of the same decisions, and deals that respect what the others have done.

**Calibration.** Over a fixed set of positions (a decision of seat 0 at a table of the
practice table's own computer players, all of them taken from real hands), every option's
figure is compared with what really came of it: the hand taken from its real (hidden) deal,
the option applied, and the table's own bots (``games.loo.autoplay``'s, at their level)
finishing the hand, seat 0 playing on by the coach's own policy. The real deal is a draw from
exactly the distribution the coach must model (what the others hold, given all that is
public), so over many positions the outcome less the coach's figure averages 0 if the coach
is right. Options are grouped by what they are (the declaration; the draw; the highest,
lowest or a middle card); each group's mean difference is tested against its own standard
error: |z| > 2 for at most 10% of the groups (5% by chance, and a margin). The coach as it
was (a rule of thumb for the others, deals dealt uniformly) fails it: see
``calibration`` run with ``bench/coach_model.py --calibrate``.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterator

import pytest

from games.loo import RuleSet, coach_v7
from games.loo.autoplay import SENSIBLE_PLAYOUTS
from games.loo.bots import BeginnerBot, SensibleBot
from games.loo.coach import Advice, Estimate, advise, own_action
from games.loo.hand import Action, Hand
from games.loo.play import Trumps
from games.loo.table import Table, TableConfig
from games.loo.table_model import draw_kind
from games.loo.view import PlayerView, view_for
from tests.profile import size, thorough

Adviser = Callable[[PlayerView, str], Advice]


def _bot(level: str, seed: str) -> BeginnerBot | SensibleBot:
    if level == "sensible":
        return SensibleBot(seed, playouts=SENSIBLE_PLAYOUTS)
    return BeginnerBot(seed)


def _label(view: PlayerView, action: Action) -> str:
    if action.kind == "play":
        assert view.options is not None and view.options.legal is not None
        ranked = sorted(view.options.legal.legal, key=lambda c: (c.value, c.suit))
        place = ranked.index(next(c for c in ranked if c.code == action.cards[0]))
        return "card-" + ("low" if place == 0 else "high" if place == len(ranked) - 1 else "mid")
    if view.phase == "exchange" and action.choice == "play":
        assert view.hand is not None
        kind = draw_kind(Trumps.of(view.game, view.rules, view.trump), view.hand, action.cards)
        return "draw-" + kind
    return action.choice or action.kind


def _finish(hand: Hand, level: str, seed: str, declaring: bool = False) -> None:
    """The table's own bots finish the hand (``declaring``: its declarations and draws only);
    seat 0 plays on by the coach's own policy."""
    rng = random.Random(seed)
    while not hand.over and not (declaring and hand.phase == "play"):
        seat = hand.to_act
        assert seat is not None
        if seat == 0:
            hand.apply(own_action(hand, rng, level))
        else:
            view = view_for(hand, seat)
            hand.apply(_bot(level, f"{seed}:{len(hand.log)}").decide(view).action)


#: One comparison of a position: the outcome less the coach's figure, and the variance the
#: coach's model gives that difference (None: estimate it from the group itself).
Diff = tuple[float, float | None]


#: A position weighed: the view of seat 0, the coach's advice, the hand (its real deal), the
#: actions before it, and the seed of the hand.
Position = tuple[PlayerView, Advice, Hand, list[Action], str]


def positions(
    game: str, players: int, hands: int, level: str, adviser: Adviser
) -> Iterator[Position]:
    """The fixed positions (one a hand at most): a decision of seat 0 with more than one
    option, at a table of the table's own players at ``level`` (hoffmann's rules)."""
    rules = RuleSet.preset("hoffmann")
    for n in range(hands):
        seed = f"calibrate:{game}:{players}:{level}:{n}"
        table = Table(TableConfig(game, rules, players, seed=seed, trace=False))
        hand = table.deal()
        pick = random.Random(seed)
        log: list[Action] = []
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if seat == 0 and view.options is not None and view.hand is not None:
                advice = adviser(view, seed)
                if len(advice.options) > 1 and pick.random() < 0.6:
                    yield view, advice, hand, log, seed
                    break
                action = own_action(hand, random.Random(seed))
            else:
                action = _bot(level, f"{seed}:{len(hand.log)}").decide(view).action
            log.append(action)
            table.apply(action)


def calibration(
    game: str, players: int, hands: int, level: str, adviser: Adviser
) -> dict[str, list[Diff]]:
    """Outcome less the coach's figure, by group of options, over ``hands`` positions (one a
    hand): each option's counters (its variance the model's: the spread of the coach's deals,
    and its own error), its chance of a trick, and the difference between each option and the
    first offered (the same real deal and bots' seeds for both; its variance the group's)."""
    found: dict[str, list[Diff]] = defaultdict(list)
    where = f"{game}/{players}/{level}"
    for view, advice, hand, log, seed in positions(game, players, hands, level, adviser):
        _compare(found, where, view, advice, hand, log, level, seed)
    return found


def _compare(
    found: dict[str, list[Diff]],
    where: str,
    view: PlayerView,
    advice: Advice,
    hand: Hand,
    log: list[Action],
    level: str,
    seed: str,
) -> None:
    gains = []
    for estimate in advice.options:
        real = Hand.deal(hand.setup)
        for done in log:
            real.apply(done)
        before = real.balances[0]
        real.apply(estimate.action)
        _finish(real, level, seed)
        gain = real.balances[0] - before
        gains.append(gain)
        took = any(t.winner == 0 for t in real.tricks)
        label = f"{where}:{_label(view, estimate.action)}"
        spread = estimate.stderr**2 * (max(advice.effective, 2) + 1)
        found[label].append((gain - estimate.expected_counters, max(spread, 0.05)))
        p = estimate.p_trick
        found[label + ":trick"].append((took - p, max(p * (1 - p), 0.01)))
    first = advice.options[0]
    for gain, estimate in zip(gains[1:], advice.options[1:], strict=True):
        label = f"{where}:{_label(view, estimate.action)}-less-{_label(view, first.action)}"
        coach = estimate.expected_counters - first.expected_counters
        found[label].append((gain - gains[0] - coach, None))


def z_scores(found: dict[str, list[Diff]], least: int = 8) -> dict[str, float]:
    """Each group's mean difference over its standard error (groups of ``least`` or more)."""
    scores = {}
    for label, diffs in found.items():
        n = len(diffs)
        if n < least:
            continue
        values = [d for d, _ in diffs]
        mean = sum(values) / n
        if all(v is not None for _, v in diffs):
            variance = sum(v for _, v in diffs if v is not None) / n
        else:
            variance = sum((d - mean) ** 2 for d in values) / (n - 1)
        scores[label] = mean / math.sqrt(variance / n) if variance else 0.0
    return scores


HANDS = size(ci=40, thorough=300)
SAMPLES = size(ci=60, thorough=120)
#: The tables the figures are checked at: three-card Loo against sensible players and against
#: beginners (each group of options a z-score).
TABLES = (("three-card", 5, "sensible"), ("three-card", 4, "beginner"))


def _current(level: str) -> Adviser:
    def adviser(view: PlayerView, seed: str) -> Advice:
        return advise(view, samples=SAMPLES, seed=seed, level=level)

    return adviser


def _old(level: str) -> Adviser:
    """The coach as it was (:mod:`games.loo.coach_v7`: a rule of thumb for the others, every
    consistent deal alike), its figures in the coach's terms."""

    def adviser(view: PlayerView, seed: str) -> Advice:
        old = coach_v7.advise(view, samples=SAMPLES, seed=seed)
        options = tuple(
            Estimate(e.action, e.p_trick, e.expected_counters, e.stderr, e.as_good)
            for e in old.options
        )
        return Advice(old.seat, old.samples, old.seed, options, level, float(old.samples))

    return adviser


def _off(
    tables: tuple[tuple[str, int, str], ...], coach: Callable[[str], Adviser] = _current
) -> tuple[dict[str, float], int]:
    found: dict[str, list[Diff]] = {}
    for game, players, level in tables:
        found |= calibration(game, players, HANDS, level, coach(level))
    scores = z_scores(found)
    return {label: round(z, 2) for label, z in scores.items() if abs(z) > 2}, len(scores)


def test_the_figures_match_what_the_tables_own_players_make_of_each_option() -> None:
    off, groups = _off(TABLES)
    assert groups >= 10, groups
    assert len(off) <= 0.1 * groups, (off, groups)


@pytest.mark.xfail(
    thorough(),
    strict=True,
    reason=(
        "issue 38, left open: over 300 positions the coach still finds each way to draw about "
        "0.4-0.7 counter better than the sensible players let it be (card options within "
        "0.2). Measured apart (bench/coach_model.py --calibrate --parts): about 0.4 of it the "
        "deals (the model's declarations set against the bots': a rejection sampler under "
        "the model agrees with the coach within 0.1), 0.1-0.25 the later seats"
    ),
)
def test_the_five_card_figures_match_what_the_tables_own_players_make_of_each_option() -> None:
    off, groups = _off((("five-card", 4, "sensible"),))
    assert len(off) <= 0.1 * groups, (off, groups)


@pytest.mark.skipif(not thorough(), reason="the old coach's calibration: LOO_TEST_PROFILE=thorough")
@pytest.mark.parametrize("tables", [TABLES, (("five-card", 4, "sensible"),)], ids=["3c", "5c"])
def test_the_old_coach_fails_the_calibration(tables: tuple[tuple[str, int, str], ...]) -> None:
    """The same positions weighed by the coach as it was: more than 10% of the groups off."""
    off, groups = _off(tables, _old)
    assert len(off) > 0.1 * groups, (off, groups)
