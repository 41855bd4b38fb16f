"""Cards and their notation."""

from __future__ import annotations

import pickle

import pytest

from games.loo import PACK, CardError, card, parse_card, parse_cards
from games.loo.cards import displays, parse_suit


def test_the_pack_has_52_distinct_cards() -> None:
    assert len(PACK) == 52
    assert len({c.code for c in PACK}) == 52


@pytest.mark.parametrize(
    ("code", "display", "label"),
    [
        ("QH", "Q♥", "queen of hearts"),
        ("TS", "10♠", "ten of spades"),
        ("JC", "J♣", "knave of clubs"),
        ("2D", "2♦", "two of diamonds"),
        ("AS", "A♠", "ace of spades"),
    ],
)
def test_a_card_has_a_display_form_and_a_spoken_label(code: str, display: str, label: str) -> None:
    c = card(code)
    assert (c.code, c.display, c.label) == (code, display, label)


@pytest.mark.parametrize("text", ["qh", " QH ", "10H", "QH"])
def test_parsing_accepts_lower_case_spaces_and_10(text: str) -> None:
    assert parse_card(text).code in {"QH", "TH"}


def test_parsing_returns_the_one_shared_card() -> None:
    assert parse_card("qh") is card("QH") is pickle.loads(pickle.dumps(card("QH")))


def test_ranks_order_ace_high() -> None:
    assert card("AS").value > card("KS").value > card("TS").value > card("2S").value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1H", "'1' is not a rank"),
        ("QX", "'X' is not a suit"),
        ("Q", "write rank then suit"),
        ("", "write rank then suit"),
        (12, "must be written as text"),
    ],
)
def test_parsing_a_bad_card_names_the_problem(text: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_card(text)


def test_a_duplicate_card_is_refused() -> None:
    with pytest.raises(CardError, match="QH appears twice in the hand"):
        parse_cards(["QH", "3S", "qh"], what="hand")


def test_a_list_of_cards_must_be_a_list() -> None:
    with pytest.raises(CardError, match="must be a list"):
        parse_cards("QH 3S")


def test_suits_by_letter_name_or_symbol() -> None:
    assert [parse_suit(s) for s in ("H", "hearts", "heart", "♥", "s")] == ["H", "H", "H", "H", "S"]
    with pytest.raises(CardError, match="unknown suit"):
        parse_suit("X")


def test_cards_in_a_sentence() -> None:
    assert displays([card("QH")]) == "Q♥"
    assert displays([card("QH"), card("3H"), card("KS")]) == "Q♥, 3♥ and K♠"
