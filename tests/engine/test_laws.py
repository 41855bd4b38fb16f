"""Laws mode: an irregular play stands as at a real table, and the source's law is applied
(RULES.md 1.11). The deal is the standard one of test_hand_settlement.py; seat 3 revokes at
trick 1 by discarding the TD while holding the 4S."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo.hand import OFFENCE_RULE, Action, Hand, IllegalAction
from games.loo.messages import HAD_TO

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


def out_of_turn(deal: Deal, steps: Steps, preset: str) -> Hand:
    """All four play; seat 0 leads the A♠ and seat 2 plays the 5♣ before seat 1."""
    return steps(deal(preset, FOUR, "7H", miss=MISS, laws=True), *ALL_PLAY, "0 AS", "2 5C")


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
    hand = out_of_turn(deal, steps, "hoffmann")  # seat 1 was to play
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


def events(hand: Hand, *kinds: str) -> list[str]:
    return [e.text for e in hand.events if e.kind in kinds]


# -- Issue 12, item 3: hoffmann's Law 15 (readings A49, A50, A51) ----------------------------
# Law 15: a player who "(2) Plays a card out of turn ... shall be compelled to throw up his
# cards, and to forfeit a single to the pool"; Law 17: "All penalties of a single shall be
# deemed to belong to the existing pool".


def test_hoffmann_law_15_leaving_one_player_gives_him_the_pool(deal: Deal, steps: Steps) -> None:
    # A49: "When the offender of hoffmann's Law 15 retires and only one player remains in the
    # hand, that player takes the pool as if all the rest had passed ('all the rest throw up
    # their cards, he is entitled to the pool', ¶3). Nobody but the offender is fined; nobody
    # is looed for another's offence." Seat 0 and the dealer play; seat 0 leads the A♠ and
    # then plays the K♠ before the dealer has played.
    hand = deal("hoffmann", FOUR, "7H", miss=MISS, laws=True)
    steps(hand, "0 play", "1 pass", "2 pass", "3 play", "0 AS", "0 KS")
    assert hand.over and hand.retired == [0]
    assert hand.looed == [] and hand.no_loo
    # The dealer's stake (3) and the single (3) are the pool: the dealer takes it all.
    assert paid(hand, "penalty-play-out-of-turn") == [(0, None, 3)]
    assert paid(hand, "miss-holder-alone-wins") == [(None, 3, 6)]
    assert paid(hand, "looed") == []
    assert hand.pool == 0 and hand.balances == [97, 100, 100, 103]
    assert events(hand, "settle") == [
        "Only seat 4 is left in the play, the others having thrown up their cards: he takes "
        "the pool (6), as when all the rest throw up their cards (Hoffmann ¶3)."
    ]
    assert hand.chips() == 400


def test_hoffmann_law_15_the_last_player_takes_the_pool_but_the_offenders_tricks(
    deal: Deal, steps: Steps
) -> None:
    # A49 with A51: "the shares of tricks he had already won stay in the pool for the next
    # hand". Seat 0 takes trick 1, leads the K♠ and plays the 2♦ out of turn.
    hand = deal("hoffmann", FOUR, "7H", miss=MISS, laws=True)
    steps(hand, "0 play", "1 pass", "2 pass", "3 play", "0 AS", "3 4S", "0 KS", "0 2D")
    assert hand.over and hand.looed == []
    # The pool is 6 (stake and single): a share of 2 a trick; trick 1's stays.
    assert paid(hand, "penalty-destination") == [(None, None, 2)]
    assert paid(hand, "miss-holder-alone-wins") == [(None, 3, 4)]
    assert hand.pool == 2
    assert (
        "Seat 1 took 1 trick before throwing up his cards: its share (2) stays in the pool for "
        "the next hand." in events(hand, "settle")
    )
    assert hand.chips() == 400


def test_hoffmann_law_15_the_offender_stays_out_of_a_law_16_replay(
    deal: Deal, steps: Steps
) -> None:
    # A50: "A player retired under Law 15 has thrown up his cards: he is out of the hand,
    # takes no part in a replay demanded under Law 16, and cannot be looed in it." Seat 2
    # plays out of turn in trick 1 and retires; the dealer then revokes (TD, holding the 4S).
    hand = out_of_turn(deal, steps, "hoffmann")
    assert hand.retired == [2] and hand.to_act == 1
    steps(hand, "1 QH", "3 TD", "1 9C", "3 4S", "0 2D", "1 3D", "3 JD", "0 KS")
    # Law 16: "any player, other than the offender": seat 2 has thrown up his cards.
    assert hand.phase == "replay" and hand.replay_asked == [0, 1]
    steps(hand, "0 demand")
    assert hand.replaying and hand.retired == [2] and hand.hands[2] == []
    steps(hand, "0 AS", "1 QH")
    with pytest.raises(IllegalAction, match="not in the play"):
        hand.apply(Action.play(2, "5C"))
    steps(hand, "3 4S", "1 9C", "3 TD", "0 2D", "1 3D", "3 JD", "0 KS")
    assert hand.over
    assert 2 not in hand.looed and hand.looed == [0]
    # His single was paid once, when he offended; the revoke costs four singles.
    assert paid(hand, "penalty-play-out-of-turn") == [(2, None, 3)]
    assert paid(hand, "penalty-revoke") == [(3, None, 12)]
    assert hand.chips() == 400


def test_hoffmann_law_15_tricks_the_offender_had_won_stay_in_the_pool(
    deal: Deal, steps: Steps
) -> None:
    # A51: "'Compelled to throw up his cards' abandons the hand: the shares of tricks he had
    # already won stay in the pool for the next hand; his fine is the single." Seat 1 takes
    # trick 1 with the Q♥, leads the 3♦ and plays the 9♣ before the dealer.
    hand = deal("hoffmann", FOUR, "7H", miss=MISS, laws=True)
    steps(hand, *ALL_PLAY, "0 AS", "1 QH", "2 5C", "3 4S", "1 3D", "2 8D", "1 9C")
    assert hand.retired == [1]
    steps(hand, "3 JD", "0 2D", "3 TD", "0 KS", "2 6C")
    assert hand.over
    # The pool is 6 (stake and single): trick 1's share stays; the dealer's two are paid.
    assert paid(hand, "penalty-destination") == [(None, None, 2)]
    assert paid(hand, "pool-division") == [(None, 3, 2), (None, 3, 2)]
    assert hand.looed == [0, 2]  # not seat 1: he threw up his cards
    assert hand.pool == 2 + 3 + 3
    settle = events(hand, "settle", "penalty")
    assert (
        "Seat 2 took 1 trick before throwing up his cards: its share (2) stays in the pool for "
        "the next hand." in settle
    )
    assert (
        "Seat 2 threw up his cards for the 9♣ played out of turn in trick 2 and forfeited a "
        "single (3) to the pool (Law 15): he is not looed." in settle
    )
    assert hand.chips() == 400


def test_peel_playing_out_of_turn_is_a_loo_and_a_replay_not_a_retirement(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 25: "as also is any one playing out of turn" (looed); "The cards must be
    # replayed in proper order". Seat 2 plays the 5♣ out of turn; he plays on.
    hand = out_of_turn(deal, steps, "peel")
    assert hand.retired == [] and hand.to_act == 1
    steps(hand, *CORRECT[1:])
    assert hand.replaying
    steps(hand, *CORRECT)
    assert hand.over
    # Looed once, for the offence: that he took no trick in the proper play changes nothing.
    assert [p for p in hand.payments if p.payer == 2] == [
        p for p in hand.payments if p.rule == "penalty-play-out-of-turn"
    ]
    assert paid(hand, "penalty-play-out-of-turn") == [(2, None, 6)]
    assert hand.looed == [0, 2]
    assert hand.chips() == 400


# -- Issue 12, item 8: several offences in one hand ------------------------------------------
# Seat 1 revokes in trick 1 (the K♥, holding the 2♠), takes it, and leads the 2♠ in trick 2
# though he holds the 5♥ (trump after trick); seat 3 revokes in trick 2 (the 10♣, holding the
# 8♠). Hearts are trumps.

SEVERAL = ["9S QC 2C", "2S KH 5H", "3S JD 4D", "4S 8S TC"]
SEVERAL_MISS = "KD 9C 2H"
SEVERAL_PLAY = (
    *ALL_PLAY,
    "0 9S",
    "1 KH",
    "2 3S",
    "3 4S",
    "1 2S",
    "2 JD",
    "3 TC",
    "0 QC",
    "1 5H",
    "2 4D",
    "3 8S",
    "0 2C",
)
# The hand played again in proper order (peel): seat 0 takes trick 1, seat 1 the others.
SEVERAL_REPLAY = (
    "0 9S",
    "1 2S",
    "2 3S",
    "3 8S",
    "0 QC",
    "1 5H",
    "2 JD",
    "3 TC",
    "1 KH",
    "2 4D",
    "3 4S",
    "0 2C",
)
K_H = "the K♥ in trick 1, when he had to follow suit"
TWO_S = "the 2♠ in trick 2, when he had to lead a trump, having taken the last trick"
TEN_C = "the 10♣ in trick 2, when he had to follow suit"


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_every_offence_is_recorded_once_and_told_in_one_line(
    deal: Deal, steps: Steps, preset: str
) -> None:
    hand = steps(deal(preset, SEVERAL, "7H", miss=SEVERAL_MISS, laws=True), *SEVERAL_PLAY)
    assert [(o.seat, o.trick, o.card, o.rule, o.penalty) for o in hand.offences] == [
        (1, 1, "KH", "follow-suit", "penalty-revoke"),
        (1, 2, "2S", "trump-after-trick", "penalty-lead-violation"),
        (3, 2, "TC", "follow-suit", "penalty-revoke"),
    ]
    # One line for each card played: an irregular one is its offence's line, not a second.
    for code in ("KH", "2S", "TC"):
        lines = [e for e in hand.events if code in e.cards and e.kind in ("play", "offence")]
        assert [e.kind for e in lines] == ["offence"], lines
    assert events(hand, "offence")[0] == (
        "Seat 2 plays the K♥ irregularly, against the rule “follow suit if you can”; the law "
        "will be applied at the end of the hand."
    )


def test_hoffmann_several_offences_four_singles_once_each_offence_named(
    deal: Deal, steps: Steps
) -> None:
    # After Law 14: "Any player committing any infractions of Laws 9, 10, 11, 12, 13, or 14,
    # must leave in the pool any tricks he may make, and forfeit to the pool four times the
    # amount of a single." The reading (docs/playing.md, "Laws mode"): four singles once for any
    # number of his infractions, each named; the loo of a player who took no trick besides.
    hand = steps(deal("hoffmann", SEVERAL, "7H", miss=SEVERAL_MISS, laws=True), *SEVERAL_PLAY)
    # Law 16: only seats 0 and 2 may demand a replay; they let the result stand.
    assert hand.replay_asked == [0, 2]
    steps(hand, "0 decline", "2 decline")
    assert hand.over
    assert [(p.payer, p.amount, p.rule) for p in hand.payments if p.payer in (1, 3)][1:] == [
        (3, 3, "looed"),  # the dealer (after his stake) took no trick
        (1, 12, "penalty-revoke"),
        (3, 12, "penalty-revoke"),
    ]
    assert hand.looed == [0, 2, 3]
    penalties = events(hand, "penalty")
    assert penalties == [
        f"Seat 2 forfeits four singles (12) to the next pool (after Law 14) for {K_H}; {TWO_S}.",
        f"Seat 4 forfeits four singles (12) to the next pool (after Law 14) for {TEN_C}.",
    ]
    rules = [e.rules for e in hand.events if e.kind == "penalty"]
    assert rules[0] == ("penalty-revoke", "penalty-lead-violation", "penalty-destination")
    # Item 9: his tricks' shares stayed in the pool, and his line says so.
    took = [e for e in hand.events if e.kind == "settle" and e.seat == 1]
    assert [e.text for e in took] == [
        "Seat 2 took 3 tricks, but he offended: their shares (3) stay in the pool for the next "
        "hand."
    ]
    assert "pool-division" not in took[0].rules
    assert paid(hand, "penalty-destination") == [(None, None, 1)] * 3
    assert hand.chips() == 400


def test_peel_several_offences_one_loo_each_offender_named_and_looed(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 21-22: "A player infringing any of the rules, or playing in an irregular
    # manner, is looed ... In any case the player who transgressed the law does not win
    # anything. If his cards secure one or all of the tricks the amount of his winnings is
    # left in the pool for the next deal, and he is looed." p. 25: "In all these cases the
    # penalty is the amount of a full loo". The reading (docs/playing.md, "Laws mode"): an
    # offender is
    # looed once, whatever his offences, and whether or not he takes a trick in the proper
    # play; each offence is named.
    hand = steps(deal("peel", SEVERAL, "7H", miss=SEVERAL_MISS, laws=True), *SEVERAL_PLAY)
    assert hand.replaying
    steps(hand, *SEVERAL_REPLAY)
    assert hand.over
    assert [t.winner for t in hand.tricks] == [0, 1, 1]
    # Seat 1 is looed for his two offences (one loo), seat 3 for his (he also took no trick:
    # still one loo), seat 2 for taking no trick.
    assert hand.looed == [1, 2, 3]
    assert [(p.payer, p.amount, p.rule) for p in hand.payments if p.payer is not None][1:] == [
        (1, 6, "penalty-revoke"),
        (2, 6, "looed"),
        (3, 6, "penalty-revoke"),
    ]
    assert events(hand, "penalty") == [
        "Seat 2 is looed, pays 6 to the next pool and wins nothing (Peel, pp. 22, 25), for "
        f"{K_H}; {TWO_S}.",
        "Seat 4 is looed, pays 6 to the next pool and wins nothing (Peel, pp. 22, 25), for "
        f"{TEN_C}.",
    ]
    settle = events(hand, "settle")
    assert settle == [
        "Seat 1 took 1 trick.",
        "Seat 2 took 2 tricks, but he offended: their shares (2) stay in the pool for the next "
        "hand.",
        "Seat 3 is looed and pays 6 to the next pool.",
    ]
    assert not hand.no_loo
    assert hand.chips() == 400


# -- Issue 12, item 9: the rule a settlement line cites -------------------------------------


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_the_defending_dealers_tricks_are_told_as_staying_in_the_pool(
    deal: Deal, steps: Steps, preset: str
) -> None:
    # hoffmann ¶3 "the proceeds of any tricks he may make remain in the pool"; peel p. 19-20.
    # (As tests/engine/test_hand_declaring.py: the dealer takes tricks 2 and 3 for the pool.)
    hand = deal(preset, FOUR, "7H", miss=MISS)
    steps(hand, "0 play", "1 pass", "2 pass", "3 defend-miss")
    steps(hand, "0 AS", "3 9S", "0 KS", "3 KH", "3 2C", "0 2D")
    assert hand.over
    line = next(e for e in hand.events if e.kind == "settle" and e.seat == 3)
    share = hand.pool_at_start // 3
    assert line.text == (
        f"Seat 4 took 2 tricks, playing for the pool: their shares ({2 * share}) stay there."
    )
    assert line.rules == ("dealer-defends-miss",)


def test_every_offence_can_be_named_by_what_the_offender_had_to_do() -> None:
    # A settlement names an offence as "the K♥ in trick 1, when he had to follow suit".
    assert set(OFFENCE_RULE) == set(HAD_TO)
