"""RULES.md A55: under Peel an offender wins nothing, but for three offences (p. 22).

"In any case the player who transgressed the law does not win anything. If his cards secure
one or all of the tricks the amount of his winnings is left in the pool for the next deal, and
he is looed. This does not apply to penalties for looking at the hands, or declaring out of
turn, or making a misdeal. In those cases the offending player pays the penalty into the pool
for the current deal, and stands an equal chance with the others in fighting for the tricks."

Interfering with the cards during the deal (p. 24) is none of the three: the offender plays on
but his tricks' shares stay in the pool for the next deal. Looking at the miss ("the spare
hand, or miss", p. 23) is looking at a hand: he keeps his chance. Seats are numbered from the
elder hand (seat 0); the dealer is the last seat. Questions of versions 2 to 8 keep the earlier
reading (``interfering-winnings`` = ``as-played``, :func:`games.loo.questions.base.rules_at`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from games.loo import RuleSet
from games.loo.hand import Action, Hand
from games.loo.questions import question
from games.loo.questions.base import rules_at

Deal = Callable[..., Hand]
Steps = Callable[..., Hand]

PEEL_TEXT = Path(__file__).resolve().parents[2].parent / "shared" / "sources" / "more"
PASSAGE = (
    "In any case the player who transgressed the law does not win anything. If his cards secure "
    "one or all of the tricks the amount of his winnings is left in the pool for the next deal, "
    "and he is looed. This does not apply to penalties for looking at the hands, or declaring out "
    "of turn, or making a misdeal."
)

#: Seat 0 holds the three highest trumps (hearts, the 7 turned up): he takes every trick he
#: plays to. Six counters carried in, the dealer's 3 staked: a pool of 9.
TRUMPS = ["AH KH QH", "QS 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KS 2C 9S"


def laws_hand(deal: Deal, **options: str) -> Hand:
    return deal("peel", TRUMPS, "7H", miss=MISS, laws=True, pool=6, options=options or None)


def irregular(hand: Hand, seat: int, what: str) -> Hand:
    hand.apply(Action("irregular", seat, what))
    return hand


def played_out(hand: Hand) -> Hand:
    while not hand.over:
        hand.step(hand.choices()[0])
    return hand


def net(hand: Hand, seat: int) -> int:
    return hand.balances[seat] - hand.setup.balances[seat]


def test_the_passage_is_peels() -> None:
    path = PEEL_TEXT / "peel-full-loo.txt"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the shared folder must sit beside the checkout")
    text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
    assert PASSAGE in re.sub(r"\[\d+\] ", "", text)
    assert "Any player interfering with the cards during the deal is looed" in text


def test_interfering_with_the_deal_the_offender_wins_nothing(deal: Deal, steps: Steps) -> None:
    hand = irregular(laws_hand(deal), 0, "interfere")
    assert hand.pool == 9 + 3  # his single loo, into this deal's pool at once (p. 23-24)
    steps(hand, "0 play", "1 play", "2 pass", "3 pass")
    played_out(hand)
    assert [t.winner for t in hand.tricks] == [0, 0, 0]
    # His three shares (4 each) stay for the next deal; seat 1, who took none, is looed.
    kept = [p.amount for p in hand.payments if p.rule == "penalty-destination"]
    assert kept == [4, 4, 4]
    assert net(hand, 0) == -3 and net(hand, 1) == -6
    assert hand.pool == 12 + 6
    told = " ".join(e.text for e in hand.events)
    assert "does not win anything" in told and "(p. 22)" in told


def test_before_version_9_he_kept_his_tricks(deal: Deal, steps: Steps) -> None:
    assert rules_at(RuleSet.preset("peel"), 8).interfering_winnings == "as-played"
    assert rules_at(RuleSet.preset("peel"), 9) == RuleSet.preset("peel")
    hand = irregular(laws_hand(deal, **{"interfering-winnings": "as-played"}), 0, "interfere")
    steps(hand, "0 play", "1 play", "2 pass", "3 pass")
    played_out(hand)
    assert net(hand, 0) == 12 - 3 and hand.pool == 6


def test_an_interferer_who_takes_no_trick_is_looed_as_well(deal: Deal, steps: Steps) -> None:
    # His single loo is the offence's; standing and taking no trick, he is looed (p. 21).
    hand = irregular(laws_hand(deal), 1, "interfere")
    steps(hand, "0 play", "1 play", "2 pass", "3 pass")
    played_out(hand)
    assert net(hand, 1) == -3 - 6 and net(hand, 0) == 12


def test_an_interferer_left_alone_does_not_take_the_pool(deal: Deal, steps: Steps) -> None:
    # He takes the miss and everyone else throws up: "the holder of miss, being the only
    # standing hand, takes the whole amount of the pool" (p. 20), but not an offender.
    hand = irregular(laws_hand(deal), 0, "interfere")
    steps(hand, "0 take-miss", "1 pass", "2 pass", "3 pass")
    assert hand.over and hand.outcome == "offender"
    assert net(hand, 0) == -3 and hand.pool == 12


@pytest.mark.parametrize(("what", "seat"), [("look-miss", 0), ("misdeal", 3)])
def test_looking_at_the_miss_or_misdealing_he_keeps_his_chance(
    deal: Deal, steps: Steps, what: str, seat: int
) -> None:
    # "In those cases the offending player pays the penalty into the pool for the current
    # deal, and stands an equal chance with the others in fighting for the tricks" (p. 22).
    hand = irregular(laws_hand(deal), seat, what)
    assert hand.pool == 9 + 3
    steps(hand, "0 play", "1 play", "2 pass", "3 pass")
    played_out(hand)
    assert [t.winner for t in hand.tricks] == [0, 0, 0]
    assert net(hand, 0) == 12 - (3 if what == "look-miss" else 0)
    assert not [p for p in hand.payments if p.rule == "penalty-destination"]


def test_the_penalty_question_of_seed_501_changes_with_version_9() -> None:
    """The question the issue names: version 8 answered +15 (he kept his three tricks), and
    keeps it; version 9 answers what he pays, his single loo."""
    kwargs = {"game": "three-card", "rule": "penalty-interfering-with-deal", "seed": 501}
    old = question("penalty", "peel", version=8, **kwargs)  # type: ignore[arg-type]
    new = question("penalty", "peel", **kwargs)  # type: ignore[arg-type]
    assert old.position == new.position and old.position["tricks"] == [2, 2, 2]
    assert old.answer == ("+15",) and new.answer == ("-3",)
    assert any("does not win anything" in e.render(0) for e in new.explanations)
