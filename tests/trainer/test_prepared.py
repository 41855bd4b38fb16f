"""Questions made ahead (issue 38): a drill takes its question from a pool when it has one;
the question served is exactly the one the engine makes for its identity; a row is taken once,
by one request; the pools are topped up after a question is taken (inline, or by the
background thread, whose errors reach the test); a row kept by another engine is never read;
a server not prepared warms up the slow kind's pools by itself."""

from __future__ import annotations

import pickle
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.cache import cache as shared_cache
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games.loo.questions import VERSION, question
from lessons.trainer import bank, prepared
from lessons.trainer.models import AskedQuestion, PreparedQuestion
from tests.concurrency import at_once

from .conftest import Learner

KEY = prepared.Key("trick-winner", "hoffmann", "three-card")


def _remade(asked: AskedQuestion) -> dict[str, Any]:
    """The question of ``asked``'s identity as the engine makes it now, from nothing kept."""
    rule = asked.rule or None
    q = question(asked.kind, asked.rules, game=asked.game, rule=rule, seed=asked.seed)
    return q.to_dict()


@pytest.mark.django_db
def test_a_drill_takes_a_question_made_ahead_and_it_is_the_engines_own(learner: Learner) -> None:
    assert prepared.fill(KEY) == prepared.POOL_SIZE
    pooled = set(prepared._pool(KEY).values_list("seed", flat=True))

    asked = learner.start("any", "hoffmann", "three-card", kind="trick-winner")

    assert asked.seed in pooled and asked.version == VERSION
    row = PreparedQuestion.objects.get(seed=asked.seed, kind="trick-winner")
    assert row.taken is not None
    assert asked.to_engine().to_dict() == _remade(asked)
    # Settings "off" (the tests'): nothing topped up; the other one is still there.
    assert prepared._pool(KEY).count() == prepared.POOL_SIZE - 1


@pytest.mark.django_db
@override_settings(TRAINER_PREPARE="inline")
def test_with_an_empty_pool_the_question_is_made_kept_and_the_pool_topped_up(
    learner: Learner,
) -> None:
    asked = learner.start("any", "hoffmann", "three-card", kind="trick-winner")

    kept = PreparedQuestion.objects.get(seed=asked.seed, kind="trick-winner", taken__isnull=False)
    assert kept.question().to_dict() == _remade(asked)
    assert prepared._pool(KEY).count() == prepared.POOL_SIZE
    # The next question comes from the pool, and the pool is full again after it.
    q = asked.to_engine()
    learner.answer(asked, list(q.answer))
    pooled = set(prepared._pool(KEY).values_list("seed", flat=True))
    learner.next(asked)
    following = AskedQuestion.objects.get(previous=asked)
    assert following.seed in pooled
    assert following.to_engine().to_dict() == _remade(following)
    assert prepared._pool(KEY).count() == prepared.POOL_SIZE


@pytest.mark.django_db
def test_a_question_about_one_rule_is_taken_from_that_rules_pool(learner: Learner) -> None:
    key = prepared.Key("legal-cards", "peel", "five-card", "must-overtrump")
    prepared.fill(key, 1)
    seed = prepared._pool(key).get().seed

    asked = learner.start("rule:must-overtrump", "peel", "five-card", kind="legal-cards")

    assert (asked.seed, asked.rule, asked.topic) == (seed, "must-overtrump", "must-overtrump")
    assert asked.to_engine().to_dict() == _remade(asked)


@pytest.mark.django_db
def test_each_row_is_taken_once() -> None:
    prepared.fill(KEY, 3)
    taken = [prepared.take(KEY) for _ in range(4)]

    seeds = [q.seed for q in taken if q is not None]
    assert len(seeds) == 3 and len(set(seeds)) == 3 and taken[3] is None


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_never_take_the_same_row() -> None:
    prepared.fill(KEY, 1)

    results = at_once(lambda: prepared.take(KEY), lambda: prepared.take(KEY))

    assert not any(isinstance(r, Exception) for r in results), results
    assert sum(r is not None for r in results) == 1


@pytest.mark.django_db(transaction=True)
@override_settings(TRAINER_PREPARE="thread")
def test_the_background_thread_tops_the_pool_up_and_its_errors_reach_the_waiter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prepared.top_up(KEY)
    prepared.top_up(KEY)  # queued once
    prepared.PREPARER.wait()
    assert prepared._pool(KEY).count() == prepared.POOL_SIZE

    def broken(key: prepared.Key, size: int = 0) -> int:
        raise RuntimeError(f"could not fill {key.kind}")

    monkeypatch.setattr(prepared, "fill", broken)
    prepared.top_up(KEY)
    with pytest.raises(RuntimeError, match="could not fill trick-winner"):
        prepared.PREPARER.wait()
    prepared.PREPARER.wait()  # raised once


