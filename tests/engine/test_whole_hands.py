"""Whole hands as the sources play them (issue 12): the points where a hand played through the
engine disagreed with the texts, each settled by a reading of RULES.md part 3 (A47-A53).
Seats are numbered from the elder hand (seat 0); the dealer is the last seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo import RuleSet
from games.loo.hand import Hand
from games.loo.messages import render
from games.loo.rulesets import PRESETS

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

#: Three five-card hands; the dealer (seat 2) holds a flush in clubs.
DEALER_FLUSH = ["AS KS 2D 3D 4H", "QH 9H 3H 5S 6S", "2C 5C 8C 9C TC"]
#: The elder hand holds a flush in spades; the others do not.
ELDER_FLUSH = ["AS KS 2S 3S 4S", "QH 9H 3H 4D 6C", "5D 6D 8D 9C TH"]
FIVE_CARD = [p for p in PRESETS if "five-card" in RuleSet.preset(p).games]


def texts(hand: Hand) -> list[str]:
    return [e.text for e in hand.events]


@pytest.mark.parametrize("preset", FIVE_CARD)
def test_a_dealer_holding_a_flush_loos_the_board_when_everyone_else_passes(
    deal: Deal, steps: Steps, preset: str
) -> None:
    # A48: the dealer's turn is reached, and his flush shown, before "all pass" can give him
    # the pool. hoffmann ¶11: "No one is in this case allowed to throw up his cards, and all
    # save the holder of the flush are looed"; peel p. 27-28: the holder "receives from each
    # of the players, whether they stood or not, the amount of a loo".
    hand = deal(preset, DEALER_FLUSH, "7H", game="five-card", pool=10)
    steps(hand, "0 pass", "1 pass")
    assert hand.over and hand.outcome == "flush"
    assert hand.flush is not None and hand.looed == [0, 1]
    assert not hand.no_loo
    assert not any(e.kind == "all-pass" for e in hand.events)
    loo = hand.loo_amount()
    assert [
        p.payer for p in hand.payments if p.rule == "flush-loos-the-board" and p.payer is not None
    ] == [0, 1]
    assert all(p.amount == loo for p in hand.payments if p.payer in (0, 1) and p.rule != "ante")


def test_under_peel_a_passers_flush_loos_the_board_when_everyone_passes(
    deal: Deal, steps: Steps
) -> None:
    # A48 with A29: under peel a flush is shown after declaring, a thrown-up one included
    # ("whether they stood or not", p. 27-28), so all passing does not hide it.
    hand = deal("peel", ELDER_FLUSH, "7H", game="five-card", pool=10)
    steps(hand, "0 pass", "1 pass")
    assert hand.over and hand.outcome == "flush"
    assert hand.flush is not None and hand.flush.winner == 0
    assert hand.looed == [1, 2]


@pytest.mark.parametrize(
    ("preset", "may_pass", "cited"),
    [
        ("hoffmann", True, "Hoffmann (1909), ¶9"),
        ("britannica", False, "Britannica (1911), s. 31"),
        ("whiteknuckle", True, "White Knuckle (modern), ¶14"),
        ("parlett", True, "Parlett (modern), 5c:Bidding"),
        ("peel", True, "Peel (1891), p. 27"),
    ],
)
def test_the_dealer_against_a_lone_five_card_player(
    deal: Deal, steps: Steps, preset: str, may_pass: bool, cited: str
) -> None:
    # A47: peel p. 27 "the liberty of ... throwing up the hand altogether", whiteknuckle ¶14
    # "each player may drop out", parlett 5c:Bidding "Each in turn announces whether he will
    # pass or play", hoffmann ¶9 "It is at the option of each player either to play or to
    # pass" (A47, revised 2026-11-25; issue 25, finding 7): the dealer may pass, and the lone
    # player takes the pool unplayed. britannica s. 31 ("with his own cards"): he must play,
    # on his own cards.
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = steps(deal(preset, hands, "7C", game="five-card", pool=6), "0 play", "1 pass")
    options = hand.options()
    if not may_pass:
        assert options.choices == ("play",)
        (why,) = options.explanations
        assert why.rule == "dealer-must-play-against-one"
        text = why.render(2)
        assert "at five-card Loo there is no miss, so you must play on your own cards" in text
        assert text.endswith(f"({cited}).")
        return
    assert "pass" in options.choices and not options.explanations
    steps(hand, "2 pass")
    assert hand.over and hand.outcome == "lone-player"
    # The pool is paid under the rule that let everyone, the dealer too, pass (A47: at
    # five-card Loo, with no miss, "It is at the option of each player either to play or to
    # pass", hoffmann ¶9, the exchange's paragraph): not "the dealer must face a lone player"
    # (¶3), a duty of three-card Loo's dealer that works through the miss (issue 38), nor "a
    # lone miss-holder" (there is no miss).
    assert hand.payments[-1].payee == 0 and hand.payments[-1].rule == "five-card-exchange"
    assert {e.rules[0] for e in hand.events if e.kind == "lone-player"} == {"five-card-exchange"}
    assert all(p.rule != "dealer-must-play-against-one" for p in hand.payments)
    assert texts(hand)[-1] == (
        "Seat 1 alone is in the play and everyone else has passed, the dealer included: at "
        "five-card Loo, with no miss, the dealer may pass against one player "
        f"({cited}), so he takes the pool without play."
    )


def test_at_irish_loo_the_dealers_duty_names_irish_loo(deal: Deal, steps: Steps) -> None:
    # A47: "Any explanation of this choice cites the preset's own source and names the game".
    hands = ["AS KS 2D", "QH 9H 3H", "5D 6D 8D"]
    hand = steps(deal("britannica", hands, "7H", game="irish"), "0 play", "1 pass")
    (why,) = hand.options().explanations
    assert "at Irish Loo there is no miss" in why.text
    assert "(Britannica (1911), s. 31)" in why.text


def test_a_table_that_changes_the_dealers_duty_cites_its_options(deal: Deal, steps: Steps) -> None:
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = deal("peel", hands, "7C", game="five-card", options={"dealer-vs-one-5c": "own"})
    steps(hand, "0 play", "1 pass")
    assert hand.options().choices == ("play",)
    assert hand.options().explanations[0].text.endswith("(by this table's options).")


@pytest.mark.parametrize("preset", ["peel", "britannica", "parlett"])
def test_the_deal_after_a_flush_is_a_single(deal: Deal, preset: str) -> None:
    # A52: "The next deal becomes a single" (peel p. 28), whatever the pool holds; the other
    # sources whose flush is paid to its holder read the same (flush-next-deal).
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = deal(preset, hands, "7H", game="five-card", prev_flush=True, pool=0)
    assert RuleSet.preset(preset).flush_next_deal == "single"
    assert hand.single


def test_after_a_flush_under_hoffmann_the_pool_carries_a_double(deal: Deal) -> None:
    # hoffmann's flush loos go to the pool (¶11): the next deal is a double, not a single.
    hands = ["AS KS 2D", "QH 9H 3H", "5D 6D 8D"]
    hand = deal("hoffmann", hands, "7H", prev_flush=True, pool=10, miss="2H 3S 4C")
    assert hand.double and not hand.single


@pytest.mark.parametrize("preset", ["hoffmann", "peel", "britannica"])
def test_club_law_says_the_miss_is_withdrawn(deal: Deal, preset: str) -> None:
    # A53: "there is no miss" (hoffmann ¶12); "the miss is withdrawn" (peel p. 26). The miss
    # was dealt before the turn-up showed clubs; the trace says it goes.
    hands = ["AS KS 2D", "QH 9H 3H", "5D 6D 8D"]
    hand = deal(preset, hands, "7C", miss="2H 3S 4C", options={"club-law": "on"})
    assert hand.club_law and hand.miss is None and hand.miss_withdrawn
    assert texts(hand)[1].startswith("3 cards each and a miss")
    assert texts(hand)[-1] == (
        "Clubs are trumps: club law forces everyone to play, and the miss is withdrawn unseen: "
        "nobody may take it."
    )
    assert "take-miss" not in hand.options().choices


def test_club_law_without_a_miss_says_nothing_of_one(deal: Deal) -> None:
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = deal("hoffmann", hands, "7C", game="five-card", options={"club-law": "on"})
    assert render(hand.events[-1].message, None) == (
        "Clubs are trumps: club law forces everyone to play."
    )


# -- English (issue 12) ------------------------------------------------------------------------


def test_a_player_holding_pam_of_the_suit_led_is_told_why_he_has_none() -> None:
    # Pam belongs to the trumps, not to clubs (RULES.md pam-identity, A3): holding J♣ when a
    # club is led, a player "has no clubs", and his Pam heads the trick as a trump.
    from games.loo import Position, card, legal

    position = Position(
        game="five-card",
        rules=RuleSet.preset("hoffmann"),
        trump="H",
        hand=tuple(card(c) for c in ("JC", "2S", "3S", "4S", "5S")),
        trick=(card("KC"),),
        declared=3,
    )
    moves = legal(position)
    assert [c.code for c in moves.legal] == ["JC"]
    assert [a.text for a in moves.explanations] == [
        "You have no clubs (Pam, J♣, is a trump, not a club), so you must trump: your Pam (J♣) "
        "heads the trick."
    ]


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_trump_after_trick_with_one_trump_asks_for_it_not_the_highest(preset: str) -> None:
    # trump-after-trick: hoffmann ¶6 "the winner of a trick must lead a trump"; peel p. 21
    # "the highest". With one trump the two readings ask for the same card.
    from games.loo import Position, card, legal

    position = Position(
        game="three-card",
        rules=RuleSet.preset(preset),
        trump="H",
        hand=(card("7H"), card("2S")),
        declared=3,
        trick_number=2,
        played=(card("AS"), card("KS"), card("QS")),
    )
    moves = legal(position)
    assert [c.code for c in moves.legal] == ["7H"]
    texts_ = [a.text for a in moves.explanations if a.rule == "trump-after-trick"]
    assert texts_ == [
        "Trump after trick: you won the last trick and hold one trump, 7♥, so you must lead it."
    ]
