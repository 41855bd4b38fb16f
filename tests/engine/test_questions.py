"""Rule questions made and graded by the engine (issue 13, the first three kinds): every answer
is the engine's, the target rule binds, and the same inputs always give the same question."""

from __future__ import annotations

import pytest

from games.loo import RuleSet, legal, trick_winner
from games.loo.cards import card
from games.loo.play import Position
from games.loo.questions import (
    FOLLOW_RULES,
    KINDS,
    LEAD_RULES,
    QuestionError,
    grade,
    question,
    question_at,
)
from games.loo.questions.source import game_of
from games.loo.questions.why_not import also_forbidding
from games.loo.rulesets import PRESET_IDS
from tests.profile import size

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
    # Not the catalogue's UnknownRule (a KeyError): a QuestionError, which the command line
    # reports in one line.
    with pytest.raises(QuestionError, match="unknown rule 'no-such-rule'"):
        question("legal-cards", "hoffmann", rule="no-such-rule", seed=1)
    with pytest.raises(QuestionError, match="unknown rule 'no-such-rule'"):
        question_at("trick-winner", "hoffmann", position={}, rule="no-such-rule", seed=1)
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


# -- the kinds added second: flushes, declarations, settlements, sources ----------------------


def test_every_rule_a_kind_lists_is_asked_about_where_it_binds() -> None:
    """The coverage table is the generators' own: every rule it lists for a kind is asked
    about, under that rule set and game, for any seed, and it binds there."""
    from games.loo.questions import coverage

    from .test_question_properties import check_answer, check_shown

    for preset in PRESET_IDS:
        for game in RuleSet.preset(preset).games:
            for kind, rule_ids in coverage(preset, game).items():
                for rule_id in rule_ids if kind != "source" else rule_ids[:5]:
                    for seed in range(size(ci=1, thorough=2)):
                        q = question(kind, preset, game=game, rule=rule_id, seed=seed)
                        assert q.topic == rule_id and rule_id in q.bound
                        assert rule_id in {a.rule for a in q.explanations}
                        check_answer(q)
                        check_shown(q)


def test_every_rule_the_engine_enforces_is_asked_about_under_each_rule_set() -> None:
    """Play seeded hands under every rule set: each rule the engine applies to a decision
    (card play, declarations, the exchange), a trick, a flush or the settlement, and each
    rule its trace says it applied (the deal, the stake, the turn), is asked about by a
    kind other than ``source`` there (the leader holding the ace of trumps in
    five-card Loo sometimes calls "Pam, be civil", so that rule is enforced too)."""
    import random

    from games.loo.hand import Action, Hand, HandSetup
    from games.loo.questions import coverage

    for preset in PRESET_IDS:
        rules = RuleSet.preset(preset)
        for game in rules.games:
            enforced: set[str] = set()
            for seed in range(150):
                rng = random.Random(seed)
                low, high = rules.players(game)
                players = rng.randint(max(low, 3), min(high, 6))
                setup = HandSetup(
                    game, rules, players, seed % players, 1, seed, (0,) * players, 0, trace=True
                )
                hand = Hand.deal(setup)
                while not hand.over:
                    options = hand.options()
                    enforced |= {
                        a.rule for a in options.explanations if options.kind != "play" or a.excluded
                    }
                    if options.civil_call and rng.random() < 0.5:
                        # "Pam, be civil": a call hand.choices() never makes.
                        ace = hand.trumps.ace
                        hand.apply(Action.play(options.seat, ace, civil=True))
                        continue
                    offered = hand.choices()
                    hand.step(offered[rng.randrange(len(offered))])
                enforced |= {p.rule for p in hand.payments}
                # Every rule the hand's trace says it applied: the deal, the stake, the turn.
                enforced |= {r for e in hand.events for r in e.rules}
                if hand.outcome == "played":
                    enforced.add(hand.loo_rule())
                for trick in hand.tricks:
                    result = trick_winner(game, rules, hand.trump, list(trick.laid))
                    enforced |= {a.rule for a in result.explanations}
                if hand.flush is not None:
                    enforced |= {a.rule for a in hand.flush.explanations}
            asked = {
                r for kind, ids in coverage(preset, game).items() if kind != "source" for r in ids
            }
            assert enforced - asked == set(), (preset, game)


def test_the_coverage_table_is_what_the_generators_find() -> None:
    """``data/coverage.json`` is written by ``python -m games.loo.questions``; a rule it
    leaves out for a kind is one that kind's search did not find (a sample is searched
    again)."""
    from games.loo.questions import FAMILIES, QuestionError, coverage

    for preset, game in [("hoffmann", "three-card"), ("parlett", "five-card")]:
        table = coverage(preset, game)
        for kind, family in FAMILIES.items():
            missing = [r for r in family if r not in table[kind]][: size(ci=1, thorough=2)]
            for rule_id in missing:
                with pytest.raises(
                    QuestionError, match="cannot ask about it|only in five-card|state no penalties"
                ):
                    question(kind, preset, game=game, rule=rule_id, seed="coverage")


