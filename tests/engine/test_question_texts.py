"""Issue 25, findings 6, 10 and 11: a question shows what its answer turns on, states what the
sources leave to us, and says where its answer rests on a reading of an unclear text (such a
question is ``disputed``, and a graded quiz never asks it: tests/quizzes/test_disputed.py).
From version 5 only: older versions are made as they were (test_question_versions.py)."""

from __future__ import annotations

import pytest

from games.loo import RuleSet
from games.loo.questions import (
    KIND_BY_NAME,
    KINDS,
    Question,
    QuestionError,
    question,
    question_at,
)
from games.loo.questions.base import message_keys
from games.loo.questions.readings import SILENT, other_readings, rests_on
from games.loo.rulesets import PRESET_IDS, PRESETS


def settlements(preset: str, seeds: int = 40) -> list[Question]:
    return [
        question("settlement", preset, game=game, seed=seed)
        for game in RuleSet.preset(preset).games
        for seed in range(seeds)
    ]


# -- finding 6: what the reader needs ------------------------------------------------------


def test_peels_agreed_loo_is_shown() -> None:
    """Peel p. 22: "three counters, or coins, are fixed as the amount for the deal, and six for
    a loo": the loo is agreed, not worked out from the stake, so the question shows it."""
    for q in settlements("peel"):
        assert q.position["loo"] == 2 * q.position["stake"]
        assert "limit" not in q.position


def test_the_britannicas_limit_is_shown() -> None:
    """The britannica, s. 38: "it is often agreed to limit the loo, so that it shall not exceed
    a certain fixed sum": the agreed limit is shown wherever a loo is asked about."""
    rules = RuleSet.preset("britannica")
    for q in settlements("britannica"):
        assert q.position["limit"] == rules.loo_cap * q.position["stake"]
        assert "loo" not in q.position


def test_a_settlement_says_whether_the_stake_is_counted() -> None:
    """ "Receive or pay" is what the settlement pays: the counters staked before the deal are
    not counted, and the question says so in as many words."""
    for preset in PRESET_IDS:
        for q in settlements(preset, 5):
            assert "staked before the deal are not counted" in q.to_dict()["prompt"]


def test_older_settlements_are_asked_as_before() -> None:
    q = question("settlement", "peel", seed=3, version=4)
    assert "loo" not in q.position and "not counted" not in q.to_dict()["prompt"]


# -- finding 10: the dealing pattern --------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "words"),
    [
        # hoffmann Law 2: "The cards shall be dealt one at a time to each player".
        ("hoffmann", "one card at a time to each player"),
        # whiteknuckle ¶14: "deals out five cards to each player in batches of 2 and 3".
        ("whiteknuckle", "two cards at a time to each player"),
        # the britannica is silent on the five-card deal: our default, said to be.
        ("britannica", "this is our default"),
    ],
)
def test_which_cards_you_receive_states_the_dealing_pattern(preset: str, words: str) -> None:
    for seed in range(10):
        q = question("procedure", preset, game="five-card", rule="deal-order", seed=seed)
        prompt = q.to_dict()["prompt"]
        if "Which cards" in prompt:
            assert words in prompt
            break
    else:
        pytest.fail("no question of the cards dealt")
    if preset != "britannica":
        assert "default" not in prompt


def test_hoffmanns_lead_with_three_declared_says_it_is_a_reading() -> None:
    """Hoffmann ¶4: "If only two persons have declared to play…", but its parenthesis "(With
    more than three declared players the last rule does not apply.)" would make it bind with
    three (A8). A lead question with three declared that the rule would decide says so."""
    position = {
        "trump": "H",
        "hand": ["KH", "3H", "9C"],
        "trick": [],
        "turn_up": "2H",
        "declared": 3,
        "trick_number": 1,
    }
    q = question_at("legal-cards", "hoffmann", game="three-card", position=position, seed=1)
    assert q.readings == ("heads-up-threshold",) and q.disputed
    said = [e for e in q.to_dict()["explanations"] if "rests on" in e["text"]]
    assert said and "how many declared players" in said[0]["text"]
    two = question_at(
        "legal-cards",
        "hoffmann",
        game="three-card",
        position={**position, "declared": 2},
        seed=1,
    )
    assert not two.disputed  # "two" is stated twice, the Law included


# -- finding 11: readings said, disputes found mechanically ---------------------------------


def test_a_reading_is_found_by_asking_under_the_other_reading() -> None:
    """Whiteknuckle ¶16, "precedence is given to the highest card" (A28, read literally): a
    flush question that another flush order answers otherwise is disputed; the others are not."""
    kind = KIND_BY_NAME["flush"]
    rules = RuleSet.preset("whiteknuckle")
    disputed = undisputed = 0
    for seed in range(60):
        q = question("flush", "whiteknuckle", seed=seed)
        assert q.readings == rests_on(q, kind, rules)
        if q.disputed:
            disputed += 1
            assert "flush-precedence" in q.readings
            assert any(e.rule == "flush-precedence" for e in q.explanations)
        else:
            undisputed += 1
    assert disputed and undisputed


