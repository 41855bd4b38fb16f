"""The settlement and the declaring moment a teacher describes (issue 37): answered by the
engine as its own questions are. A generated question's hand, told as a teacher would tell it
(who stood in, who took which trick, the pool; or the cards, the turn-up and the declarations
before the learner), gets the generated question's answer, explanation and rule ids."""

from __future__ import annotations

from typing import Any

import pytest

from games.loo import RuleSet
from games.loo.hand import Hand
from games.loo.play import RuleApplication
from games.loo.questions import (
    AUTHORED_FIELDS,
    Question,
    QuestionError,
    grade,
    question,
    question_at,
)
from games.loo.questions.pool_history import HISTORY_KEYS
from games.loo.rulesets import PRESET_IDS
from tests.profile import size

COMBOS = [(p, g) for p in PRESET_IDS for g in RuleSet.preset(p).games]
SEEDS = range(size(ci=6, thorough=25))


def told_settlement(q: Question) -> dict[str, Any]:
    """A generated settlement question's hand as a teacher tells it (seats from the learner)."""
    p = q.position
    assert q.origin is not None
    setup, log, learner = q.origin
    hand = Hand.replay(setup, log)
    holder = hand.miss_holder
    told = {
        "players": p["players"],
        "dealer": p["dealer"],
        "pool": p["pool"],
        "in_play": p["played"],
        "tricks": p["tricks"],
        "defender": p["defender"],
        "asked": p["asked"],
        "miss_holder": None if holder is None else (holder - learner) % setup.players,
    }
    assert set(told) == set(AUTHORED_FIELDS["settlement"])
    return told


def played(q: Question) -> list[RuleApplication]:
    """A generated question's explanations but the one that tells where a carried pool came
    from (A56): a teacher's table has no hands before it to tell."""
    return [a for a in q.explanations if a.message.key not in HISTORY_KEYS]


def told_moment(q: Question) -> dict[str, Any]:
    p = q.position
    told = {k: p[k] for k in ("players", "dealer", "hand", "turn_up", "declarations", "pool")}
    told["must"] = p["must"]
    assert set(told) == set(AUTHORED_FIELDS["declaration"])
    return told


@pytest.mark.parametrize(("preset", "game"), COMBOS)
def test_a_told_hand_is_settled_as_the_played_hand_was(preset: str, game: str) -> None:
    asked = 0
    for seed in SEEDS:
        q = question("settlement", preset, game=game, seed=seed)
        if "single" in q.position:
            continue  # peel's single deal: not a hand a teacher tells by its tricks
        asked += 1
        again = question_at(
            "settlement", preset, game=game, position=told_settlement(q), rule=q.topic, seed=seed
        )
        assert again.answer == q.answer, (preset, game, seed)
        assert again.bound == q.bound and again.topic == q.topic
        shown = [a.render(0) for a in again.explanations]
        assert shown == [a.render(0) for a in played(q)], (preset, game, seed)
        assert again.position == {**q.position, **again.position}
        assert {c.id for c in again.choices} >= set(again.answer)
    assert asked


@pytest.mark.parametrize(("preset", "game"), COMBOS)
def test_a_told_declaring_moment_offers_what_the_dealt_one_did(preset: str, game: str) -> None:
    for seed in SEEDS:
        q = question("declaration", preset, game=game, seed=seed)
        again = question_at(
            "declaration", preset, game=game, position=told_moment(q), rule=q.topic, seed=seed
        )
        assert set(again.answer) == set(q.answer), (preset, game, seed)
        assert again.topic == q.topic and set(again.bound) == set(q.bound)
        assert [a.rule for a in again.explanations] == [a.rule for a in played(q)]
        assert again.position == q.position, (preset, game, seed)


def test_a_teachers_settlement_cites_its_rules_and_grades() -> None:
    """Four players under hoffmann, the dealer last; you and seat 2 stand in with the dealer,
    seat 2 takes two tricks and the dealer one: you are looed, a fixed loo of 3."""
    position = {"players": 4, "dealer": 3, "pool": 9, "in_play": [0, 1, 3], "tricks": [1, 1, 3]}
    q = question_at("settlement", "hoffmann", game="three-card", position=position, seed=4)
    assert q.answer == ("-3",) and q.kind == "settlement"
    assert [a.rule for a in q.explanations] == ["looed", "limited-loo"]
    assert q.to_dict()["explanations"][0] == {
        "rule": "looed",
        "text": "You pay 3: looed: no trick.",
    }
    assert (
        grade(q, ["-3"]).correct
        and not grade(q, [q.choices[0].id if q.choices[0].id != "-3" else q.choices[1].id]).correct
    )
    seat2 = question_at(
        "settlement", "hoffmann", game="three-card", position={**position, "asked": 1}, seed=4
    )
    assert seat2.answer == ("+6",)
    assert [a.rule for a in seat2.explanations] == [
        "pool-division",
        "pool-division",
        "pool-division",
    ]
    # Under the britannica the loo is the pool, up to a limit.
    brit = question_at("settlement", "britannica", game="three-card", position=position, seed=4)
    assert brit.answer == ("-9",) and brit.explanations[-1].rule == "mixed-loo"


