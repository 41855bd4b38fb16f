"""A guided hand about a trumped trick (issue 38): whether a player has followed suit to a
trick that had been trumped (``games.loo.explore.followed_a_trumped_trick``)."""

from __future__ import annotations

from games.loo.explore import followed_a_trumped_trick
from games.loo.hand import Action, stack_pack
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig

#: Four players, the human (seat 0) deals: west (1) leads, north (2), east (3), then him.
HANDS = [["KD", "2D", "9S"], ["QD", "3D", "4D"], ["AC", "KC", "2C"], ["4S", "7S", "8S"]]


def _table(turn_up: str) -> Table:
    rules = RuleSet.preset("hoffmann").with_options(
        {"club-law": "on", "club-law-games": "three-card"}
    )
    pack = stack_pack("three-card", rules, 4, 0, HANDS, turn_up, ["5H", "6H", "7H"])
    table = Table(TableConfig("three-card", rules, 4, "t", first_pack=pack, first_dealer=0))
    table.deal()
    return table


def _play(table: Table, *plays: tuple[int, str]) -> None:
    for seat, code in plays:
        hand = table.hand
        assert hand is not None and hand.to_act == seat
        table.apply(Action.play(seat, code))


def test_following_a_trick_a_trump_has_taken_over() -> None:
    table = _table("9C")
    # Club law: everyone plays.
    while table.hand is not None and table.hand.phase == "declare":
        assert table.hand.options().choices == ("play",)
        table.apply(Action.declare(table.hand.to_act, "play"))  # type: ignore[arg-type]
    _play(table, (1, "QD"), (2, "2C"), (3, "4S"))
    assert table.hand is not None
    assert not followed_a_trumped_trick(table.hand, 0)  # not yet: his card is to come
    _play(table, (0, "2D"))
    assert followed_a_trumped_trick(table.hand, 0)
    assert not followed_a_trumped_trick(table.hand, 3)  # east had no diamond: he did not follow
