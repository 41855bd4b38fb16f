"""Measure the coach (games/loo/coach.py); prints figures, asserts nothing.

    .venv/bin/python bench/coach.py [--decisions N] [--samples S]

The coach's answer, at its default number of samples, to decisions met in hands of five
sensible players (hoffmann's rules, three-card and five-card Loo alike): declarations (play,
pass, take the miss; at five-card the draw) and card plays, wherever there is more than one
option (a single option is answered as fast, but says nothing). The goal: median <= 300 ms,
95th percentile <= 800 ms, fast enough to feel instant at the table.

The expert player (part 2 of issue 28, not yet built) will add its decision time and the pool
shares of one expert and of one sensible player at a table of five sensible players, over the
same deals; until then those fields are printed as 0.

The last line is exactly
``coach: advise_median_ms=A advise_p95_ms=B expert_decision_median_ms=C expert_share=D
sensible_share=E hands=N`` (on one line).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.loo import RuleSet  # noqa: E402
from games.loo.bots import SensibleBot  # noqa: E402
from games.loo.coach import SAMPLES, advise  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=60, help="per game")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"declare": [], "play": []}
    for game in ("three-card", "five-card"):
        for n, view in enumerate(decisions(game, args.decisions)):
            start = time.perf_counter()
            advise(view, samples=args.samples, seed=n)
            kind = "play" if view.phase == "play" else "declare"
            times[kind].append((time.perf_counter() - start) * 1000)
    every = sorted(times["declare"] + times["play"])
    for kind, ms in times.items():
        print(
            f"{kind}: {len(ms)} decisions, median {statistics.median(ms):.0f} ms, "
            f"slowest {max(ms):.0f} ms"
        )
    p95 = every[min(len(every) - 1, round(0.95 * (len(every) - 1)))]
    print("expert player: not built yet (issue 28 part 2); its fields print 0")
    print(
        f"coach: advise_median_ms={statistics.median(every):.0f} advise_p95_ms={p95:.0f} "
        "expert_decision_median_ms=0 expert_share=0 sensible_share=0 hands=0"
    )


if __name__ == "__main__":
    main()