def test_a_pool_taken_without_play_and_a_defender() -> None:
    """All pass to the dealer: he takes the pool. The dealer plays the miss for the pool
    against one player: his trick's share stays in the pool, and he cannot be looed."""
    alone = {"players": 3, "dealer": 2, "pool": 6, "in_play": [2], "tricks": [], "asked": 2}
    q = question_at("settlement", "hoffmann", game="three-card", position=alone, seed=1)
    assert q.answer == ("+6",) and q.topic == "all-pass-dealer-wins"
    you = question_at(
        "settlement", "hoffmann", game="three-card", position={**alone, "asked": 0}, seed=1
    )
    assert you.answer == ("0",) and you.topic == "all-pass-dealer-wins"
    defended = {
        "players": 3,
        "dealer": 2,
        "pool": 6,
        "in_play": [0, 2],
        "tricks": [2, 2, 2],
        "defender": 2,
        "asked": 2,
    }
    d = question_at("settlement", "hoffmann", game="three-card", position=defended, seed=1)
    assert d.answer == ("0",) and "dealer-defends-miss" in d.bound
    looed = question_at(
        "settlement", "hoffmann", game="three-card", position={**defended, "asked": 0}, seed=1
    )
    assert looed.answer == ("-3",)


def test_what_a_player_may_do_at_a_moment_a_teacher_tells() -> None:
    moment = {
        "players": 4,
        "dealer": 1,
        "hand": ["AH", "7S", "2C"],
        "turn_up": "9H",
        "declarations": ["pass", "play"],
    }
    q = question_at("declaration", "hoffmann", game="three-card", position=moment, seed=2)
    assert set(q.answer) == {"play", "pass", "take-miss"} and q.multiple
    assert [a.rule for a in q.explanations] == ["take-miss", "miss-holder-must-play"]
    assert grade(q, ["play", "pass", "take-miss"]).correct
    assert not grade(q, ["play", "pass"]).correct
    # The miss taken before him: he may not take it, and the rule says why.
    taken = question_at(
        "declaration",
        "hoffmann",
        game="three-card",
        position={**moment, "declarations": ["take-miss", "play"]},
        seed=2,
    )
    assert set(taken.answer) == {"play", "pass"} and taken.topic == "miss-only-once"
    # A must (hoffmann: after a hand with no loo, and no miss): nobody may pass.
    must = {**moment, "declarations": ["play", "play"], "must": True}
    bound = question_at("declaration", "hoffmann", game="three-card", position=must, seed=2)
    assert bound.answer == ("play",) and bound.topic == "must"
    assert bound.position["must"] and not bound.position["miss"]
    # Five-card Loo: play (drawing up to five) or pass, under the exchange's rule.
    five = question_at(
        "declaration",
        "hoffmann",
        game="five-card",
        position={**moment, "hand": "AH 7S 2C 3D 4D"},
        seed=2,
    )
    assert set(five.answer) == {"play", "pass"} and five.topic == "five-card-exchange"


@pytest.mark.parametrize(
    ("kind", "position", "said"),
    [
        (
            "settlement",
            {"pool": 9, "in_play": [0, 1], "tricks": [0, 0, 1]},
            "'players' is required",
        ),
        (
            "settlement",
            {"players": 3, "in_play": [0, 1], "tricks": [0, 0, 1]},
            "'pool' is required",
        ),
        ("settlement", {"players": 3, "pool": -3, "in_play": [0]}, "'pool' cannot be negative"),
        ("settlement", {"players": 3, "pool": 9, "in_play": [0, 3]}, "0 (you) to 2, not 3"),
        ("settlement", {"players": 3, "pool": 9, "in_play": "0 1"}, "list of seat numbers"),
        ("settlement", {"players": 3, "pool": 9, "in_play": [0], "dealer": "1"}, "seat number"),
        (
            "declaration",
            {"players": 3, "hand": "AH 7S 2C", "turn_up": "9H", "declarations": ["stand"]},
            "a declaration must be one of play, pass, take-miss",
        ),
        (
            "declaration",
            {"players": 3, "hand": "AH 7S 2C", "turn_up": "9H", "declarations": "pass"},
            "must be a list of declarations",
        ),
    ],
)
def test_a_table_written_wrong_is_not_a_position(
    kind: str, position: dict[str, Any], said: str
) -> None:
    with pytest.raises(QuestionError, match="^not a position: ") as refused:
        question_at(kind, "hoffmann", game="three-card", position=position, seed=1)
    assert said in str(refused.value)
