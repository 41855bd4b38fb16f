"""The coach: the odds of every option of a decision, from the player's view alone, against the
players at his table, knowing what they have done.

Perfect-information Monte Carlo, the method of GIB at bridge and of Kupferschmid & Helmert's
Skat player: deal the cards the player cannot see at random, consistently with everything he
has seen (:func:`~games.loo.worlds.sample_world`: his cards, the turn-up, the cards played, the
suits others have shown out of, the cards he gave up), weigh each deal by how likely it makes
what the others have done (:func:`sample_deals`), play every sampled deal out once for each
option, and average. It is given a :class:`~games.loo.view.PlayerView` and nothing else, so no
hidden card can sway it; every option is played out in the *same* sampled deals (common random
numbers), so the differences between options are measured more finely than each option's own
figure.

The model of the table (:mod:`games.loo.table_model`), at the level of its players (``level``:
``beginner``, ``careless``, ``sensible``, ``expert``), stated because the figures are only as
good as it is:

- the other seats decide as the table's own computer players do, by a policy *measured from
  them* (nested determinisation, a sensible player's own search inside each playout, would cost
  a hundred times too much): beginners and careless beginners choose every declaration, draw and
  card at random among those allowed, as they do; sensible players declare and draw with the
  frequencies measured for the table's sensible player in the same situation (game, phase, the
  miss free or not, how many have declared before him, his hand's strength), and play each card
  with the frequency measured for its kind (the rule of thumb's card, the highest or lowest of
  the others, another) in the same situation; experts are modelled as sensible players;
- the deals are weighted by the model's chance of the others' public actions in them
  (importance sampling): each earlier declaration, from the hand it was made with (a passed or
  exchanged hand is the one thrown up); at five-card Loo a player who stood, or who drew cards
  (the cards he kept are likelier to be trumps and high cards: C(keepers, kept)); and every card
  they played, replayed in the deal (a card the rules would have forbidden him gives the deal
  weight 0). The effective number of deals, (sum w)^2 / sum w^2, is reported;
- the player's own later decisions: cards by the rule of thumb (lead the highest, win as cheaply
  as possible, else throw the lowest), a later declaration as the sensible model has it;
- once :data:`EXACT_CARDS` cards or fewer are left in the hands, the rest is worked out exactly
  for each deal (expectimax): every card the others may play, weighed by the model's chance of
  it, his own the one that wins him most counters; and when the deals of the cards he cannot
  see then number :data:`EXACT_DEALS` or fewer, every one is counted (:func:`all_deals`) and
  the figures are exact (for the model), with no margin.

Five-card Loo's draws are weighed among the bots' handful of discard sets (stand; throw the
non-trumps below a queen; all the non-trumps; everything), not all 32 subsets of the hand.

A figure is the weighted mean over the deals, with its standard error and its 95% margin
(1.96 standard errors), the chance of a trick too; an option is ``as_good`` as the best when
the best's lead over it, deal by deal, is within that difference's own 95% margin, and then
the call is too close (``close_call``).
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import Any, Final

from .cards import PACK
from .errors import LooError
from .hand import Action, Hand, Trick
from .hand.state import HandState
from .rng import rng_for
from .table_model import (
    card_shares,
    deal_discards,
    likelihood,
    model,
    model_action,
    model_card,
    random_level,
)
from .view import PlayerView
from .worlds import World, _choices, _quick_card, build_world, sample_world

#: The deals sampled for an answer unless told otherwise: a standard error of up to about a third
#: of a counter on a declaration (less on a card), with a median answer of about 110 ms and a
#: 95th percentile of about 320 ms on this machine (``bench/coach.py``).
SAMPLES: Final = 120
#: The exact search takes over when this many cards or fewer are left in the hands: the last
#: two tricks of two players, or the last trick (six would take in the last two tricks of three
#: players, at three to five times the cost).
EXACT_CARDS: Final = 4


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
    #: Within error of the best option (the best is as good as itself): the best's lead over
    #: it, deal by deal, within :attr:`diff_margin95`.
    as_good: bool
    #: The chance of winning the pool with nobody playing against him (the others all pass:
    #: a lone miss-holder, a dealer everyone passes to), where no trick is played at all: a
    #: player who takes the miss at three may take a trick 18% of the time and still win +3.5
    #: counters on average, most of them so.
    p_unopposed: float = 0.0
    #: The 95% margin of ``expected_counters`` (1.96 standard errors; 0 when exact).
    margin95: float = 0.0
    #: The 95% margin of ``p_trick``.
    p_trick_margin95: float = 0.0
    #: The best option's lead over this one, deal by deal (0 for the best), and its 95% margin.
    diff: float = 0.0
    diff_margin95: float = 0.0
    #: Too close to call: another option's difference from this one is within its margin
    #: (for the best: some other option is as good; for another: it is as good as the best).
    close_call: bool = False
    #: Every deal of the hidden cards was counted (no sampling error).
    exact: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.to_dict(),
            "p_trick": round(self.p_trick, 4),
            "expected_counters": round(self.expected_counters, 4),
            "stderr": round(self.stderr, 4),
            "as_good": self.as_good,
            "p_unopposed": round(self.p_unopposed, 4),
            "margin95": round(self.margin95, 4),
            "p_trick_margin95": round(self.p_trick_margin95, 4),
            "diff": round(self.diff, 4),
            "diff_margin95": round(self.diff_margin95, 4),
            "close_call": self.close_call,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Advice:
    seat: int
    #: The number of deals of the hidden cards the figures rest on (sampled, or all of them).
    samples: int
    seed: int | str
    #: One per option, in the order the options are offered.
    options: tuple[Estimate, ...]
    #: The other seats' level the deals were played out and weighed at.
    level: str = "sensible"
    #: The effective sample size of the weighted deals ((sum w)^2 / sum w^2; ``samples`` when
    #: every deal weighs the same).
    effective: float = 0.0
    #: Every deal was counted: the figures are exact (for the model).
    exact: bool = False

    @property
    def best(self) -> Estimate:
        return max(self.options, key=lambda e: e.expected_counters)

    @property
    def close_call(self) -> bool:
        """Another option is within the margin of the best: too close to call."""
        return self.best.close_call

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "samples": self.samples,
            "seed": self.seed,
            "level": self.level,
            "effective": round(self.effective, 1),
            "exact": self.exact,
            "close_call": self.close_call,
            "best": self.best.action.to_dict(),
            "options": [e.to_dict() for e in self.options],
        }


def sample_deals(
    view: PlayerView, *, samples: int, seed: int | str, level: str = "sensible"
) -> list[tuple[World, float]]:
    """The deals of the hidden cards :func:`advise` weighs, each with its weight: dealt at
    random consistently with the hard facts (:func:`~games.loo.worlds.sample_world`), weighted
    by how likely the others' public actions are in it under the model of the table at
    ``level`` (:func:`~games.loo.table_model.likelihood`). If no deal explains them (every
    weight 0), every deal weighs 1."""
    strong = not random_level(level)  # (an unknown level is refused)
    rng = rng_for(seed, "coach")
    worlds = [sample_world(view, rng, keepers=strong) for _ in range(samples)]
    if strong and model().exchange_detail:
        worlds = [deal_discards(view, w, rng) for w in worlds]
    weights = [likelihood(view, w, level) * w.bias for w in worlds]
    total = sum(weights)
    if total <= 0:
        return [(w, 1.0) for w in worlds]
    top = max(weights)
    return [(w, x / top) for w, x in zip(worlds, weights, strict=True)]


def advise(
    view: PlayerView, *, samples: int = SAMPLES, seed: int | str, level: str = "sensible"
) -> Advice:
    """Every option of the decision ``view`` shows, weighed over ``samples`` sampled deals,
    the others playing as the table's players at ``level`` do (the module's docstring). The
    same view, seed and level give the same advice, byte for byte."""
    if view.options is None or view.hand is None or view.to_act != view.seat:
        raise CoachError(f"seat {view.seat} has no decision to make in this view")
    if samples < 2:
        raise CoachError("the coach needs at least 2 sampled deals for a margin of error")
    candidates = _choices(view)
    every = all_deals(view, level)
    deals = (
        every if every is not None else sample_deals(view, samples=samples, seed=seed, level=level)
    )
    results: list[list[tuple[float, float, bool]]] = [[] for _ in candidates]
    for w, (world, _) in enumerate(deals):
        for i, action in enumerate(candidates):
            hand = build_world(view, world)
            before = hand.balances[view.seat]
            hand.apply(action)
            rng = random.Random(f"{seed}:{w}")
            end, trick, alone = outcome(hand, rng, level=level, seat=view.seat)
            results[i].append((end - before, trick, alone))
    weights = [x for _, x in deals]
    means = [weighted_mean([g for g, _, _ in r], weights) for r in results]
    best = max(range(len(candidates)), key=lambda i: means[i])
    estimates = []
    for i, action in enumerate(candidates):
        gains = [g for g, _, _ in results[i]]
        took = [t for _, t, _ in results[i]]
        lead = [b - g for (b, _, _), g in zip(results[best], gains, strict=True)]
        diff = weighted_mean(lead, weights)
        diff_margin = Z95 * weighted_stderr(lead, weights)
        estimates.append(
            Estimate(
                action=action,
                p_trick=weighted_mean(took, weights),
                p_unopposed=weighted_mean([float(a) for _, _, a in results[i]], weights),
                expected_counters=means[i],
                stderr=weighted_stderr(gains, weights),
                as_good=diff <= diff_margin,
                margin95=Z95 * weighted_stderr(gains, weights),
                p_trick_margin95=Z95 * weighted_stderr(took, weights),
                diff=diff,
                diff_margin95=diff_margin,
                close_call=i != best and diff <= diff_margin,
            )
        )
    if any(e.close_call for e in estimates):
        estimates[best] = replace(estimates[best], close_call=True)
    effective = sum(weights) ** 2 / sum(x * x for x in weights)
    if every is not None:
        # Every deal counted, and each played out exactly (expectimax): no sampling error.
        estimates = [
            replace(
                e, stderr=0.0, margin95=0.0, p_trick_margin95=0.0, diff_margin95=0.0, exact=True
            )
            for e in estimates
        ]
        estimates = [replace(e, as_good=e.diff <= 1e-9, close_call=False) for e in estimates]
        return Advice(view.seat, len(deals), seed, tuple(estimates), level, effective, True)
    return Advice(view.seat, samples, seed, tuple(estimates), level, effective)


#: The most deals of the hidden cards the coach counts one by one instead of sampling, when
#: the play is down to :data:`EXACT_CARDS` cards (each deal is then worked out exactly).
EXACT_DEALS: Final = 300


def all_deals(view: PlayerView, level: str) -> list[tuple[World, float]] | None:
    """Every deal of the cards the player cannot see among the others' hands, each with its
    weight (:func:`~games.loo.table_model.likelihood`; those that contradict what is public
    left out), when the play is down to :data:`EXACT_CARDS` cards and there are at most
    :data:`EXACT_DEALS` deals; None otherwise."""
    if view.phase != "play" or view.hand is None:
        return None
    if sum(view.hand_sizes[s] for s in view.in_play) > EXACT_CARDS:
        return None
    unseen = [c for c in PACK if c not in view.visible_cards()]
    known = [list(view.shown_held[s]) if view.shown_held else [] for s in range(view.players)]
    others = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s]]
    need = {s: view.hand_sizes[s] - len(known[s]) for s in others}
    count, left = 1, len(unseen)
    for s in others:
        count *= math.comb(left, need[s])
        left -= need[s]
    if count > EXACT_DEALS:
        return None
    deals: list[tuple[World, float]] = []

    def deal(i: int, pool: list[Any], hands: dict[int, list[Any]]) -> None:
        if i == len(others):
            full = [
                list(view.hand or ()) if s == view.seat else known[s] + hands.get(s, [])
                for s in range(view.players)
            ]
            world = World(full, None, {}, [])
            weight = likelihood(view, world, level)
            if weight > 0:
                deals.append((world, weight))
            return
        s = others[i]
        for cards in itertools.combinations(pool, need[s]):
            rest = [c for c in pool if c not in cards]
            deal(i + 1, rest, {**hands, s: list(cards)})

    deal(0, unseen, {})
    if not deals:
        return None
    top = max(w for _, w in deals)
    return [(w, x / top) for w, x in deals]


#: 95% of a normal distribution lies within this many standard errors of its mean.
Z95: Final = 1.96


def weighted_mean(values: list[float], weights: list[float]) -> float:
    if min(values) == max(values):
        return values[0]  # every deal came to the same (no rounding error)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / sum(weights)


def weighted_stderr(values: list[float], weights: list[float]) -> float:
    """The standard error of the weighted (self-normalised importance-sampling) mean: with
    equal weights, the usual ``sd / sqrt(n)`` (with ``n - 1``)."""
    n = len(values)
    if min(values) == max(values):
        return 0.0
    mean = weighted_mean(values, weights)
    total = sum(weights)
    spread = sum((w * (v - mean)) ** 2 for v, w in zip(values, weights, strict=True))
    return math.sqrt(spread / total**2 * n / (n - 1))


def stderr(values: list[float]) -> float:
    """The standard error of the mean of ``values``."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(variance / n)


