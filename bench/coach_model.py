"""Measure the table's own sensible players for the coach's model of the table
(games/loo/table_model.py), and write what it measured to games/loo/table_model_data.py.

    .venv/bin/python bench/coach_model.py [--hands N] [--write]
    .venv/bin/python bench/coach_model.py --calibrate [--game G] [--players P] [--level L]
        [--hands N] [--old] [--parts]
    .venv/bin/python bench/coach_model.py --policy [--game G] [--players P] [--hands N]

Plays ``N`` hands per game and rule set of the practice table's sensible players
(``SensibleBot`` with the table's playouts, ``games.loo.autoplay.SENSIBLE_PLAYOUTS``), three to
six players, and records every declaration and five-card draw by its situation
(``table_model.features``), and every card it chose among two or more by its situation and
kind (``table_model.card_situation``, ``card_kinds``). Prints the figures; ``--write`` writes the
data module (then run ``manage.py findguided``, the engine's fingerprint changes).

The last line is ``coach_model: declarations=N cards=N card_thumb_share=P``.

``--calibrate`` measures instead how far the coach's figures are from what the table's own
players make of each option (``tests/engine/test_coach_table.py``'s calibration, over ``N``
positions, hoffmann's rules; ``--old``: the coach as it was, ``games.loo.coach_v7``): each
group's mean difference and z-score, and the groups off by more than two standard errors. With
``--parts`` it also takes each option's difference apart, on the position's real deal: the
deals (the coach's figure less the model of the table finishing the real deal), the later
seats' declarations and draws (the model finishing the real deal less the real bots declaring
and the model playing the cards), and the cards (that less the real bots finishing it all).
Its last line is ``calibrate: groups=N off=K``.

``--policy`` plays ``N`` hands' declarations and draws of the sensible players at one table
(hoffmann's rules, ``P`` players) and sets what they chose against what the model's shares
(``table_model.choice_shares``) predicted, by how many had declared to play before him and
whether he is the dealer: the model is measured over every rule set and three to six players,
and this shows where one table's players decide otherwise. Its last line is
``policy: decisions=N``.
"""

from __future__ import annotations

import argparse
import pprint
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.loo import RuleSet  # noqa: E402
from games.loo.autoplay import SENSIBLE_PLAYOUTS  # noqa: E402
from games.loo.bots import SensibleBot  # noqa: E402
from games.loo.coach import outcome  # noqa: E402
from games.loo.hand import Action, Hand  # noqa: E402
from games.loo.rulesets import PRESET_IDS  # noqa: E402
from games.loo.table import Table, TableConfig  # noqa: E402
from games.loo.table_model import (  # noqa: E402
    _before,
    card_kinds,
    card_situation,
    choice_shares,
    draw_kind,
    features,
)
from games.loo.view import view_for  # noqa: E402
from tests.engine.test_coach_table import (  # noqa: E402
    Adviser,
    _current,
    _finish,
    _label,
    _old,
    calibration,
    positions,
    z_scores,
)

NAMES = {"miss": "take-miss", "defend": "defend-miss"}


def measure(hands: int) -> tuple[dict[tuple, dict[str, int]], dict[tuple, dict[str, int]]]:
    declare: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    by_kind: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rules_id in PRESET_IDS:
        rules = RuleSet.preset(rules_id)
        for game in rules.games:
            low, high = rules.players(game)
            for n in range(hands):
                players = low + n % (min(high, 6) - low + 1)
                seed = f"model:{rules_id}:{game}:{n}"
                table = Table(TableConfig(game, rules, players, seed=seed, trace=False))
                hand = table.deal()
                while not hand.over:
                    seat = hand.to_act
                    assert seat is not None
                    view = view_for(hand, seat)
                    bot = SensibleBot(f"{seed}:{len(hand.log)}", playouts=SENSIBLE_PLAYOUTS)
                    action = bot.decide(view).action
                    if view.options is not None and hand.phase in ("declare", "exchange"):
                        cards = hand.hands[seat]
                        miss_free = hand.miss is not None and hand.miss_holder is None
                        key = features(
                            game,
                            hand.phase,
                            hand.trumps,
                            cards,
                            miss_free,
                            _before(hand, seat),
                            hand.players,
                        )
                        if hand.phase == "exchange" and action.choice == "play":
                            outcome = draw_kind(hand.trumps, cards, list(action.cards))
                        else:
                            outcome = action.choice
                        if len(view.options.choices) > 1 or hand.phase == "exchange":
                            declare[key][outcome] += 1
                    elif hand.phase == "play" and view.options is not None:
                        moves = hand.legal_moves(seat, explain=False).legal
                        if len(moves) > 1:
                            kinds = card_kinds(hand, seat, moves)
                            kind = next(
                                k
                                for k, cs in kinds.items()
                                if action.cards[0] in {c.code for c in cs}
                            )
                            by_kind[card_situation(hand, seat, moves)][kind] += 1
                    table.apply(action)
    return (
        {k: dict(v) for k, v in sorted(declare.items())},
        {k: dict(v) for k, v in sorted(by_kind.items())},
    )


def calibrate(game: str, players: int, level: str, hands: int, old: bool, parts: bool) -> None:
    """Print the calibration's groups and, with ``parts``, each option's difference by part."""

    found = calibration(game, players, hands, level, (_old if old else _current)(level))
    scores = z_scores(found)
    for label in sorted(found):
        diffs = [d for d, _ in found[label]]
        z = scores.get(label)
        print(
            f"{label:55s} n={len(diffs):3d} mean={sum(diffs) / len(diffs):+.3f}"
            + (f" z={z:+.2f}" if z is not None else "")
        )
    if parts:
        _parts(game, players, level, hands, _old(level) if old else _current(level))
    off = sorted(label for label, z in scores.items() if abs(z) > 2)
    print(f"calibrate: groups={len(scores)} off={len(off)} {' '.join(off)}")


