"""Card play, rule by rule, under every preset where the sources differ.

Each test states the position, the rule set and the expected legal cards, and names the passage
it encodes (locators as in RULES.md 0.1). The worked examples of RULES.md part 4 are in
test_worked_examples.py; these cover what they leave out.
"""

from __future__ import annotations

import pytest

from games.loo import (
    IllegalPlay,
    LooError,
    Position,
    PositionError,
    RuleSet,
    card,
    legal,
    parse_cards,
)

ALL = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")


def pos(
    preset: str,
    hand: str,
    trick: str = "",
    *,
    game: str = "three-card",
    trump: str = "H",
    turn_up: str | None = None,
    declared: int = 4,
    trick_number: int = 1,
    played: str = "",
    civil: bool = False,
    **options: str,
) -> Position:
    rules = RuleSet.preset(preset)
    if options:
        rules = rules.with_options({k.replace("_", "-"): v for k, v in options.items()})
    if turn_up is None:
        turn_up = next(r + trump for r in "23456789" if r + trump not in hand + trick + played)
    return Position(
        game=game,
        rules=rules,
        trump=trump,
        hand=parse_cards(hand.split()),
        trick=parse_cards(trick.split()),
        turn_up=card(turn_up),
        declared=declared,
        trick_number=trick_number,
        pam_be_civil=civil,
        played=parse_cards(played.split()),
    )


def legal_codes(p: Position) -> list[str]:
    return [c.code for c in legal(p).legal]


def cited(p: Position) -> list[str]:
    return [a.rule for a in legal(p).explanations]


# -- explanations ----------------------------------------------------------------------------


def test_heading_the_trick_is_explained_with_the_concrete_cards() -> None:
    # hoffmann ¶5, Law 13: "Every player is bound to head the trick if able to do so."
    moves = legal(pos("hoffmann", "QH 3H KS", "TH", turn_up="7H"))
    assert [c.code for c in moves.legal] == ["QH"]
    head = next(a for a in moves.explanations if a.rule == "head-the-trick")
    assert head.text == (
        "You must head the trick: your Q♥ beats the 10♥ led, so the 3♥ may not be played."
    )
    assert [c.code for c in head.excluded] == ["3H"]
    follow = next(a for a in moves.explanations if a.rule == "follow-suit")
    assert [c.code for c in follow.excluded] == ["KS"]
    assert "K♠" in follow.text


def test_playing_an_illegal_card_raises_the_rule_that_forbids_it() -> None:
    moves = legal(pos("hoffmann", "QH 3H KS", "TH", turn_up="7H"))
    with pytest.raises(IllegalPlay) as raised:
        moves.check(card("3H"))
    assert raised.value.application is not None
    assert raised.value.application.rule == "head-the-trick"
    assert "may not be played" in str(raised.value)
    with pytest.raises(IllegalPlay, match="You do not hold the A♠"):
        moves.check(card("AS"))
    moves.check(card("QH"))  # legal: no error


def test_a_forced_last_card_is_explained() -> None:
    # Trick 3 of three-card Loo: one card left, and no rule narrows anything.
    following = legal(pos("hoffmann", "9S", "KD", trick_number=3, declared=3))
    assert [c.code for c in following.legal] == ["9S"]
    assert following.explanations and "last card" in following.explanations[0].text
    leading = legal(pos("whiteknuckle", "9S", trick_number=3, declared=3))
    assert [c.code for c in leading.legal] == ["9S"]
    assert "last card" in leading.explanations[0].text


def test_a_rule_that_does_not_bind_is_noted_not_cited() -> None:
    # E8 under hoffmann: void, and the only trump cannot over-trump the 9C.
    moves = legal(pos("hoffmann", "5C 8S 2H", "KD 9C", trump="C", turn_up="4C"))
    assert moves.explanations == ()
    assert [n.rule for n in moves.notes] == ["must-trump"]
    assert "not bound to trump" in moves.notes[0].text


