"""What a seat may know of the trace while the hand is played (games.loo.view.public_events).

Another player's card is told as the table saw it: "Seat 2 plays the 3♠.", not "(had to follow
suit)", which says he held another suit; a card he plays against the rules in laws mode is a
card played until the table finds the offence, when the last trick is taken. His own lines,
and everything once the hand is over, are told in full.
"""

from __future__ import annotations

from collections.abc import Callable

from games.loo.hand import Hand
from games.loo.messages import render
from games.loo.view import view_for

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

# Hearts are trumps (7♥ turned up). Seat 1 revokes in trick 1: the K♥ on the 9♠ led, holding
# the 2♠. Seat 2 follows with his one spade, the 3♠: follow suit excluded the J♦ and the 4♦.
HANDS = ["9S QC 2C", "2S KH 5H", "3S JD 4D", "4S 8S TC"]
MISS = "KD 9C 2H"
DECLARE = ("0 play", "1 play", "2 play", "3 play")


def _last_line(hand: Hand, seat: int) -> tuple[str, str, tuple[str, ...]]:
    event = view_for(hand, seat).events[-1]
    return event.kind, render(event.message, seat), event.rules


def test_another_players_card_is_told_without_the_rule_that_bound_him(
    deal: Deal, steps: Steps
) -> None:
    hand = steps(deal("hoffmann", HANDS, "7H", miss=MISS), *DECLARE, "0 9S", "1 2S", "2 3S")
    assert _last_line(hand, 0) == ("play", "Seat 3 plays the 3♠.", ())
    assert _last_line(hand, 1) == ("play", "Seat 3 plays the 3♠.", ())
    # His own line names the rule that bound him.
    assert _last_line(hand, 2) == (
        "play",
        "You play the 3♠ (had to follow suit).",
        ("follow-suit",),
    )


def test_a_revoke_is_a_card_played_till_the_table_finds_it(deal: Deal, steps: Steps) -> None:
    hand = steps(deal("hoffmann", HANDS, "7H", miss=MISS, laws=True), *DECLARE, "0 9S", "1 KH")
    assert _last_line(hand, 0) == ("play", "Seat 2 plays the K♥.", ())
    kind, text, rules = _last_line(hand, 1)
    assert kind == "offence" and "irregularly" in text and "follow-suit" in rules
    # He took the trick with it, and leads the next: a lead, to the others.
    hand = steps(hand, "2 3S", "3 4S", "1 5H")
    assert _last_line(hand, 0)[:2] == ("play", "Seat 2 leads the 5♥.")


def test_the_whole_trace_is_told_once_the_hand_is_over(deal: Deal, steps: Steps) -> None:
    hand = steps(
        deal("peel", HANDS, "7H", miss=MISS),
        *DECLARE,
        *("0 9S", "1 2S", "2 3S", "3 4S"),
        *("0 QC", "1 KH", "2 JD", "3 TC"),
        *("1 5H", "2 4D", "3 8S", "0 2C"),
    )
    assert hand.over
    seen = view_for(hand, 0).events
    assert seen == tuple(hand.events)
    assert any("had to" in render(e.message, 0) for e in seen if e.seat not in (None, 0))