def test_only_readings_are_compared() -> None:
    """An option the source states is never varied; a value no reading defends (a heads-up
    rule that never binds, lead rules that bind no lead where the source states them) is not
    either. A default where the source is silent is varied only where RULES.md part 3 reads
    the silence against another defensible reading (``SILENT``), and only to that reading."""
    for preset in PRESET_IDS:
        for game in RuleSet.preset(preset).games:
            for name, others in other_readings(preset, game, RuleSet.preset(preset)):
                basis = PRESETS[preset].basis(name).basis
                if basis == "default":
                    assert name in SILENT
                    assert {str(o.value(name)) for o in others} <= set(SILENT[name][1])
                    continue
                assert basis == "reading"
                for other in others:
                    assert other.value(name) not in ("n/a", "none") or name == "club-law-exchange"


def test_a_silent_sources_default_is_a_reading_where_part_3_reads_it() -> None:
    """A13: whiteknuckle's five-card section states no lead rule ("in batches of 2 and 3",
    ¶14, then nothing of the lead), so a five-card lead the engine binds by its three-card
    rules rests on that reading, and the question says so; the britannica says nothing of
    when a flush is shown (A29)."""
    resting = [
        q
        for seed in range(40)
        if (q := question("legal-cards", "whiteknuckle", game="five-card", seed=seed)).readings
    ]
    assert resting and all("lead-scope-5c" in q.readings for q in resting)
    text = " ".join(e["text"] for e in resting[0].to_dict()["explanations"])
    assert "our reading of the five-card lead rules where the source is silent" in text
    q = question("procedure", "britannica", game="five-card", rule="flush-timing", seed=0)
    assert q.readings == ("flush-timing",) and q.disputed


def test_older_versions_say_no_reading() -> None:
    for seed in range(40):
        q = question("flush", "whiteknuckle", seed=seed, version=4)
        assert q.readings == () and not q.disputed


def test_no_question_puts_a_forced_last_card_down_to_a_rule() -> None:
    """A last card is played because it is the last: the play's explanation of it names "the
    first lead" or "follow suit if you can" (games/loo/play), which forced nothing. No question
    shows it: a position where every card may be played is never asked about, and a lesson's
    position with one card in hand is refused (no rule binds there)."""
    for preset in PRESET_IDS:
        for game in RuleSet.preset(preset).games:
            for kind in KINDS:
                # (The coach's questions, a second each, play no card: one seed.)
                for seed in range(1 if kind == "declare" else 8):
                    try:
                        q = question(kind, preset, game=game, seed=seed)
                    except QuestionError:
                        continue
                    keys = {k for e in q.explanations for k in message_keys(e.message)}
                    assert not any(k.endswith("last-card") for k in keys), (kind, preset, seed)
    last = {
        "trump": "H",
        "hand": ["9C"],
        "trick": ["5D"],
        "turn_up": "2H",
        "declared": 3,
        "trick_number": 3,
        "played": ["3C", "3H", "3D", "6C", "6H", "6D"],
    }
    for kind in ("legal-cards", "why-not"):
        with pytest.raises(QuestionError, match="does not bind"):
            question_at(kind, "hoffmann", game="three-card", position=last, seed=1)


def test_equal_value_through_the_turn_up_is_said_to_be_a_reading() -> None:
    """hoffmann ¶4: "unless his highest trumps are in sequence or of equal value,[28] when he
    may lead either of them". The footnote that said what makes them of equal value is not in
    our copy (A9): J♥ and 9♥ with the 10♥ turned up may both be led only on that reading."""
    q = question("legal-cards", "hoffmann", game="three-card", seed=370)
    assert sorted(q.answer) == ["9H", "JH"] and q.position["turn_up"] == "TH"
    assert q.readings == ("heads-up-sequence-exception",)
    # Plain sequences (Q♦ J♦) rest on no reading.
    plain = question("legal-cards", "hoffmann", game="five-card", seed=1)
    assert sorted(plain.answer) == ["JD", "QD"] and not plain.readings


def test_a_flush_question_answers_the_rule_sets_own_time() -> None:
    """peel p. 27: flushes are shown after declaring; a passer's flush shown when everyone
    before the dealer has passed is still shown after declaring, not at once (A29, A48)."""
    q = question("procedure", "peel", game="five-card", rule="flush-timing", seed=8)
    assert q.answer == ("after-declaring",) and not q.readings