# -- playing a sampled deal out ----------------------------------------------------------------


def finish(
    hand: Hand, rng: random.Random, *, level: str = "sensible", seat: int | None = None
) -> None:
    """Play ``hand`` to its end by the coach's policy (the module's docstring): ``seat`` (the
    player advised) by the rule of thumb and, once :data:`EXACT_CARDS` or fewer are left in
    the hands, the card that wins him most on average against the model; the others as the
    model of the table at ``level`` has them decide (every seat as the player, if ``seat`` is
    None)."""
    while not hand.over:
        to_act = hand.to_act
        assert to_act is not None
        other = to_act != seat and seat is not None
        if hand.phase == "play":
            # Played by the quiet API (Hand.step: the legal moves are not worked out again).
            hand.step(model_card(hand, to_act, rng, level) if other else _own_card(hand, level))
        else:
            hand.apply(model_action(hand, rng, level) if other else own_action(hand, rng, level))


def outcome(hand: Hand, rng: random.Random, *, level: str, seat: int) -> tuple[float, float, bool]:
    """What ``hand`` comes to for ``seat`` played out by the coach's policy: his counters won
    (his balance at the end), his chance of taking a trick, and whether he won the pool with
    nobody playing against him. Once :data:`EXACT_CARDS` or fewer cards are left in the hands,
    the rest is not sampled but worked out exactly: every card the others may play, weighed by
    the model's chance of it; his own, the one that wins him most (expectimax)."""
    while not hand.over:
        to_act = hand.to_act
        assert to_act is not None
        if hand.phase == "play":
            if _cards_left(hand) <= EXACT_CARDS:
                value, trick = _expect(hand, seat, level)
                return value, trick, False
            if to_act == seat:
                hand.step(_quick_card(hand, to_act))
            else:
                hand.step(model_card(hand, to_act, rng, level))
        elif to_act == seat:
            hand.apply(own_action(hand, rng, level))
        else:
            hand.apply(model_action(hand, rng, level))
    took = any(t.winner == seat for t in hand.tricks)
    alone = not hand.tricks and list(hand.in_play) == [seat]
    return float(hand.balances[seat]), float(took), alone


