"""Play many hands at one table with computer players, and count what happened."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .bots import BOT_KINDS, make_bot
from .errors import LooError
from .rulesets import RuleSet
from .table import Table, TableConfig
from .view import view_for

#: How each way a hand can end is counted (``hand.outcome``): every outcome has its own count,
#: so that a hand taken without play is never counted as a flush.
_OUTCOME_COUNTS: Final = {
    "played": "played",
    "all-pass": "all_pass",
    "lone-miss": "lone_miss",
    "flush": "flushes",
    "lone-player": "lone_player",
    "nobody-plays": "nobody_plays",
    "single-deal": "single_deals",
    "retired": "retired",
    "offender": "offender_alone",
}


def simulate(
    game: str,
    players: int,
    rules: RuleSet,
    hands: int,
    seed: int | str,
    bots: Sequence[str] = ("beginner",),
    laws: bool = False,
) -> dict[str, Any]:
    """Play ``hands`` hands of one table; per-player results, pool totals and counts."""
    if hands < 1:
        raise LooError("--hands must be at least 1")
    kinds = list(bots)
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise LooError(f"--bots names {len(kinds)} players but the table has {players}")
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise LooError(f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}")
    table = Table(TableConfig(game, rules, players, seed, laws=laws, trace=False))
    robots = [make_bot(kind, f"{seed}:{seat}") for seat, kind in enumerate(kinds)]
    start = list(table.balances)
    won = [0] * players
    looed = [0] * players
    tricks = [0] * players
    counts = dict.fromkeys(
        (
            *_OUTCOME_COUNTS.values(),
            "loos",
            "singles",
            "musts",
            "club_law",
            "offences",
        ),
        0,
    )
    staked = 0
    for _ in range(hands):
        hand = table.deal()
        counts["singles"] += hand.single
        counts["musts"] += hand.must
        counts["club_law"] += hand.club_law
        staked += sum(p.amount for p in hand.payments if p.rule == "ante")
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            table.apply(robots[seat].decide(view_for(hand, seat)).action)
        counts[_OUTCOME_COUNTS[hand.outcome]] += 1
        counts["loos"] += len(hand.looed)
        counts["offences"] += len(hand.offences)
        for seat in hand.looed:
            looed[seat] += 1
        for p in hand.payments:
            if p.payer is None and p.payee is not None:
                won[p.payee] += p.amount
        for seat, n in hand.tricks_won().items():
            tricks[seat] += n
    assert table.chips() == players * table.config.chips, "counters were created or lost"
    return {
        "game": game,
        "rules": rules.name,
        "players": players,
        "laws": laws,
        "hands": hands,
        "seed": seed,
        "results": [
            {
                "seat": seat + 1,
                "bot": kinds[seat],
                "balance": table.balances[seat],
                "net": table.balances[seat] - start[seat],
                "pool_won": won[seat],
                "tricks": tricks[seat],
                "looed": looed[seat],
            }
            for seat in range(players)
        ],
        "pool": {"staked": staked, "won": sum(won), "final": table.pool},
        "counts": counts,
    }
