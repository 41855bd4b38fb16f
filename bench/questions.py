"""Measure how long a learner waits for the trainer's next question, by kind, through the
trainer's own path; prints figures, asserts nothing.

    .venv/bin/python bench/questions.py [--count N] [--judgement-count N] [--unprepared N]
                                        [--places N] [--prefill] [--no-warm-up]

What a learner waits for is what the trainer's views do: the POST that asks for the question
(a drill's first, ``/trainer/ask/``, or the next, ``/trainer/q/<pk>/next/``) and the GET of the
question's page it redirects to (the page without JavaScript; with htmx the POST answers with
the same fragment). Each learner is a test client of this process against a throwaway SQLite
database (migrated first), served as ``make run`` serves: the pools of questions made ahead
(``lessons.trainer.prepared``) start empty; the server's first trainer request (the chooser
page) warms up the slow kinds' pools in the background thread (``prepared.warm``; its time is
printed, and the figures are taken once it is done, as by a learner who comes a minute after
the server started); every pool is topped up by that thread after each question taken from it
(the first question of a key with an empty pool is made in its request). The learner answers
each question, and reads the feedback until the top-up is done, before asking for the next (a
"declare" question's feedback, a few lines of figures, takes longer to read than its question
takes to make). ``--prefill`` first fills every drill's pool as ``manage.py
preparequestions`` does after a deploy.

For every kind, under every rule set at each game where it asks about something: ``count``
drills (``--judgement-count`` for the coach's "declare") of three questions each, every other
drill about one rule the kind asks about there (``rule:<id>``, with the kind named), the
others about any rule. Printed per kind: the median and the 95th percentile in ms, and how many
questions came from a pool. Then the same path with no pool (``--unprepared`` drills per kind
and place: each question made in its request and again for its page, as before issue 38), and
the baseline: the trainer's chooser page (``GET /trainer/``), which makes no question, in the
same run.

The last line is exactly ``questions: kinds=N slowest_kind=K slowest_p95_ms=M
unprepared_p95_ms=U baseline_ms=B ratio=R over_300ms=O p50_p95_ms=kind:a/b,...``: M is the
highest 95th percentile of a kind with the pools, U the highest without, B the chooser's
median, R = M / B, O how many kinds miss the 300 ms target at p95, then each kind's median
and 95th percentile in ms (with the pools).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# The project, not this folder (its http.py would stand for the standard library's).
HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent), *(p for p in sys.path if Path(p or ".").resolve() != HERE)]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ["DJANGO_LIMIT_DRILLS_PER_ADDRESS"] = "1000000"
os.environ["DJANGO_TRAINER_PREPARE"] = "thread"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from games.loo.questions import KIND_BY_NAME, KINDS  # noqa: E402
from lessons.trainer import bank, prepared  # noqa: E402
from lessons.trainer.models import AskedQuestion, PreparedQuestion  # noqa: E402

QUESTIONS_PER_DRILL = 3
_addresses = itertools.count(1)
#: Questions taken from a pool so far (counted around ``prepared.take``).
HITS = [0]
_take = prepared.take


def _counted_take(key: prepared.Key) -> object:
    q = _take(key)
    HITS[0] += q is not None
    return q


prepared.take = _counted_take  # type: ignore[assignment]


def _database() -> None:
    """A throwaway SQLite database, migrated (before any connection is opened)."""
    folder = tempfile.mkdtemp(prefix="bench-questions-")
    settings.DATABASES["default"]["NAME"] = str(Path(folder) / "db.sqlite3")
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def drills(kind: str, count: int, places: int | None = None) -> list[tuple[str, str, str]]:
    """(scope, rule set, game) of ``count`` drills per place where ``kind`` asks about
    something (the first ``places`` of them, if given): every other one about one of its
    rules there."""
    out = []
    for preset, game in bank.kind_places(kind)[:places]:
        rules = bank.coverage(preset, game)[kind]
        for i in range(count):
            scope = bank.RULE + rules[i // 2 % len(rules)] if i % 2 else bank.ANY
            out.append((scope, preset, game))
    return out


def _keys(kind: str, plan: list[tuple[str, str, str]]) -> set[prepared.Key]:
    return {
        prepared.Key(kind, p, g, s[len(bank.RULE) :] if s.startswith(bank.RULE) else "")
        for s, p, g in plan
    }


def _client() -> Client:
    n = next(_addresses)
    return Client(REMOTE_ADDR=f"10.{n // 62500 % 250}.{n // 250 % 250}.{n % 250 + 1}")


def _answer(client: Client, pk: int) -> None:
    q = AskedQuestion.objects.get(pk=pk).to_engine()
    data = {"response": list(q.answer) if q.multiple else q.answer[0]}
    response = client.post(reverse("trainer:question-answer", args=[pk]), data)
    assert response.status_code == 302, response.status_code


def _pk(location: str) -> int:
    return int(location.strip("/").split("/")[-1])


def drill(kind: str, scope: str, preset: str, game: str) -> list[float]:
    """One learner's drill: the ms he waited for each question (the POST and its page)."""
    client = _client()
    waits = []
    start = time.perf_counter()
    response = client.post(
        reverse("trainer:ask"), {"scope": scope, "rules": preset, "game": game, "kind": kind}
    )
    assert response.status_code == 302, (kind, scope, preset, game, response.status_code)
    location = response["Location"]
    assert client.get(location).status_code == 200
    waits.append((time.perf_counter() - start) * 1000)
    for _ in range(QUESTIONS_PER_DRILL - 1):
        pk = _pk(location)
        _answer(client, pk)
        prepared.PREPARER.wait()  # the learner reads the feedback
        start = time.perf_counter()
        response = client.post(reverse("trainer:question-next", args=[pk]))
        assert response.status_code == 302, (kind, scope, response.status_code)
        location = response["Location"]
        assert client.get(location).status_code == 200
        waits.append((time.perf_counter() - start) * 1000)
    prepared.PREPARER.wait()
    return waits


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]


