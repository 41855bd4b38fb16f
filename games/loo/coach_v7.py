"""The coach as it was before issue 38, kept for the question bank's versions up to 7: their
``declare`` questions were graded by this coach's figures (later declarers by the bots' rule of
thumb, every consistent deal weighing alike), and a stored question must be made again exactly
(:data:`games.loo.questions.base.VERSIONS`). Version 8 on asks :mod:`games.loo.coach`, which
models the table. Do not change this module: a change would change what stored answers mean.

Perfect-information Monte Carlo: deal the cards the player cannot see at random, consistently
with everything he has seen, play every sampled deal out once for each option (the same deals
for every option), and average; the last :data:`EXACT_CARDS` cards searched exactly (max^n).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from .coach import _after, _cards_left, stderr
from .errors import LooError
from .hand import Action, Hand
from .rng import rng_for
from .view import PlayerView
from .worlds import _choices, _quick_card, build_world, quick_action, sample_world

#: The deals sampled for an answer unless told otherwise: a standard error of up to about a third
#: of a counter on a declaration (less on a card), with a median answer of about 110 ms and a
#: 95th percentile of about 320 ms on this machine (``bench/coach.py``).
SAMPLES: Final = 120
#: The exact search takes over when this many cards or fewer are left in the hands: the last
#: two tricks of two players, or the last trick (six would take in the last two tricks of three
#: players, at three to five times the cost).
EXACT_CARDS: Final = 4
#: Twice the standard error: an option within this many standard errors of the best is as good.
AS_GOOD_ERRORS: Final = 2.0


class CoachError(LooError):
    """The coach was asked about a view with no decision of his in it."""


@dataclass(frozen=True)
class Estimate:
    action: Action
    #: The chance of taking at least one trick (0 for an option that leaves the play).
    p_trick: float
    #: Counters won (or lost, negative) on average: pool share, loo, every payment of the rules.
    expected_counters: float
    #: The standard error of ``expected_counters``.
    stderr: float
    #: Within error of the best option (the best is as good as itself).
    as_good: bool
    #: The chance of winning the pool with nobody playing against him (the others all pass:
    #: a lone miss-holder, a dealer everyone passes to), where no trick is played at all: a
    #: player who takes the miss at three may take a trick 18% of the time and still win +3.5
    #: counters on average, most of them so.
    p_unopposed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.to_dict(),
            "p_trick": round(self.p_trick, 4),
            "expected_counters": round(self.expected_counters, 4),
            "stderr": round(self.stderr, 4),
            "as_good": self.as_good,
            "p_unopposed": round(self.p_unopposed, 4),
        }


@dataclass(frozen=True)
class Advice:
    seat: int
    samples: int
    seed: int | str
    #: One per option, in the order the options are offered.
    options: tuple[Estimate, ...]

    @property
    def best(self) -> Estimate:
        return max(self.options, key=lambda e: e.expected_counters)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "samples": self.samples,
            "seed": self.seed,
            "best": self.best.action.to_dict(),
            "options": [e.to_dict() for e in self.options],
        }


def advise(view: PlayerView, *, samples: int = SAMPLES, seed: int | str) -> Advice:
    """Every option of the decision ``view`` shows, weighed over ``samples`` sampled deals.
    The same view and seed give the same advice, byte for byte."""
    if view.options is None or view.hand is None or view.to_act != view.seat:
        raise CoachError(f"seat {view.seat} has no decision to make in this view")
    if samples < 2:
        raise CoachError("the coach needs at least 2 sampled deals for a margin of error")
    candidates = _choices(view)
    rng = rng_for(seed, "coach")
    results: list[list[tuple[float, bool, bool]]] = [[] for _ in candidates]
    for w in range(samples):
        world = sample_world(view, rng)
        for i, action in enumerate(candidates):
            hand = build_world(view, world)
            before = hand.balances[view.seat]
            hand.apply(action)
            finish(hand, random.Random(f"{seed}:{w}"))
            took = any(t.winner == view.seat for t in hand.tricks)
            alone = not hand.tricks and list(hand.in_play) == [view.seat]
            results[i].append((hand.balances[view.seat] - before, took, alone))
    means = [sum(g for g, _, _ in r) / samples for r in results]
    best = max(range(len(candidates)), key=lambda i: means[i])
    estimates = []
    for i, action in enumerate(candidates):
        gains = [g for g, _, _ in results[i]]
        lead = [b - g for (b, _, _), g in zip(results[best], gains, strict=True)]
        estimates.append(
            Estimate(
                action=action,
                p_trick=sum(t for _, t, _ in results[i]) / samples,
                p_unopposed=sum(a for _, _, a in results[i]) / samples,
                expected_counters=means[i],
                stderr=stderr(gains),
                as_good=sum(lead) / samples <= AS_GOOD_ERRORS * stderr(lead),
            )
        )
    return Advice(view.seat, samples, seed, tuple(estimates))


def finish(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end by the coach's policy (the module's docstring)."""
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        if hand.phase == "play":
            if _cards_left(hand) <= EXACT_CARDS:
                _search(hand)
                return
            hand.step(_quick_card(hand, seat))
        else:
            hand.apply(quick_action(hand, rng))


def _search(hand: Hand) -> None:
    """Play the rest of the tricks as max^n search chooses, in ``hand`` itself."""
    while not hand.over:
        seat = hand.to_act
        assert seat is not None and hand.phase == "play"
        moves = hand.legal_moves(seat, explain=False).legal
        if len(moves) > 1:
            best = max(moves, key=lambda c: _value(_after(hand, c))[seat])
            hand.step(best)
        else:
            hand.step(moves[0])


def _value(hand: Hand) -> tuple[int, ...]:
    """Every seat's counters at the end, each playing his best (max^n); ties go to the
    card first offered, in the order the legal moves list them."""
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        moves = hand.legal_moves(seat, explain=False).legal
        if len(moves) == 1:
            hand.step(moves[0])
            continue
        return max((_value(_after(hand, c)) for c in moves), key=lambda v: v[seat])
    return tuple(hand.balances)
