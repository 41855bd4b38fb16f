"""Measure how fast the engine makes rule questions; prints figures, asserts nothing.

    .venv/bin/python bench/questions.py [--count N]

For every question kind under every rule set, ``N`` questions (seeds 0..N-1, over the rule
set's games in turn; every other one about a rule the kind can ask about there, from
:func:`games.loo.questions.coverage`, as the trainer and the quizzes ask for), each timed on
its own. Printed: each kind's median and slowest milliseconds per question, and the same
run's baseline, a bare shuffle of the pack by ``random.Random`` (a question is that many
shuffles). A class of forty given individual questions at once needs a kind's median to stay
well under 20 ms.

The last line is exactly ``questions: per_second=N slowest_kind=K slowest_ms=M``: questions
made per second over the whole run, and the kind with the highest median (M, in ms), over the
kinds about rules. A kind of judgement (the coach's ``declare``: each question weighs its
options over a few hundred sampled deals, about half a second) is a different thing: it is
timed on fewer questions (``--judgement-count``) and printed on a line of its own before.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.loo import PACK, RuleSet  # noqa: E402
from games.loo.questions import KIND_BY_NAME, KINDS, coverage, question  # noqa: E402
from games.loo.rulesets import PRESET_IDS  # noqa: E402


def shuffle_ms(count: int = 20_000) -> float:
    rng = random.Random(1)
    pack = list(PACK)
    start = time.perf_counter()
    for _ in range(count):
        rng.shuffle(pack)
    return (time.perf_counter() - start) * 1000 / count


def time_kind(kind: str, count: int) -> list[float]:
    """Milliseconds for each question of ``kind``, every rule set in turn."""
    times: list[float] = []
    for preset in PRESET_IDS:
        # The games where the kind asks about something (flushes: five-card Loo; penalties:
        # the rule sets whose source states them).
        games = [g for g in RuleSet.preset(preset).games if coverage(preset, g)[kind]]
        if not games:
            continue
        for seed in range(count):
            game = games[seed % len(games)]
            rules = coverage(preset, game)[kind]
            rule = rules[seed // 2 % len(rules)] if seed % 2 and rules else None
            start = time.perf_counter()
            question(kind, preset, game=game, rule=rule, seed=seed)
            times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="questions per kind and rule set")
    parser.add_argument(
        "--judgement-count", type=int, default=4, help="the same for a kind of judgement"
    )
    args = parser.parse_args()
    base = shuffle_ms()
    print(f"baseline: a shuffle of the pack takes {base:.4f} ms")
    medians: dict[str, float] = {}
    total_ms = 0.0
    total = 0
    judged: list[str] = []
    for kind in KINDS:
        if KIND_BY_NAME[kind].judgement:
            times = time_kind(kind, min(args.count, args.judgement_count))
            judged.append(
                f"{kind} (judgement): median {statistics.median(times):.0f} ms, slowest "
                f"{max(times):.0f} ms, {len(times)} questions"
            )
            continue
        times = time_kind(kind, args.count)
        medians[kind] = statistics.median(times)
        total_ms += sum(times)
        total += len(times)
        print(
            f"{kind:>13}: median {medians[kind]:.3f} ms ({medians[kind] / base:.0f} shuffles), "
            f"slowest {max(times):.1f} ms, {len(times)} questions"
        )
    for line in judged:
        print(line)
    slowest = max(medians, key=medians.__getitem__)
    per_second = round(total * 1000 / total_ms)
    worst = f"{medians[slowest]:.3f}"
    print(f"questions: per_second={per_second} slowest_kind={slowest} slowest_ms={worst}")


if __name__ == "__main__":
    main()
