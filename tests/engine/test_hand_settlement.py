"""Playing a hand out and settling the pool (RULES.md 1.2, 1.9, 1.11).

The standard deal: four players, hearts trumps (7H turned up), seat 3 deals. Played out, seat 1
takes two tricks and the dealer one; seats 0 and 2 are looed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo.hand import Action, Hand, IllegalAction

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"
ALL_PLAY = ("0 play", "1 play", "2 play", "3 play")
TRICKS = (
    "0 AS",
    "1 QH",
    "2 5C",
    "3 4S",
    "1 9C",
    "2 6C",
    "3 TD",
    "0 2D",
    "1 3D",
    "2 8D",
    "3 JD",
    "0 KS",
)


def paid(hand: Hand, rule: str) -> list[tuple[int | None, int | None, int]]:
    return [(p.payer, p.payee, p.amount) for p in hand.payments if p.rule == rule]


def test_the_pool_is_divided_a_third_a_trick_and_the_trickless_are_looed(
    deal: Deal, steps: Steps
) -> None:
    # pool-division: hoffmann ¶7 "one-third to each trick"; looed: "mulcted in the same
    # amount as was originally placed in the pool" (loo = the stake).
    hand = steps(deal("hoffmann", FOUR, "7H", miss=MISS), *ALL_PLAY, *TRICKS)
    assert hand.over and hand.outcome == "played"
    assert hand.tricks_won() == {0: 0, 1: 2, 2: 0, 3: 1}
    assert paid(hand, "pool-division") == [(None, 1, 1), (None, 1, 1), (None, 3, 1)]
    assert hand.looed == [0, 2]
    assert paid(hand, "looed") == [(0, None, 3), (2, None, 3)]
    assert hand.balances == [97, 102, 97, 98]
    assert hand.pool == 6  # the loos form the next pool
    assert hand.chips() == 400
    assert not hand.no_loo


def test_every_card_play_is_checked_and_explained(deal: Deal, steps: Steps) -> None:
    hand = steps(deal("hoffmann", FOUR, "7H", miss=MISS), *ALL_PLAY, "0 AS")
    # Seat 1 holds no spade and the QH heads the trick: he must trump.
    with pytest.raises(IllegalAction) as raised:
        hand.apply(Action.play(1, "9C"))
    assert raised.value.application is not None
    assert raised.value.application.rule == "must-trump"
    assert hand.options().legal is not None
    assert [c.code for c in hand.options().legal.legal] == ["QH"]  # type: ignore[union-attr]
    steps(hand, "1 QH")
    assert "had to trump" in hand.events[-1].text


def test_peel_gives_the_odd_counters_to_the_earliest_tricks(deal: Deal, steps: Steps) -> None:
    # indivisible-pool-rounding: peel p. 22 "the winners of the first and second tricks have
    # the preference". Pool 4 + the dealer's 3 = 7: shares 3, 2, 2. A loo is 6 (p. 22).
    hand = steps(deal("peel", FOUR, "7H", miss=MISS, pool=4), *ALL_PLAY, *TRICKS)
    assert paid(hand, "indivisible-pool-rounding") == [(None, 1, 3), (None, 1, 2), (None, 3, 2)]
    assert paid(hand, "looed") == [(0, None, 6), (2, None, 6)]


@pytest.mark.parametrize(
    ("preset", "options", "pool", "loo"),
    [
        # unlimited-loo: the pool at the start of the hand (A31): 9 + 3 = 12.
        ("hoffmann", {"loo-payment": "pool"}, 9, 12),
        ("parlett", {"loo-payment": "pool"}, 9, 12),
        # mixed-loo: britannica's basic way, capped at 7 stakes (s. 38: 18d → half a guinea).
        ("britannica", {}, 30, 21),
        ("britannica", {}, 9, 9),
        ("peel", {"loo-payment": "pool-capped", "loo-cap": 3}, 30, 9),
    ],
)
def test_unlimited_and_capped_loos(
    deal: Deal, steps: Steps, preset: str, options: dict[str, object], pool: int, loo: int
) -> None:
    hand = steps(
        deal(preset, FOUR, "7H", miss=MISS, pool=pool, options=options), *ALL_PLAY, *TRICKS
    )
    assert paid(hand, "looed") == [(0, None, loo), (2, None, loo)]
    assert hand.chips() == 400 + pool


def test_britannica_every_player_stakes_a_fresh_pool_and_after_a_loo_nobody_does(
    deal: Deal,
) -> None:
    # ante: britannica s. 6 "Each player contributes to the pool"; s. 34 "Then only the player
    # who is looed contributes to the next pool".
    fresh = deal("britannica", FOUR, "7H", miss=MISS, first=True)
    assert paid(fresh, "ante") == [(s, None, 3) for s in (0, 1, 2, 3)]
    assert fresh.pool == 12
    after_loo = deal("britannica", FOUR, "7H", miss=MISS, pool=6)
    assert paid(after_loo, "ante") == []
    assert after_loo.pool == 6
    after_single = deal("britannica", FOUR, "7H", miss=MISS, pool=0, prev_no_loo=True)
    assert after_single.pool == 12


FLUSH_DEAL = ["AS KS 2D 3D 4D", "QH 9H 3H 5H 6H", "JC 6C 8D 9D TS", "JD TD 4S 2S 3S"]


@pytest.mark.parametrize(
    ("preset", "actions", "payments", "pool_after"),
    [
        # hoffmann ¶11: the flush "at once" loos the board; the losers are looed into the next
        # pool; the holder of Pam (seat 2) is exempt.
        ("hoffmann", ["0 play"], [(0, None, 5), (3, None, 5)], 10),
        # whiteknuckle ¶16: only a losing flush is exempt: Pam pays.
        ("whiteknuckle", ["0 play"], [(0, None, 5), (2, None, 5), (3, None, 5)], 15),
        # parlett 5c:Flush: "paid by anyone who does not himself hold either Pam or a flush".
        ("parlett", ["0 play"], [(0, 1, 5), (3, 1, 5)], 0),
        # peel p. 27-28: shown after all have declared; every player, stood or not, pays a
        # loo (two stakes) to the holder; Pam is no excuse.
        (
            "peel",
            ["0 pass", "1 play", "2 pass", "3 play"],
            [(0, 1, 10), (2, 1, 10), (3, 1, 10)],
            0,
        ),
    ],
)
def test_a_flush_loos_the_board(
    deal: Deal,
    steps: Steps,
    preset: str,
    actions: list[str],
    payments: list[tuple[int, int | None, int]],
    pool_after: int,
) -> None:
    hand = steps(deal(preset, FLUSH_DEAL, "7H", game="five-card"), *actions)
    assert hand.over and hand.outcome == "flush"
    assert hand.flush is not None
    assert paid(hand, "flush-loos-the-board")[0] == (None, 1, 5)  # the holder takes the pool
    assert paid(hand, "flush-loos-the-board")[1:] == payments
    assert hand.pool == pool_after
    assert hand.chips() == 400
    # The flush is shown; the other hands stay hidden, in the trace as everywhere.
    hidden = {c for h in FLUSH_DEAL if h != FLUSH_DEAL[1] for c in h.split()}
    for event in hand.events:
        assert not hidden & set(event.cards)


def test_an_immediate_flush_is_shown_before_its_holder_acts(deal: Deal, steps: Steps) -> None:
    hand = deal(
        "hoffmann", ["QH 9H 3H 5H 6H", "AS KS 2D 3D 4D", "JC 6C 8D 9D TS"], "7H", game="five-card"
    )
    assert hand.over and hand.outcome == "flush" and hand.log == []


def test_peel_counts_the_flush_of_a_player_who_threw_up_his_cards(deal: Deal, steps: Steps) -> None:
    # A29: under after-declaring "a flush in a thrown-up hand still counts".
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5H 6H", "JC 6C 8D 9D TS", "JD TD 4S 2S 3S"]
    hand = steps(
        deal("peel", hands, "7H", game="five-card"), "0 play", "1 pass", "2 play", "3 play"
    )
    assert hand.outcome == "flush"
    assert paid(hand, "flush-loos-the-board")[0] == (None, 1, 5)


def test_a_pool_carried_from_the_last_deal_is_a_double(deal: Deal) -> None:
    # double: whiteknuckle ¶4 "If the pool ever contains more chips than this left over from a
    # previous deal, it is called a 'double'"; a single is the fresh stake alone.
    fresh = deal("whiteknuckle", FOUR, "7H", miss=MISS, first=True)
    assert fresh.single and not fresh.double
    carried = deal("whiteknuckle", FOUR, "7H", miss=MISS, pool=6)
    assert carried.double and not carried.single