def test_the_command_line_asks_every_kind_and_the_flush_command_agrees() -> None:
    import io
    import json

    from games.loo.cli import main

    def run(args: list[str], stdin: str = "") -> tuple[int, dict[str, object]]:
        out, err = io.StringIO(), io.StringIO()
        code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
        assert err.getvalue() == ""
        return code, json.loads(out.getvalue())

    for kind in KINDS:
        # Penalties only under a source that states them.
        preset = "hoffmann" if kind == "penalty" else "britannica"
        code, asked = run(
            ["question", "--kind", kind, "--rules", preset, "--game", "five-card"]
            + ["--seed", "11"]
        )
        assert code == 0 and asked["kind"] == kind
        assert asked == question(kind, preset, game="five-card", seed=11).to_dict()
        _, graded = run(
            ["grade", "-"], json.dumps({"question": asked, "response": asked["answer"]})
        )
        assert graded["correct"] is True
        if kind == "flush":
            _, shown = run(["flush", "-"], json.dumps(asked["position"]))
            assert [str(shown["winner"])] == asked["answer"]


def test_question_for_picks_a_kind_and_a_rule_from_the_coverage() -> None:
    from games.loo.questions import coverage, question_for

    table = coverage("hoffmann", "five-card")
    following = {"follow-suit", "head-the-trick", "must-trump", "must-overtrump"}
    seen = set()
    for seed in range(40):
        q = question_for("hoffmann", "five-card", rules=following, seed=seed)
        assert q.topic in following and q.topic in table[q.kind] and q.kind != "source"
        assert question_for("hoffmann", "five-card", rules=following, seed=seed) == q
        seen.add(q.kind)
    assert seen == {"legal-cards", "why-not"}
    anything = {question_for("peel", "three-card", seed=s).kind for s in range(60)}
    assert anything == {
        "legal-cards",
        "why-not",
        "trick-winner",
        "declaration",
        "settlement",
        "penalty",
        "procedure",
    }
    q = question_for("peel", "three-card", kinds=["source"], rules=["must"], seed=1)
    assert (q.kind, q.topic) == ("source", "must")
    with pytest.raises(QuestionError, match="no question of the kinds asked"):
        question_for("hoffmann", "three-card", kinds=["flush"], seed=1)
    with pytest.raises(QuestionError, match="unknown kind"):
        question_for("hoffmann", "three-card", kinds=["essay"], seed=1)


@pytest.mark.parametrize("kind", ["legal-cards", "why-not", "trick-winner", "flush"])
def test_a_question_about_a_position_of_ones_own_is_the_engines_too(kind: str) -> None:
    """A lesson's exercise asks about an authored position: made again from the position a
    generated question shows, it has the same answer and the same explanations."""
    from games.loo.questions import question_at

    for preset in PRESET_IDS:
        game = "five-card"
        for seed in range(15):
            q = question(kind, preset, game=game, seed=seed)
            card_asked = q.prompt.args["card"].code if kind == "why-not" else None
            again = question_at(
                kind, preset, game=game, position=q.position, rule=q.topic, card=card_asked, seed=3
            )
            assert set(again.answer) == set(q.answer), (preset, seed)
            assert again.explanations == q.explanations and again.topic == q.topic
            assert {c.id for c in again.choices} == {c.id for c in q.choices} or kind == "why-not"


def test_an_authored_position_where_the_rule_does_not_bind_is_refused() -> None:
    from games.loo.questions import question_at

    follow = {"game": "three-card", "trump": "S", "hand": "QH 3S 7D", "trick": ["TH"]}
    q = question_at("legal-cards", "hoffmann", game="three-card", position=follow, seed=1)
    assert set(q.answer) == {"QH"} and q.topic == "follow-suit"
    assert q.to_dict()["explanations"][0]["text"].startswith("You must follow suit")
    asked = question_at(
        "why-not", "hoffmann", game="three-card", position=follow, card="7D", seed=1
    )
    assert asked.answer == ("follow-suit",) and len(asked.choices) == 4
    with pytest.raises(QuestionError, match="does not bind there"):
        question_at(
            "legal-cards", "hoffmann", game="three-card", position=follow, rule="must-trump", seed=1
        )
    with pytest.raises(QuestionError, match="not in the hand"):
        question_at("why-not", "hoffmann", game="three-card", position=follow, card="AS", seed=1)
    with pytest.raises(QuestionError, match="cannot happen: the queen of hearts is twice"):
        question_at(
            "legal-cards", "hoffmann", position=dict(follow, hand=["QH", "QH", "3S"]), seed=1
        )
    with pytest.raises(QuestionError, match="not a position"):
        question_at("legal-cards", "hoffmann", position=dict(follow, declared="4"), seed=1)
    with pytest.raises(QuestionError, match="cannot be asked about a position"):
        question_at("source", "hoffmann", position=follow, seed=1)
    with pytest.raises(QuestionError, match="only in five-card"):
        question_at("flush", "hoffmann", game="three-card", position=follow, seed=1)
    trick = {"trump": "H", "trick": "KS AS 2H"}
    won = question_at("trick-winner", "peel", game="three-card", position=trick, seed=0)
    assert won.answer == ("2",)


