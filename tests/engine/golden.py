"""The golden trace: every sentence the engine says over seeded sessions, in one JSON file.

``python -m tests.engine.golden`` writes ``tests/engine/data/golden_trace.json``;
``tests/engine/test_golden.py`` checks the engine still says exactly that. A deliberate change
of wording rewrites the file, and its diff (in the commit that makes the change) lists every
sentence that changed.

Each sentence is rendered from the point of view it is meant for: the trace, payments,
offences, flushes and the computer players' reasons in the third person ("seat 2 takes
trick 1"), the rules that bind a player's choice addressed to him ("You must follow suit").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.loo.bots import make_bot
from games.loo.cards import PACK
from games.loo.flushes import elder_names
from games.loo.hand import Hand, IllegalAction
from games.loo.messages import Names, render
from games.loo.rulesets import GAMES, PRESET_IDS, RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import view_for

PATH = Path(__file__).parent / "data" / "golden_trace.json"

BOTS = ("beginner", "careless", "sensible")


def sessions() -> list[tuple[str, str, bool, str]]:
    """(game, preset, laws, bot kind) of every session in the trace."""
    found = []
    for game in GAMES:
        for preset in PRESET_IDS:
            if game not in RuleSet.preset(preset).games:
                continue
            for laws in (False, True):
                for bot in BOTS:
                    found.append((game, preset, laws, bot))
    return found


def _apps(apps: Any, viewer: int | None, names: Names = None) -> list[list[str]]:
    return [[a.rule, render(a.message, viewer, names)] for a in apps]


def _decision(hand: Hand, seat: int) -> dict[str, Any]:
    """What the player to act is told, and what the engine says of a card he may not play."""
    options = hand.options()
    out: dict[str, Any] = {
        "seat": seat,
        "kind": options.kind,
        "choices": list(options.choices),
        "why": _apps(options.explanations, seat),
    }
    if options.legal is not None:
        out["legal"] = [c.code for c in options.legal.legal]
        out["notes"] = _apps(options.legal.notes, seat)
        forbidden = [c for c in hand.hands[seat] if c not in options.legal.legal]
        if forbidden and not hand.laws_apply():
            try:
                hand.step(forbidden[0])
            except IllegalAction as refusal:
                out["refused"] = refusal.render(seat)
    return out


def trace(game: str, preset: str, laws: bool, bot: str, hands: int = 2) -> dict[str, Any]:
    rules = RuleSet.preset(preset)
    low, high = rules.players(game)
    players = min(max(low, 4), high)
    seed = f"golden:{game}:{preset}:{laws}:{bot}"
    table = Table(TableConfig(game, rules, players, seed, laws=laws))
    bots = [make_bot(bot, f"{seed}:{s}") for s in range(players)]
    for b in bots:
        if hasattr(b, "playouts"):
            b.playouts = 6
    out: dict[str, Any] = {
        "session": [game, preset, laws, bot],
        "first_dealer": render(table.first_dealer_message, None),
        "hands": [],
    }
    for _ in range(hands):
        hand = table.deal()
        decisions = []
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            decision = _decision(hand, seat)
            made = bots[seat].decide(view_for(hand, seat))
            decision["action"] = made.action.to_dict()
            decision["reason"] = render(made.reason, None)
            decisions.append(decision)
            table.apply(made.action)
        out["hands"].append(
            {
                "decisions": decisions,
                "events": [
                    [e.kind, e.seat, render(e.message, None), list(e.rules), list(e.cards)]
                    for e in hand.events
                ],
                "payments": [
                    [p.payer, p.payee, p.amount, p.rule, render(p.reason, None)]
                    for p in hand.payments
                ],
                "offences": [
                    [o.seat, o.trick, o.card, o.rule, o.penalty, render(o.message, None)]
                    for o in hand.offences
                ],
                # A flush's seats are counted from the elder hand.
                "flush": _apps(hand.flush.explanations, None, elder_names) if hand.flush else None,
                "chips": hand.chips(),
            }
        )
    return out


def golden() -> list[dict[str, Any]]:
    assert len(PACK) == 52
    return [trace(*s) for s in sessions()]


def main() -> None:
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(json.dumps(golden(), ensure_ascii=False, indent=0) + "\n")
    print(f"wrote {PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
