"""Seat names at the practice table: the engine's "seat N" becomes You, West, North, ..."""

import pytest

from games.naming import SEAT_NAMES, name_cards, name_seats, seat_name


def test_the_human_is_you_and_the_others_have_fixed_names() -> None:
    assert [seat_name(s) for s in range(5)] == ["You", "West", "North", "East", "Ada"]
    assert seat_name(None) == "the pool"
    assert len(SEAT_NAMES) == 9


@pytest.mark.parametrize(
    ("engine", "table"),
    [
        ("seat 1 plays.", "You play."),
        ("seat 2 plays.", "West plays."),
        ("seat 1 takes miss, and so must play.", "You take miss, and so must play."),
        ("seat 1 stands on his cards.", "You stand on your cards."),
        (
            "seat 1 discards 2 and draws 2, and so must play.",
            "You discard 2 and draw 2, and so must play.",
        ),
        ("3 play: seat 1, seat 3, seat 2. seat 1 leads.", "3 play: you, North, West. You lead."),
        (
            "seat 1 is looed and pays 6 to the next pool.",
            "You are looed and pay 6 to the next pool.",
        ),
        (
            "seat 1 alone has taken miss and everyone else has passed: he takes the pool without "
            "play.",
            "You alone have taken miss and everyone else has passed: you take the pool without "
            "play.",
        ),
        ("it is seat 2's turn, not seat 1's", "it is West's turn, not yours"),
        ("seat 1's A♥ beats seat 4's K♥.", "Your A♥ beats East's K♥."),
        (
            "Each player cuts; seat 1 cuts the lowest card and deals first.",
            "Each player cuts; you cut the lowest card and deal first.",
        ),
        (
            "Only seat 3 has declared to play, on his own cards, so the dealer may not pass.",
            "Only North has declared to play, on his own cards, so the dealer may not pass.",
        ),
        (
            'seat 1 leads the A♥ and calls "Pam, be civil".',
            'You lead the A♥ and call "Pam, be civil".',
        ),
        ("The dealer stakes 3.", "The dealer stakes 3."),
        ("seat 12 plays.", "Seat 12 plays."),
    ],
)
def test_engine_sentences_are_written_for_the_table(engine: str, table: str) -> None:
    assert name_seats(engine) == table


def test_card_codes_in_a_computer_players_reason_are_written_as_cards() -> None:
    assert (
        name_cards("seat 3 played the QH: the best of 2") == "seat 3 played the Q♥: the best of 2"
    )
    assert name_cards("the TC and 2D") == "the 10♣ and 2♦"
    assert name_cards("AS IS") == "A♠ IS"