def _parts(game: str, players: int, level: str, hands: int, adviser: Adviser) -> None:
    def real(hand: Hand, log: list[Action], action: Action) -> tuple[Hand, int]:
        again = Hand.deal(hand.setup)
        for done in log:
            again.apply(done)
        before = again.balances[0]
        again.apply(action)
        return again, before

    rows: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for view, advice, hand, log, seed in positions(game, players, hands, level, adviser):
        for estimate in advice.options:
            model = bots = played = 0.0
            for k in range(8):
                again, before = real(hand, log, estimate.action)
                model += outcome(again, random.Random(k), level=level, seat=0)[0] - before
            for k in range(2):
                again, before = real(hand, log, estimate.action)
                _finish(again, level, f"{seed}:parts:{k}", declaring=True)
                rng = random.Random(f"{seed}:parts:{k}")
                bots += outcome(again, rng, level=level, seat=0)[0] - before
                again, before = real(hand, log, estimate.action)
                _finish(again, level, seed if k == 0 else f"{seed}:parts:{k}")
                played += again.balances[0] - before
            model, bots, played = model / 8, bots / 2, played / 2
            rows[_label(view, estimate.action)].append(
                (estimate.expected_counters - model, model - bots, bots - played)
            )
    print("parts of (coach - outcome), by option: deals, later seats, cards (mean, n)")
    for label in sorted(rows):
        got = rows[label]
        means = [sum(r[i] for r in got) / len(got) for i in range(3)]
        print(f"  {label:20s} n={len(got):3d} " + " ".join(f"{m:+.2f}" for m in means))


def policy(game: str, players: int, hands: int) -> None:
    """Print the sensible players' declarations at one table against the model's shares."""
    rules = RuleSet.preset("hoffmann")
    predicted: dict[tuple[str, str], float] = defaultdict(float)
    chosen: dict[tuple[str, str], int] = defaultdict(int)
    decisions = 0
    for n in range(hands):
        seed = f"policy:{game}:{players}:{n}"
        table = Table(TableConfig(game, rules, players, seed=seed, trace=False))
        hand = table.deal()
        while not hand.over and hand.phase in ("declare", "exchange"):
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            bot = SensibleBot(f"{seed}:{len(hand.log)}", playouts=SENSIBLE_PLAYOUTS)
            action = bot.decide(view).action
            options = view.options
            if options is not None and (len(options.choices) > 1 or hand.phase == "exchange"):
                cards = hand.hands[seat]
                miss_free = hand.miss is not None and hand.miss_holder is None
                before = _before(hand, seat)
                key = features(game, hand.phase, hand.trumps, cards, miss_free, before, players)
                if hand.phase == "exchange":
                    offered = ["pass", "stand", "weak", "plain", "all"]
                    made = "pass"
                    if action.choice == "play":
                        made = draw_kind(hand.trumps, cards, list(action.cards))
                else:
                    offered, made = list(options.choices), action.choice or ""
                where = f"before={min(before, 2)}" + (" dealer" if seat == hand.dealer else "")
                for outcome_, share in choice_shares(key, offered).items():
                    predicted[(where, outcome_)] += share
                chosen[(where, made)] += 1
                decisions += 1
            table.apply(action)
    print("situation, outcome: the model's expected count, the players' count")
    for where, made in sorted(set(predicted) | set(chosen)):
        print(
            f"  {where:18s} {made:12s} model={predicted[(where, made)]:7.1f} "
            f"players={chosen[(where, made)]:5d}"
        )
    print(f"policy: decisions={decisions}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--game", default="five-card")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="sensible")
    parser.add_argument("--old", action="store_true")
    parser.add_argument("--parts", action="store_true")
    parser.add_argument("--policy", action="store_true")
    args = parser.parse_args()
    if args.policy:
        policy(args.game, args.players, args.hands)
        return
    if args.calibrate:
        calibrate(args.game, args.players, args.level, args.hands, args.old, args.parts)
        return
    declare, cards = measure(args.hands)
    if args.write:
        path = Path(__file__).resolve().parents[1] / "games" / "loo" / "table_model_data.py"
        path.write_text(
            '"""What the table\'s sensible players were measured to do (written by\n'
            f"bench/coach_model.py, {args.hands} hands per game and rule set): the coach's "
            'model of them\n(games.loo.table_model)."""\n\n'
            "from typing import Final\n\n"
            "#: Declarations and draws by situation (``table_model.features``): outcome -> count.\n"
            "DECLARE: Final[dict[tuple[str, str, bool, int, int, int, int], dict[str, int]]] = "
            + pprint.pformat(declare, width=99, compact=True)
            + "\n\n#: Cards chosen among two or more, by situation "
            "(``table_model.card_situation``)\n#: and kind (``table_model.card_kinds``).\n"
            "CARDS: Final[dict[tuple[str, str, int], dict[str, int]]] = "
            + pprint.pformat(cards, width=99, compact=True)
            + "\n"
        )
    total = sum(sum(v.values()) for v in declare.values())
    played = sum(sum(v.values()) for v in cards.values())
    thumb = sum(v.get("thumb", 0) for v in cards.values())
    print(
        f"coach_model: declarations={total} cards={played} "
        f"card_thumb_share={thumb / max(1, played):.3f}"
    )


if __name__ == "__main__":
    main()
