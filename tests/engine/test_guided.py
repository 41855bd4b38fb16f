"""Guided hands (issue 14): a deal in which a rule comes up when the hand is played sensibly."""

from __future__ import annotations

from games.loo import RuleSet
from games.loo.guided import comes_up, find_seed, first_hand, play_sensibly, rules_applied
from games.loo.table import Table, TableConfig


def test_the_first_hand_is_the_practice_tables_deal() -> None:
    rules = RuleSet.preset("hoffmann")
    hand = first_hand("three-card", rules, 4, "lesson-1")
    table_hand = Table(TableConfig("three-card", rules, 4, "lesson-1")).deal()
    assert hand.hands == table_hand.hands and hand.dealer == table_hand.dealer


def test_a_found_seed_is_one_where_the_rule_comes_up() -> None:
    rules = RuleSet.preset("britannica")
    seed = find_seed("three-card", rules, 4, "head-the-trick", "heading")
    assert seed is not None and seed.startswith("heading-")
    assert comes_up("three-card", rules, 4, seed, "head-the-trick")
    # The seeds before it did not bring it up.
    earlier = int(seed.rsplit("-", 1)[1])
    for n in range(1, earlier):
        assert not comes_up("three-card", rules, 4, f"heading-{n}", "head-the-trick")


def test_a_rule_the_rule_set_does_not_have_never_comes_up() -> None:
    # peel's first deal is a must without a miss: nobody takes miss.
    assert find_seed("three-card", RuleSet.preset("peel"), 4, "take-miss", "miss", 15) is None
    hand = first_hand("three-card", RuleSet.preset("peel"), 4, "miss-1")
    applied = rules_applied(hand, play_sensibly(hand))
    assert hand.over and "must" in applied and "take-miss" not in applied
