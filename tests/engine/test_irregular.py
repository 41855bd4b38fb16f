"""The rest of the laws in laws mode (issue 12): misdeals, a faced card, interfering with the
deal, declaring or looking before one's turn, looking at the miss or another's hand, exposing a
card, playing before all have declared. Each test quotes its passage (RULES.md 1.11). Seats
are numbered from the elder hand (seat 0); the dealer is the last seat."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games.loo import RuleSet
from games.loo.hand import Action, Hand, IllegalAction
from games.loo.table import Table, TableConfig
from games.loo.view import view_for
from tests.engine.test_hand_properties import assert_view_hides

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"


def irregular(hand: Hand, seat: int, what: str, *cards: str) -> Hand:
    hand.apply(Action("irregular", seat, what, tuple(cards)))
    return hand


def last_text(hand: Hand) -> str:
    return hand.events[-1].text


def laws_hand(deal: Deal, preset: str, **kwargs: object) -> Hand:
    return deal(preset, FOUR, "7H", miss=MISS, laws=True, pool=6, **kwargs)


# -- the deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_a_misdeal_costs_the_dealer_and_he_deals_again(preset: str) -> None:
    # hoffmann Law 3: "it is a misdeal, and the dealer forfeits a single to the pool ... there
    # is a fresh deal by the same dealer"; peel p. 23 "the dealer is looed" (a single loo,
    # p. 23-24), the pack "dealt again by the same player" (p. 24).
    # After a loo: peel's first deal is the single of one card each (A39), which has no deal
    # of three cards to get wrong.
    config = TableConfig(
        "three-card", RuleSet.preset(preset), 4, seed=5, laws=True, start="after-loo"
    )
    hand = Table(config).deal()
    dealer = hand.dealer
    # A single (hoffmann), a single loo (peel): half the full loo of 6, at a deal of 3.
    amount = 3
    before = [list(h) for h in hand.hands]
    chips, pool, balance = hand.chips(), hand.pool, hand.balances[dealer]
    irregular(hand, dealer, "misdeal")
    assert hand.balances[dealer] == balance - amount and hand.pool == pool + amount
    assert hand.chips() == chips
    assert hand.dealer == dealer and hand.irregular is not None and hand.irregular.redeals == 1
    assert [list(h) for h in hand.hands] != before  # shuffled and dealt again
    assert hand.to_act == (dealer + 1) % 4 and all(d is None for d in hand.declared)
    assert "misdeal" in hand.events[-2].text.lower() or "misdeal" in " ".join(
        e.text for e in hand.events
    )
    # The replay of its actions deals the same fresh cards.
    assert Hand.replay(hand.setup, hand.log).to_dict() == hand.to_dict()


def test_only_the_dealer_misdeals_and_only_before_anyone_declares(deal: Deal, steps: Steps) -> None:
    hand = laws_hand(deal, "hoffmann")
    stored = hand.to_dict()
    with pytest.raises(IllegalAction, match="Only the dealer misdeals"):
        irregular(hand, 1, "misdeal")
    steps(hand, "0 play")
    with pytest.raises(IllegalAction, match="Only the dealer misdeals"):
        irregular(hand, 3, "misdeal")
    assert hand.to_dict()["state"]["balances"] == stored["state"]["balances"]


@pytest.mark.parametrize("preset", ["britannica", "whiteknuckle", "parlett"])
def test_sources_without_penalties_let_no_irregularity_stand(deal: Deal, preset: str) -> None:
    hand = laws_hand(deal, preset)
    stored = hand.to_dict()
    assert hand.irregularities(3) == ()
    with pytest.raises(IllegalAction, match="laws mode"):
        irregular(hand, 3, "misdeal")
    assert hand.to_dict() == stored


def test_outside_laws_mode_no_irregularity_stands(deal: Deal) -> None:
    hand = deal("hoffmann", FOUR, "7H", miss=MISS)
    with pytest.raises(IllegalAction, match="laws mode"):
        irregular(hand, 1, "look-miss")


def test_a_faced_card_means_a_fresh_deal_without_penalty(deal: Deal) -> None:
    # hoffmann Law 2: "If a card be found faced in the dealt portions of the pack, the cards
    # shall be reshuffled and recut ... fresh deal by the same dealer."
    hand = laws_hand(deal, "hoffmann")
    balances = list(hand.balances)
    irregular(hand, 3, "faced-card")
    assert hand.balances == balances
    assert hand.irregular is not None and hand.irregular.redeals == 1
    assert "no penalty" in " ".join(e.text for e in hand.events)
    # peel treats only the dealer's exposing a card, which is a misdeal.
    with pytest.raises(IllegalAction, match="state no law"):
        irregular(laws_hand(deal, "peel"), 3, "faced-card")


def test_under_peel_interfering_with_the_deal_is_looed_and_the_deal_stands(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 24: "Any player interfering with the cards during the deal is looed, but the
    # cards are not re-dealt"; a penalty before the play, so "the same as settled for a single
    # loo" (p. 23-24), paid into the pool at once as the misdealer's is.
    hand = laws_hand(deal, "peel")
    dealt = [list(h) for h in hand.hands]
    pool = hand.pool
    irregular(hand, 1, "interfere")
    assert [list(h) for h in hand.hands] == dealt
    single = hand.loo_amount() // 2
    assert single == 3 and hand.pool == pool + single
    steps(hand, "0 pass", "1 pass", "2 pass")
    assert hand.over
    (fine,) = [p for p in hand.payments if p.rule == "penalty-interfering-with-deal"]
    assert (fine.payer, fine.payee, fine.amount) == (1, None, single)
    # Paid into this pool, which the dealer took when all passed.
    assert hand.payments.index(fine) < len(hand.payments) - 1 and hand.pool == 0
    with pytest.raises(IllegalAction, match="state no law"):
        irregular(laws_hand(deal, "hoffmann"), 1, "interfere")


# -- the declarations ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_declaring_before_ones_turn_costs_a_single_and_he_declares_again(
    deal: Deal, steps: Steps, preset: str
) -> None:
    # hoffmann Law 5 "Any player declaring before his turn ... forfeits a single to the pool";
    # peel p. 24 "is looed a single" and "is not debarred ... from taking part in the play".
    hand = laws_hand(deal, preset)
    pool = hand.pool
    # A single loo under peel: half the full loo (p. 23), 3 at a deal of 3 and a loo of 6.
    amount = 3 if preset == "peel" else hand.stake
    irregular(hand, 2, "declare-early")
    assert hand.pool == pool + amount and hand.balances[2] == 100 - amount
    assert hand.to_act == 0
    steps(hand, "0 play", "1 pass")
    assert "play" in hand.options().choices  # his right to play is kept


def test_looking_before_ones_turn_shows_him_his_cards(deal: Deal) -> None:
    # hoffmann Law 5: "or looking at his cards before it is his turn to declare".
    hand = laws_hand(deal, "hoffmann")
    assert view_for(hand, 2).hand is None
    irregular(hand, 2, "look-early")
    assert view_for(hand, 2).hand is not None
    assert hand.balances[2] == 97
    with pytest.raises(IllegalAction):
        irregular(hand, 2, "look-early")  # once looked, there is nothing more to look at


def test_under_hoffmann_looking_at_the_miss_costs_a_single_and_retires_him(
    deal: Deal, steps: Steps
) -> None:
    # hoffmann Law 6: "Any player looking at miss before he has declared to take it ...
    # forfeits a single to the pool, and must retire from the game for that round."
    hand = laws_hand(deal, "hoffmann")
    irregular(hand, 1, "look-miss")
    assert [c.code for c in view_for(hand, 1).peeked] == MISS.split()
    assert not view_for(hand, 0).peeked  # the others did not see it
    steps(hand, "0 play")
    options = hand.options()
    assert options.choices == ("pass",)
    assert options.explanations[0].rule == "penalty-look-at-miss"
    assert options.explanations[0].render(1) == (
        "You looked where you should not: you must retire for this hand."
    )


def test_under_peel_looking_at_the_miss_costs_a_single_loo_and_he_plays_on(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 24: "looking at the miss without taking it ... is looed a single"; he may play.
    hand = laws_hand(deal, "peel")
    irregular(hand, 1, "look-miss")
    # A single loo: half the full loo (p. 23), 3 at a deal of 3 and a loo of 6.
    assert hand.balances[1] == 100 - 3 == 100 - hand.loo_amount() // 2
    steps(hand, "0 play")
    assert "play" in hand.options().choices


def test_under_hoffmann_seeing_anothers_cards_retires_him(deal: Deal, steps: Steps) -> None:
    # hoffmann Law 6: "exposing a card or cards of another player, forfeits a single to the
    # pool, and must retire from the game for that round".
    hand = laws_hand(deal, "hoffmann")
    irregular(hand, 0, "look-hand:2")
    assert {c.code for c in view_for(hand, 0).peeked} == set(FOUR[2].split())
    assert hand.options().choices == ("pass",)
    steps(hand, "0 pass")


def test_under_peel_looking_at_anothers_cards_before_declaring_loos_him_and_he_throws_up(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 24: "If he looks at the cards of any other player he is looed the full loo, and
    # must throw up his own cards".
    hand = laws_hand(deal, "peel")
    irregular(hand, 0, "look-hand:2")
    assert hand.options().choices == ("pass",)
    steps(hand, "0 pass", "1 play", "2 play", "3 play")
    assert hand.phase == "play"


def test_under_peel_a_player_who_looks_after_declaring_plays_on_and_wins_nothing(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 24: "unless he has already declared to stand"; "In any case the player who
    # transgressed the law does not win anything" (p. 22).
    # He plays on "having first paid his loo into the pool" (p. 24): that full loo, into this
    # deal's pool at once, is his loo for the hand; he is not looed a second time.
    hand = laws_hand(deal, "peel")
    steps(hand, "0 play")
    pool = hand.pool
    irregular(hand, 0, "look-hand:1")
    assert hand.pool == pool + 6
    steps(hand, "1 play", "2 pass", "3 play")
    while not hand.over:
        hand.step(hand.choices()[0])
    assert 0 in hand.looed
    assert not [p for p in hand.payments if p.payee == 0]
    assert [p.amount for p in hand.payments if p.payer == 0 and p.rule != "ante"] == [6]
    assert "pays his loo (6) into the pool at once" in " ".join(e.text for e in hand.events)


# -- the play -------------------------------------------------------------------------------------


def to_the_play(deal: Deal, steps: Steps, preset: str) -> Hand:
    hand = laws_hand(deal, preset)
    return steps(hand, "0 play", "1 play", "2 play", "3 play")


def test_under_hoffmann_exposing_a_card_throws_up_the_hand_and_costs_a_single(
    deal: Deal, steps: Steps
) -> None:
    # hoffmann Law 15: a declared player who "(1) Exposes a card before it is his turn to
    # play" "shall be compelled to throw up his cards, and to forfeit a single to the pool".
    hand = to_the_play(deal, steps, "hoffmann")
    irregular(hand, 2, "expose", "5C")
    assert 2 in hand.retired and not hand.hands[2]
    assert hand.balances[2] == 97
    while not hand.over:
        hand.step(hand.choices()[0])
    assert 2 not in hand.looed
    # One single, not four: Law 15, not the card-play laws.
    assert [p.amount for p in hand.payments if p.payer == 2 and p.rule != "ante"] == [3]
    assert "exposed" in " ".join(e.text for e in hand.events)


def test_under_peel_exposing_a_card_loos_him_and_the_hand_is_replayed(
    deal: Deal, steps: Steps
) -> None:
    # peel p. 25: "exposing or mentioning the value of his own ... unplayed cards" → "likewise
    # looed", and "The cards must be replayed in proper order".
    hand = to_the_play(deal, steps, "peel")
    irregular(hand, 2, "expose", "5C")
    assert view_for(hand, 0).shown_held[2] == (hand.hands[2][0],) or any(
        c.code == "5C" for c in view_for(hand, 0).shown_held[2]
    )
    while not hand.over:
        hand.step(hand.choices()[0])
    assert hand.replaying and 2 in hand.looed
    assert any(e.kind == "replay" for e in hand.events)


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_playing_before_all_have_declared(deal: Deal, steps: Steps, preset: str) -> None:
    # hoffmann Law 15: "(3) Plays a card before all have declared" → he throws up his cards
    # and forfeits a single; peel p. 25, playing out of turn: he is looed.
    hand = laws_hand(deal, preset)
    steps(hand, "0 play")
    irregular(hand, 0, "play-early", "AS")
    assert any(c.code == "AS" for c in hand.seen)
    if preset == "hoffmann":
        assert hand.declared[0] == "pass" and hand.balances[0] == 97
        return
    steps(hand, "1 play", "2 play", "3 play")
    while not hand.over:
        hand.step(hand.choices()[0])
    assert 0 in hand.looed
    assert not hand.replaying  # nothing was played before: no replay for it


# -- whatever is committed, counters and cards are kept ---------------------------------------


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_random_irregularities_keep_counters_cards_and_the_replay(preset: str, game: str) -> None:
    rng = random.Random(f"{preset}:{game}")
    table = Table(TableConfig(game, RuleSet.preset(preset), 5, seed=f"irr:{preset}", laws=True))
    total = table.chips()
    committed = 0
    for _ in range(25):
        hand = table.deal()
        while not hand.over:
            seat = rng.randrange(5)
            kinds = hand.irregularities(seat)
            if kinds and rng.random() < 0.3:
                what = rng.choice(kinds)
                cards: tuple[str, ...] = ()
                if what == "look-hand":
                    others = [s for s in range(5) if s != seat and hand.hands[s]]
                    if not others:
                        continue
                    what = f"look-hand:{rng.choice(others)}"
                elif what in ("expose", "play-early"):
                    cards = (rng.choice(hand.irregular_cards(seat)).code,)
                table.apply(Action("irregular", seat, what, cards))
                committed += 1
            else:
                offered = hand.choices()
                table.step(offered[int(rng.random() * len(offered))])
            assert hand.chips() == total
            assert len({c for h in hand.hands for c in h}) == sum(len(h) for h in hand.hands)
            for who in range(5):
                assert_view_hides(hand, who)
        assert Hand.replay(hand.setup, hand.log).to_dict() == hand.to_dict()
    assert committed > 10
    assert table.chips() == total


# -- the dealer's turn after those in have thrown up their cards (found by careless players) --


def test_the_dealer_against_one_has_no_miss_to_take_once_its_holder_threw_it_up(
    deal: Deal, steps: Steps
) -> None:
    # Seat 1 takes miss, then sees the dealer's cards: under hoffmann Law 6 he retires,
    # throwing up the miss he holds. The dealer faces seat 0 alone and must play, on his own
    # cards.
    hand = laws_hand(deal, "hoffmann")
    steps(hand, "0 play", "1 take-miss", "2 pass")
    irregular(hand, 1, "look-hand:3")
    assert hand.miss is None and hand.to_act == 3
    options = hand.options()
    assert options.choices == ("play",)
    assert options.explanations[0].render(3) == (
        "Only seat 1 has declared to play, on his own cards, so you, the dealer, may not pass: "
        "you may play your own cards (the miss was thrown up)."
    )
    steps(hand, "3 play")
    assert hand.phase == "play" and hand.in_play == [0, 3]


@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_when_the_one_player_in_throws_up_at_the_dealers_turn_and_he_passes_he_takes_the_pool(
    deal: Deal, steps: Steps, game: str
) -> None:
    # Seat 0 alone declared to play, then sees the dealer's cards and retires (Law 6) while
    # the dealer is to declare: if he passes too, all before him have passed
    # (all-pass-dealer-wins).
    if game == "three-card":
        hand = laws_hand(deal, "hoffmann")
        steps(hand, "0 play", "1 pass", "2 pass")
    else:
        five = ["AS KS 2D 3D 4D", "QH 9C 3C 5D 6D", "5C 6C 8D 9D TD", "JD JS 4S 5S 6S"]
        hand = deal("hoffmann", five, "7H", game=game, laws=True, pool=6)
        steps(hand, "0 play", "1 pass", "2 pass")
    irregular(hand, 0, "look-hand:3")
    pool = hand.pool
    steps(hand, "3 pass")
    assert hand.over and hand.outcome == "all-pass"
    assert hand.pool == 0 and hand.events[-1].kind != "lone-player"
    assert any(e.kind == "all-pass" for e in hand.events) and pool > 0
