"""Every worked example of RULES.md part 4, as a test.

4.1: twenty positions, each under the five presets: the legal cards, and the rules that
restricted them ("restricted by"). 4.2: six trick winners. 4.3: five flush comparisons. A last
test reads part 4 of RULES.md itself and checks that these tables still say what it says.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.loo import (
    Position,
    RuleSet,
    compare_flushes,
    legal,
    parse_card,
    parse_cards,
    trick_winner,
)

RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


@dataclass(frozen=True)
class Example:
    name: str
    position: dict[str, Any]
    #: preset -> (legal cards, rules that restricted them), space-separated.
    expected: dict[str, tuple[str, str]]


def make_position(data: dict[str, Any], preset: str, **options: str) -> Position:
    rules = RuleSet.preset(preset)
    if options:
        rules = rules.with_options({k.replace("_", "-"): v for k, v in options.items()})
    return Position(
        game=data["game"],
        rules=rules,
        trump=data["trump"],
        hand=parse_cards(data["hand"]),
        trick=parse_cards(data["trick"]),
        turn_up=parse_card(data["turn_up"]),
        declared=data["declared"],
        trick_number=data["trick_number"],
        pam_be_civil=data["pam_be_civil"],
    )


EXAMPLES = [
    # E1. Two trumps on the first lead, four players (peel's "highest")
    Example(
        "E1",
        {
            "game": "three-card",
            "trump": "H",
            "turn_up": "7H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["KH", "4H", "9S"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KH 4H", "lead-trump-holding-two"),
            "britannica": ("KH 4H", "lead-trump-holding-two"),
            "whiteknuckle": ("KH 4H", "lead-trump-holding-two"),
            "parlett": ("KH 4H", "lead-trump-holding-two"),
            "peel": ("KH", "lead-highest-of-two-or-three"),
        },
    ),
    # E2. Heads-up, top trumps in sequence (hoffmann's exception)
    Example(
        "E2",
        {
            "game": "three-card",
            "trump": "H",
            "turn_up": "7H",
            "declared": 2,
            "trick_number": 1,
            "hand": ["KH", "QH", "9S"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KH QH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "britannica": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "whiteknuckle": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "parlett": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "peel": ("KH", "lead-highest-of-two-or-three"),
        },
    ),
    # E3. Heads-up, "of equal value" through the turn-up (hoffmann)
    Example(
        "E3",
        {
            "game": "three-card",
            "trump": "H",
            "turn_up": "QH",
            "declared": 2,
            "trick_number": 1,
            "hand": ["KH", "JH", "5C"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KH JH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "britannica": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "whiteknuckle": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "parlett": ("KH", "lead-trump-holding-two lead-highest-trump-heads-up"),
            "peel": ("KH", "lead-highest-of-two-or-three"),
        },
    ),
    # E4. Three declared players (hoffmann's inconsistency)
    Example(
        "E4",
        {
            "game": "three-card",
            "trump": "S",
            "turn_up": "2S",
            "declared": 3,
            "trick_number": 1,
            "hand": ["KS", "8S", "AD"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KS 8S", "lead-trump-holding-two"),
            "britannica": ("KS 8S", "lead-trump-holding-two"),
            "whiteknuckle": ("KS 8S", "lead-trump-holding-two"),
            "parlett": ("KS 8S", "lead-trump-holding-two"),
            "peel": ("KS", "lead-highest-of-two-or-three"),
        },
    ),
    # E5. The ace is turned up: lead the king
    Example(
        "E5",
        {
            "game": "three-card",
            "trump": "D",
            "turn_up": "AD",
            "declared": 5,
            "trick_number": 1,
            "hand": ["KD", "QS", "3C"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KD", "lead-king-when-ace-turned"),
            "britannica": ("KD", "lead-king-when-ace-turned"),
            "whiteknuckle": ("KD", "lead-king-when-ace-turned"),
            "parlett": ("KD", "lead-king-when-ace-turned"),
            "peel": ("KD", "lead-king-when-ace-turned"),
        },
    ),
    # E6. Leading to trick 2 with the ace and a small trump (scope of the lead rules)
    Example(
        "E6",
        {
            "game": "three-card",
            "trump": "H",
            "turn_up": "6H",
            "declared": 4,
            "trick_number": 2,
            "hand": ["AH", "5H"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("AH", "lead-ace-of-trumps trump-after-trick"),
            "britannica": ("AH", "lead-ace-of-trumps trump-after-trick"),
            "whiteknuckle": ("AH 5H", ""),
            "parlett": ("AH 5H", "trump-after-trick"),
            # The table cites only trump-after-trick; the ace law binds peel's every lead
            # too (p. 20; lead-scope every-lead), so the engine cites both.
            "peel": ("AH", "lead-ace-of-trumps trump-after-trick"),
        },
    ),
    # E7. Leading to trick 2 with one trump (whiteknuckle has no trump after trick)
    Example(
        "E7",
        {
            "game": "three-card",
            "trump": "H",
            "turn_up": "6H",
            "declared": 4,
            "trick_number": 2,
            "hand": ["5H", "AS"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("5H", "trump-after-trick"),
            "britannica": ("5H", "trump-after-trick"),
            "whiteknuckle": ("5H AS", ""),
            "parlett": ("5H", "trump-after-trick"),
            "peel": ("5H", "trump-after-trick"),
        },
    ),
    # E8. Void, the trick already trumped higher, holding only a lower trump
    Example(
        "E8",
        {
            "game": "three-card",
            "trump": "C",
            "turn_up": "4C",
            "declared": 4,
            "trick_number": 1,
            "hand": ["5C", "8S", "2H"],
            "trick": ["KD", "9C"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("5C 8S 2H", ""),
            "britannica": ("5C 8S 2H", ""),
            "whiteknuckle": ("5C", "must-trump"),
            "parlett": ("5C", "must-trump"),
            "peel": ("5C 8S 2H", ""),
        },
    ),
    # E9. Following suit after the trick has been trumped (head-scope)
    Example(
        "E9",
        {
            "game": "three-card",
            "trump": "C",
            "turn_up": "4C",
            "declared": 4,
            "trick_number": 1,
            "hand": ["KD", "6D", "9S"],
            "trick": ["TD", "3C"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KD 6D", "follow-suit"),
            "britannica": ("KD 6D", "follow-suit"),
            "whiteknuckle": ("KD", "follow-suit head-the-trick"),
            "parlett": ("KD", "follow-suit head-the-trick"),
            "peel": ("KD 6D", "follow-suit"),
        },
    ),
    # E10. Five-card: void, the trick trumped by Pam, holding lower trumps
    Example(
        "E10",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["QH", "3H", "5D", "6C", "7D"],
            "trick": ["KS", "JC"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("QH 3H 5D 6C 7D", ""),
            "britannica": ("QH 3H 5D 6C 7D", ""),
            "whiteknuckle": ("QH 3H", "must-trump"),
            "parlett": ("QH 3H", "must-trump"),
            "peel": ("QH 3H 5D 6C 7D", ""),
        },
    ),
    # E11. Five-card first lead: Pam and two trumps, four players
    Example(
        "E11",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "KH", "9H", "7S", "2D"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("JC KH 9H", "lead-trump-holding-two"),
            "britannica": ("JC KH 9H", "lead-trump-holding-two"),
            "whiteknuckle": ("JC KH 9H", "lead-trump-holding-two"),
            "parlett": ("JC KH 9H 7S 2D", ""),
            "peel": ("JC", "lead-highest-of-two-or-three"),
        },
    ),
    # E12. Five-card first lead holding the ace of trumps
    Example(
        "E12",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["AH", "6H", "KS", "QS", "3D"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("AH", "lead-ace-of-trumps"),
            "britannica": ("AH", "lead-ace-of-trumps"),
            "whiteknuckle": ("AH", "lead-ace-of-trumps"),
            "parlett": ("AH 6H KS QS 3D", ""),
            "peel": ("AH", "lead-ace-of-trumps"),
        },
    ),
    # E13. Five-card, heads-up, holding Pam and the ace (the pam-ace-lead conflict)
    Example(
        "E13",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 2,
            "trick_number": 1,
            "hand": ["JC", "AH", "8H", "KS", "2D"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("AH", "lead-ace-of-trumps"),
            "britannica": ("AH", "lead-ace-of-trumps"),
            "whiteknuckle": ("AH", "lead-ace-of-trumps"),  # "as britannica"
            "parlett": ("JC AH 8H KS 2D", ""),
            "peel": ("AH", "lead-ace-of-trumps"),
        },
    ),
    # E14. "Pam, be civil": the Pam holder has another trump
    Example(
        "E14",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "7H", "KS", "9D", "3C"],
            "trick": ["AH"],
            "pam_be_civil": True,
        },
        {
            "hoffmann": ("7H", "follow-suit pam-be-civil"),
            "britannica": ("7H", "follow-suit pam-be-civil"),
            "whiteknuckle": ("7H", "follow-suit pam-be-civil"),
            "parlett": ("7H", "follow-suit pam-be-civil"),
            "peel": ("7H", "follow-suit pam-be-civil"),
        },
    ),
    # E15. "Pam, be civil": Pam is the holder's only trump
    Example(
        "E15",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "KS", "9D", "3C", "8C"],
            "trick": ["AH", "5S"],
            "pam_be_civil": True,
        },
        {
            "hoffmann": ("JC", "follow-suit"),
            "britannica": ("JC", "follow-suit"),
            "whiteknuckle": ("JC", "follow-suit"),
            "parlett": ("JC", "follow-suit"),
            "peel": ("JC", "follow-suit"),
        },
    ),
    # E16. The ace of trumps led **without** the call
    Example(
        "E16",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "7H", "KS", "9D", "3C"],
            "trick": ["AH"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("JC", "follow-suit head-the-trick"),
            "britannica": ("JC", "follow-suit head-the-trick"),
            "whiteknuckle": ("JC", "follow-suit head-the-trick"),
            "parlett": ("JC", "follow-suit head-the-trick"),
            "peel": ("JC", "follow-suit head-the-trick"),
        },
    ),
    # E17. Clubs led (clubs not trumps): the Pam holder also has a club
    Example(
        "E17",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "5C", "KH", "8S", "2D"],
            "trick": ["9C"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("5C", "follow-suit pam-identity"),
            "britannica": ("5C", "follow-suit pam-identity"),
            "whiteknuckle": ("5C", "follow-suit pam-identity"),
            "parlett": ("5C", "follow-suit pam-identity"),
            "peel": ("5C", "follow-suit pam-identity"),
        },
    ),
    # E18. Clubs led: the Pam holder has no other club
    Example(
        "E18",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 4,
            "trick_number": 1,
            "hand": ["JC", "3H", "8S", "2D", "6S"],
            "trick": ["9C", "KC"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("JC 3H", "must-trump"),
            "britannica": ("JC 3H", "must-trump"),
            "whiteknuckle": ("JC 3H", "must-trump"),
            "parlett": ("JC 3H", "must-trump"),
            "peel": ("JC 3H", "must-trump"),
        },
    ),
    # E19. Pam led to trick 2
    Example(
        "E19",
        {
            "game": "five-card",
            "trump": "H",
            "turn_up": "4H",
            "declared": 3,
            "trick_number": 2,
            "hand": ["QC", "9C", "6H", "2H"],
            "trick": ["JC"],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("6H 2H", "follow-suit"),
            "britannica": ("6H 2H", "follow-suit"),
            "whiteknuckle": ("6H 2H", "follow-suit"),
            "parlett": ("6H 2H", "pam-led-trump-must-be-played follow-suit"),
            "peel": ("6H 2H", "follow-suit"),
        },
    ),
    # E20. Five-card, leading to trick 2 with three trumps
    Example(
        "E20",
        {
            "game": "five-card",
            "trump": "S",
            "turn_up": "9S",
            "declared": 4,
            "trick_number": 2,
            "hand": ["KS", "7S", "3S", "AD"],
            "trick": [],
            "pam_be_civil": False,
        },
        {
            "hoffmann": ("KS 7S 3S", "trump-after-trick lead-trump-holding-two"),
            "britannica": ("KS 7S 3S", "trump-after-trick lead-trump-holding-two"),
            "whiteknuckle": ("KS 7S 3S AD", ""),
            "parlett": ("KS 7S 3S", "trump-after-trick"),
            "peel": ("KS", "trump-after-trick lead-highest-of-two-or-three"),
        },
    ),
]

CASES = [
    pytest.param(ex, preset, id=f"{ex.name}-{preset}") for ex in EXAMPLES for preset in ex.expected
]


@pytest.mark.parametrize(("example", "preset"), CASES)
def test_worked_example(example: Example, preset: str) -> None:
    expected_legal, expected_rules = example.expected[preset]
    moves = legal(make_position(example.position, preset))
    assert sorted(c.code for c in moves.legal) == sorted(expected_legal.split())
    assert sorted(a.rule for a in moves.explanations) == sorted(expected_rules.split())
    # Every card left out is left out by a rule that says so.
    for c in moves.position.hand:
        if c not in moves.legal:
            assert any(c in a.excluded for a in moves.explanations), c


# The notes under the tables: the same positions under an option or another reading.
OPTION_NOTES = [
    # E1: peel's "two or more trumps lead one" (p. 23) agreed beforehand.
    ("E1", "peel", {"two_trumps": "any-trump"}, "KH 4H"),
    # E4: hoffmann with the ¶4 parenthesis read literally (A8).
    ("E4", "hoffmann", {"heads_up_threshold": "3"}, "KS"),
    # E8: parlett under the alternative reading of "trump and overtrump if you can" (A15).
    ("E8", "parlett", {"void_trump": "if-it-heads"}, "5C 8S 2H"),
    # E12: parlett with the three-card first-lead rules carried over (A12).
    ("E12", "parlett", {"lead_scope_5c": "first-lead-only"}, "AH"),
    # E13: pam-ace-lead = either.
    ("E13", "britannica", {"pam_ace_lead": "either"}, "JC AH"),
    ("E13", "whiteknuckle", {"pam_ace_lead": "either"}, "JC AH"),
    ("E13", "peel", {"pam_ace_lead": "either"}, "JC AH"),
    # E17: with peel's trump-knave option the JC is an ordinary club and heads the 9C.
    ("E17", "peel", {"pam": "trump-knave"}, "JC"),
]


@pytest.mark.parametrize(("name", "preset", "options", "expected"), OPTION_NOTES)
def test_worked_example_under_an_option(
    name: str, preset: str, options: dict[str, str], expected: str
) -> None:
    example = next(ex for ex in EXAMPLES if ex.name == name)
    moves = legal(make_position(example.position, preset, **options))
    assert sorted(c.code for c in moves.legal) == sorted(expected.split())


def test_e5_at_trick_two_the_first_lead_presets_no_longer_force_the_king() -> None:
    # E5's note: at trick 2, whiteknuckle and parlett no longer require the KD; parlett still
    # requires a trump (trump after trick).
    data = dict(
        next(ex for ex in EXAMPLES if ex.name == "E5").position,
        trick_number=2,
        hand=["KD", "QS"],
    )
    assert [c.code for c in legal(make_position(data, "whiteknuckle")).legal] == ["KD", "QS"]
    assert [c.code for c in legal(make_position(data, "parlett")).legal] == ["KD"]
    assert [c.code for c in legal(make_position(data, "hoffmann")).legal] == ["KD"]


def test_e8_with_a_higher_trump_every_preset_must_overtrump() -> None:
    data = dict(next(ex for ex in EXAMPLES if ex.name == "E8").position, hand=["5C", "TC", "2H"])
    for preset in ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel"):
        moves = legal(make_position(data, preset))
        assert [c.code for c in moves.legal] == ["TC"], preset
        assert [a.rule for a in moves.explanations] == ["must-overtrump"], preset


# -- 4.2 trick winners -------------------------------------------------------------------

WINNERS = [
    # (name, trumps, trick, winning card)
    ("W1", "H", "KS AS JC 2H", "JC"),
    ("W2", "H", "JC AH 5H KC", "JC"),
    ("W3", "D", "9C KC JC AC", "JC"),
    ("W4", "C", "AC QC JC", "JC"),
    ("W5", "H", "AH JC 7H", "JC"),
    ("W6", "D", "QS JC JD 3S", "JC"),
]


@pytest.mark.parametrize("preset", ["hoffmann", "britannica", "whiteknuckle", "parlett", "peel"])
@pytest.mark.parametrize(("name", "trump", "trick", "winner"), WINNERS)
def test_trick_winner_example(name: str, trump: str, trick: str, winner: str, preset: str) -> None:
    cards = parse_cards(trick.split())
    result = trick_winner("five-card", RuleSet.preset(preset), trump, cards)
    assert result.card.code == winner
    assert cards[result.winner].code == winner
    assert "pam-highest-trump" in [a.rule for a in result.explanations]


def test_w6_under_peels_trump_knave_option_the_knave_of_trumps_is_pam() -> None:
    rules = RuleSet.preset("peel").with_options({"pam": "trump-knave"})
    result = trick_winner("five-card", rules, "D", parse_cards(["QS", "JC", "JD", "3S"]))
    assert result.card.code == "JD"


# -- 4.3 flushes ---------------------------------------------------------------------------

FLUSHES = {
    # Seats from the elder hand; hearts are trumps. Hands without a flush are filled with
    # cards that make none (and hold Pam only where the example says so).
    "F1": ["JC KS QS 9S 4S", "2C 3D 5S 5D 6C", "9H 8H 6H 4H 2H", "7C 8D TS 3C KD"],
    "F2": ["KS QS 9S 5S 3S", "AD 7D 6D 4D 2D", "JC 2C 3C 4H 5H", "8C 9C TC 6H 3H"],
    "F3": ["AS KS QS JS 9S", "KH QH 9H 6H 2H", "JC 8H 5H 4H 3H", "2C 3C 4C 5D 6D"],
    "F4": ["AS KS QS TS 9S", "JC 8D 6D 4D 2D"],
    "F5": ["QH 9H 8H 4H 2H", "AD KD 9D 6D 3D"],
}

# preset -> (winner, exempt, pay), seats numbered P1 = 1 as in RULES.md.
FLUSH_RESULTS: dict[str, dict[str, tuple[int, str, str]]] = {
    "F1": {
        "hoffmann": (3, "1", "2 4"),
        "britannica": (3, "1", "2 4"),
        "whiteknuckle": (1, "3", "2 4"),
        "parlett": (1, "3", "2 4"),
        "peel": (3, "1", "2 4"),
    },
    "F2": {
        "hoffmann": (2, "1 3", "4"),
        "britannica": (1, "2 3", "4"),
        "whiteknuckle": (2, "1", "3 4"),
        "parlett": (2, "1 3", "4"),
        "peel": (1, "2", "3 4"),
    },
    "F3": {
        "hoffmann": (3, "1 2", "4"),
        "britannica": (2, "1 3", "4"),
        "whiteknuckle": (3, "1 2", "4"),
        "parlett": (3, "1 2", "4"),
        "peel": (3, "1 2", "4"),
    },
    "F4": {
        "hoffmann": (2, "1", ""),
        "britannica": (1, "2", ""),
        "whiteknuckle": (2, "1", ""),
        "parlett": (2, "1", ""),
        "peel": (2, "1", ""),
    },
    "F5": {
        "hoffmann": (1, "2", ""),
        "britannica": (1, "2", ""),
        "whiteknuckle": (2, "1", ""),
        "parlett": (1, "2", ""),
        "peel": (1, "2", ""),
    },
}


@pytest.mark.parametrize(
    ("name", "preset"),
    [(name, preset) for name, rows in FLUSH_RESULTS.items() for preset in rows],
)
def test_flush_example(name: str, preset: str) -> None:
    hands = [parse_cards(h.split()) for h in FLUSHES[name]]
    winner, exempt, pay = FLUSH_RESULTS[name][preset]
    result = compare_flushes("five-card", RuleSet.preset(preset), "H", hands)
    assert result.winner == winner - 1
    assert [s + 1 for s in result.exempt] == [int(s) for s in exempt.split()]
    assert [s + 1 for s in result.pay] == [int(s) for s in pay.split()]
    assert result.explanations[0].rule == "flush-loos-the-board"


def test_f2_with_hoffmanns_lost_footnote_the_elder_hand_wins() -> None:
    rules = RuleSet.preset("hoffmann").with_options({"flush-tie": "elder-hand"})
    hands = [parse_cards(h.split()) for h in FLUSHES["F2"]]
    assert compare_flushes("five-card", rules, "H", hands).winner == 0


# -- the tables above still say what RULES.md says ----------------------------------------


def _rules_md_part4() -> str:
    assert RULES_MD.exists(), f"the specification is missing: {RULES_MD}"
    text = RULES_MD.read_text(encoding="utf-8")
    return text[text.index("### 4.1 Twenty positions") : text.index("## 5.")]


def test_the_positions_and_legal_sets_match_rules_md() -> None:
    part = _rules_md_part4()
    blocks = re.split(r"\n#### ", part[: part.index("### 4.2")])[1:]
    assert len(blocks) == len(EXAMPLES) == 20
    for block, example in zip(blocks, EXAMPLES, strict=True):
        assert block.startswith(example.name + ".")
        found = re.search(r"```json\n(.*?)\n```", block, re.S)
        assert found
        assert json.loads(found.group(1)) == example.position
        rows = re.findall(r"^\| (\w+) \| ([^|]+) \|", block, re.M)
        table = {p: cards.strip() for p, cards in rows if p in example.expected}
        assert table.keys() == example.expected.keys()
        for preset, cards in table.items():
            expected = example.position["hand"] if cards == "all cards" else cards.split(", ")
            assert sorted(expected) == sorted(example.expected[preset][0].split()), (
                example.name,
                preset,
            )


def test_the_trick_winners_match_rules_md() -> None:
    part = _rules_md_part4()
    rows = re.findall(r"^\| (W\d) \| (\w) \(\w+\) \| ([^|]+) \| \*\*(\w+)\*\*", part, re.M)
    cleaned = [re.sub(r"\(.*?\)|,", "", trick).split() for _, _, trick, _ in rows]
    assert [(n, t, c, w) for (n, t, _, w), c in zip(rows, cleaned, strict=True)] == [
        (n, t, trick.split(), w) for n, t, trick, w in WINNERS
    ]