def baseline_ms(count: int = 30) -> float:
    client = _client()
    client.get(reverse("trainer:choose"))
    times = []
    for _ in range(count):
        start = time.perf_counter()
        assert client.get(reverse("trainer:choose")).status_code == 200
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6, help="drills per kind and place")
    parser.add_argument(
        "--judgement-count", type=int, default=2, help="the same for the coach's kind"
    )
    parser.add_argument(
        "--unprepared", type=int, default=1, help="drills per kind and place with no pool"
    )
    parser.add_argument(
        "--places", type=int, default=None, help="only each kind's first N places (a smoke test)"
    )
    parser.add_argument(
        "--prefill", action="store_true", help="fill the drills' pools first (preparequestions)"
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="no warm-up of the slow kinds' pools (a smoke test: their first questions are "
        "made in the request)",
    )
    args = parser.parse_args()
    setup_test_environment()
    _database()
    if args.no_warm_up:
        prepared.skip_warm_up()
    start = time.perf_counter()
    assert _client().get(reverse("trainer:choose")).status_code == 200  # the first request
    prepared.PREPARER.wait()
    warmed = PreparedQuestion.objects.filter(taken__isnull=True).count()
    print(
        f"warm-up: the first trainer request had {warmed} questions of "
        f"{', '.join(prepared.SLOW_KINDS)} made in the background in "
        f"{time.perf_counter() - start:.1f} s"
    )
    base = baseline_ms()
    print(f"baseline: the trainer's chooser page (no question made) takes {base:.1f} ms")

    p95s: dict[str, float] = {}
    p50s: dict[str, float] = {}
    for kind in KINDS:
        count = args.judgement_count if KIND_BY_NAME[kind].judgement else args.count
        plan = drills(kind, count, args.places)
        start = time.perf_counter()
        made = sum(prepared.fill(key) for key in _keys(kind, plan)) if args.prefill else 0
        filling = time.perf_counter() - start
        hits = HITS[0]
        waits = [w for scope, p, g in plan for w in drill(kind, scope, p, g)]
        p95s[kind] = p95(waits)
        p50s[kind] = statistics.median(waits)
        print(
            f"{kind:>13}: p50 {statistics.median(waits):.0f} ms, p95 {p95s[kind]:.0f} ms, "
            f"slowest {max(waits):.0f} ms, {len(waits)} questions ({HITS[0] - hits} from a "
            f"pool" + (f"; {made} made ahead first in {filling:.1f} s)" if args.prefill else ")")
        )

    settings.TRAINER_PREPARE = "off"  # and the pools emptied: each question made when asked
    PreparedQuestion.objects.filter(taken__isnull=True).delete()
    unprepared: dict[str, float] = {}
    for kind in KINDS:
        waits = [
            w
            for s, p, g in drills(kind, args.unprepared, args.places)
            for w in drill(kind, s, p, g)
        ]
        unprepared[kind] = p95(waits)
        print(
            f"{kind:>13} with no pool: p50 {statistics.median(waits):.0f} ms, "
            f"p95 {unprepared[kind]:.0f} ms, {len(waits)} questions"
        )

    slowest = max(p95s, key=p95s.__getitem__)
    per_kind = ",".join(f"{k}:{p50s[k]:.0f}/{p95s[k]:.0f}" for k in p95s)
    print(
        f"questions: kinds={len(p95s)} slowest_kind={slowest} slowest_p95_ms={p95s[slowest]:.0f} "
        f"unprepared_p95_ms={max(unprepared.values()):.0f} baseline_ms={base:.1f} "
        f"ratio={p95s[slowest] / base:.1f} over_300ms={sum(v > 300 for v in p95s.values())} "
        f"p50_p95_ms={per_kind}"
    )


if __name__ == "__main__":
    main()
