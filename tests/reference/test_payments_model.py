"""The second model on its own: RULES.md's worked flush comparisons (part 4.3) and the passages
its steps are written from, without the engine. If these fail, the model is wrong, whatever the
differential tests say."""

from __future__ import annotations

from dataclasses import replace

import pytest

from .payments import Agreed, Facts, Irregularity, settle

PRESETS = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")
NONE = ("2C", "3D", "5C", "7S", "8S")


def agreed(source: str, game: str = "five-card") -> Agreed:
    """The presets' amounts: a stake of 3 (5 at five-card), peel's loo twice the stake,
    britannica's loo the pool up to seven stakes."""
    stake = 5 if game == "five-card" else 3
    payment = "pool-capped" if source == "britannica" else "fixed"
    loo = 2 * stake if source == "peel" else stake
    return Agreed(stake=stake, loo_payment=payment, loo_fixed=loo, loo_cap=7 * stake)


def flush_hand(source: str, p1: str, p2: str, p3: str = "", p4: str = "") -> Facts:
    """Four players, the dealer last (P1 the elder hand), hearts trumps (7H turned up), as in
    RULES.md 4.3; a seat not given holds no flush and no Pam."""
    cards = [tuple(h.split()) if h else NONE for h in (p1, p2, p3, p4)]
    return Facts(
        source=source,
        game="five-card",
        players=4,
        dealer=3,
        agreed=agreed(source),
        pool_in=20,
        before="loo",
        declared=(None,) * 4,
        hands=tuple(cards),
        turn_up="7H",
    )


def flush_outcome(facts: Facts) -> tuple[int, list[int]]:
    """(the winner, who pays) in P-numbers."""
    result = settle(facts)
    winner = next(p[1] for p in result.payments if p[3].startswith("flush: the holder"))
    assert winner is not None
    return winner + 1, sorted(s + 1 for s in result.looed)


F1 = ("JC KS QS 9S 4S", "", "9H 8H 6H 4H 2H")
F2 = ("KS QS 9S 5S 3S", "AD 7D 6D 4D 2D", "JC 2C 4C 6H 9C")
F3 = ("AS KS QS JS 9S", "KH QH 9H 6H 2H", "JC 8H 5H 4H 3H")
F4 = ("AS KS QS TS 9S", "JC 8D 6D 4D 2D")
F5 = ("QH 9H 8H 4H 2H", "AD KD 9D 6D 3D")


@pytest.mark.parametrize(
    ("example", "source", "winner", "pay"),
    [
        (F1, "hoffmann", 3, [2, 4]),
        (F1, "britannica", 3, [2, 4]),
        (F1, "whiteknuckle", 1, [2, 4]),
        (F1, "parlett", 1, [2, 4]),
        (F1, "peel", 3, [2, 4]),
        (F2, "hoffmann", 2, [4]),
        (F2, "britannica", 1, [4]),
        (F2, "whiteknuckle", 2, [3, 4]),
        (F2, "parlett", 2, [4]),
        (F2, "peel", 1, [3, 4]),
        (F3, "hoffmann", 3, [4]),
        (F3, "britannica", 2, [4]),
        (F3, "whiteknuckle", 3, [4]),
        (F3, "parlett", 3, [4]),
        (F3, "peel", 3, [4]),
        (F4, "hoffmann", 2, [3, 4]),
        (F4, "britannica", 1, [3, 4]),
        (F4, "whiteknuckle", 2, [3, 4]),
        (F4, "parlett", 2, [3, 4]),
        (F4, "peel", 2, [3, 4]),
        (F5, "hoffmann", 1, [3, 4]),
        (F5, "britannica", 1, [3, 4]),
        (F5, "whiteknuckle", 2, [3, 4]),
        (F5, "parlett", 1, [3, 4]),
        (F5, "peel", 1, [3, 4]),
    ],
)
def test_the_worked_flush_comparisons(
    example: tuple[str, ...], source: str, winner: int, pay: list[int]
) -> None:
    """RULES.md 4.3, F1-F5: the winner, and who pays (a losing flush is exempt everywhere, Pam
    under hoffmann, britannica and parlett)."""
    assert flush_outcome(flush_hand(source, *example)) == (winner, pay)


@pytest.mark.parametrize(
    ("source", "seats", "pool"),
    [
        ("hoffmann", [25, 0, -5, -10], -10),
        ("whiteknuckle", [0, 25, -5, -10], -10),
        ("britannica", [60, 0, -20, -20], -20),
        ("parlett", [35, 0, -5, -10], -20),
        ("peel", [45, 0, -10, -15], -20),
    ],
)
def test_a_flush_takes_the_pool_and_the_loos_go_where_the_source_says(
    source: str, seats: list[int], pool: int
) -> None:
    """F5 with 20 carried in: the winner takes the pool (A24) and the others, the losing flush
    excepted, pay a loo, into the next pool (hoffmann ¶11, whiteknuckle ¶16) or to the holder
    (britannica s. 48, parlett 5c:Flush, peel p. 27-28). britannica's dealer stakes nothing
    after a loo (s. 34) and its loo is the pool, up to the limit (s. 36-39)."""
    assert settle(flush_hand(source, *F5)).nets(4) == (seats, pool)


