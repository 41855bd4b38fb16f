"""Rule questions made and graded by the engine (issue 13, the first three kinds): every answer
is the engine's, the target rule binds, and the same inputs always give the same question."""

from __future__ import annotations

import pytest

from games.loo import RuleSet, legal, trick_winner
from games.loo.cards import card
from games.loo.catalogue import UnknownRule
from games.loo.play import Position
from games.loo.questions import (
    FOLLOW_RULES,
    KINDS,
    LEAD_RULES,
    VERSION,
    QuestionError,
    grade,
    question,
)
from games.loo.rulesets import PRESET_IDS

COMBOS = [(p, g) for p in PRESET_IDS for g in RuleSet.preset(p).games]


def position_of(data: dict[str, object]) -> Position:
    """The ``legal`` command's input, as a Position."""
    return Position(
        game=str(data["game"]),
        rules=RuleSet.preset(str(data["rules"])),
        trump=str(data["trump"]),
        hand=tuple(card(c) for c in data["hand"]),  # type: ignore[attr-defined]
        trick=tuple(card(c) for c in data["trick"]),  # type: ignore[attr-defined]
        turn_up=card(str(data["turn_up"])) if data["turn_up"] else None,
        declared=int(data["declared"]),  # type: ignore[call-overload]
        trick_number=int(data["trick_number"]),  # type: ignore[call-overload]
        pam_be_civil=bool(data["pam_be_civil"]),
        played=tuple(card(c) for c in data["played"]),  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("preset", "game"), COMBOS)
@pytest.mark.parametrize("kind", KINDS)
def test_answers_are_the_engines_and_questions_are_reproducible(
    kind: str, preset: str, game: str
) -> None:
    for seed in range(12):
        q = question(kind, preset, game=game, seed=seed)
        assert q.to_dict() == question(kind, preset, game=game, seed=seed).to_dict()
        assert q.version == VERSION and (q.kind, q.rules, q.game) == (kind, preset, game)
        ids = [c.id for c in q.choices]
        assert len(set(ids)) == len(ids) and set(q.answer) <= set(ids)
        if kind == "trick-winner":
            trick = [card(c) for c in q.position["trick"]]
            result = trick_winner(game, RuleSet.preset(preset), q.position["trump"], trick)
            assert q.answer == (str(result.winner),)
        else:
            moves = legal(position_of(q.position))
            assert len(set(q.position["hand"])) == len(q.position["hand"])
            if kind == "legal-cards":
                assert set(q.answer) == {c.code for c in moves.legal}
                assert set(ids) == set(q.position["hand"])
                assert len(moves.legal) < len(q.position["hand"])  # a rule binds
            else:
                (rule,) = q.answer
                forbidden = q.prompt.args["card"]
                why = moves.why_not(forbidden)
                assert why is not None and why.rule == rule and len(ids) == 4
        # grade: the answer is right, anything else wrong.
        assert grade(q, list(q.answer)).correct
        others = [i for i in ids if i not in q.answer]
        if q.multiple:
            assert not grade(q, list(q.answer) + others[:1]).correct if others else True
            assert not grade(q, list(q.answer)[1:] + others[:1]).correct if others else True
        else:
            assert all(not grade(q, [other]).correct for other in others)


@pytest.mark.parametrize(
    ("kind", "preset", "game", "rule"),
    [
        ("legal-cards", "hoffmann", "three-card", "head-the-trick"),
        ("legal-cards", "peel", "three-card", "trump-after-trick"),
        ("why-not", "hoffmann", "five-card", "pam-identity"),
        ("why-not", "britannica", "three-card", "follow-suit"),
        ("trick-winner", "hoffmann", "five-card", "pam-highest-trump"),
    ],
)
def test_a_question_about_a_rule_is_one_where_it_binds(
    kind: str, preset: str, game: str, rule: str
) -> None:
    for seed in range(5):
        q = question(kind, preset, game=game, rule=rule, seed=seed)
        assert q.rule == rule
        assert rule in {a.rule for a in q.explanations}
        if kind == "legal-cards":
            excluded = {c.code for a in q.explanations if a.rule == rule for c in a.excluded}
            assert excluded and not excluded & set(q.answer)


def test_the_learner_reads_the_question_and_the_reasons_as_you() -> None:
    q = question("legal-cards", "hoffmann", game="three-card", rule="follow-suit", seed=2)
    data = q.to_dict()
    assert data["prompt"] == "Which of your cards may you play?"
    assert any(e["text"].startswith("You must follow suit") for e in data["explanations"])
    assert set(data) == {
        "kind",
        "game",
        "rules",
        "rule",
        "seed",
        "version",
        "prompt",
        "position",
        "choices",
        "answer",
        "explanations",
    }


def test_grading_gives_feedback_for_every_choice() -> None:
    q = question("legal-cards", "hoffmann", game="three-card", seed=4)
    wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
    result = grade(q, wrong)
    assert not result.correct
    assert {c.id: (right, chosen) for c, right, chosen in result.feedback} == {
        c.id: (c.id in q.answer, c.id in wrong) for c in q.choices
    }


def test_bad_requests_say_what_is_wrong() -> None:
    with pytest.raises(QuestionError, match="unknown kind"):
        question("quiz", "hoffmann", seed=1)
    with pytest.raises(QuestionError, match="unknown rule set"):
        question("legal-cards", "hoyle", seed=1)
    with pytest.raises(QuestionError, match="no irish"):
        question("legal-cards", "hoffmann", game="irish", seed=1)
    with pytest.raises(UnknownRule):
        question("legal-cards", "hoffmann", rule="no-such-rule", seed=1)
    with pytest.raises(QuestionError, match="cannot ask about it"):
        question("trick-winner", "hoffmann", game="three-card", rule="ante", seed=1)
    q = question("why-not", "hoffmann", seed=1)
    with pytest.raises(QuestionError, match="exactly one"):
        grade(q, [c.id for c in q.choices[:2]])
    with pytest.raises(QuestionError, match="not a choice"):
        grade(q, ["XX"])


def test_why_not_offers_rules_of_the_same_kind_of_play() -> None:
    for seed in range(20):
        q = question("why-not", "hoffmann", game="five-card", seed=seed)
        ids = {c.id for c in q.choices}
        following = bool(q.position["trick"])
        family = set(FOLLOW_RULES if following else LEAD_RULES)
        assert ids <= family, (following, ids)


def test_the_command_line_asks_and_grades() -> None:
    import io
    import json

    from games.loo.cli import main

    def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    code, out, err = run(["question", "--kind", "legal-cards", "--rules", "peel", "--seed", "5"])
    assert (code, err) == (0, "")
    asked = json.loads(out)
    assert asked == question("legal-cards", "peel", seed=5).to_dict()
    # The legal command takes the position, and agrees.
    code, out, _ = run(["legal", "-"], json.dumps(asked["position"]))
    assert sorted(json.loads(out)["legal"]) == sorted(asked["answer"])
    code, out, _ = run(["grade", "-"], json.dumps({"question": asked, "response": asked["answer"]}))
    assert json.loads(out)["correct"] is True
    # A question whose answer was changed is not graded by it.
    forged = dict(asked, answer=[c["id"] for c in asked["choices"]])
    code, out, err = run(["grade", "-"], json.dumps({"question": forged, "response": []}))
    assert code == 2 and "is not the one" in err and err.count("\n") == 1
    code, _, err = run(["question", "--kind", "legal-cards", "--rules", "hoyle", "--seed", "1"])
    assert code == 2 and "unknown rule set" in err
