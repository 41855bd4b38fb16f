"""RULES.md A56: a question whose pool was carried from the hands before says where it came
from, and a teacher's pool that no play can reach is refused (issue 39).

The line's figures are checked against the second model's own settlement of the session in
tests/reference/test_question_pools.py; here, what a reader and a teacher meet: the line in the
command line's JSON, none where the pool is this deal's stakes or was not made by play, none in
versions before 9, and the teacher's refusal where no remainder can ever arise.
"""

from __future__ import annotations

import pytest

from games.loo.questions import QuestionError, coverage, question, question_at
from games.loo.questions.pool_history import HISTORY_KEYS, divides_always
from games.loo.rulesets import HAND_SIZE, PRESETS, RuleSet

#: Peel, three-card Loo, stakes 3 and loos 6: a pool of 25 (issue 39), which p. 22's "there
#: cannot possibly be any surplus" seems to forbid.
SEED_502 = {"game": "three-card", "rule": "indivisible-pool-rounding", "seed": 502}


def test_the_pool_of_25_is_told_in_the_command_lines_json() -> None:
    q = question("settlement", "peel", **SEED_502)  # type: ignore[arg-type]
    told = q.to_dict()["explanations"][-1]
    assert told["rule"] == "dealer-defends-miss"
    assert told["text"].startswith("The pool of 25 came from the hands before: ")
    assert "playing the miss for the pool" in told["text"]
    assert told["text"].endswith("the dealer's stake of 3 for this deal makes 25.")
    # What the answer was, it stays: the line only explains the pool.
    assert q.answer == ("+16",) and q.position["pool"] == 25


def test_versions_before_9_tell_no_history() -> None:
    q = question("settlement", "peel", version=8, **SEED_502)  # type: ignore[arg-type]
    assert q.origin is not None and q.origin[0].pool > 0
    assert not [a for a in q.explanations if a.message.key in HISTORY_KEYS]


def test_a_line_never_names_a_rule_by_its_id() -> None:
    q = question("settlement", "peel", **SEED_502)  # type: ignore[arg-type]
    (line,) = [a for a in q.explanations if a.message.key in HISTORY_KEYS]
    said = line.render(0)
    assert "A56" not in said and "dealer-defends-miss" not in said and "{" not in said


def test_a_teachers_position_tells_no_history() -> None:
    """A teacher's pool was not made by play: nothing to tell (and nothing made up)."""
    position = {"players": 4, "dealer": 3, "pool": 7, "in_play": [0, 1], "tricks": [0, 1, 0]}
    q = question_at("settlement", "hoffmann", game="three-card", position=position, seed=0)
    assert q.position["pool"] == 7
    assert not [a for a in q.explanations if a.message.key in HISTORY_KEYS]


def _table(game: str, rules: RuleSet) -> dict[str, object]:
    low, _ = rules.players(game)
    players = max(low, 4)
    tricks = [0, 1] * HAND_SIZE[game]
    return {
        "players": players,
        "dealer": players - 1,
        "in_play": [0, 1],
        "tricks": tricks[: HAND_SIZE[game]],
    }


@pytest.mark.parametrize(
    ("name", "game"), [(n, g) for n in PRESETS for g in RuleSet.preset(n).games]
)
def test_a_teachers_indivisible_pool_is_refused_only_where_no_remainder_can_arise(
    name: str, game: str
) -> None:
    """At five-card and Irish Loo under a rule set that states no penalties, no miss is played
    for the pool and no offender leaves his shares in it, and every stake and loo divides into
    one share a trick: a pool that does not divide is refused, in words. At three-card Loo (the
    miss played for the pool) and under Peel and Hoffmann (an offender's shares stay in the
    pool) such a pool can arise, and is asked."""
    rules = RuleSet.preset(name)
    size = HAND_SIZE[game]
    table = _table(game, rules)
    stake = rules.stake(game)
    odd = stake * 3 + 1 if (stake * 3 + 1) % size else stake * 3 + 2
    assert odd % size
    if divides_always(rules, game):
        # The generator, playing thousands of hands, never met such a pool there either.
        assert "indivisible-pool-rounding" not in coverage(name, game)["settlement"]
        with pytest.raises(QuestionError) as refused:
            question_at("settlement", name, game=game, position={**table, "pool": odd}, seed=0)
        words = str(refused.value)
        assert f"a pool of {odd} is not reachable under these rules" in words
        assert "A56" not in words
        even = stake * size
        q = question_at("settlement", name, game=game, position={**table, "pool": even}, seed=0)
        assert q.position["pool"] == even
    else:
        q = question_at("settlement", name, game=game, position={**table, "pool": odd}, seed=0)
        assert q.position["pool"] == odd


def test_refused_somewhere_and_asked_somewhere() -> None:
    """The check can fail both ways: some rule set and game refuse, some ask."""
    pairs = [(RuleSet.preset(n), g) for n in PRESETS for g in RuleSet.preset(n).games]
    decided = [divides_always(rules, game) for rules, game in pairs]
    assert any(decided) and not all(decided)
    assert not divides_always(RuleSet.preset("peel"), "five-card")  # an interferer's shares
    assert divides_always(RuleSet.preset("britannica"), "irish")
