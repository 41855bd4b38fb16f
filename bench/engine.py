"""Measure the rules engine; prints figures, asserts nothing.

    .venv/bin/python bench/engine.py [--hands N] [--bot-hands N]

1. Random full hands of five-card Loo with 6 players (every decision a random legal one,
   among the choices the engine itself offers): hands per second.
2. The cost of one such hand divided by the cost of a bare shuffle-and-deal of the 52 cards
   (``random.shuffle`` and slicing six hands and a turn-up), measured in the same run.
   Also the Python bytecodes each executes (a trace function counts them): the work itself,
   which neither the machine's load nor its clock moves, unlike the times.
3. The sensible bot's median decision time, at a five-card table of one sensible bot and five
   beginners, and its share of the pools won there (chance would give 1/6).

How the random decisions are drawn (the driver's own cost counts in the hand's): every choice
is uniform among what the engine offers the player to act, ``Hand.choices()`` (the quiet
answer the bots' playouts use: the same rule code as ``Hand.options()``, checked against it
by tests/engine/test_quiet_api.py), drawn inside the timed loop as
``seq[int(rng.random() * len(seq))]`` rather than ``rng.choice(seq)`` (one C call instead of
three Python frames; uniform up to float rounding, below 2**-50), and carried out by
``Hand.step``, which refuses anything not offered (the table takes the hand's counters and
pool when it deals the next). An exchange is "play" or "pass"
uniformly, then a number of discards uniform from 0 to ``Hand.discard_limit()``, then a set
of that many of the player's cards uniform among all such sets: drawn from the list of every
such set (``itertools.combinations``, in the hand's order) rather than by ``rng.sample`` with
``rng.randint``, which draw the same distribution with a dozen Python frames. The baseline is
untouched: ``random.shuffle`` of the pack by a ``random.Random``, and slicing.

The last line is exactly
``engine: hands_per_second=N hand_to_shuffle_ratio=R bot_decision_ms=M bot_pool_share=S``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import cache
from itertools import combinations
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.loo import PACK, RuleSet  # noqa: E402
from games.loo.bots import BeginnerBot, Bot, SensibleBot  # noqa: E402
from games.loo.table import Table, TableConfig  # noqa: E402
from games.loo.view import view_for  # noqa: E402


@cache
def discard_sets(held: int, count: int) -> list[tuple[int, ...]]:
    """Every set of ``count`` places in a hand of ``held`` cards."""
    return list(combinations(range(held), count))


def time_random_hands(count: int) -> float:
    """Seconds per random full five-card hand, 6 players (the driver's cost included)."""
    rng = random.Random(1)
    draw = rng.random
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 6, 1, trace=False))
    start = time.perf_counter()
    for _ in range(count):
        hand = table.deal()
        choices = hand.choices
        step = hand.step
        # A uniformly random choice among those the engine offers (see the docstring); nothing
        # is offered once the hand is over. The exchange first (a flush may end the hand in it):
        offered = choices()
        while offered and hand.phase == "exchange":
            choice = offered[int(draw() * len(offered))]
            most = hand.discard_limit() if choice == "play" else 0
            if most:
                seat = hand.to_act
                assert seat is not None
                held = hand.hands[seat]
                sets = discard_sets(len(held), int(draw() * (most + 1)))
                places = sets[int(draw() * len(sets))]
                step(choice, [held[i] for i in places])
            else:
                step(choice)
            offered = choices()
        # then the cards.
        while offered:
            step(offered[int(draw() * len(offered))])
            offered = choices()
        assert hand.over
    return (time.perf_counter() - start) / count


def time_shuffle_and_deal(count: int) -> float:
    """Seconds per bare shuffle of 52 cards and deal of six hands of five and a turn-up."""
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(count):
        pack = list(PACK)
        rng.shuffle(pack)
        hands = [pack[i * 5 : i * 5 + 5] for i in range(6)]
        turn_up = pack[30]
        del hands, turn_up
    return (time.perf_counter() - start) / count


def bytecodes(run: Callable[[int], float], count: int) -> float:
    """Python bytecodes executed per item of ``run(count)``, counted by a trace function (opcode
    events): the work itself, which the machine's load and clock do not move."""
    executed = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal executed
        frame.f_trace_opcodes = True
        if event == "opcode":
            executed += 1
        return trace

    sys.settrace(trace)
    try:
        run(count)
    finally:
        sys.settrace(None)
    return executed / count


def bot_table(hands: int) -> tuple[float, float]:
    """(median decision ms, share of the pools won) for one sensible bot against five beginners."""
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 6, 2024, trace=False))
    bots: list[Bot] = [SensibleBot("bench"), *(BeginnerBot(f"bench:{i}") for i in range(1, 6))]
    times: list[float] = []
    won = [0] * 6
    for _ in range(hands):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            start = time.perf_counter()
            decision = bots[seat].decide(view)
            if seat == 0:
                times.append(time.perf_counter() - start)
            table.apply(decision.action)
        for payment in hand.payments:
            if payment.payer is None and payment.payee is not None:
                won[payment.payee] += payment.amount
    return statistics.median(times) * 1000, won[0] / max(1, sum(won))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--bot-hands", type=int, default=150)
    args = parser.parse_args()
    # Interleave the two measurements in short rounds so that both see the same machine load.
    rounds = 10
    hand_times, shuffle_times = [], []
    for _ in range(rounds):
        hand_times.append(time_random_hands(max(1, args.hands // rounds)))
        shuffle_times.append(time_shuffle_and_deal(max(1, 20 * args.hands // rounds)))
    per_hand = statistics.median(hand_times)
    per_shuffle = statistics.median(shuffle_times)
    print(f"random five-card hand, 6 players: {per_hand * 1e6:.0f} us")
    print(f"bare shuffle-and-deal of 52 cards: {per_shuffle * 1e6:.1f} us")
    # A slowed machine slows the shuffle more than the hand: the rounds show the spread.
    ratios = sorted(h / s for h, s in zip(hand_times, shuffle_times, strict=True))
    print(f"hand / shuffle by round: {ratios[0]:.1f} to {ratios[-1]:.1f}")
    counted = max(10, args.hands // 10)
    hand_ops = bytecodes(time_random_hands, counted)
    shuffle_ops = bytecodes(time_shuffle_and_deal, 10 * counted)
    print(
        f"Python bytecodes: {hand_ops:.0f} a hand, {shuffle_ops:.0f} a shuffle-and-deal "
        f"(ratio {hand_ops / shuffle_ops:.1f})"
    )
    decision_ms, share = bot_table(args.bot_hands)
    print(f"sensible bot: median decision {decision_ms:.1f} ms over {args.bot_hands} hands")
    print(f"sensible bot: share of the pools won {share:.3f} (chance: {1 / 6:.3f})")
    print(
        f"engine: hands_per_second={1 / per_hand:.0f} "
        f"hand_to_shuffle_ratio={per_hand / per_shuffle:.1f} "
        f"bot_decision_ms={decision_ms:.1f} bot_pool_share={share:.3f}"
    )


if __name__ == "__main__":
    main()
