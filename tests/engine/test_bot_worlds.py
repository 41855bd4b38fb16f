"""The sampled deals a sensible bot plays out agree with the real hand on everything the bot
can see: at every decision, the player to act has the same options in any sampled world as at
the real table (his own cards, the turn-up, the tricks and the cards played to them are the
same; only hidden cards differ)."""

from __future__ import annotations

import random

import pytest

from games.loo import RuleSet
from games.loo.bots import BeginnerBot, build_world, sample_world
from games.loo.hand import Hand, Options
from games.loo.rulesets import PRESET_IDS
from games.loo.table import Table, TableConfig
from games.loo.view import view_for

CASES = [
    (game, preset, f"worlds:{game}:{preset}")
    for preset in PRESET_IDS
    for game in RuleSet.preset(preset).games
]
#: A table whose eighth deal reaches a lead where a trump played to an earlier trick makes
#: two of the leader's trumps of equal value (RULES.md A9): both may be led, in every world.
CASES.append(("five-card", "hoffmann", "worlds:41"))


def _summary(hand: Hand) -> tuple[object, ...]:
    options: Options = hand.options(explain=False)
    legal = sorted(c.code for c in options.legal.legal) if options.legal is not None else []
    return (options.seat, options.kind, tuple(options.choices), options.max_discards, legal)


@pytest.mark.parametrize(("game", "preset", "seed"), CASES)
def test_every_sampled_world_offers_the_player_to_act_what_the_table_does(
    game: str, preset: str, seed: str
) -> None:
    rules = RuleSet.preset(preset)
    players = 5 if seed == "worlds:41" else max(5, rules.players(game)[0])
    table = Table(TableConfig(game, rules, players, seed=seed))
    rng = random.Random(7)
    checked = 0
    for number in range(8):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if view.hand is not None:  # a player who has looked at his cards
                world = build_world(view, sample_world(view, rng))
                assert _summary(world) == _summary(hand), (number, hand.phase, len(hand.log))
                checked += 1
            table.apply(BeginnerBot(f"{seat}:{len(hand.log)}").decide(view).action)
    assert checked > 30