# -- leading ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # A23: the king rule is tied to the turn-up. Here the AH was played to trick 1.
        ("hoffmann", ["KH", "4H"]),  # Law 10 and Law 14: any trump
        ("britannica", ["KH", "4H"]),  # s. 20, s. 26
        ("parlett", ["KH", "4H"]),  # 3c:Play: "must lead a trump if held"
        ("whiteknuckle", ["KH", "4H"]),  # ¶10: first lead only, so free
        ("peel", ["KH"]),  # p. 21: "the higher of the two"
    ],
)
def test_the_king_rule_needs_the_ace_turned_up_not_played(preset: str, expected: list[str]) -> None:
    p = pos(preset, "KH 4H", trick_number=2, turn_up="7H", played="AH 2S 3S 4S")
    assert legal_codes(p) == expected
    assert "lead-king-when-ace-turned" not in cited(p)


def test_whiteknuckle_has_no_lead_rules_after_the_first_lead() -> None:
    # whiteknuckle ¶10: "The first lead must be…"; no trump after trick (Part 5 note 3).
    assert legal_codes(pos("whiteknuckle", "KH 9S", trick_number=2, turn_up="7H")) == ["KH", "9S"]


def test_three_card_trick_three_leaves_the_leader_one_card() -> None:
    for preset in ALL:
        assert legal_codes(pos(preset, "9S", trick_number=3)) == ["9S"]


def test_hoffmanns_equal_value_counts_cards_played_to_earlier_tricks() -> None:
    # hoffmann ¶4 and footnote [28] (A9): the QH between KH and JH has been played.
    p = pos("hoffmann", "KH JH", trick_number=2, declared=2, turn_up="7H", played="QH 5S")
    assert legal_codes(p) == ["KH", "JH"]
    text = next(a.text for a in legal(p).explanations if a.rule == "lead-highest-trump-heads-up")
    assert "Q♥ between them was played" in text
    # Unseen cards do not count: without the QH played, only the KH.
    p = pos("hoffmann", "KH JH", trick_number=2, declared=2, turn_up="7H", played="5S 6S")
    assert legal_codes(p) == ["KH"]


def test_hoffmanns_top_sequence_can_hold_three_trumps() -> None:
    # A9: "either of them" extended to any of them.
    assert legal_codes(pos("hoffmann", "KH QH JH", declared=2, turn_up="7H")) == ["KH", "QH", "JH"]
    assert legal_codes(pos("britannica", "KH QH JH", declared=2, turn_up="7H")) == ["KH"]


@pytest.mark.parametrize(
    ("declared", "expected", "rules"),
    [
        # britannica s. 43: "not compulsory to lead a trump with two trumps, unless there are
        # only two declared players"; s. 21: heads-up, the highest.
        (4, ["KH", "4H", "9S"], []),
        (2, ["KH"], ["lead-trump-holding-two", "lead-highest-trump-heads-up"]),
    ],
)
def test_irish_loo_obliges_a_trump_lead_only_heads_up(
    declared: int, expected: list[str], rules: list[str]
) -> None:
    p = pos("britannica", "KH 4H 9S", game="irish", declared=declared, turn_up="7H")
    assert legal_codes(p) == expected
    assert cited(p) == rules


def test_irish_loo_under_another_preset_is_refused() -> None:
    with pytest.raises(LooError, match="the peel rules describe no irish Loo"):
        pos("peel", "KH 4H 9S", game="irish")


def test_pam_counts_as_a_trump_for_trump_after_trick() -> None:
    # A6: Pam counts as a trump for trump-after-trick; parlett 5c:Play "must lead a trump".
    p = pos("parlett", "JC 9S 8D 2C", game="five-card", trick_number=2, turn_up="4H")
    assert legal_codes(p) == ["JC"]
    assert cited(p) == ["trump-after-trick"]


def test_peel_leads_pam_as_the_highest_of_two_trumps() -> None:
    # peel p. 20 "lead the highest of two or three"; Pam is the highest trump (p. 27).
    p = pos("peel", "JC 5H 9S 8D 2C", game="five-card", turn_up="4H")
    assert legal_codes(p) == ["JC"]


