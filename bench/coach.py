"""Measure the coach (games/loo/coach.py) and the expert player (games/loo/expert.py); prints
figures, asserts nothing.

    .venv/bin/python bench/coach.py [--decisions N] [--samples S] [--hands H] [--jobs J]

The proof of the expert (issue 38) is the default: 2,000 paired hands (``--decisions 0``
skips part 1). Run it with ``nice -n 15`` and give ``uptime``'s load beside its figures.

1. The coach's answer, at its default number of samples, to decisions met in hands of five
   sensible players (hoffmann's rules, three-card and five-card Loo alike): declarations
   (play, pass, take the miss; at five-card the draw) and card plays, wherever there is more
   than one option (a single option is answered as fast, but says nothing). The goal: median
   <= 300 ms, 95th percentile <= 800 ms, fast enough to feel instant at the table.

2. The expert player (games.loo.bots.ExpertBot, games.loo.expert, at the table's samples,
   ``games.loo.autoplay.EXPERT_SAMPLES``) against sensible players as the site seats them
   (``Autoplay``: ``SENSIBLE_PLAYOUTS`` playouts, each decision seeded by the point of the
   hand). Tables of five sensible players play on, hand after hand (hoffmann's rules, half
   the hands three-card Loo and half five-card); before each hand the table is copied, and the
   copy plays the *same* hand again, the same deal, dealer, pool and balances, with an expert
   in seat 1 in place of the sensible player there. The other seats' decisions are the same
   wherever the hand is the same (each is seeded by the point of the hand), so they are
   reused from the first playing, not worked out again: the figures are those of playing
   both hands in full, only faster.

   A seat's *pool share* is its share of all the counters the players won, over the hands:
   of whatever was paid to a player, from the pool or by another player, the seat's part.
   It is what the game is played for: a table of equals gives each 1/5. (Counters paid
   *in*, antes and loos, are the other side; the mean
   net counters a hand, paired hand by hand, are printed too, with their standard error, so a
   share bought with loos shows.) The goal: the expert's share at least 1.25 times the
   sensible player's in the same seat, on the same hands, the ratio printed with its 95%
   interval (:func:`ratio_interval`), each game's and both together.
   ``expert_decision_median_ms`` is the median time of the expert's decisions that it weighed
   (more than one option; a single one is made at once): the goal, at most 300 ms.

The work is shared out among ``--jobs`` processes (2 by default, this machine's cores); each
table (``--tables`` a game) is one job, so the figures do not depend on how many run at once.
At the defaults it takes about 5.5 minutes of processor time, most of it the sensible players'
own playouts at five-card Loo (cProfile: the engine's ``legal_moves`` and ``step`` under
``playout``), the expert's hands costing little more than his own decisions: about 3 minutes
on two free cores; ``--hands`` shortens it.

The last line is exactly
``coach: advise_median_ms=A advise_p95_ms=B expert_decision_median_ms=C expert_share=D
sensible_share=E expert_ratio=R expert_ci_low=L expert_ci_high=H net_gain=G hands=N`` (on one
line): R the ratio of the shares, L and H its 95% interval, G the mean paired difference of
net counters a hand (expert less sensible), N the hands played by each of the two.
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.loo import RuleSet  # noqa: E402
from games.loo.autoplay import EXPERT_SAMPLES, SENSIBLE_PLAYOUTS, bot_seed  # noqa: E402
from games.loo.bots import ExpertBot, SensibleBot  # noqa: E402
from games.loo.coach import SAMPLES, advise  # noqa: E402
from games.loo.hand import Action, Hand  # noqa: E402
from games.loo.table import Table, TableConfig  # noqa: E402
from games.loo.view import PlayerView, view_for  # noqa: E402


def decisions(game: str, wanted: int) -> list[PlayerView]:
    """Views of the player to act, with more than one option, from hands of sensible players."""
    table = Table(TableConfig(game, RuleSet.preset("hoffmann"), 5, seed=f"bench-coach:{game}"))
    found: list[PlayerView] = []
    while len(found) < wanted:
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            options = view.options
            if options is not None and view.hand is not None and len(found) < wanted:
                many = len(options.legal.legal) if options.legal is not None else 2
                if many > 1 and len(options.choices or "xx") > 1:
                    found.append(view)
            table.apply(SensibleBot(len(hand.log), playouts=24).decide(view).action)
    return found


#: The seat of the expert (and of the sensible player he is compared with).
SEAT = 0
PLAYERS = 5


@dataclass
class Played:
    """One seat's results over some hands, hand by hand, and the expert's decision times."""

    #: The counters the seat won in each hand, and those every player won in it.
    wins: list[int] = field(default_factory=list)
    alls: list[int] = field(default_factory=list)
    nets: list[int] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)

    def add(self, other: Played) -> None:
        self.wins += other.wins
        self.alls += other.alls
        self.nets += other.nets
        self.ms += other.ms

    @property
    def won(self) -> int:
        return sum(self.wins)

    @property
    def everyone(self) -> int:
        return sum(self.alls)

    @property
    def share(self) -> float:
        return self.won / self.everyone if self.everyone else 0.0


def ratio_interval(expert: Played, sensible: Played) -> tuple[float, float, float]:
    """The ratio of the expert's pool share to the sensible player's on the same hands, and its
    95% interval: the delta method on the logarithm of the ratio of the four sums, each hand
    one paired observation (the expert's and the sensible player's playing of it). Hands of
    one table are taken as independent though the pool carries from one to the next."""
    sums = (expert.won, expert.everyone, sensible.won, sensible.everyone)
    if min(sums) <= 0:
        return 0.0, 0.0, 0.0
    ratio = (sums[0] / sums[1]) / (sums[2] / sums[3])
    hands = zip(expert.wins, expert.alls, sensible.wins, sensible.alls, strict=True)
    terms = [a / sums[0] - b / sums[1] - c / sums[2] + d / sums[3] for a, b, c, d in hands]
    mean = statistics.mean(terms)
    spread = math.sqrt(sum((t - mean) ** 2 for t in terms))
    return ratio, ratio * math.exp(-1.96 * spread), ratio * math.exp(1.96 * spread)


Decided = dict[tuple[Action, ...], Action]


def play(table: Table, expert: int | None, decided: Decided, result: Played) -> None:
    """Deal and play one hand of ``table``: every seat as the site's sensible player, but an
    expert of ``expert`` samples (if any) in :data:`SEAT`, seeded as at the site. A sensible
    decision is looked up in ``decided`` by the actions before it (the same hand, the same
    point: the same view and seed), or made and kept there."""
    hand: Hand = table.deal()
    before = hand.balances[SEAT]
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        view = view_for(hand, seat)
        if seat == SEAT and expert is not None:
            start = time.perf_counter()
            action = ExpertBot(bot_seed(table, seat), samples=expert).decide(view).action
            options = view.options
            assert options is not None
            many = len(options.legal.legal) if options.legal is not None else 2
            if many > 1 and len(options.choices or "xx") > 1:
                result.ms.append((time.perf_counter() - start) * 1000)
        else:
            key = tuple(hand.log)
            if key not in decided:
                bot = SensibleBot(bot_seed(table, seat), playouts=SENSIBLE_PLAYOUTS)
                decided[key] = bot.decide(view).action
            action = decided[key]
        table.apply(action)
    paid = [p for p in hand.payments if p.payee is not None]
    result.alls.append(sum(p.amount for p in paid))
    result.wins.append(sum(p.amount for p in paid if p.payee == SEAT))
    result.nets.append(hand.balances[SEAT] - before)


def compare(job: tuple[str, int, int, int]) -> tuple[Played, Played]:
    """One table of ``hands`` hands: the sensible seat's results, and the expert's in the
    same hands (see the module's docstring)."""
    game, number, hands, samples = job
    config = TableConfig(
        game, RuleSet.preset("hoffmann"), PLAYERS, seed=f"bench-expert:{game}:{number}", trace=False
    )
    table = Table(config)
    sensible, expert = Played(), Played()
    for _ in range(hands):
        again = copy.deepcopy(table)
        decided: Decided = {}
        play(table, None, decided, sensible)
        play(again, samples, decided, expert)
    return sensible, expert


GAMES = ("three-card", "five-card")


def shares(hands: int, tables: int, jobs: int, samples: int) -> dict[str, tuple[Played, Played]]:
    """Each game's sensible and expert results (``hands`` in all, half of each game)."""
    each = hands // (len(GAMES) * tables)
    work = [(game, n, each, samples) for game in GAMES for n in range(tables)]
    with Pool(jobs) as pool:
        done = pool.map(compare, work, chunksize=1)
    found = {game: (Played(), Played()) for game in GAMES}
    for (game, _, _, _), (s, e) in zip(work, done, strict=True):
        found[game][0].add(s)
        found[game][1].add(e)
    return found


def paired(label: str, sensible: Played, expert: Played) -> tuple[float, float, float, float]:
    """Print the paired figures of ``label``'s hands; return the share ratio, its 95% interval
    and the mean net gain a hand."""
    played = len(sensible.nets)
    ratio, low, high = ratio_interval(expert, sensible)
    gain = [e - s for e, s in zip(expert.nets, sensible.nets, strict=True)]
    mean = statistics.mean(gain) if gain else 0.0
    error = statistics.stdev(gain) / math.sqrt(played) if played > 1 else 0.0
    print(
        f"{label}: {played} hands each, pool share {expert.share:.3f} against "
        f"{sensible.share:.3f} (chance {1 / PLAYERS:.3f}), ratio {ratio:.3f} "
        f"(95% {low:.3f}-{high:.3f}); net counters a hand: expert "
        f"{statistics.mean(expert.nets) if played else 0:+.3f}, sensible "
        f"{statistics.mean(sensible.nets) if played else 0:+.3f}, paired difference "
        f"{mean:+.3f} (95% {mean - 1.96 * error:+.3f} to {mean + 1.96 * error:+.3f})"
    )
    return ratio, low, high, mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=60, help="per game (0: skip part 1)")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--hands", type=int, default=2000, help="hands each, both games")
    parser.add_argument("--tables", type=int, default=4, help="tables a game")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--expert-samples", type=int, default=EXPERT_SAMPLES)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"declare": [], "play": []}
    for game in GAMES:
        for n, view in enumerate(decisions(game, args.decisions)):
            start = time.perf_counter()
            advise(view, samples=args.samples, seed=n)
            kind = "play" if view.phase == "play" else "declare"
            times[kind].append((time.perf_counter() - start) * 1000)
    every = sorted(times["declare"] + times["play"]) or [0.0]
    for kind, ms in times.items():
        if not ms:
            continue
        print(
            f"{kind}: {len(ms)} decisions, median {statistics.median(ms):.0f} ms, "
            f"slowest {max(ms):.0f} ms"
        )
    p95 = every[min(len(every) - 1, round(0.95 * (len(every) - 1)))]
    start = time.perf_counter()
    found = shares(args.hands, args.tables, args.jobs, args.expert_samples)
    took = time.perf_counter() - start
    sensible, expert = Played(), Played()
    for game, (s, e) in found.items():
        paired(game, s, e)
        sensible.add(s)
        expert.add(e)
    print(f"expert ({args.expert_samples} samples) against sensible players, in {took:.0f} s:")
    ratio, low, high, gain = paired("both games", sensible, expert)
    expert_ms = statistics.median(expert.ms) if expert.ms else 0.0
    print(f"expert: {len(expert.ms)} decisions weighed, median {expert_ms:.0f} ms")
    print(
        f"coach: advise_median_ms={statistics.median(every):.0f} advise_p95_ms={p95:.0f} "
        f"expert_decision_median_ms={expert_ms:.0f} expert_share={expert.share:.3f} "
        f"sensible_share={sensible.share:.3f} expert_ratio={ratio:.3f} "
        f"expert_ci_low={low:.3f} expert_ci_high={high:.3f} net_gain={gain:+.3f} "
        f"hands={len(sensible.nets)}"
    )


if __name__ == "__main__":
    main()