def three_card(source: str, **fields: object) -> Facts:
    base = Facts(
        source=source,
        game="three-card",
        players=4,
        dealer=3,
        agreed=agreed(source, "three-card"),
        pool_in=0,
        before="first",
        declared=("play", "play", "pass", "pass"),
        tricks=(0, 0, 0),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def test_peel_single_loo_is_half_the_full_loo() -> None:
    """Peel p. 23: "(c) for a single loo, which latter is generally half the amount of the full
    loo"; p. 23-24 the misdealing dealer is looed "the same as settled for a single loo"."""
    facts = three_card("peel", before="loo", irregular=(Irregularity(3, "misdeal"),))
    result = settle(facts)
    assert (3, None, 3, "peel misdeal: a single loo") in result.payments
    assert (1, None, 6, "looed") in result.payments


def test_peel_looking_at_another_hand_is_the_full_loo_into_this_deal() -> None:
    """Peel p. 24: "If he looks at the cards of any other player he is looed the full loo, and
    must throw up his own cards"; p. 22: into "the pool for the current deal"."""
    facts = three_card(
        "peel",
        before="loo",
        declared=("play", "play", "pass", "pass"),
        irregular=(Irregularity(2, "look-hand"),),
    )
    result = settle(facts)
    assert result.payments[1] == (2, None, 6, "peel look-hand: the full loo")
    assert [p[2] for p in result.payments if p[1] == 0] == [3, 3, 3]


def test_britannica_stakes_every_player_for_a_fresh_pool_and_nobody_after_a_loo() -> None:
    """britannica s. 6 "Each player contributes to the pool"; s. 34 "Then only the player who
    is looed contributes to the next pool"."""
    fresh = settle(three_card("britannica"))
    assert [p for p in fresh.payments if p[3] == "ante"] == [
        (s, None, 3, "ante") for s in (0, 1, 2, 3)
    ]
    after = settle(three_card("britannica", before="loo", pool_in=6))
    assert not [p for p in after.payments if p[3] == "ante"]


def test_an_unlimited_loo_is_the_pool_at_the_start_of_the_hand() -> None:
    """parlett 3c:Optional rules "pays the amount the pool contained at the start of that
    deal" (A31): after the stake, before the division."""
    facts = three_card(
        "hoffmann",
        before="loo",
        pool_in=12,
        tricks=(0, 0, 2),
        declared=("play", "play", "play", "pass"),
    )
    facts = replace(facts, agreed=replace(facts.agreed, loo_payment="pool"))
    assert (1, None, 15, "looed") in settle(facts).payments


def test_the_dealer_defending_the_pool_is_not_looed_and_his_shares_stay() -> None:
    """hoffmann Law 7 "In the latter case he cannot be looed; but the proceeds of any trick he
    may make are left in the pool"."""
    facts = three_card("hoffmann", declared=("play", "pass", "pass", "defend"), tricks=(3, 3, 0))
    seats, pool = settle(facts).nets(4)
    assert seats == [1, 0, 0, -3] and pool == 2


def test_peel_single_deal_without_a_winner_loos_everyone_and_keeps_the_pool() -> None:
    """Peel p. 18: "If neither player receives a higher card of the same suit as that turned up
    all are looed, and the amount in the pool remains"."""
    facts = three_card(
        "peel", turn_up="KC", single_cards=("2H", "AS", "2S", "9S"), declared=(None,) * 4
    )
    seats, pool = settle(facts).nets(4)
    assert seats == [-3, -3, -3, -6] and pool == 15


def test_peel_interfering_wins_nothing_but_looking_at_the_miss_keeps_the_chance() -> None:
    """Peel p. 22 (RULES.md A55): "In any case the player who transgressed the law does not win
    anything. If his cards secure one or all of the tricks the amount of his winnings is left
    in the pool for the next deal … This does not apply to penalties for looking at the hands,
    or declaring out of turn, or making a misdeal"; the miss is "the spare hand" (p. 23)."""
    interfered = settle(three_card("peel", before="loo", irregular=(Irregularity(0, "interfere"),)))
    seats, pool = interfered.nets(4)
    # 6 in the pool after the dealer's stake and his single loo of 3: his three shares (2 each)
    # stay, and seat 1, who took no trick, pays his loo of 6.
    assert seats == [-3, -6, 0, -3] and pool == 3 + 3 + 6
    looked = settle(three_card("peel", before="loo", irregular=(Irregularity(0, "look-miss"),)))
    assert looked.nets(4)[0] == [6 - 3, -6, 0, -3]
