"""The expert computer player's search (issue 38): how :class:`games.loo.bots.ExpertBot` decides.

Where the sensible player loses counters was measured first (``bench/coach.py``'s paired
hands, the same deals played with the expert and with the sensible player in one seat): nearly
all of the expert's lead comes from its *declarations* (play, pass, take the miss, the
five-card draw); an expert that declared as the sensible player does and played its cards by
the coach gained nothing measurable at three-card Loo and a little at five-card. So the expert
spends its time where the counters are:

- **Declaring** (three-card declarations, the five-card exchange): every option is played out
  in the same :data:`DECLARE_SAMPLES` sampled deals of the cards it cannot see, the coach's
  (:func:`~games.loo.coach.sample_deals`: its view alone, each deal weighed by how likely it
  makes what the others have declared and drawn, as the coach's model of sensible players has
  it), each deal finished by that model (:func:`~games.loo.coach.finish`: the later declarers
  and the others' cards as the table's sensible players were measured to decide, its own cards
  by the rule of thumb, the last tricks searched exactly). Each option is scored by the
  counters it comes to on average *plus* :data:`POOL_WEIGHT` times the counters it wins (from
  the pool, or a flush paid by the others): of two options worth as much, the one that
  contests the pool.
- **Playing a card**: the coach's best card over :data:`PLAY_SAMPLES` sampled deals
  (:func:`~games.loo.coach.advise`).

It is given a :class:`~games.loo.view.PlayerView` and a seed and nothing else: the same view
and seed give the same decision, and no card it cannot see can sway it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .coach import (
    Advice,
    Estimate,
    advise,
    finish,
    sample_deals,
    weighted_mean,
    weighted_stderr,
)
from .hand import Action
from .view import PlayerView
from .worlds import _choices, build_world

#: Sampled deals a declaration is weighed over (every option in the same deals).
DECLARE_SAMPLES: Final = 48
#: Sampled deals a card is weighed over (the coach's).
PLAY_SAMPLES: Final = 24
#: The weight of the counters an option wins, beside the counters it comes to (2: the pool
#: share rose from 1 to 2 at a small cost in net counters, ``docs/expert.md``).
POOL_WEIGHT: Final = 2.0


@dataclass(frozen=True)
class Weighed:
    """One option of a declaration, over the sampled deals."""

    action: Action
    #: Counters it comes to on average (won less paid), and their standard error.
    counters: float
    stderr: float
    #: Counters it wins on average (a share of the pool, a flush paid by the others).
    won: float
    #: The chance of taking at least one trick.
    p_trick: float

    @property
    def score(self) -> float:
        return self.counters + POOL_WEIGHT * self.won


@dataclass(frozen=True)
class Judgement:
    """The expert's options and its choice (the first of the best scores)."""

    options: tuple[Weighed, ...]
    samples: int

    @property
    def best(self) -> Weighed:
        return max(self.options, key=lambda w: w.score)


def judge(view: PlayerView, seed: int | str, samples: int = DECLARE_SAMPLES) -> Judgement:
    """Every option of the decision ``view`` shows, weighed over ``samples`` sampled deals:
    the coach's (:func:`~games.loo.coach.sample_deals`, each weighed by how likely it makes
    what the others have done), each finished with the others deciding as the coach's model
    of sensible players has them, the expert by the coach's own policy."""
    candidates = _choices(view)
    seat = view.seat
    deals = sample_deals(view, samples=samples, seed=f"{seed}:expert-judge")
    weights = [x for _, x in deals]
    results: list[list[tuple[int, int, bool]]] = [[] for _ in candidates]
    for w, (world, _) in enumerate(deals):
        for i, action in enumerate(candidates):
            hand = build_world(view, world)
            before = hand.balances[seat]
            paid = len(hand.payments)
            hand.apply(action)
            finish(hand, random.Random(f"{seed}:{w}"), seat=seat)
            won = sum(p.amount for p in hand.payments[paid:] if p.payee == seat)
            took = any(t.winner == seat for t in hand.tricks)
            results[i].append((hand.balances[seat] - before, won, took))
    options = []
    for action, rows in zip(candidates, results, strict=True):
        gains = [float(g) for g, _, _ in rows]
        options.append(
            Weighed(
                action=action,
                counters=weighted_mean(gains, weights),
                stderr=weighted_stderr(gains, weights),
                won=weighted_mean([float(x) for _, x, _ in rows], weights),
                p_trick=weighted_mean([float(t) for _, _, t in rows], weights),
            )
        )
    return Judgement(tuple(options), samples)


def play_advice(view: PlayerView, seed: int, samples: int = PLAY_SAMPLES) -> Advice:
    """The coach's figures for a card to play."""
    return advise(view, samples=samples, seed=seed)


def as_estimates(judgement: Judgement) -> tuple[Estimate, ...]:
    """A judgement's options in the coach's terms (for a reason given in its figures)."""
    best = judgement.best
    return tuple(
        Estimate(
            action=w.action,
            p_trick=w.p_trick,
            expected_counters=w.counters,
            stderr=w.stderr,
            as_good=w is best,
        )
        for w in judgement.options
    )
