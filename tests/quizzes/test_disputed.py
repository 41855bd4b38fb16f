"""Issue 25, finding 11: "a question that two defensible readings would answer differently is
never used in a graded quiz". Whiteknuckle's flush order is one (¶16, "precedence is given to
the highest card", read literally: A28), hoffmann's heads-up rule with three declared another
(¶4 against its parenthesis: A8); a quiz about them passes over every disputed question."""

from __future__ import annotations

import pytest

from games.loo.questions import question

from .conftest import make_quiz

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("rules", "game", "topics", "kinds"),
    [
        ("whiteknuckle", "five-card", ["flush-precedence"], ["flush"]),
        ("hoffmann", "three-card", [], ["legal-cards", "why-not"]),
    ],
)
def test_a_quiz_never_asks_a_disputed_question(teacher, rules, game, topics, kinds) -> None:
    quiz = make_quiz(
        teacher, rules=rules, game=game, topics=topics, kinds=kinds, count=30, same_for_all=False
    )
    version = quiz.current
    asked = [version.make_question(i, variant) for variant in ("a", "b") for i in range(30)]
    assert not any(q.disputed for q in asked)
    # Made again from what an answer stores, each is the same undisputed question.
    for q in asked[:5]:
        again = question(q.kind, q.rules, game=q.game, rule=q.rule, seed=q.seed)
        assert again == q and not again.disputed


def test_the_quiz_would_have_met_disputed_questions_without_passing_them_over(teacher) -> None:
    """The test above means something: the same drill, asked straight, finds disputed ones."""
    found = [question("flush", "whiteknuckle", rule="flush-precedence", seed=s) for s in range(60)]
    assert any(q.disputed for q in found)
