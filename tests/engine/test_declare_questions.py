"""The coach's question, ``declare`` (issue 28): a moment of the declarations where the coach's
best option beats the next by far more than its error. Its answer holds when weighed again
with another sampling seed and twice the deals; its feedback shows the figures; the same seed
makes the same question; it never rests on a card the learner cannot see; and version 7 leaves
every other kind as version 6 made it."""

from __future__ import annotations

import re

import pytest

from games.loo.coach import advise
from games.loo.hand import Hand
from games.loo.questions import QuestionError, grade, question
from games.loo.questions.base import Ask
from games.loo.questions.declare import (
    MARGIN_COUNTERS,
    MARGIN_ERRORS,
    SAMPLES,
    ask_coach,
    weighed,
)
from games.loo.rulesets import RuleSet
from games.loo.view import view_for

#: A sample of the questions the trainer asks: every game, the miss asked about by name.
SAMPLE = [
    ("hoffmann", "three-card", None, 0),
    ("hoffmann", "three-card", None, 1),
    ("britannica", "three-card", "take-miss", 2),
    ("peel", "three-card", "take-miss", 3),
    ("whiteknuckle", "three-card", None, 4),
    ("parlett", "five-card", None, 0),
    ("hoffmann", "five-card", None, 1),
    ("britannica", "irish", None, 2),
]


@pytest.mark.parametrize(("preset", "game", "rule", "seed"), SAMPLE)
def test_the_answer_holds_with_another_sampling_seed_and_twice_the_deals(
    preset: str, game: str, rule: str | None, seed: int
) -> None:
    q = question("declare", preset, game=game, rule=rule, seed=seed)
    assert q.origin is not None
    setup, log, learner = q.origin
    hand = Hand.replay(setup, log)
    again = weighed(advise(view_for(hand, learner), samples=2 * SAMPLES[game], seed="again"))
    assert q.answer == (again.ranked[0][0],)
    # Still clear of the next best by far more than the error, if not by the full margin.
    assert again.lead >= MARGIN_COUNTERS / 2 and again.lead >= MARGIN_ERRORS / 2 * again.error


def test_the_feedback_shows_the_figures_of_every_option() -> None:
    q = question("declare", "hoffmann", game="three-card", rule="take-miss", seed=0)
    said = [a.render(0) for a in q.explanations]
    assert re.fullmatch(
        r"The coach would (play|pass|take the miss): over 300 deals dealt at random from what "
        r"you can see, played out for every choice, that wins \d+\.\d counters more on average "
        r"than the next best \((play|pass|take the miss)\), far beyond its margin of error "
        r"\(about \d\.\d\)\.",
        said[0],
    )
    options = {s.split(":")[0]: s for s in said[1:4]}
    assert set(options) == {"Play", "Take the miss", "Pass (throw up the cards)"}
    for label in ("Play", "Take the miss"):
        assert re.fullmatch(
            rf"{label}: \d+% to take a trick(, \d+% to win the pool with nobody playing "
            rf"against you)?, (0|[+-]\d+\.\d) counters on average\.",
            options[label],
        )
    passing = options["Pass (throw up the cards)"]
    assert passing == "Pass (throw up the cards): 0 counters on average."
    assert re.fullmatch(
        r"Each trick wins a third of the pool of \d+, and a player who plays and takes no "
        r"trick is looed and pays \d+ into the next pool; a player who passes takes no trick and "
        r"pays no loo\.",
        said[4],
    )
    rules = [a.rule for a in q.explanations]
    assert rules[:6] == ["declare-in-turn"] * 4 + ["looed", "take-miss"]
    assert grade(q, q.answer).correct
    wrong = next(c.id for c in q.choices if c.id not in q.answer)
    assert not grade(q, [wrong]).correct


def test_five_card_play_names_the_coachs_draw() -> None:
    q = question("declare", "parlett", game="five-card", seed=0)
    said = [a.render(0) for a in q.explanations]
    assert {c.id for c in q.choices} == {"play", "pass"}
    assert any(re.match(r"Play(, throwing out the .+)?: \d+% to take a trick", s) for s in said)
    assert "a fifth of the pool" in said[-1] or any("a fifth of the pool" in s for s in said)


def test_the_same_seed_makes_the_same_question() -> None:
    one = question("declare", "whiteknuckle", game="three-card", seed="same")
    two = question("declare", "whiteknuckle", game="three-card", seed="same")
    assert one.to_dict() == two.to_dict() and one.answer == two.answer
    other = question("declare", "whiteknuckle", game="three-card", seed="other")
    assert other.to_dict() != one.to_dict()


def test_the_question_rests_on_nothing_the_learner_cannot_see() -> None:
    """The same moment of a deal whose cards the learner cannot see are dealt otherwise (the
    other hands, the miss and the stock shuffled among themselves) makes the same question,
    answer and figures included, byte for byte."""
    q = question("declare", "hoffmann", game="three-card", seed=5)
    assert q.origin is not None
    setup, log, learner = q.origin
    hand = Hand.replay(setup, log)
    seen = view_for(hand, learner).visible_cards()
    other = Hand.replay(setup, log)
    hidden = [c for h in other.hands for c in h if c not in seen]
    hidden += [c for c in other.miss or () if c not in seen]
    hidden += [c for c in other.stock if c not in seen]
    assert len(hidden) > 10
    turned = hidden[1:] + hidden[:1]
    swap = dict(zip(hidden, turned, strict=True))
    other.hands = [[swap.get(c, c) for c in h] for h in other.hands]
    if other.miss is not None:
        other.miss = [swap.get(c, c) for c in other.miss]
    other.stock = [swap.get(c, c) for c in other.stock]
    assert other.hands != hand.hands
    ask = Ask(RuleSet.preset("hoffmann"), "hoffmann", "three-card", None, 5)
    made = [ask_coach(ask, h, q.bound, q.position["coach"]["seed"]) for h in (hand, other)]
    assert made[0] is not None and made[1] is not None
    assert made[0].to_dict() == made[1].to_dict() == q.to_dict()


def test_version_7_makes_every_other_kind_as_version_6_did() -> None:
    for kind in ("legal-cards", "declaration", "settlement", "procedure", "flush"):
        for seed in range(3):
            v6 = question(kind, "britannica", game="five-card", seed=seed, version=6).to_dict()
            v7 = question(kind, "britannica", game="five-card", seed=seed, version=7).to_dict()
            assert {**v6, "version": 7} == v7, (kind, seed)
    with pytest.raises(QuestionError, match="makes no declare questions"):
        question("declare", "hoffmann", seed=1, version=6)


def test_a_rule_the_game_has_no_declaring_of_is_refused() -> None:
    with pytest.raises(QuestionError, match="cannot ask about it"):
        question("declare", "parlett", game="five-card", rule="take-miss", seed=1)
