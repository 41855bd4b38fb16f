"""RULES.md A56: every pool, carry and stake a question shows is one that play reaches under its
rule set's stakes, worked out by the second model from the hands that led to it.

A question made by play keeps the hands its table played before the one it asks about
(:attr:`games.loo.questions.Question.session`, from the session's first deal). Each is played
again, its facts read as the differential tests read them, and the model settles it from the
pool *its own* settlement of the hand before left (never the pool the engine carried in): a
counter lost or made on the way, or a pool the stakes cannot produce (Peel p. 22, "three
counters … for the deal, and six for a loo, there cannot possibly be any surplus … no matter how
many may have paid in"; what a dealer wins playing the miss for the pool is left in it, p. 20,
and so a pool that does not divide can arise), fails. The pool a question shows must then be the
model's: what was carried in, and the stake(s) the model says were put up for the deal.

Sizes (``LOO_TEST_PROFILE``, tests/profile.py): 3 seeds per kind x rule set x game under
``ci`` (the coach's ``declare``, 1), 60 under ``thorough`` (``declare``, 20).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from games.loo.hand import Hand
from games.loo.messages import Message
from games.loo.questions import KINDS, Question, QuestionError, coverage, question
from games.loo.questions.base import message_keys
from games.loo.questions.pool_history import HISTORY_KEYS, pool_history
from games.loo.rulesets import PRESETS, RuleSet
from tests.profile import size

from .drive import Played, carried, facts_of, session
from .payments import Result, ante, settle

SEEDS = size(ci=3, thorough=60)
#: The coach's ``declare`` questions weigh every choice by play: fewer of them.
SEEDS_DECLARE = size(ci=1, thorough=20)

#: The kinds whose positions show a pool (or what was carried), and the target rule asked for
#: (None: any rule).
POOL_KINDS = (
    ("settlement", None),
    ("settlement", "indivisible-pool-rounding"),
    ("penalty", None),
    ("declaration", None),
    ("declare", None),
    ("procedure", "ante"),
)
#: The kinds whose positions show no pool at all (checked: they do not).
NO_POOL = tuple(k for k in KINDS if k not in {k for k, _ in POOL_KINDS} | {"source"})


def cases() -> Iterator[tuple[str, str | None, str, str]]:
    for kind, rule in POOL_KINDS:
        for name in PRESETS:
            rules = RuleSet.preset(name)
            if kind == "penalty" and rules.penalties == "none":
                continue  # the source states no penalties
            for game in rules.games:
                yield kind, rule, name, game


def chained(q: Question) -> tuple[int, str, list[str]]:
    """The model's pool carried into the question's deal, settling the session's hands from
    nothing, and how the hand before ended as the model reads it (the ``before`` of how the
    pool was made: ``first``, ``loo``, ``no-loo``, ``flush``), with every hand on the way
    where the engine carried something else."""
    pool, before, wrong = 0, "first", []
    for number, _, left, engine, ended in model_session(q):
        if engine != pool:
            wrong.append(f"hand {number}: engine {engine}, model {pool}")
        pool, before = left, ended
    return pool, before, wrong


def model_session(q: Question) -> list[tuple[int, int, int, int, str]]:
    """Each hand of the question's session as the model settles it from its own chained pool:
    its number, the pool it began with (carried and staked), the pool it left, the pool the
    engine carried into it, and how it ended (the next hand's ``before``)."""
    pool, before, told = 0, "first", []
    for setup, log in q.session:
        hand = Hand.replay(setup, log)
        assert hand.over, "a hand of the session was played out"
        facts = facts_of(hand, before, pool)
        staked = Result()
        ante(facts, staked)
        begun = pool + sum(amount for _, _, amount, _ in staked.payments)
        result = settle(facts)
        before, left = result.next_before, carried(facts, result)
        told.append((setup.hand_number, begun, left, hand.setup.pool, before))
        pool = left
    return told


def history_problem(q: Question) -> str | None:
    """What is wrong with the line that says where the question's pool came from, checked
    against the model's own settlement of the session: it is there exactly when the deal
    carried a pool; it tells the session's last hands in turn, each beginning and leaving what
    the model says, its parts adding up to what it left; and what was carried and this deal's
    stake add up to the pool shown."""
    assert q.origin is not None
    setup = q.origin[0]
    lines = [a for a in q.explanations if a.message.key in HISTORY_KEYS]
    if setup.pool == 0 or not q.session:
        return f"a pool history where nothing was carried: {lines[0].render(0)}" if lines else None
    if len(lines) != 1:
        return f"{len(lines)} pool histories for a deal that carried {setup.pool}"
    model = {number: (begun, left) for number, begun, left, _, _ in model_session(q)}
    return steps_problem(lines[0].message, model, q.position.get("pool"))


def steps_problem(
    line: Message, model: dict[int, tuple[int, int]], shown: int | None
) -> str | None:
    """What is wrong with a pool history ``line``, against the ``model``'s pool for each hand
    of the session (the pool it began with, carried and staked, and what it left): the hands
    told in turn to the last, each beginning and leaving what the model says, its parts adding
    up to what it left, and what was carried and this deal's stake making the pool ``shown``
    (None: the pool the line tells, a procedure question's answer)."""
    steps = line.args["steps"]
    numbers = [step.args["deal"] for step in steps]
    if numbers != list(range(numbers[0], max(model) + 1)):
        return f"tells deals {numbers} of a session of {max(model)}"
    for step in steps:
        begun, left = model[step.args["deal"]]
        if (step.args["s"], step.args["e"]) != (begun, left):
            told = f"{step.args['s']} -> {step.args['e']}"
            return f"deal {step.args['deal']}: told {told}, the model {begun} -> {left}"
        parts = sum(part_amount(part) for part in step.args["parts"])
        if step.key != "question.pool-step-left" and parts != left:
            return f"deal {step.args['deal']}: its parts add up to {parts}, it left {left}"
    shown = line.args["pool"] if shown is None else shown
    if line.args["pool"] != shown:
        return f"tells a pool of {line.args['pool']}, shows {shown}"
    staked = line.args["stake"].args["n"] if "stake" in line.args else 0
    if steps[-1].args["e"] + staked != shown:
        return f"carried {steps[-1].args['e']} and staked {staked} do not make {shown}"
    return None


def part_amount(part: Message) -> int:
    """The counters one part of a step of the line tells of."""
    n: int = part.args["n"]
    return n * part.args["k"] if part.key == "question.pool-part.looed" else n


def problem_of(q: Question) -> str | None:
    """What is wrong with the pool the question shows, in words; None if nothing."""
    assert q.origin is not None, "a question about a hand keeps where it came from"
    setup, log, _ = q.origin
    if not setup.first and not q.session:
        return f"a deal after others (pool {setup.pool} carried) without the hands that led to it"
    pool, before, wrong = chained(q)
    if q.version >= 9:
        told = history_problem(q)
        if told is not None:
            return f"where the pool came from: {told}"
    if wrong:
        return "the session's pools are not the model's: " + "; ".join(wrong)
    if setup.pool != pool:
        return f"carries {setup.pool} into the deal; the model's session leaves {pool}"
    shown = q.position
    if "carried" in shown and shown["carried"] != pool:
        return f"shows {shown['carried']} carried; the model's session leaves {pool}"
    if "pool" in shown:
        staked = Result()
        ante(facts_of(Hand.replay(setup, log), before, pool), staked)
        expected = pool + sum(amount for _, _, amount, _ in staked.payments)
        if shown["pool"] != expected:
            return f"shows a pool of {shown['pool']}; carried and staked, the model's is {expected}"
    return None


@pytest.mark.parametrize(("kind", "rule", "name", "game"), list(cases()))
def test_a_question_shows_a_pool_play_reaches(
    kind: str, rule: str | None, name: str, game: str
) -> None:
    if rule is not None and rule not in coverage(name, game)[kind]:
        # Play under these stakes never needed it (five-card Loo has no miss to play for the
        # pool, and its stakes and loos divide by five): the trainer is told so.
        with pytest.raises(QuestionError, match="not asked under this rule set"):
            question(kind, name, game=game, rule=rule, seed=0)
        return
    found, asked = [], 0
    for seed in range(SEEDS_DECLARE if kind == "declare" else SEEDS):
        try:
            q = question(kind, name, game=game, rule=rule, seed=seed)
        except QuestionError:
            continue  # a rare rule the seeded search did not meet from this seed
        asked += 1
        assert "pool" in q.position or "carried" in q.position, q.position
        problem = problem_of(q)
        if problem is not None:
            command = f"question --kind {kind} --rules {name} --game {game} --seed {seed}"
            found.append(f"{command}{f' --rule {rule}' if rule else ''}: {problem}")
    assert asked, f"no {kind} question about {rule} under {name} ({game}) in {SEEDS} seeds"
    assert not found, "\n".join(found[:8])


@pytest.mark.parametrize("kind", NO_POOL)
def test_the_other_kinds_show_no_pool(kind: str) -> None:
    for name in PRESETS:
        q = question(kind, name, seed=1)  # at the kind's own game (flushes: five-card Loo)
        assert not {"pool", "carried", "stake"} & set(q.position), (kind, name, q.position)


def test_a_counter_made_on_the_way_fails() -> None:
    """The check can fail: a session whose first hand is said to have carried one counter more
    than the model's settlement left."""
    q = question(
        "settlement", "peel", game="three-card", rule="indivisible-pool-rounding", seed=502
    )
    assert q.position["pool"] == 25 and len(q.session) == 3
    assert problem_of(q) is None
    (setup, log), *rest = q.session
    made = q.__class__(**{**q.__dict__, "session": ((setup._replace(pool=1), log), *rest)})
    assert "not the model's" in (problem_of(made) or "")


def test_the_pool_of_25_says_where_it_came_from() -> None:
    """Peel's three-card Loo, stakes 3 and loos 6, shows a pool of 25, which p. 22's "there
    cannot possibly be any surplus" seems to forbid: the question says how play left it (the
    miss played for the pool left two tricks' shares in it, p. 20), each figure the model's."""
    q = question(
        "settlement", "peel", game="three-card", rule="indivisible-pool-rounding", seed=502
    )
    (line,) = [a for a in q.explanations if a.message.key in HISTORY_KEYS]
    assert line.rule == "dealer-defends-miss"
    said = line.render(0)
    assert "playing the miss for the pool" in said and "(Peel, p. 20)" in said, said
    assert said.startswith("The pool of 25 ") and said.endswith(" makes 25."), said
    pool, _, _ = chained(q)
    assert line.message.args["steps"][-1].args["e"] == pool == 25 - q.position["stake"]
    assert history_problem(q) is None
    # The check can fail: a line that told one counter more in the miss's step.
    steps = list(line.message.args["steps"])
    step = steps[1]
    (part,) = step.args["parts"]
    steps[1] = Message(
        step.key,
        {**step.args, "parts": (Message(part.key, {**part.args, "n": part.args["n"] + 1}),)},
    )
    made = Message(line.message.key, {**line.message.args, "steps": tuple(steps)})
    wrong = replace(
        q, explanations=tuple(replace(a, message=made) if a is line else a for a in q.explanations)
    )
    assert "add up to" in (history_problem(wrong) or "")


def test_a_pool_of_this_deals_stakes_alone_has_no_history() -> None:
    """A deal that carried nothing (the first of a session, or after a hand that left the pool
    empty) says nothing of the hands before: its pool is its stakes."""
    found = 0
    for seed in range(12):
        q = question("settlement", "hoffmann", game="three-card", seed=seed)
        assert q.origin is not None
        if q.origin[0].pool == 0:
            found += 1
            assert not [a for a in q.explanations if a.message.key in HISTORY_KEYS]
            assert q.position["pool"] == q.position["stake"]
    assert found, "every deal of the sample carried a pool"


#: Hands of a laws session (careless players' irregularities) whose pools are told.
LAWS_HANDS = size(ci=12, thorough=40)


@pytest.mark.parametrize(
    ("name", "game"), [(n, g) for n in ("hoffmann", "peel") for g in RuleSet.preset(n).games]
)
def test_the_history_of_a_laws_session_is_the_models(name: str, game: str) -> None:
    """At a laws table, offenders' shares and penalties, paid into this pool or the next, are
    told too: each deal's pool history (as a question at that deal would tell it) against the
    model's own chained settlement of the hands before; and the story has been told with an
    offender's shares and with penalties somewhere."""
    rules = RuleSet.preset(name)
    seen: set[str] = set()
    for seed in ("history-a", "history-b"):
        played = [p for p in session(rules, game, 4, seed, LAWS_HANDS, laws=True, check=False)]
        hands = [p for p in played if isinstance(p, Played)]
        model: dict[int, tuple[int, int]] = {}
        for k, p in enumerate(hands):
            staked = Result()
            ante(p.facts, staked)
            put_up = sum(amount for _, _, amount, _ in staked.payments)
            if k and p.facts.pool_in:
                before = [(h.hand.setup, tuple(h.hand.log)) for h in hands[:k]]
                told = pool_history(p.hand.setup, before, p.facts.pool_in + put_up, put_up)
                assert told is not None, p.label
                problem = steps_problem(told.message, model, p.facts.pool_in + put_up)
                assert problem is None, f"{p.label}: {problem}"
                seen |= {m for step in told.message.args["steps"] for m in message_keys(step)}
            model[k + 1] = (p.facts.pool_in + put_up, carried(p.facts, p.model))
    assert {"question.pool-part.offender", "question.pool-part.penalties"} <= seen, seen