def _expect(hand: Hand, seat: int, level: str) -> tuple[float, float]:
    """``seat``'s expected balance at the end and chance of a trick from here, the others'
    cards weighed by the model, his own chosen for the most counters (ties: the first)."""
    if hand.over:
        return float(hand.balances[seat]), float(any(t.winner == seat for t in hand.tricks))
    to_act = hand.to_act
    assert to_act is not None
    moves = hand.legal_moves(to_act, explain=False).legal
    if len(moves) == 1:
        # Every hand searched here is the search's own (a playout's, or a copy): played on.
        hand.step(moves[0])
        return _expect(hand, seat, level)
    if to_act == seat:
        return max((_expect(_after(hand, c), seat, level) for c in moves), key=lambda v: v[0])
    shares = card_shares(hand, to_act, moves, level)
    value = trick = 0.0
    for c in moves:
        v, t = _expect(_after(hand, c), seat, level)
        value += shares[c] * v
        trick += shares[c] * t
    return value, trick


def own_action(hand: Hand, rng: random.Random, level: str = "sensible") -> Action:
    """The advised player's own later decision in a playout: a card by the rule of thumb, by
    the expectimax search against the model at ``level`` once :data:`EXACT_CARDS` or fewer are
    left in the hands; a declaration as the sensible player's measured policy has it."""
    seat = hand.to_act
    assert seat is not None
    if hand.phase != "play":
        return model_action(hand, rng, "sensible")
    return Action.play(seat, _own_card(hand, level), civil=False)


