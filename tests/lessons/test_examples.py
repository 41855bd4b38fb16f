"""Worked examples of every kind, worked out by the engine (pure: no database).

The expected results are those of RULES.md Part 4 (4.2 trick winners W1–W6, 4.3 flushes F1–F5)
and of the engine's own tests of whole hands (tests/engine/test_hand_*.py, test_laws.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.loo.hand import Action
from games.loo.hand.irregular import IRREGULARITIES
from lessons.examples import (
    IRREGULAR_WORDS,
    ExampleError,
    FlushExample,
    HandExample,
    HandRow,
    Step,
    TrickExample,
    seat_label,
    worked_example,
)

FOUR = ["AS KS 2D", "QH 9C 3D", "5C 6C 8D", "JD TD 4S"]
MISS = "KH 2C 9S"
ALL_PLAY = ["0 play", "1 play", "2 play", "3 play"]
TRICKS = [
    "0 AS",
    "1 QH",
    "2 5C",
    "3 4S",
    "1 9C",
    "2 6C",
    "3 TD",
    "0 2D",
    "1 3D",
    "2 8D",
    "3 JD",
    "0 KS",
]
REVOKE = ["0 AS", "1 QH", "2 5C", "3 TD"]
REST = ["1 9C", "2 6C", "3 4S", "0 2D", "1 3D", "2 8D", "3 JD", "0 KS"]


def hand(**fields: Any) -> HandExample:
    data = {"kind": "hand", "game": "three-card", "hands": FOUR, "miss": MISS, "turn_up": "7H"}
    example = worked_example(data | fields)
    assert isinstance(example, HandExample)
    return example


def paid(row: HandRow, rule: str) -> list[tuple[int | None, int | None, int]]:
    return [(p.payer, p.payee, p.amount) for p in row.payments if p.rule == rule]


# Trick winners: RULES.md 4.2


@pytest.mark.parametrize(
    ("trump", "turn_up", "trick", "winner"),
    [
        ("H", "4H", "KS AS JC 2H", "JC"),  # W1
        ("H", "4H", "JC AH 5H KC", "JC"),  # W2
        ("D", "6D", "9C KC JC AC", "JC"),  # W3
        ("C", "4C", "AC QC JC", "JC"),  # W4
        ("H", "4H", "AH JC 7H", "JC"),  # W5
        ("D", "5D", "QS JC JD 3S", "JC"),  # W6
    ],
    ids=["W1", "W2", "W3", "W4", "W5", "W6"],
)
def test_every_rule_set_gives_the_trick_winners_of_rules_md(
    trump: str, turn_up: str, trick: str, winner: str
) -> None:
    example = worked_example(
        {"kind": "trick", "game": "five-card", "trump": trump, "turn_up": turn_up, "trick": trick}
    )
    assert isinstance(example, TrickExample)
    assert len(example.rows) == 5
    assert {row.result.card.code for row in example.rows} == {winner}
    (group,) = example.groups()
    assert group.names == "Every rule set"
    assert group.row.result.explanations[0].rule == "pam-highest-trump"


def test_under_peels_trump_knave_option_the_knave_of_trumps_takes_w6() -> None:
    example = worked_example(
        {
            "kind": "trick",
            "game": "five-card",
            "trump": "D",
            "turn_up": "5D",
            "trick": ["QS", "JC", "JD", "3S"],
            "presets": ["peel"],
            "options": {"pam": "trump-knave"},
        }
    )
    (row,) = example.rows
    assert row.result.card.code == "JD"
    assert example.agreed == [("Pam is", "the knave of trumps")]
    assert example.shown_under == "Peel (1891)"


def test_a_trick_without_pam_is_taken_by_the_highest_trump() -> None:
    example = worked_example(
        {"kind": "trick", "game": "three-card", "trump": "D", "trick": "9C KC 4D AC"}
    )
    row = example.rows[0]
    assert (row.result.winner, row.result.card.code) == (2, "4D")
    assert row.result.explanations[0].rule == "trick-winner"


# Flushes: RULES.md 4.3 (P1 = the elder hand = player 0)

FLUSHES = {
    "F1": ["JC KS QS 9S 4S", "2C 3D 5S 5D 6C", "9H 8H 6H 4H 2H", "7C 8D TS 3C KD"],
    "F2": ["KS QS 9S 5S 3S", "AD 7D 6D 4D 2D", "JC 2C 3C 4H 5H", "8C 9C TC 6H 3H"],
    "F3": ["AS KS QS JS 9S", "KH QH 9H 6H 2H", "JC 8H 5H 4H 3H", "2C 3C 4C 5D 6D"],
    "F4": ["AS KS QS TS 9S", "JC 8D 6D 4D 2D"],
    "F5": ["QH 9H 8H 4H 2H", "AD KD 9D 6D 3D"],
}

#: The winners of RULES.md 4.3 as P-numbers, in preset order: hoffmann, britannica,
#: whiteknuckle, parlett, peel.
WINNERS = {
    "F1": (3, 3, 1, 1, 3),
    "F2": (2, 1, 2, 2, 1),
    "F3": (3, 2, 3, 3, 3),
    "F4": (2, 1, 2, 2, 2),
    "F5": (1, 1, 2, 1, 1),
}


def flush(name: str) -> FlushExample:
    example = worked_example(
        {
            "kind": "flush",
            "game": "five-card",
            "trump": "H",
            "turn_up": "7H",
            "hands": FLUSHES[name],
        }
    )
    assert isinstance(example, FlushExample)
    return example


@pytest.mark.parametrize("name", sorted(FLUSHES))
def test_every_rule_set_gives_the_flush_winners_of_rules_md(name: str) -> None:
    example = flush(name)
    assert tuple(row.result.winner + 1 for row in example.rows) == WINNERS[name]


def test_f2_the_elder_hand_wins_under_britannica_and_the_better_cards_under_hoffmann() -> None:
    example = flush("F2")
    britannica, hoffmann = example.row("britannica"), example.row("hoffmann")
    assert britannica.winner_name == "Player 1 (elder hand)"
    assert britannica.exempt_names == ["Player 2", "Player 3"]  # a losing flush, and Pam
    assert britannica.pay_names == ["Player 4"]
    assert britannica.result.explanations[1].rule == "flush-tie-break"
    assert "the elder hand wins" in britannica.result.explanations[1].text
    assert hoffmann.winner_name == "Player 2"
    assert "better cards" in hoffmann.result.explanations[1].text
    # White Knuckle and Peel excuse a losing flush only: Pam pays.
    assert example.row("whiteknuckle").pay_names == ["Player 3", "Player 4"]
    assert example.row("peel").pay_names == ["Player 3", "Player 4"]


def test_rule_sets_that_come_to_the_same_result_are_grouped() -> None:
    groups = flush("F1").groups()
    assert [g.names for g in groups] == [
        "Hoffmann (1909) and Britannica (1911)",
        # The same winners, each with its own words for the precedence.
        "White Knuckle (modern)",
        "Parlett (modern)",
        "Peel (1891)",
    ]


# Whole hands


def test_a_hand_played_out_is_settled_by_the_engine() -> None:
    # tests/engine/test_hand_settlement.py: seat 1 takes two tricks and the dealer one.
    example = hand(steps=ALL_PLAY + TRICKS)
    hoffmann = example.row("hoffmann")
    assert hoffmann.over and hoffmann.refusal is None
    assert paid(hoffmann, "pool-division") == [(None, 1, 1), (None, 1, 1), (None, 3, 1)]
    assert paid(hoffmann, "looed") == [(0, None, 3), (2, None, 3)]
    assert hoffmann.looed_names == ["Seat 1 (elder hand)", "Seat 3"]
    assert (hoffmann.pool_at_start, hoffmann.pool) == (3, 6)
    assert "Seat 2 takes trick 1. The trick was trumped" in " ".join(
        e.text for e in hoffmann.events
    )
    # peel's loo is two stakes (p. 22).
    assert paid(example.row("peel"), "looed") == [(0, None, 6), (2, None, 6)]


def test_peel_gives_the_odd_counters_to_the_earliest_tricks() -> None:
    row = hand(pool=4, steps=ALL_PLAY + TRICKS).row("peel")
    assert paid(row, "indivisible-pool-rounding") == [(None, 1, 3), (None, 1, 2), (None, 3, 2)]


def test_a_step_one_rule_set_refuses_is_shown_as_its_disagreement() -> None:
    # britannica s. 28: against one player the dealer takes miss or plays it for the pool.
    example = hand(pool=6, steps=["0 play", "1 pass", "2 pass", "?", "3 play"])
    britannica = example.row("britannica")
    assert britannica.refusal is not None
    assert britannica.refusal.rule == "dealer-must-play-against-one"
    assert britannica.refusal.step is not None
    assert britannica.refusal.step.said == "Seat 4 (dealer) chooses to play"
    ((_, moment),) = britannica.moments
    assert moment.choices == ("take-miss", "defend-miss")
    assert moment.choice_words == ["take the miss", "play the miss for the pool"]
    hoffmann = example.row("hoffmann")
    assert hoffmann.refusal is None
    assert hoffmann.moments[0][1].choices == ("play", "take-miss", "defend-miss")
    assert hoffmann.moments[0][1].explanations[0].rule == "dealer-must-play-against-one"


def test_a_must_refuses_a_pass_and_deals_no_miss_where_the_source_says_so() -> None:
    example = hand(prev_no_loo=True, steps=["0 pass"])
    row = example.row("hoffmann")
    assert row.refusal is not None and row.refusal.rule == "must"
    assert row.dealt_miss is None  # hoffmann ¶7: "there is no miss"
    # peel has no must: its single is one card face up to each player (A39), the first card
    # of each stacked hand; the step is not taken, the hand being over.
    row = example.row("peel")
    assert row.over and row.outcome == "single-deal" and row.refusal is None
    assert [len(h) for h in row.dealt] == [1] * len(row.dealt) and row.unplayed == (1,)
    for preset in ("britannica", "whiteknuckle", "parlett"):
        row = example.row(preset)
        assert row.refusal is None
        assert row.dealt_miss is not None and [c.code for c in row.dealt_miss] == MISS.split()
    assert [f.rule for f in example.row("whiteknuckle").facts] == ["single"]


def test_agreed_options_apply_to_every_rule_set_shown() -> None:
    # club law agreed: only parlett keeps it to five-card Loo.
    example = hand(turn_up="7C", pool=6, options={"club-law": "on"}, steps=["0 pass"])
    refused = {r.ruleset.preset for r in example.rows if r.refusal}
    assert refused == {"hoffmann", "britannica", "whiteknuckle", "peel"}
    assert example.row("hoffmann").refusal.rule == "club-law"  # type: ignore[union-attr]


def test_a_rule_set_that_plays_no_such_table_refuses_the_deal() -> None:
    five = ["AS KS 2D 3D 4D", "QH 9H 3H 5S 6S", "5D 6D 8D 9D TH", "JD TD 4S 2S 3S"]
    example = worked_example({"kind": "hand", "game": "five-card", "hands": five, "turn_up": "7H"})
    parlett = example.row("parlett")
    assert parlett.refusal is not None and parlett.refusal.step is None
    assert "for 5 to 10 players, not 4" in parlett.refusal.text
    assert example.row("peel").refusal is None


def test_steps_for_some_rule_sets_only_and_the_laws() -> None:
    # tests/engine/test_laws.py: a revoke; hoffmann's players let the result stand (Law 16),
    # peel replays the hand always (p. 21).
    decline = ["hoffmann: 0 decline", "hoffmann: 1 decline", "hoffmann: 2 decline"]
    example = hand(laws=True, steps=ALL_PLAY + REVOKE + REST + decline + TRICKS)
    hoffmann, peel = example.row("hoffmann"), example.row("peel")
    assert paid(hoffmann, "penalty-revoke") == [(3, None, 12)]
    assert len(hoffmann.unplayed) == len(TRICKS)  # peel's replay, not hoffmann's
    assert any("played again" in e.text for e in peel.events)
    assert paid(peel, "penalty-revoke") == [(3, None, 6)]  # a loo: two stakes (p. 22, 25)
    for preset in ("britannica", "whiteknuckle", "parlett"):
        refusal = example.row(preset).refusal
        assert refusal is not None and refusal.rule == "follow-suit"
    assert example.steps[-len(TRICKS) - 1].only_under == "Hoffmann (1909)"


# Irregularities, in laws mode (games/loo/hand/irregular.py)


def _irregular(seat: int, what: str, *cards: str) -> Action:
    return Action("irregular", seat, what, cards)


@pytest.mark.parametrize(
    ("text", "action", "said"),
    [
        ("3 misdeal", _irregular(3, "misdeal"), "Seat 4 (dealer) misdeals"),
        ("1 faced-card", _irregular(1, "faced-card"), "Seat 2 finds a card face up in the pack"),
        (
            "1 interfere",
            _irregular(1, "interfere"),
            "Seat 2 interferes with the cards during the deal",
        ),
        ("2 declare-early", _irregular(2, "declare-early"), "Seat 3 declares before his turn"),
        ("2 look-early", _irregular(2, "look-early"), "Seat 3 looks at his cards before his turn"),
        ("1 look-miss", _irregular(1, "look-miss"), "Seat 2 looks at the miss without taking it"),
        ("1 look-hand 2", _irregular(1, "look-hand:2"), "Seat 2 looks at Seat 3's cards"),
        (
            "2 look-hand 3",
            _irregular(2, "look-hand:3"),
            "Seat 3 looks at the cards of Seat 4 (dealer)",
        ),
        (
            "2 look-hand 0",
            _irregular(2, "look-hand:0"),
            "Seat 3 looks at the cards of Seat 1 (elder hand)",
        ),
        ("2 expose 5C", _irregular(2, "expose", "5C"), "Seat 3 exposes the 5♣"),
        (
            "0 play-early AS",
            _irregular(0, "play-early", "AS"),
            "Seat 1 (elder hand) plays the A♠ before all have declared",
        ),
        ("hoffmann, peel: 3 misdeal", _irregular(3, "misdeal"), "Seat 4 (dealer) misdeals"),
    ],
)
def test_a_step_may_commit_an_irregularity(text: str, action: Action, said: str) -> None:
    step = Step.parse(1, text, 4)
    assert step.action() == action
    assert step.said == said


def test_every_irregularity_of_the_engine_has_its_step_and_words() -> None:
    assert set(IRREGULAR_WORDS) == set(IRREGULARITIES)


def laws(steps: list[str]) -> HandExample:
    return hand(laws=True, pool=6, steps=steps)


def test_a_misdeal_is_fined_and_dealt_again_under_hoffmann_and_peel_and_refused_elsewhere() -> None:
    example = laws(["3 misdeal", "0 play", "1 pass", "2 pass", "3 play"])
    hoffmann, peel = example.row("hoffmann"), example.row("peel")
    assert paid(hoffmann, "penalty-misdeal") == [(3, None, 3)]  # Law 3: a single
    assert paid(peel, "penalty-misdeal") == [(3, None, 6)]  # p. 23-24: a single loo
    for row in (hoffmann, peel):
        assert row.refusal is None and "penalty-misdeal" in row.cited
        # The same dealer deals again: the stacked pack gives the same cards.
        assert [e.kind for e in row.events][:4] == ["ante", "deal", "irregular", "deal"]
        assert row.dealt == tuple(tuple(h) for h in example.hands or ())
    for preset in ("britannica", "whiteknuckle", "parlett"):
        refusal = example.row(preset).refusal
        assert refusal is not None and refusal.step is not None
        assert refusal.step.said == "Seat 4 (dealer) misdeals"
        assert "laws mode" in refusal.text


def test_a_card_played_before_all_have_declared() -> None:
    # hoffmann Law 15 (3): he throws up his cards and forfeits a single; peel p. 25: looed.
    example = laws(["0 play", "0 play-early AS", "1 play", "2 pass", "3 play"])
    hoffmann, peel = example.row("hoffmann"), example.row("peel")
    assert paid(hoffmann, "penalty-play-out-of-turn") == [(0, None, 3)]
    (early,) = [e for e in peel.events if e.kind == "irregular"]
    assert "penalty-play-out-of-turn" in early.rules and early.cards == ("AS",)
    assert peel.refusal is None and hoffmann.refusal is None
    assert example.row("britannica").refusal is not None


def test_a_card_exposed_leaves_the_other_player_alone_under_hoffmann() -> None:
    # hoffmann Law 15 (1): he throws up his cards and forfeits a single; the one left takes the
    # pool (A49). The line cites the law that retired him, not playing out of turn.
    example = laws(["0 play", "1 pass", "2 play", "3 pass", "2 expose 5C", "0 AS"])
    hoffmann = example.row("hoffmann")
    assert paid(hoffmann, "penalty-exposed-card") == [(2, None, 3)]
    assert paid(hoffmann, "miss-holder-alone-wins") == [(None, 0, 12)]
    (last,) = [e for e in hoffmann.events if "miss-holder-alone-wins" in e.rules]
    assert last.rules == ("penalty-exposed-card", "miss-holder-alone-wins")
    assert hoffmann.unplayed == (6,)
    # peel: looed, and the hand played again (p. 25).
    assert example.row("peel").refusal is None and not example.row("peel").over


def test_looking_or_declaring_early_cites_the_rule_broken_and_its_penalty() -> None:
    example = laws(["1 declare-early", "2 look-early"])
    for preset in ("hoffmann", "peel"):
        declared, looked = [e for e in example.row(preset).events if e.kind == "irregular"]
        assert declared.rules[:2] == ("declare-in-turn", "penalty-declare-out-of-turn")
        assert looked.rules[:2] == ("look-at-cards-in-turn", "penalty-declare-out-of-turn")


def test_a_look_at_anothers_cards_shows_whose() -> None:
    example = laws(["0 look-hand 2", "?"])
    for preset in ("hoffmann", "peel"):
        row = example.row(preset)
        (looked,) = [e for e in row.events if e.kind == "irregular"]
        assert looked.message.args["other"] == 2 and looked.seat == 0
        ((_, moment),) = row.moments
        assert moment.choices == ("pass",)
        assert moment.explanations[0].rule == "penalty-look-at-others-cards"


def test_the_options_are_shown_where_asked_and_at_the_end() -> None:
    example = hand(pool=6, steps=["?", "0 take-miss", "?"])
    row = example.row("hoffmann")
    assert [(at, m.seat, m.choices) for at, m in row.moments] == [
        (0, 0, ("play", "take-miss", "pass")),
        (1, 1, ("play", "pass")),
    ]
    assert row.moments[1][1].explanations[0].rule == "miss-only-once"


def test_a_pack_is_dealt_as_each_rule_set_deals_it() -> None:
    pack = "AS KH QD JS TC 9S 8H 7D 6S 5C 4S 3H 2D AH KD QC TS 9H 8D 7C 6H 5D 4C 3S 2H 4H"
    example = worked_example(
        {"kind": "hand", "game": "five-card", "players": 5, "first": True, "pack": pack}
    )

    def elder(preset: str) -> str:
        return " ".join(c.code for c in example.row(preset).dealt[0])

    assert elder("hoffmann") == "AS 9S 4S QC 6H"  # singly
    assert elder("whiteknuckle") == "AS KH 4S 3H 2D"  # two, then three
    assert elder("parlett") == "AS KH QD QC TS"  # three, then two
    assert {example.row(p).turn_up.code for p in ("hoffmann", "parlett")} == {"4H"}  # type: ignore[union-attr]


def test_seats_are_named_from_the_elder_hand_to_the_dealer() -> None:
    assert [seat_label(s, 4) for s in range(4)] == [
        "Seat 1 (elder hand)",
        "Seat 2",
        "Seat 3",
        "Seat 4 (dealer)",
    ]
    assert seat_label(None, 4) == "the pool"


# Examples the engine cannot work out


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"kind": "deal", "game": "three-card"}, "unknown example kind 'deal'"),
        ({"kind": "trick", "game": "five-card", "trump": "H", "trick": "AH ZZ"}, "unknown card"),
        ({"kind": "trick", "game": "five-card", "trump": "H", "trick": "AH AH"}, "twice"),
        ({"kind": "trick", "game": "five-card", "trick": "AH KH"}, "needs 'trump'"),
        ({"kind": "trick", "game": "nap", "trump": "H", "trick": "AH KH"}, "unknown game"),
        ({"kind": "flush", "game": "five-card", "trump": "H", "hands": ["AH KH"]}, "holds 2"),
        ({"kind": "flush", "game": "three-card", "trump": "H", "hands": ["AH"]}, "five-card"),
        ({"kind": "hand", "game": "three-card", "hands": FOUR, "turn_up": "7H"}, '"miss"'),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "miss": "KH 2C AS",
                "turn_up": "7H",
            },
            "AS is dealt twice",
        ),
        (
            {"kind": "hand", "game": "three-card", "hands": ["AS KS", *FOUR[1:]], "miss": MISS},
            "is dealt 2 cards",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "steps": ["1 play"],
            },
            "refuses this hand under every rule set",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "steps": ["0 pass", "1 pass", "2 pass", "3 play"],
            },
            "after the end of the hand",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "steps": ["0 dance"],
            },
            "not a declaration",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "steps": ["hoyle: 0 play"],
            },
            "unknown rule set 'hoyle'",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "steps": ["7 play"],
            },
            "no seat 7",
        ),
        (
            {"kind": "hand", "game": "irish", "hands": FOUR, "turn_up": "7H", "presets": ["peel"]},
            "no rule set of this example plays irish",
        ),
        (
            {
                "kind": "hand",
                "game": "three-card",
                "hands": FOUR,
                "turn_up": "7H",
                "miss": MISS,
                "options": {"club-law": "sometimes"},
            },
            "club-law",
        ),
        (
            {"game": "three-card", "trump": "H", "declared": 4, "hand": ["AH"], "colour": "red"},
            "unknown field(s) in a legal example: colour",
        ),
    ],
)
def test_an_impossible_example_is_refused_with_its_problem(
    data: dict[str, Any], problem: str
) -> None:
    from games.loo.errors import LooError

    with pytest.raises(LooError) as raised:
        worked_example(data)
    assert problem in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ("2 expose", "expose names one card of his own"),
        ("2 expose 5C 6C", "expose names one card of his own"),
        ("2 expose ZZ", "unknown card 'ZZ'"),
        ("0 play-early", "play-early names one card of his own"),
        ("0 look-hand", "look-hand names the seat whose cards he sees"),
        ("0 look-hand two", "look-hand names the seat whose cards he sees"),
        ("0 look-hand 9", "there is no seat 9 at a table of 4"),
        ("0 look-hand 0", "look-hand names another seat than his own"),
        ("3 misdeal 5C", "misdeal takes no cards"),
        ("0 dance", "an irregularity (misdeal, faced-card"),
        ("1 misdeal", "Only the dealer misdeals"),
        ("2 expose 5C", "not in the play"),
    ],
)
def test_a_bad_irregular_step_is_refused_with_its_problem(step: str, problem: str) -> None:
    from games.loo.errors import LooError

    with pytest.raises(LooError) as raised:
        laws([step])
    assert problem in str(raised.value)
    assert "\n" not in str(raised.value)


def test_the_errors_of_the_examples_module_are_engine_errors() -> None:
    from games.loo.errors import LooError

    assert issubclass(ExampleError, LooError)