@pytest.mark.django_db
def test_a_question_kept_by_another_engine_is_not_read(learner: Learner) -> None:
    asked = learner.start("any", "hoffmann", "three-card", kind="trick-winner")
    row = PreparedQuestion.objects.get(seed=asked.seed, kind="trick-winner")
    other = question("trick-winner", "hoffmann", game="three-card", seed=asked.seed + 1)
    row.made = pickle.dumps(other)
    row.save()
    assert asked.to_engine().seed == asked.seed + 1  # read while the engine is the same

    PreparedQuestion.objects.filter(pk=row.pk).update(engine="0" * 16)

    assert asked.to_engine().to_dict() == _remade(asked)


@pytest.mark.django_db
def test_a_declare_question_from_the_pool_is_graded_as_the_engine_grades_it(
    learner: Learner,
) -> None:
    """The coach's question (a second or two to make) from the pool: its answer is the
    engine's for its identity, and the learner's right answer is graded right."""
    key = prepared.Key("declare", "hoffmann", "three-card")
    prepared.fill(key, 1)

    asked = learner.start("any", "hoffmann", "three-card", kind="declare")

    q = asked.to_engine()
    assert q.to_dict() == _remade(asked)
    learner.answer(asked, list(q.answer))
    asked.refresh_from_db()
    assert asked.correct is True


@pytest.mark.django_db
def test_prunequestions_deletes_the_rows_taken_long_ago_and_those_of_another_engine() -> None:
    prepared.fill(KEY, 3)
    rows = list(PreparedQuestion.objects.order_by("pk"))
    old, stale, pooled = rows
    PreparedQuestion.objects.filter(pk=old.pk).update(taken=timezone.now() - timedelta(days=2))
    PreparedQuestion.objects.filter(pk=stale.pk).update(engine="0" * 16)
    out = StringIO()

    call_command("prunequestions", stdout=out)

    assert list(PreparedQuestion.objects.values_list("pk", flat=True)) == [pooled.pk]
    assert "Deleted 2 questions made ahead." in out.getvalue()


@pytest.mark.django_db
def test_preparequestions_fills_the_pools_of_the_kinds_named() -> None:
    out = StringIO()

    call_command("preparequestions", "flush", "--size", "1", stdout=out)

    keys = prepared.every_key(["flush"])
    assert keys and all(prepared._pool(k).count() == 1 for k in keys)
    assert PreparedQuestion.objects.exclude(kind="flush").count() == 0
    assert f"for {len(keys)} pools" in out.getvalue()


def test_every_key_is_what_a_drill_can_ask_for() -> None:
    keys = prepared.every_key(["why-not"])
    for preset, game in bank.kind_places("why-not"):
        rules = bank.coverage(preset, game)["why-not"]
        assert prepared.Key("why-not", preset, game) in keys
        assert all(prepared.Key("why-not", preset, game, r) in keys for r in rules)


@pytest.mark.django_db
def test_a_server_not_prepared_warms_up_the_slow_kinds_pools_once(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make run`` fills no pool: the trainer's first request has the background thread make
    the slow kinds' questions ahead ("declare"), once per process and once across processes
    while the shared cache's lock holds; not at all when the pools are not topped up in the
    background."""
    queued: list[prepared.Key] = []
    monkeypatch.setattr(prepared.PREPARER, "submit", queued.append)
    monkeypatch.setattr(prepared, "_warmed", prepared.threading.Event())
    shared_cache.delete("trainer:warm")
    assert prepared.SLOW_KINDS == ("declare",)

    client.get(reverse("trainer:choose"))  # TRAINER_PREPARE "off" (the tests')
    assert queued == []
    with override_settings(TRAINER_PREPARE="thread"):
        client.get(reverse("trainer:choose"))
        assert queued == prepared.every_key(["declare"]) and queued
        client.get(reverse("trainer:choose"))
        assert len(queued) == len(prepared.every_key(["declare"]))
        # Another process: the lock in the shared cache holds it back.
        monkeypatch.setattr(prepared, "_warmed", prepared.threading.Event())
        prepared.warm()
        assert len(queued) == len(prepared.every_key(["declare"]))
    shared_cache.delete("trainer:warm")