def test_peels_lead_one_option_leaves_trick_two_at_the_highest() -> None:
    # A41: "lead one" modifies only the original lead; p. 25 keeps the highest at trick 2.
    p = pos(
        "peel",
        "KS 7S 3S AD",
        game="five-card",
        trump="S",
        turn_up="9S",
        trick_number=2,
        two_trumps="any-trump",
    )
    assert legal_codes(p) == ["KS"]
    p = pos(
        "peel", "KS 7S 3S AD 2C", game="five-card", trump="S", turn_up="9S", two_trumps="any-trump"
    )
    assert legal_codes(p) == ["KS", "7S", "3S"]


def test_the_ace_rule_prevails_over_peels_highest_trump_at_trick_two() -> None:
    # A6: holding Pam and the ace, the ace must be led; trump after trick is satisfied by it.
    p = pos("peel", "JC AH 9S 2D", game="five-card", trick_number=2, turn_up="4H")
    assert legal_codes(p) == ["AH"]
    assert cited(p) == ["lead-ace-of-trumps", "trump-after-trick"]


# -- following -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
def test_the_literal_whiteknuckle_reading_is_not_used(preset: str) -> None:
    # A17: trick KS 5S, hand QS 3S: neither spade beats the KS, so both are legal everywhere.
    assert legal_codes(pos(preset, "QS 3S 9D", "KS 5S")) == ["QS", "3S"]


@pytest.mark.parametrize("preset", ALL)
def test_heading_needs_any_higher_card_not_the_highest(preset: str) -> None:
    # peel p. 20-21: "play as high as possible" is advice, not a rule.
    assert legal_codes(pos(preset, "AS QS 3S", "JS")) == ["AS", "QS"]


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("hoffmann", ["KD", "6D"]),
        ("britannica", ["KD", "6D"]),
        ("whiteknuckle", ["KD"]),
        ("parlett", ["KD"]),  # 3c:Play fn: "a higher card of the suit led than any so far"
        ("peel", ["KD", "6D"]),
    ],
)
def test_heading_after_the_trick_has_been_trumped_by_an_earlier_player(
    preset: str, expected: list[str]
) -> None:
    # A1 with the trump played between two diamonds: TD, 3C, 9D.
    p = pos(preset, "KD 6D 9S", "TD 3C 9D", trump="C", turn_up="4C")
    assert legal_codes(p) == expected


def test_following_a_trump_lead_every_preset_requires_a_higher_trump() -> None:
    # A2: when trumps are led, every preset requires a higher trump if held.
    for preset in ALL:
        assert legal_codes(pos(preset, "KH 3H 9S", "QH")) == ["KH"], preset


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # Void in diamonds, the trick untrumped: must trump with a trump that heads.
        ("hoffmann", ["5C"]),  # ¶5 "he is bound to trump"
        ("britannica", ["5C"]),  # s. 24
        ("whiteknuckle", ["5C"]),  # ¶11 b2
        ("parlett", ["5C"]),  # 3c:Play
        ("peel", ["5C"]),  # p. 21
    ],
)
def test_a_void_player_must_trump_an_untrumped_trick(preset: str, expected: list[str]) -> None:
    p = pos(preset, "5C 8S 2H", "KD 9D", trump="C", turn_up="4C")
    assert legal_codes(p) == expected
    assert cited(p) == ["must-trump"]


def test_a_void_player_with_no_trump_may_play_anything() -> None:
    for preset in ALL:
        assert legal_codes(pos(preset, "8S 2H 3H", "KD 9C", trump="C", turn_up="4C")) == [
            "8S",
            "2H",
            "3H",
        ]


def test_overtrumping_takes_any_higher_trump_not_the_highest() -> None:
    # must-overtrump: "Any higher trump will do".
    for preset in ALL:
        p = pos(preset, "QC TC 5C", "KD 9C", trump="C", turn_up="4C")
        assert legal_codes(p) == ["QC", "TC"], preset
        assert cited(p) == ["must-overtrump"]