def _own_card(hand: Hand, level: str) -> Any:
    seat = hand.to_act
    assert seat is not None
    moves = hand.legal_moves(seat, explain=False).legal
    if len(moves) > 1 and _cards_left(hand) <= EXACT_CARDS:
        return max(moves, key=lambda c: _expect(_after(hand, c), seat, level)[0])
    return _quick_card(hand, seat)


def _cards_left(hand: Hand) -> int:
    return sum(len(hand.hands[s]) for s in hand.active())


def _after(hand: Hand, played: Any) -> Hand:
    child = _clone(hand)
    child.step(played)
    return child


def _clone(hand: Hand) -> Hand:
    """A copy to search in, made field by field (a deep copy costs a millisecond, which the
    search cannot afford): its lists, dicts and tricks are new, the cards, rules and setup
    (immutable) shared. Only searched with ``trace`` off, in the play, with no irregularity."""
    new = copy.copy(hand)
    for name in HandState.__slots__:
        value: Any = getattr(hand, name)
        if type(value) is list:
            if value and type(value[0]) is list:
                value = [list(v) for v in value]
            elif value and type(value[0]) is Trick:
                value = [_trick(t) for t in value]
            else:
                value = list(value)
        elif type(value) is dict:
            value = {k: list(v) for k, v in value.items()}
        elif type(value) is Trick:
            value = _trick(value)
        else:
            continue
        setattr(new, name, value)
    return new


def _trick(t: Trick) -> Trick:
    return Trick(t.leader, list(t.plays), t.civil, t.winner)
