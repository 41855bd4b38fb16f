"""Declaring in three-card Loo, the five-card exchange, must and club law (RULES.md 1.3-1.4,
1.10). Seats are numbered from the elder hand (seat 0); the dealer is the last seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.loo.hand import Action, Hand, IllegalAction

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"
ALL = ["hoffmann", "britannica", "whiteknuckle", "parlett", "peel"]


def choices(hand: Hand) -> list[str]:
    return list(hand.options().choices)


@pytest.mark.parametrize("preset", ALL)
def test_declarations_go_round_from_the_elder_hand(deal: Deal, preset: str) -> None:
    # declare-in-turn: hoffmann Law 4, britannica s. 9, peel p. 24.
    hand = deal(preset, FOUR, "7H", miss=MISS)
    assert hand.to_act == 0
    assert choices(hand) == ["play", "take-miss", "pass"]
    with pytest.raises(IllegalAction, match="not seat 2's turn"):
        hand.apply(Action.declare(1, "play"))


@pytest.mark.parametrize("preset", ALL)
def test_only_the_first_taker_gets_miss(deal: Deal, steps: Steps, preset: str) -> None:
    # miss-only-once: hoffmann ¶2 "so soon as miss is taken, the remaining players have only
    # two alternatives"; britannica s. 13; peel p. 19.
    hand = steps(deal(preset, FOUR, "7H", miss=MISS), "0 take-miss")
    assert [c.code for c in hand.hands[0]] == MISS.split()
    assert choices(hand) == ["play", "pass"]
    assert [a.rule for a in hand.options().explanations] == ["miss-only-once"]
    with pytest.raises(IllegalAction, match="'take-miss' is not open"):
        hand.apply(Action.declare(1, "take-miss"))
    # The hand given up is dead and unseen (discards-unseen).
    assert {c.code for c in hand.discards} == set(FOUR[0].split())
    assert any("miss-holder-must-play" in e.rules for e in hand.events)


@pytest.mark.parametrize("preset", ALL)
def test_if_all_pass_the_dealer_takes_the_pool_without_play(
    deal: Deal, steps: Steps, preset: str
) -> None:
    # all-pass-dealer-wins: hoffmann ¶3, Law 8; peel p. 19 "no matter what his cards are".
    hand = steps(deal(preset, FOUR, "7H", miss=MISS, pool=9), "0 pass", "1 pass", "2 pass")
    assert hand.over and hand.outcome == "all-pass"
    assert hand.pool == 0
    # The dealer stakes (britannica: after a loo the loos alone form the pool, s. 34).
    staked = 0 if preset == "britannica" else 3
    assert hand.pool_at_start == 9 + staked
    assert hand.balances[3] == 100 - staked + hand.pool_at_start
    assert hand.no_loo


@pytest.mark.parametrize("preset", ["hoffmann", "whiteknuckle", "parlett", "peel", "britannica"])
def test_a_lone_miss_holder_takes_the_pool_if_the_dealer_passes(
    deal: Deal, steps: Steps, preset: str
) -> None:
    # miss-holder-alone-wins: hoffmann ¶3 "he is entitled to the pool"; peel p. 20.
    hand = deal(preset, FOUR, "7H", miss=MISS, pool=6)
    steps(hand, "0 take-miss", "1 pass", "2 pass")
    assert choices(hand) == ["play", "pass"]
    steps(hand, "3 pass")
    assert hand.outcome == "lone-miss"
    assert hand.payments[-1].payee == 0
    assert hand.no_loo


def test_britannicas_other_rules_make_the_dealer_face_a_lone_miss_holder_with_master(
    deal: Deal, steps: Steps
) -> None:
    # master: britannica s. 31-32, "he may defend with the three top cards of the pack,
    # excluding the trump card; these cards are called 'master'" (A21: for the pool).
    options = {
        "lone-miss-holder": "dealer-must-play-own-or-master",
        "dealer-vs-one": "own|miss",
        "master": "on",
    }
    hand = deal("britannica", FOUR, "7H", miss=MISS, stock="AC KC QC", options=options)
    steps(hand, "0 take-miss", "1 pass", "2 pass")
    assert choices(hand) == ["play", "defend-master"]
    assert hand.options().explanations[0].rule == "master"
    steps(hand, "3 defend-master")
    assert [c.code for c in hand.hands[3]] == ["AC", "KC", "QC"]
    assert hand.defender == 3 and hand.phase == "play"


@pytest.mark.parametrize(
    ("preset", "menu"),
    [
        # dealer-must-play-against-one / dealer-defends-miss.
        ("hoffmann", ["play", "take-miss", "defend-miss"]),  # ¶3
        ("britannica", ["take-miss", "defend-miss"]),  # s. 28 (A20)
        ("whiteknuckle", ["play", "take-miss", "defend-miss"]),  # ¶9 "Defend the Miss"
        ("parlett", ["play", "take-miss", "defend-miss"]),  # 3c:Announcements "defend Miss"
        ("peel", ["play", "take-miss", "defend-miss"]),  # p. 19-20
    ],
)
def test_the_dealer_may_not_pass_against_one_player_on_his_own_cards(
    deal: Deal, steps: Steps, preset: str, menu: list[str]
) -> None:
    hand = steps(deal(preset, FOUR, "7H", miss=MISS), "0 play", "1 pass", "2 pass")
    assert choices(hand) == menu
    assert hand.options().explanations[0].rule == "dealer-must-play-against-one"
    with pytest.raises(IllegalAction, match="may not pass"):
        hand.apply(Action.declare(3, "pass"))


def test_a_dealer_playing_for_the_pool_leaves_his_tricks_there_and_is_not_looed(
    deal: Deal, steps: Steps
) -> None:
    # hoffmann ¶3 "the proceeds of any tricks he may make remain in the pool"; Law 7 "he
    # cannot be looed". The miss (KH 2C 9S) against seat 0's AS KS 2D, hearts trumps.
    hand = deal("hoffmann", FOUR, "7H", miss=MISS)
    steps(hand, "0 play", "1 pass", "2 pass", "3 defend-miss")
    assert hand.defender == 3 and [c.code for c in hand.hands[3]] == MISS.split()
    # Seat 0 leads AS (no trump); the dealer, void in spades... holds 9S: must follow.
    steps(hand, "0 AS", "3 9S")  # seat 0 wins trick 1
    steps(hand, "0 KS", "3 KH")  # KH trumps (void in spades): dealer wins for the pool
    steps(hand, "3 2C", "0 2D")  # the dealer leads; seat 0 discards: the dealer wins again
    assert hand.over
    pool = hand.pool_at_start
    assert [p.payee for p in hand.payments if p.rule == "pool-division"] == [0]
    assert hand.pool == pool - pool // 3
    assert hand.looed == []
    assert hand.balances[3] == 100 - 3  # his stake only


@pytest.mark.parametrize(
    ("preset", "kwargs", "must", "miss_dealt"),
    [
        # must: hoffmann ¶7 "usual" after a hand with no loo, "there is no miss".
        ("hoffmann", {"prev_no_loo": True}, True, False),
        ("hoffmann", {"first": True}, False, True),
        # britannica: off unless agreed (s. 40).
        ("britannica", {"prev_no_loo": True}, False, True),
        (
            "britannica",
            {"prev_no_loo": True, "options": {"must": "first-deal+after-no-loo"}},
            True,
            False,
        ),
        # parlett's optional rule: "When the pool is a single, nobody may pass"; the miss is
        # still dealt (A33). The first deal's pool is a single.
        ("parlett", {"first": True, "options": {"must": "pool-is-single"}}, True, True),
        ("parlett", {"first": True}, False, True),
        # peel has no must (p. 18, recovered; A39): its single is a deal of one card each
        # (tests/engine/test_single_deal.py), and any other deal is an ordinary one.
        ("peel", {}, False, True),
        ("peel", {"prev_flush": True}, False, True),
        ("whiteknuckle", {"prev_no_loo": True}, False, True),
    ],
)
def test_when_a_hand_is_a_must(
    deal: Deal, preset: str, kwargs: dict[str, object], must: bool, miss_dealt: bool
) -> None:
    hand = deal(preset, FOUR, "7H", miss=MISS if miss_dealt else None, **kwargs)
    assert hand.must is must
    assert (hand.miss is not None) is miss_dealt
    if must:
        assert "pass" not in choices(hand)
        assert hand.options().explanations[0].rule == "must"
    else:
        assert "pass" in choices(hand)


def test_a_must_is_a_three_card_device(deal: Deal) -> None:
    hand = deal(
        "hoffmann",
        ["AS KS 2D 3D 4D", "QH 9C 3C 5S 6S", "5C 6C 8D 9D TD"],
        "7H",
        game="five-card",
        prev_no_loo=True,
    )
    assert not hand.must


@pytest.mark.parametrize(
    ("preset", "game", "options", "forced"),
    [
        # club-law: hoffmann ¶12 (either game), britannica s. 40 (three-card), peel p. 26
        # (three-card), parlett 5c:Bidding (five-card).
        ("hoffmann", "three-card", {"club-law": "on"}, True),
        ("hoffmann", "five-card", {"club-law": "on"}, True),
        ("britannica", "three-card", {"club-law": "on"}, True),
        ("britannica", "five-card", {"club-law": "on"}, False),
        ("peel", "three-card", {"club-law": "on"}, True),
        ("parlett", "five-card", {"club-law": "on"}, True),
        ("parlett", "three-card", {"club-law": "on"}, False),
        ("hoffmann", "three-card", {}, False),
    ],
)
def test_club_law_forces_everyone_to_play_when_clubs_are_turned_up(
    deal: Deal, preset: str, game: str, options: dict[str, str], forced: bool
) -> None:
    if game == "three-card":
        hand = deal(preset, FOUR, "7C", miss=MISS, options=options)
    else:
        hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH", "JD TD 4S 2S 3S"]
        hand = deal(preset, hands, "7C", game=game, options=options)
    assert hand.club_law is forced
    assert ("pass" not in choices(hand)) is forced
    if forced and game == "three-card":
        assert hand.miss is None and hand.miss_withdrawn  # peel p. 26 "the miss is withdrawn"


@pytest.mark.parametrize(("preset", "most"), [("hoffmann", 0), ("parlett", 5)])
def test_drawing_under_five_card_club_law(deal: Deal, preset: str, most: int) -> None:
    # hoffmann ¶12 "no miss or drawing of cards"; parlett bars only passing (A35).
    hands = [
        "AS KS 2D 3D 4D",
        "QH 9H 3H 5S 6S",
        "5D 6D 8D 9D TH",
        "JD TD 4S 2S 3S",
        "AH KH QD JS TS",
    ]
    hand = deal(preset, hands, "7C", game="five-card", options={"club-law": "on"})
    assert hand.options().max_discards == most


def test_the_five_card_exchange_draws_from_the_top_of_the_stock_once(
    deal: Deal, steps: Steps
) -> None:
    # five-card-exchange: hoffmann ¶9 "having once drawn cards he is bound to play"; peel
    # p. 27 "No second exchange is allowable".
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = deal("hoffmann", hands, "7C", game="five-card", stock="AC KC QC")
    steps(hand, "0 play 2D 3D")
    assert sorted(c.code for c in hand.hands[0]) == sorted(["AS", "KS", "4D", "AC", "KC"])
    assert hand.drawn[0] == 2 and hand.to_act == 1
    with pytest.raises(IllegalAction):
        hand.apply(Action.declare(0, "play", ["AS"]))
    with pytest.raises(IllegalAction, match="does not hold"):
        hand.apply(Action.declare(1, "play", ["AS"]))


def test_a_player_may_not_draw_more_cards_than_the_stock_holds(deal: Deal) -> None:
    # A30: ten players leave one card in the stock.
    # Ten hands of five, none a flush: the ranks A..5 dealt across the four suits.
    cards = [r + s for r in "AKQJT98765432" for s in "SHDC"]
    hands = [" ".join(cards[i * 5 : i * 5 + 5]) for i in range(10)]
    hand = deal("hoffmann", hands, cards[50], game="five-card")
    assert len(hand.stock) == 1
    options = hand.options()
    assert options.max_discards == 1
    assert options.explanations[-1].rule == "five-card-exchange"
    with pytest.raises(IllegalAction, match="at most 1"):
        hand.apply(Action.declare(0, "play", ["AS", "KS"]))


def test_the_dealer_may_not_pass_against_a_lone_five_card_player(deal: Deal, steps: Steps) -> None:
    # britannica s. 31: he plays "with his own cards" (A47); hoffmann's dealer may pass (¶9).
    hands = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH"]
    hand = steps(deal("britannica", hands, "7C", game="five-card"), "0 play", "1 pass")
    assert choices(hand) == ["play"]
    assert hand.options().explanations[0].rule == "dealer-must-play-against-one"
    hand = steps(deal("hoffmann", hands, "7C", game="five-card"), "0 play", "1 pass")
    assert choices(hand) == ["play", "pass"]


def test_a_seat_sees_its_cards_only_at_its_turn_to_declare(deal: Deal, steps: Steps) -> None:
    # look-at-cards-in-turn: hoffmann Law 5; peel p. 24.
    from games.loo.view import view_for

    hand = deal("hoffmann", FOUR, "7H", miss=MISS)
    assert view_for(hand, 2).hand is None
    assert view_for(hand, 0).hand is not None
    steps(hand, "0 play", "1 play")
    assert [c.code for c in view_for(hand, 2).hand or ()] == FOUR[2].split()
    open_rules = deal("hoffmann", FOUR, "7H", miss=MISS, options={"look-in-turn": "off"})
    assert view_for(open_rules, 2).hand is not None
