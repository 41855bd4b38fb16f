"""Every question kind's answer re-derived by a second model of the texts (issue 25).

For ``legal-cards``, ``why-not``, ``trick-winner``, ``flush``, ``declaration``, ``procedure``
and ``source`` (``settlement`` and ``penalty`` are the payment model's), each question is made
from its seed and checked, from what it shows, against :mod:`tests.reference.cards` and
:mod:`tests.reference.quotes`, which know the texts and RULES.md and nothing of the engine's
rules code; and its position is checked to be one that can happen under its rule set.

Sizes (``LOO_TEST_PROFILE``, tests/profile.py): per kind, rule set and game, ``ci`` makes 20
questions with no rule asked for and one about each rule the kind can ask about there;
``thorough`` makes 150 and one. ``FIRST_RUN_QUESTIONS.md`` says what the checker disagreed
with the first time it ran (at 500 and 10), and how each was settled.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from games.loo.catalogue import rules as catalogue_rules
from games.loo.questions import KINDS, Question, coverage, question
from games.loo.rulesets import PRESETS, RuleSet
from tests.profile import size
from tests.reference import cards as C
from tests.reference import quotes
from tests.reference.q_checks import name, problems, readings, states_reading

SEEDS = size(ci=20, thorough=150)
SEEDS_PER_RULE = 1

CHECKED = ("legal-cards", "why-not", "trick-winner", "flush", "declaration", "procedure", "source")
CASES = [
    (kind, preset, game)
    for kind in CHECKED
    for preset in PRESETS
    for game in RuleSet.preset(preset).games
    if kind != "flush" or game == "five-card"  # flushes are five-card Loo's only
]


@cache
def made(kind: str, preset: str, game: str) -> tuple[Question, ...]:
    """The questions checked: ``SEEDS`` seeds about any rule, and ``SEEDS_PER_RULE`` about
    each rule the kind can ask about there (the trainer asks for them by name)."""
    asks: list[tuple[int, str | None]] = [(seed, None) for seed in range(SEEDS)]
    asks += [
        (seed, rule) for rule in coverage(preset, game)[kind] for seed in range(SEEDS_PER_RULE)
    ]
    return tuple(question(kind, preset, game=game, rule=rule, seed=seed) for seed, rule in asks)


def report(failures: list[tuple[str, str, str]], total: int) -> str:
    """Each class of fault with its count and the first few questions, named so that they can
    be made again (``python -m games.loo question …``)."""
    by_class = Counter(cls for cls, _, _ in failures)
    lines = [f"{len(failures)} faults in {total} questions:"]
    for cls, count in by_class.most_common():
        lines.append(f"  {count} × {cls}")
        for _, q, detail in [f for f in failures if f[0] == cls][:3]:
            lines.append(f"      {q}: {detail}")
    return "\n".join(lines)


def test_every_kind_is_checked_but_the_payment_models() -> None:
    """(``declare``'s answer is the coach's judgement, not a rule's: no reading of the texts
    gives it; ``tests/engine/test_declare_questions.py`` weighs it again.)"""
    assert set(KINDS) - set(CHECKED) == {"settlement", "penalty", "declare"}


@pytest.mark.parametrize(("kind", "preset", "game"), CASES)
def test_answer_rederived_from_the_texts(kind: str, preset: str, game: str) -> None:
    qs = made(kind, preset, game)
    failures = [(p.cls, name(q), p.detail) for q in qs for p in problems(q)]
    assert not failures, report(failures, len(qs))


@pytest.mark.parametrize(("kind", "preset", "game"), CASES)
def test_an_answer_resting_on_a_reading_says_so(kind: str, preset: str, game: str) -> None:
    """Finding 11: where another reading of RULES.md part 3 would answer otherwise, the
    question says that its answer is a reading."""
    qs = made(kind, preset, game)
    failures = [
        (f"rests on {a} unstated", name(q), "")
        for q in qs
        if not states_reading(q)
        for a in readings(q)
    ]
    assert not failures, report(failures, len(qs))


# --- the second model against RULES.md part 4, its own worked examples ----------------------

PRESET_ORDER = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")

#: 4.1: (game, trump, turn-up, declared, trick number, hand, trick, "Pam, be civil"), then the
#: legal set for hoffmann, britannica, whiteknuckle, parlett and peel.
POSITIONS = {
    "E1": (
        ("three-card", "H", "7H", 4, 1, "KH 4H 9S", "", False),
        ("KH 4H", "KH 4H", "KH 4H", "KH 4H", "KH"),
    ),
    "E2": (
        ("three-card", "H", "7H", 2, 1, "KH QH 9S", "", False),
        ("KH QH", "KH", "KH", "KH", "KH"),
    ),
    "E3": (
        ("three-card", "H", "QH", 2, 1, "KH JH 5C", "", False),
        ("KH JH", "KH", "KH", "KH", "KH"),
    ),
    "E4": (
        ("three-card", "S", "2S", 3, 1, "KS 8S AD", "", False),
        ("KS 8S", "KS 8S", "KS 8S", "KS 8S", "KS"),
    ),
    "E5": (("three-card", "D", "AD", 5, 1, "KD QS 3C", "", False), ("KD", "KD", "KD", "KD", "KD")),
    "E6": (
        ("three-card", "H", "6H", 4, 2, "AH 5H", "", False),
        ("AH", "AH", "AH 5H", "AH 5H", "AH"),
    ),
    "E7": (("three-card", "H", "6H", 4, 2, "5H AS", "", False), ("5H", "5H", "5H AS", "5H", "5H")),
    "E8": (
        ("three-card", "C", "4C", 4, 1, "5C 8S 2H", "KD 9C", False),
        ("all", "all", "5C", "5C", "all"),
    ),
    "E9": (
        ("three-card", "C", "4C", 4, 1, "KD 6D 9S", "TD 3C", False),
        ("KD 6D", "KD 6D", "KD", "KD", "KD 6D"),
    ),
    "E10": (
        ("five-card", "H", "4H", 4, 1, "QH 3H 5D 6C 7D", "KS JC", False),
        ("all", "all", "QH 3H", "QH 3H", "all"),
    ),
    "E11": (
        ("five-card", "H", "4H", 4, 1, "JC KH 9H 7S 2D", "", False),
        ("JC KH 9H", "JC KH 9H", "JC KH 9H", "all", "JC"),
    ),
    "E12": (
        ("five-card", "H", "4H", 4, 1, "AH 6H KS QS 3D", "", False),
        ("AH", "AH", "AH", "all", "AH"),
    ),
    "E13": (
        ("five-card", "H", "4H", 2, 1, "JC AH 8H KS 2D", "", False),
        ("AH", "AH", "AH", "all", "AH"),
    ),
    "E14": (("five-card", "H", "4H", 4, 1, "JC 7H KS 9D 3C", "AH", True), ("7H",) * 5),
    "E15": (("five-card", "H", "4H", 4, 1, "JC KS 9D 3C 8C", "AH 5S", True), ("JC",) * 5),
    "E16": (("five-card", "H", "4H", 4, 1, "JC 7H KS 9D 3C", "AH", False), ("JC",) * 5),
    "E17": (("five-card", "H", "4H", 4, 1, "JC 5C KH 8S 2D", "9C", False), ("5C",) * 5),
    "E18": (("five-card", "H", "4H", 4, 1, "JC 3H 8S 2D 6S", "9C KC", False), ("JC 3H",) * 5),
    "E19": (("five-card", "H", "4H", 3, 2, "QC 9C 6H 2H", "JC", False), ("6H 2H",) * 5),
    "E20": (
        ("five-card", "S", "9S", 4, 2, "KS 7S 3S AD", "", False),
        ("KS 7S 3S", "KS 7S 3S", "KS 7S 3S AD", "KS 7S 3S", "KS"),
    ),
}


@pytest.mark.parametrize("example", POSITIONS)
@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_worked_positions(example: str, preset: str) -> None:
    (game, trump, turn_up, declared, t, hand, trick, civil), legal = POSITIONS[example]
    position = {
        "game": game,
        "trump": trump,
        "turn_up": turn_up,
        "declared": declared,
        "trick_number": t,
        "hand": hand.split(),
        "trick": trick.split(),
        "pam_be_civil": civil,
        "played": [],
    }
    expected = legal[PRESET_ORDER.index(preset)]
    want = set(hand.split()) if expected == "all" else set(expected.split())
    assert C.legal(preset, position).cards == want


@pytest.mark.parametrize("preset", ["britannica", "whiteknuckle", "peel"])
def test_pam_or_the_ace_under_the_option(preset: str) -> None:
    """E13 with ``pam-ace-lead`` = ``either``: "britannica, whiteknuckle and peel give JC, AH"."""
    (game, trump, turn_up, declared, t, hand, trick, civil), _ = POSITIONS["E13"]
    position = {"game": game, "trump": trump, "turn_up": turn_up, "declared": declared}
    position |= {"trick_number": t, "hand": hand.split(), "trick": [], "played": []}
    either = replace(C.options(preset, game), pam_ace="either")
    assert C.legal(preset, position, either).cards == {"JC", "AH"}


#: 4.2 (the same under every preset): trumps, the trick in play order, the winner's place.
TRICKS = {
    "W1": ("H", "KS AS JC 2H", 2),
    "W2": ("H", "JC AH 5H KC", 0),
    "W3": ("D", "9C KC JC AC", 2),
    "W4": ("C", "AC QC JC", 2),
    "W5": ("H", "AH JC 7H", 1),
    "W6": ("D", "QS JC JD 3S", 1),
}


@pytest.mark.parametrize("example", TRICKS)
def test_worked_tricks(example: str) -> None:
    trump, trick, winner = TRICKS[example]
    assert C.winning_index(trick.split(), trump, "five-card") == winner


#: 4.3, hearts trumps: the hands P1-P4 (P1 the elder hand), then for each preset the winner
#: and who is exempt (numbers from 1).
FLUSHES = {
    "F1": (
        ("JC KS QS 9S 4S", "2C 3D 5D 6C 7C", "9H 8H 6H 4H 2H", "3C 4D 8D 9C TC"),
        {
            "hoffmann": (3, {1}),
            "britannica": (3, {1}),
            "whiteknuckle": (1, {3}),
            "parlett": (1, {3}),
            "peel": (3, {1}),
        },
    ),
    "F2": (
        ("KS QS 9S 5S 3S", "AD 7D 6D 4D 2D", "JC 2C 3C 4H 5H", "6C 7C 8C 9C TH"),
        {
            "hoffmann": (2, {1, 3}),
            "britannica": (1, {2, 3}),
            "whiteknuckle": (2, {1}),
            "parlett": (2, {1, 3}),
            "peel": (1, {2}),
        },
    ),
    "F3": (
        ("AS KS QS JS 9S", "KH QH 9H 6H 2H", "JC 8H 5H 4H 3H", "2C 3C 4C 5D 6D"),
        {
            "hoffmann": (3, {1, 2}),
            "britannica": (2, {1, 3}),
            "whiteknuckle": (3, {1, 2}),
            "parlett": (3, {1, 2}),
            "peel": (3, {1, 2}),
        },
    ),
    "F4": (
        ("AS KS QS TS 9S", "JC 8D 6D 4D 2D"),
        {
            "hoffmann": (2, {1}),
            "britannica": (1, {2}),
            "whiteknuckle": (2, {1}),
            "parlett": (2, {1}),
            "peel": (2, {1}),
        },
    ),
    "F5": (
        ("QH 9H 8H 4H 2H", "AD KD 9D 6D 3D"),
        {
            "hoffmann": (1, {2}),
            "britannica": (1, {2}),
            "whiteknuckle": (2, {1}),
            "parlett": (1, {2}),
            "peel": (1, {2}),
        },
    ),
}


@pytest.mark.parametrize("example", FLUSHES)
@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_worked_flushes(example: str, preset: str) -> None:
    hands, results = FLUSHES[example]
    split = [h.split() for h in hands]
    winner, exempt = results[preset]
    found = C.flush_winner(preset, split, "H")
    assert found is not None
    assert (found + 1, {i + 1 for i in C.flush_exempt(preset, split, found)}) == (winner, exempt)


# --- the quotations' fingerprints -----------------------------------------------------------


@pytest.mark.skipif(not quotes.TEXTS.is_dir(), reason="the source texts are not on this machine")
def test_text_fingerprints_are_those_of_the_texts() -> None:
    """``q_texts.json`` is what ``python -m tests.reference.quotes`` builds from the texts."""
    import json

    assert json.loads(quotes.FINGERPRINTS.read_text(encoding="utf-8")) == quotes.build()


def test_catalogue_citations_are_in_their_texts() -> None:
    """Every passage the catalogue quotes (of two words or more) is in the text it is
    attributed to: what a ``source`` question quotes is at least the text's own words."""
    missing = [
        (r.id, s.source, c.quote)
        for r in catalogue_rules()
        for s in r.sources
        for c in s.citations
        if (found := quotes.found_in(c.quote)) is not None and s.source not in found
    ]
    assert not missing


@pytest.mark.parametrize(
    ("quote", "sources"),
    [
        ("the cards ranking as at whist", {"hoffmann", "britannica"}),  # ¶2 and s. 16
        ("A single stake should be divisible by five.", {"britannica"}),  # s. 44, s. 52
        ("the dealer's fee", {"peel"}),  # p. 28, 'dealer"s' in the mirror
        ("If a card be found faced … fresh deal by the same dealer.", {"hoffmann"}),  # Law 2
        ("no player can be looed", {"peel"}),  # p. 22, "can he looed" mended
        ("Up to 16 can play", {"parlett"}),
        ("The first player to receive a Jack deals first.", {"whiteknuckle"}),
        ("nobody has a right to look", set()),
    ],
)
def test_quotations_found_in_the_texts(quote: str, sources: set[str]) -> None:
    assert quotes.found_in(quote) == frozenset(sources)
