"""Laws mode: an irregular play stands as at a real table, and the source's law is applied
(RULES.md 1.11). The deal is the standard one of test_hand_settlement.py; seat 3 revokes at
trick 1 by discarding the TD while holding the 4S."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo.hand import Action, Hand, IllegalAction

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"
ALL_PLAY = ("0 play", "1 play", "2 play", "3 play")
REVOKE = ("0 AS", "1 QH", "2 5C", "3 TD")
REST = ("1 9C", "2 6C", "3 4S", "0 2D", "1 3D", "2 8D", "3 JD", "0 KS")
CORRECT = (
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


@pytest.mark.parametrize("preset", ["britannica", "whiteknuckle", "parlett"])
def test_sources_without_penalties_never_let_an_irregular_play_stand(
    deal: Deal, steps: Steps, preset: str
) -> None:
    hand = steps(deal(preset, FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, "0 AS", "1 QH", "2 5C")
    with pytest.raises(IllegalAction, match="follow suit"):
        hand.apply(Action.play(3, "TD"))


def test_hoffmann_a_revoke_costs_four_singles_and_the_offenders_tricks(
    deal: Deal, steps: Steps
) -> None:
    # After Law 14: "must leave in the pool any tricks he may make, and forfeit to the pool
    # four times the amount of a single"; Law 17: higher penalties go to the next pool.
    hand = steps(deal("hoffmann", FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, *REVOKE)
    assert [(o.seat, o.rule, o.penalty) for o in hand.offences] == [
        (3, "follow-suit", "penalty-revoke")
    ]
    steps(hand, *REST)
    # Law 16: any player other than the offender may require the hand to be played again.
    assert hand.phase == "replay" and hand.to_act == 0
    assert hand.options().choices == ("demand", "decline")
    steps(hand, "0 decline", "1 decline", "2 decline")
    assert hand.over
    assert paid(hand, "penalty-revoke") == [(3, None, 12)]
    # The dealer's trick (trick 3) is left in the pool.
    assert [p.payee for p in hand.payments if p.rule == "pool-division"] == [1, 1]
    assert hand.pool == 1 + 3 + 3 + 12
    assert hand.chips() == 400


def test_hoffmann_a_revoke_replayed_on_demand(deal: Deal, steps: Steps) -> None:
    hand = steps(
        deal("hoffmann", FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, *REVOKE, *REST, "0 demand"
    )
    assert hand.phase == "play" and hand.replaying
    assert [c.code for c in hand.hands[3]] == FOUR[3].split()
    # The replay is played correctly: no irregular play stands now.
    steps(hand, "0 AS", "1 QH", "2 5C")
    with pytest.raises(IllegalAction):
        hand.apply(Action.play(3, "TD"))
    steps(hand, "3 4S", *CORRECT[4:])
    assert hand.over
    assert paid(hand, "penalty-revoke") == [(3, None, 12)]


def test_peel_the_offender_is_looed_and_the_hand_replayed(deal: Deal, steps: Steps) -> None:
    # peel p. 25 "likewise looed"; p. 21 "The hands must, however, be replayed in proper
    # order"; p. 22 "the player who transgressed the law does not win anything".
    hand = steps(deal("peel", FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, *REVOKE, *REST)
    assert hand.phase == "play" and hand.replaying
    steps(hand, *CORRECT)
    assert hand.over
    assert paid(hand, "penalty-revoke") == [(3, None, 6)]
    assert 3 not in [p.payee for p in hand.payments]
    assert hand.chips() == 400


def test_hoffmann_playing_out_of_turn_retires_the_offender(deal: Deal, steps: Steps) -> None:
    # Law 15: "(2) Plays a card out of turn" → "compelled to throw up his cards, and to forfeit
    # a single to the pool"; Law 17: a single goes to the existing pool.
    hand = steps(deal("hoffmann", FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, "0 AS")
    steps(hand, "2 5C")  # seat 1 is to play
    assert hand.retired == [2]
    assert paid(hand, "penalty-play-out-of-turn") == [(2, None, 3)]
    assert hand.pool == 6
    steps(hand, "1 QH", "3 4S", "1 9C", "3 TD", "0 2D", "1 3D", "3 JD", "0 KS")
    assert hand.over
    assert 2 not in hand.looed  # he threw up his cards
    assert hand.chips() == 400


def test_outside_laws_mode_an_irregular_play_is_refused_and_nothing_changes(
    deal: Deal, steps: Steps
) -> None:
    hand = steps(deal("hoffmann", FOUR, "7H", miss=MISS), *ALL_PLAY, "0 AS", "1 QH", "2 5C")
    before = hand.to_dict()
    with pytest.raises(IllegalAction, match="may not be played"):
        hand.apply(Action.play(3, "TD"))
    with pytest.raises(IllegalAction, match="turn"):
        hand.apply(Action.play(0, "KS"))
    assert hand.to_dict() == before