def test_a_flush_question_without_a_game_is_asked_at_five_card_loo() -> None:
    """Five-card Loo is the only game with flushes: a flush question defaults to it."""
    q = question("flush", "hoffmann", seed=1)
    assert q.game == "five-card"
    assert q.to_dict() == question("flush", "hoffmann", game="five-card", seed=1).to_dict()


def test_a_silent_source_is_not_said_to_be_silent_twice() -> None:
    """A source's explanation reads "Britannica (1911) is silent on it.", not "… is silent on
    it: silent."."""
    from games.loo.catalogue import rules as catalogue_rules

    silent = [r.id for r in catalogue_rules() if any(s.status == "silent" for s in r.sources)]
    assert silent
    for rule_id in silent[:20]:
        q = question("source", "hoffmann", game=game_of(rule_id), rule=rule_id, seed=0)
        for text in (e["text"] for e in q.to_dict()["explanations"]):
            assert "silent on it: silent" not in text and not text.endswith(": silent.")


@pytest.mark.parametrize("preset", ["hoffmann", "britannica", "whiteknuckle", "parlett", "peel"])
def test_why_not_distractors_are_rules_that_bind_under_the_rule_set(preset: str) -> None:
    """A distractor the rule set never applies gives the answer away: where the rule set has
    three rules besides the answer that bind a card play at that game, the distractors are
    among them (the family of the position's first: leading or following)."""
    from games.loo.questions import FOLLOW_RULES, LEAD_RULES, coverage

    for seed in range(200):
        game = RuleSet.preset(preset).games[seed % len(RuleSet.preset(preset).games)]
        q = question("why-not", preset, game=game, seed=seed)
        binds = set(coverage(preset, game)["legal-cards"])
        (answer,) = q.answer
        family = LEAD_RULES if answer in LEAD_RULES else FOLLOW_RULES
        # Rules that excluded the card too are right as well: never distractors, nor (version
        # 5) those the engine does not cite because another rule excluded the card first.
        moves = legal(position_of(q.position))
        card = q.prompt.args["card"]
        also = {a.rule for a in moves.explanations if card in a.excluded}
        also |= also_forbidding(moves, card)
        near = binds & set(family) - also
        distractors = {c.id for c in q.choices} - {answer}
        assert len(distractors) == 3
        if len(near) >= 3:
            assert distractors <= near, (seed, game, distractors - near)
        else:
            assert near <= distractors and distractors.isdisjoint(also)


@pytest.mark.parametrize(
    ("preset", "game", "seed", "card", "also"),
    [
        # hoffmann ¶4: "If he has two trumps he is bound to lead one of them. If he holds the
        # ace of trumps he is bound to lead it": the 5♠ is forbidden by both.
        ("hoffmann", "three-card", 0, "5S", "lead-trump-holding-two"),
        # "If only two persons have declared to play … he must lead the highest".
        ("hoffmann", "three-card", 27, "9D", "lead-highest-trump-heads-up"),
        # peel p. 20: the ace, and "the highest" of two or three trumps.
        ("peel", "three-card", 54, "QD", "lead-highest-of-two-or-three"),
    ],
)
def test_why_not_never_offers_a_second_rule_that_forbids_the_card(
    preset: str, game: str, seed: int, card: str, also: str
) -> None:
    """A distractor is a rule that does not forbid the card: one that forbids it too, though the
    engine cites only the ace's rule (A6), would be a second right answer graded wrong."""
    q = question("why-not", preset, game=game, seed=seed)
    assert q.prompt.args["card"].code == card
    assert q.answer == ("lead-ace-of-trumps",)
    assert also not in {c.id for c in q.choices}


def test_flush_tables_are_of_the_size_the_text_allows() -> None:
    """parlett 5c:Players: "From five to ten"."""
    for seed in range(60):
        q = question("flush", "parlett", game="five-card", seed=seed)
        assert 5 <= len(q.position["hands"]) <= 10


def test_a_three_card_deal_says_the_miss_place_is_our_reading() -> None:
    """A37: only peel fixes where the miss's cards fall ("immediately after the dealer's own
    card", p. 23); elsewhere the question says the place it uses is our reading."""
    for preset, said in (("hoffmann", True), ("peel", False)):
        prompts = [
            q.to_dict()["prompt"]
            for seed in range(40)
            if (
                q := question("procedure", preset, game="three-card", rule="deal-order", seed=seed)
            ).position.get("miss")
            and "receive" in q.to_dict()["prompt"]
        ]
        assert prompts
        assert all(("our reading" in p) == said for p in prompts)
