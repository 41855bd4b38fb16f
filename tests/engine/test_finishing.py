"""Peel's ways to finish a game (p. 17, RULES.md A54): an equal division of the pool, or
playing on until a hand in which nobody is looed; offered only under his rule set, once a hand
is over; kept in the table's stored form."""

from __future__ import annotations

import random

import pytest

from games.loo import RuleSet
from games.loo.errors import LooError
from games.loo.messages import render
from games.loo.table import FINISHES, Table, TableConfig

PEEL = RuleSet.preset("peel")


def _play_out(table: Table, rng: random.Random) -> None:
    hand = table.hand
    assert hand is not None
    while not hand.over:
        offered = hand.choices()
        table.step(offered[rng.randrange(len(offered))])


def test_only_peel_offers_them_and_only_between_hands() -> None:
    hoffmann = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 4, seed=1))
    hoffmann.deal()
    _play_out(hoffmann, random.Random(1))
    assert hoffmann.finishes() == ()
    with pytest.raises(LooError, match="cannot be finished"):
        hoffmann.finish("divide")
    table = Table(TableConfig("three-card", PEEL, 4, seed=1))
    table.deal()  # the single: over at once
    assert table.finishes() == FINISHES
    table.deal()
    assert table.hand is not None and not table.hand.over
    assert table.finishes() == ()
    with pytest.raises(LooError):
        table.finish("divide")


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_an_equal_division_shares_the_pool_and_ends_the_game(players: int) -> None:
    # p. 17: "a finish may be made at any moment, either by an equal division of the amount
    # in the pool among the players".
    table = Table(TableConfig("three-card", PEEL, players, seed=players))
    rng = random.Random(players)
    for _ in range(3):
        table.deal()
        _play_out(table, rng)
    before, pool, chips = list(table.balances), table.pool, table.chips()
    said = render(table.finish("divide"), None)
    gains = [after - b for after, b in zip(table.balances, before, strict=True)]
    assert table.pool == 0 and sum(gains) == pool and table.chips() == chips
    assert max(gains) - min(gains) <= 1  # equal, but for the odd counters
    assert f"its {pool} counters give each player {pool // players}" in said
    assert table.session_over and table.finishes() == ()
    with pytest.raises(LooError, match="session is over"):
        table.deal()


def test_playing_on_until_a_hand_without_a_loo() -> None:
    # p. 17: "It is usual, however, to play on until what is known as a 'single' occurs".
    table = Table(TableConfig("three-card", PEEL, 4, seed=2))
    rng = random.Random(2)
    table.deal()
    said = render(table.finish("until-single"), None)
    assert "until a hand in which nobody is looed" in said
    dealt = 0
    while not table.session_over:
        table.deal()
        dealt += 1
        _play_out(table, rng)
        assert table.hand is not None
        assert table.session_over == table.hand.no_loo
        assert dealt < 200
    assert table.prev_no_loo and table.hand is not None and table.hand.outcome != "single-deal"
    # Stored and restored, the game is still over.
    restored = Table.from_dict(table.to_dict())
    assert restored.finish_way == "until-single" and restored.session_over


def test_the_deals_that_even_up_the_round() -> None:
    # p. 17: a finish "is best" arranged "to fall immediately before the original dealer's
    # turn to deal comes round again".
    table = Table(TableConfig("three-card", PEEL, 4, seed=5))
    rng = random.Random(5)
    seen = []
    for _ in range(8):
        table.deal()
        _play_out(table, rng)
        seen.append(table.deals_to_even())
    assert seen == [3, 2, 1, 0, 3, 2, 1, 0]


def test_a_stored_table_without_a_finish_reads_as_before() -> None:
    table = Table(TableConfig("three-card", PEEL, 4, seed=6))
    table.deal()
    assert "finish" not in table.to_dict()
    data = table.to_dict() | {"finish": "walk-out"}
    with pytest.raises(LooError, match="unknown way to finish"):
        Table.from_dict(data)


def test_a_player_withdraws_only_at_his_turn_to_deal_and_pays_for_it() -> None:
    # p. 17: "A player may withdraw from the game at any time when it is his turn to deal. In
    # that case he pays for his deal".
    table = Table(TableConfig("three-card", PEEL, 4, seed=4))
    table.deal()
    nxt = table.next_dealer
    other = (nxt + 1) % 4
    assert table.may_withdraw(nxt) and not table.may_withdraw(other)
    with pytest.raises(LooError, match="only at"):
        table.withdraw(other)
    before, pool, chips = table.balances[nxt], table.pool, table.chips()
    said = render(table.withdraw(nxt), None)
    assert table.balances[nxt] == before - 3 and table.pool == pool + 3
    assert table.chips() == chips and table.session_over and "withdraws" in said
    assert Table.from_dict(table.to_dict()).session_over
    hoffmann = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 4, seed=4))
    hoffmann.deal()
    _play_out(hoffmann, random.Random(4))
    assert not hoffmann.may_withdraw(hoffmann.next_dealer)


def test_a_last_round_in_which_all_stand_without_a_miss_and_nobody_pays_a_loo() -> None:
    # p. 17: "releasing those who failed to win a trick in the previous deal from the penalty
    # ... In this case all 'stand' on the last round, and there is no 'miss.'"
    table = Table(TableConfig("three-card", PEEL, 5, seed=8))
    rng = random.Random(8)
    table.deal()
    said = render(table.finish("last-round"), None)
    assert "everyone stands" in said and not table.session_over
    hand = table.deal()
    assert hand.miss is None and hand.outcome != "single-deal" and not hand.must
    assert any(e.kind == "last-round" for e in hand.events)
    options = hand.options()
    assert "pass" not in options.choices
    assert options.explanations[0].rule == "round-continues-until-no-loo"
    pool, chips = hand.pool, table.chips()
    _play_out(table, rng)
    assert hand.over and hand.looed == [] and table.session_over
    assert table.pool == 0 and table.chips() == chips
    takers = {t.winner for t in hand.tricks}
    assert sum(p.amount for p in hand.payments if p.payee in takers) == pool
    released = [e for e in hand.events if e.message.key == "settle.released"]
    assert len(released) == 5 - len(takers)
    with pytest.raises(LooError, match="session is over"):
        table.deal()
    restored = Table.from_dict(table.to_dict())
    assert restored.session_over and restored.hand is not None
    assert restored.hand.setup.last_round


@pytest.mark.parametrize("way", ["divide", "last-round", "withdraw"])
def test_a_finish_is_not_taken_back(way: str) -> None:
    """Sharing the pool, agreeing the last round or withdrawing changes the counters or what
    follows: a take-back of the hand before it would undo it, so none is allowed."""
    table = Table(TableConfig("three-card", PEEL, 4, seed=12, start="after-loo"))
    table.deal()
    _play_out(table, random.Random(12))
    if way == "withdraw":
        table.withdraw(table.next_dealer)
    else:
        table.finish(way)
    state = table.to_dict()
    with pytest.raises(LooError, match="nothing in it can be taken back"):
        table.takeback(1)
    assert table.to_dict() == state
