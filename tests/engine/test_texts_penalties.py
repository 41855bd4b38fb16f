"""Issue 25, findings 1, 2, 3, 7, 8 and 9: the penalties, the five-card dealer and two wordings,
each checked against the passage it answers to (RULES.md 1.11, A47, A28). Seats are numbered
from the elder hand (seat 0); the dealer is the last seat. Questions of versions 2-4 keep the
readings they were made under (:func:`games.loo.questions.base.rules_at`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo import RuleSet
from games.loo.cards import BY_CODE
from games.loo.flushes import compare_flushes
from games.loo.hand import Action, Hand
from games.loo.questions import QuestionError, question
from games.loo.questions.base import rules_at

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"
FIVE = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]


def irregular(hand: Hand, seat: int, what: str, *cards: str) -> Hand:
    hand.apply(Action("irregular", seat, what, tuple(cards)))
    return hand


def laws_hand(deal: Deal, preset: str, **kwargs: object) -> Hand:
    return deal(preset, FOUR, "7H", miss=MISS, laws=True, pool=6, **kwargs)


def play_out(hand: Hand) -> Hand:
    """The rest of the hand, each player taking his first choice."""
    while not hand.over:
        hand.step(hand.choices()[0])
    return hand


def penalties(hand: Hand, rule: str) -> list[tuple[int | None, int | None, int]]:
    return [(p.payer, p.payee, p.amount) for p in hand.payments if p.rule == rule]


# -- findings 1 and 2: peel's single loo ---------------------------------------------------------

# p. 23: "a definite price fixed (a) for the deal, (b) for an ordinary loo, and (c) for a single
# loo, which latter is generally half the amount of the full loo"; p. 23-24: "the dealer is
# looed--the amount of the loo in this, and most other cases of penalty prior to the
# commencement of the playing of the cards being the same as settled for a single loo".


@pytest.mark.parametrize(
    ("what", "seat", "rule"),
    [
        ("misdeal", 3, "penalty-misdeal"),
        ("interfere", 1, "penalty-interfering-with-deal"),
        ("declare-early", 2, "penalty-declare-out-of-turn"),
        ("look-early", 2, "penalty-declare-out-of-turn"),
        ("look-miss", 1, "penalty-look-at-miss"),
    ],
)
def test_peels_penalties_before_the_play_are_a_single_loo(
    deal: Deal, what: str, seat: int, rule: str
) -> None:
    # A deal of 3 and a loo of 6: a single loo is 3, into the pool at once.
    hand = laws_hand(deal, "peel")
    assert (hand.stake, hand.loo_amount()) == (3, 6)
    pool, balance = hand.pool, hand.balances[seat]
    irregular(hand, seat, what)
    assert penalties(hand, rule) == [(seat, None, 3)]
    assert hand.pool == pool + 3 and hand.balances[seat] == balance - 3


def test_at_five_card_loo_peels_single_loo_is_half_the_loo_of_ten(deal: Deal) -> None:
    hand = deal("peel", FIVE, "7C", game="five-card", laws=True, pool=5)
    assert (hand.stake, hand.loo_amount()) == (5, 10)
    irregular(hand, 1, "declare-early")
    assert penalties(hand, "penalty-declare-out-of-turn") == [(1, None, 5)]


def test_a_single_loo_agreed_at_the_price_of_a_deal(deal: Deal) -> None:
    # p. 18: "half the amount of the ordinary loo, or the same amount as for a deal"
    # (single-loo); with a loo of 12 the two differ: 6, or the deal's 3.
    for single_loo, amount in (("half-loo", 6), ("deal-amount", 3)):
        options = {"loo-amount": 4, "single-loo": single_loo}
        hand = laws_hand(deal, "peel", options=options)
        irregular(hand, 3, "misdeal")
        assert penalties(hand, "penalty-misdeal") == [(3, None, amount)]


def test_interfering_with_the_deal_is_a_single_loo_and_he_plays_on(
    deal: Deal, steps: Steps
) -> None:
    # p. 24 "Any player interfering with the cards during the deal is looed, but the cards are
    # not re-dealt": a penalty prior to the play, so a single loo (p. 23-24).
    hand = laws_hand(deal, "peel")
    dealt = [list(h) for h in hand.hands]
    irregular(hand, 1, "interfere")
    assert [list(h) for h in hand.hands] == dealt
    assert "a single loo" in hand.events[-1].text
    steps(hand, "0 pass")
    assert "play" in hand.options().choices


def test_looking_at_anothers_cards_is_still_the_full_loo(deal: Deal) -> None:
    # p. 24: "If he looks at the cards of any other player he is looed the full loo, and must
    # throw up his own cards".
    # It goes into this deal's pool at once: "This does not apply to penalties for looking at
    # the hands, or declaring out of turn, or making a misdeal. In those cases the offending
    # player pays the penalty into the pool for the current deal" (p. 22).
    hand = laws_hand(deal, "peel")
    pool = hand.pool
    irregular(hand, 0, "look-hand:2")
    assert hand.irregular is not None and not hand.irregular.deferred
    assert (hand.pool, hand.balances[0]) == (pool + 6, 100 - 6)
    assert hand.options().choices == ("pass",)
    # Questions of versions 2-4 keep the earlier reading: to the pool for the next deal.
    old = laws_hand(deal, "peel", options={"look-hand-loo-to": "next-pool"})
    irregular(old, 0, "look-hand:2")
    assert old.irregular is not None and old.pool == pool
    (deferred,) = old.irregular.deferred
    assert deferred[:3] == (0, 6, "penalty-look-at-others-cards")
    assert rules_at(RuleSet.preset("peel"), 4).look_hand_loo_to == "next-pool"


def test_questions_of_version_4_keep_the_full_loo(deal: Deal) -> None:
    peel = RuleSet.preset("peel")
    assert rules_at(peel, 9) == peel
    old = rules_at(peel, 4)
    assert old.penalty_loo_before_play == "full-loo" and old.offender_winnings == "as-played"
    hand = laws_hand(deal, "peel", options={"penalty-loo-before-play": "full-loo"})
    irregular(hand, 1, "look-miss")
    assert hand.balances[1] == 100 - 6


# -- finding 3: the answer agrees with the explanation ------------------------------------------

# p. 22: "In any case the player who transgressed the law does not win anything."; hoffmann
# Law 6: "must retire from the game for that round".


def test_a_peel_offender_left_alone_wins_nothing_and_is_looed(deal: Deal, steps: Steps) -> None:
    hand = laws_hand(deal, "peel")
    steps(hand, "0 take-miss")
    irregular(hand, 0, "play-early", "KH")  # p. 25: "any one playing out of turn" is looed
    pool = hand.pool
    steps(hand, "1 pass", "2 pass", "3 pass")
    assert hand.over and hand.outcome == "offender"
    assert not [p for p in hand.payments if p.payee == 0]
    assert hand.balances[0] == 100 - 6 and hand.pool == pool + 6
    assert "does not win anything (p. 22)" in " ".join(e.text for e in hand.events)


@pytest.mark.parametrize(("preset", "paid"), [("hoffmann", 3), ("peel", 6)])
def test_a_dealer_who_must_retire_does_not_take_the_pool_when_all_pass(
    deal: Deal, steps: Steps, preset: str, paid: int
) -> None:
    # hoffmann Law 6 (a single, and he retires); peel p. 24 (the full loo, and he "must throw
    # up his own cards"): everyone passes, and the dealer, out of the hand, takes nothing.
    hand = laws_hand(deal, preset)
    pool, balance = hand.pool, hand.balances[3]
    irregular(hand, 3, "look-hand:0")
    steps(hand, "0 pass", "1 pass", "2 pass")
    assert hand.over and hand.outcome == "retired"
    assert hand.balances[3] == balance - paid and hand.pool == pool + paid
    assert any("nobody takes the pool" in e.text for e in hand.events)


def test_hoffmann_retired_in_the_play_leaves_his_tricks_in_the_pool(
    deal: Deal, steps: Steps
) -> None:
    # Law 6: he "must retire from the game for that round"; as under Law 15 (A51), the shares
    # of the tricks he had won stay in the pool, and he is not looed (A50).
    hand = laws_hand(deal, "hoffmann")
    steps(hand, "0 play", "1 play", "2 play", "3 play", "0 AS", "1 QH", "2 5C", "3 4S")
    assert hand.tricks[0].winner == 1
    irregular(hand, 1, "look-hand:2")
    play_out(hand)
    assert not [p for p in hand.payments if p.payee == 1]
    assert hand.balances[1] == 100 - 3  # the single only
    assert 1 not in hand.looed


@pytest.mark.parametrize(
    ("game", "seed"), [("five-card", 35429947), ("five-card", 706454511), ("three-card", 770691741)]
)
def test_the_issues_peel_penalty_questions_agree_with_their_explanation(
    game: str, seed: int
) -> None:
    q = question("penalty", "peel", game=game, rule=None, seed=seed)
    texts = " ".join(a.render(0) for a in q.explanations)
    (answer,) = q.answer
    barred = ("will be looed", "can win nothing", "must throw up", "wins nothing")
    if any(words in texts for words in barred):
        assert int(answer) < 0, (answer, texts)


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_no_penalty_question_has_an_offender_who_wins_after_being_told_he_cannot(
    preset: str, game: str
) -> None:
    # A player who "must retire", "must throw up his cards", "will be looed" or "can win
    # nothing" never receives more than he pays (peel p. 22, hoffmann Law 6).
    barred = ("will be looed", "can win nothing", "must throw up", "must retire", "wins nothing")
    for seed in range(150):
        try:
            q = question("penalty", preset, game=game, rule=None, seed=seed)
        except QuestionError:
            continue
        texts = " ".join(a.render(0) for a in q.explanations)
        if any(words in texts for words in barred):
            assert int(q.answer[0]) <= 0, (seed, q.answer, texts)


def test_a_penalty_questions_pool_is_the_pool_before_the_irregularity() -> None:
    # A misdeal: the pool shown is the one the dealer misdealt into, before his single loo.
    q = question("penalty", "peel", game="three-card", rule=None, seed=67)
    assert q.origin is not None
    setup, log, _ = q.origin
    hand = Hand.deal(setup)
    for action in log:
        if action.kind == "irregular":
            assert action.choice == "misdeal"
            break
        hand.apply(action)
    assert q.position["pool"] == hand.pool


# -- finding 7: hoffmann's five-card dealer -----------------------------------------------------


def test_hoffmanns_five_card_dealer_may_pass_and_the_lone_player_takes_the_pool(
    deal: Deal, steps: Steps
) -> None:
    # ¶9: "It is at the option of each player either to play or to pass" (A47, revised).
    hand = steps(deal("hoffmann", FIVE, "7C", game="five-card", pool=5), "0 play", "1 pass")
    assert "pass" in hand.options().choices
    steps(hand, "2 pass")
    assert hand.over and hand.outcome == "lone-player" and hand.payments[-1].payee == 0
    assert "at five-card Loo" in hand.events[-1].text
    assert "(Hoffmann (1909), ¶9)" in hand.events[-1].text
    # Questions of version 4 keep the earlier reading.
    assert rules_at(RuleSet.preset("hoffmann"), 4).dealer_vs_one_5c == "own"


@pytest.mark.parametrize(
    ("game", "hands"), [("five-card", FIVE), ("irish", ["AS KS 2D", "QH 9H 3H", "5D 6D 8D"])]
)
def test_the_britannicas_dealer_still_plays_on_his_own_cards(
    deal: Deal, steps: Steps, game: str, hands: list[str]
) -> None:
    # s. 31: "with his own cards".
    hand = steps(deal("britannica", hands, "7C", game=game), "0 play", "1 pass")
    assert hand.options().choices == ("play",)
    assert "(Britannica (1911), s. 31)" in hand.options().explanations[0].text


# -- finding 8: hoffmann's Law 6 is about exposing ----------------------------------------------


def test_hoffmanns_law_6_is_told_as_exposing_anothers_cards(deal: Deal) -> None:
    # Law 6: "Any player … exposing a card or cards of another player, forfeits a single to the
    # pool, and must retire from the game for that round"; looking is peel's offence (p. 24).
    hand = laws_hand(deal, "hoffmann")
    irregular(hand, 0, "look-hand:2")
    assert "exposes seat 3's cards" in hand.events[-1].render(None)
    (paid,) = [p for p in hand.payments if p.rule == "penalty-look-at-others-cards"]
    assert "exposing another player's cards (Law 6)" in str(paid.reason)
    assert "exposed another player's cards" in hand.options().explanations[0].text
    q = question(
        "penalty", "hoffmann", game="three-card", rule="penalty-look-at-others-cards", seed=0
    )
    assert "exposes" in q.to_dict()["prompt"]
    peel = laws_hand(deal, "peel")
    irregular(peel, 0, "look-hand:2")
    assert "looks at seat 3's cards" in peel.events[-1].render(None)


def test_payment_reasons_cite_the_tables_own_source(deal: Deal) -> None:
    hoffmann = irregular(laws_hand(deal, "hoffmann"), 2, "declare-early")
    peel = irregular(laws_hand(deal, "peel"), 2, "declare-early")
    assert str(hoffmann.payments[-1].reason).endswith("(Law 5)")
    assert str(peel.payments[-1].reason).endswith("(p. 24)")


# -- finding 9: whiteknuckle's flushes ----------------------------------------------------------


def test_whiteknuckle_never_calls_a_trump_and_a_plain_flush_one_class() -> None:
    # ¶16: "precedence is given to the flush with the 'Pam', and in such a case where two or
    # more players hold a flush, none holding the 'Pam', then precedence is given to the
    # highest card" (A28, read literally: no trump class).
    hands = [
        [BY_CODE[c] for c in ("2H", "3H", "4H", "5H", "7H")],  # trumps
        [BY_CODE[c] for c in ("AS", "KS", "2S", "3S", "4S")],
    ]
    result = compare_flushes("five-card", RuleSet.preset("whiteknuckle"), "H", hands)
    assert result.winner == 1
    text = " ".join(a.render(None) for a in result.explanations)
    assert "same class" not in text
    assert "alone of the sources" in text and "no precedence" in text