# -- Pam -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "words"),
    [
        ("hoffmann", "must pass the trick"),  # ¶10
        ("britannica", "must pass the trick"),  # s. 47
        ("whiteknuckle", "may not play Pam"),  # ¶17
        ("parlett", "may not play Pam"),  # 5c:Play
        ("peel", "must pass the trick"),  # p. 28
    ],
)
def test_pam_be_civil_is_explained_in_its_sources_words(preset: str, words: str) -> None:
    p = pos(preset, "JC 7H KS 9D 3C", "AH", game="five-card", turn_up="4H", civil=True)
    moves = legal(p)
    assert [c.code for c in moves.legal] == ["7H"]
    civil = next(a for a in moves.explanations if a.rule == "pam-be-civil")
    assert words in civil.text
    assert [c.code for c in civil.excluded] == ["JC"]


def test_pam_be_civil_with_other_trumps_allows_any_of_them() -> None:
    # A5: "he must play one of them, any one".
    p = pos("peel", "JC 7H 2H 9D 3C", "AH", game="five-card", turn_up="4H", civil=True)
    assert legal_codes(p) == ["7H", "2H"]


def test_the_call_can_be_made_at_a_later_trick() -> None:
    # parlett 5c:Play "(now or subsequently)".
    p = pos("parlett", "JC 7H 3C", "AH", game="five-card", turn_up="4H", trick_number=3, civil=True)
    assert legal_codes(p) == ["7H"]


def test_the_call_is_only_valid_on_the_ace_of_trumps() -> None:
    with pytest.raises(PositionError, match="only when the ace of trumps is led"):
        pos("peel", "JC 7H 2H 9D 3C", "KH", game="five-card", turn_up="4H", civil=True)
    with pytest.raises(PositionError, match="only in five-card Loo"):
        pos("peel", "7H 2H 9D", "AH", civil=True)


def test_pam_turned_up_is_out_of_play() -> None:
    # pam-highest-trump: "If the JC is the turn-up, Pam is out of play for that hand."
    p = pos("hoffmann", "AC 7C KS 9D 3D", "QC", game="five-card", trump="C", turn_up="JC")
    assert legal_codes(p) == ["AC"]


def test_under_trump_knave_the_knave_of_clubs_is_a_plain_club() -> None:
    # peel p. 27: "sometimes the knave of the trump suit, as agreed upon".
    p = pos("peel", "JH 7H KS 9D 3C", "AH", game="five-card", turn_up="4H", pam="trump-knave")
    assert legal_codes(p) == ["JH"]  # the JH is Pam now and must head the ace
    p = pos("peel", "JC 5C KH 8S 2D", "9C", game="five-card", turn_up="4H", pam="trump-knave")
    assert legal_codes(p) == ["JC"]


# -- bad positions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand": "QH 3H"}, "a hand holds 3 cards, not 2"),
        ({"hand": "QH 3H KS", "trick": "QH"}, "QH cannot be both in the hand and the trick"),
        ({"hand": "QH 3H KS", "turn_up": "QH"}, "QH cannot be both in the hand and the turn-up"),
        ({"hand": "QH 3H KS", "turn_up": "7S"}, "the turn-up 7S fixes trumps as spades"),
        ({"hand": "QH 3H KS", "declared": 1}, "between 2 and 16"),
        ({"hand": "QH 3H KS", "trick": "2C 3C", "declared": 2}, "only 2 players are in"),
        ({"hand": "QH 3H KS", "trick_number": 4}, "trick_number must be between 1 and 3"),
        ({"hand": "QH 3H KS", "trump": "X"}, "unknown trump suit"),
    ],
)
def test_an_impossible_position_is_refused(kwargs: dict[str, object], message: str) -> None:
    hand = str(kwargs.pop("hand"))
    trump = str(kwargs.pop("trump", "H"))
    turn_up = kwargs.pop("turn_up", "7H" if trump == "H" else None)
    with pytest.raises(PositionError, match=message):
        if trump == "X":
            Position(
                game="three-card",
                rules=RuleSet.preset("hoffmann"),
                trump="X",
                hand=parse_cards(hand.split()),
            )
        else:
            pos("hoffmann", hand, trump=trump, turn_up=turn_up, **kwargs)  # type: ignore[arg-type]
