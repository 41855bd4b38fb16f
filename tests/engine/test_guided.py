"""Guided hands (issue 14): whether a rule comes up when a hand is played with given decisions."""

from __future__ import annotations

from games.loo import RuleSet
from games.loo.bots import BeginnerBot
from games.loo.guided import comes_up
from games.loo.hand import Action, Hand
from games.loo.table import Table, TableConfig
from games.loo.view import view_for


def beginners(hand: Hand, seat: int) -> Action:
    return BeginnerBot(f"guided:{len(hand.log)}:{seat}").decide(view_for(hand, seat)).action


def first_hand(preset: str, seed: str) -> Hand:
    return Table(TableConfig("three-card", RuleSet.preset(preset), 4, seed)).deal()


def test_a_rule_comes_up_when_a_line_of_the_trace_names_it() -> None:
    found = 0
    for n in range(20):
        hand = first_hand("hoffmann", f"g-{n}")
        up = comes_up(hand, "follow-suit", beginners)
        named = any("follow-suit" in e.rules for e in hand.events)
        assert up == named
        # It stops at the line that names the rule; without one it plays to the end.
        assert up or hand.over
        found += up
    assert 0 < found < 20


def test_a_rule_the_rule_set_does_not_have_never_comes_up() -> None:
    # peel's first deal is a must without a miss: nobody takes miss.
    for n in range(10):
        hand = first_hand("peel", f"miss-{n}")
        assert not comes_up(hand, "take-miss", beginners)
        assert hand.over and any("must" in e.rules for e in hand.events)
