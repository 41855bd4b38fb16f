"""Questions without a wait: the trainer takes its next question from a small pool the
engine filled ahead, per kind, rule set, game and target rule (issue 38: a "declare" question
weighs sampled deals for a second or two; a question about a rare rule searches many deals).

How a drill gets its question (:func:`ask`): a fresh seed picks the kind and the target rule
as the bank would (:meth:`bank.Drill.pick`); a question of that kind about that rule is taken
from the pool (:class:`~lessons.trainer.models.PreparedQuestion`), each row taken once, by one
request, whichever worker serves it; if the pool is empty the question is made now, as before,
and kept as taken. Either way the question served is one the engine made for its own identity
(kind, rule set, game, target rule, seed, version) under this very engine
(:func:`bank.fingerprint`), so :meth:`AskedQuestion.to_engine` finds it kept, and makes it
again from its identity if it is not. Then the pool of that key is topped up to
:data:`POOL_SIZE` after the response (:func:`top_up`).

The pool is rows of the database (SQLite or PostgreSQL), so two workers share it. How it is
topped up is ``settings.TRAINER_PREPARE``: ``"thread"`` (a server: one background thread per
worker process makes the missing questions, one key at a time, after the response that took
one), ``"inline"`` (at once, in the request: a test, a benchmark's "no wait" proof) or
``"off"`` (never: the tests that do not test the pool). ``manage.py preparequestions`` fills
every key's pool ahead (after a deploy), and ``prunequestions`` deletes the taken rows.

A server that was not prepared (``make run`` on a fresh clone, a deploy that skipped
``preparequestions``) warms up by itself (:func:`warm`): at the trainer's first request, the
background thread fills the pools of the slow kinds (the coach's "declare", the one kind
whose question takes longer to make than a learner should wait; every other kind is made in
a few tens of ms and its pool is filled as learners take its questions), one server process
of all at a time (a lock in the shared cache).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.db import close_old_connections, connection
from django.db.models import QuerySet
from django.utils import timezone

from games.loo.questions import KIND_BY_NAME, VERSION, Question, QuestionError, question
from games.models import new_seed
from lessons.trainer import bank
from lessons.trainer.models import PreparedQuestion

logger = logging.getLogger(__name__)

#: Questions kept ahead for each key: a learner answering quickly takes one while the next is
#: being made.
POOL_SIZE = 2
#: How many fresh seeds to try before saying that no question could be made (a seed whose
#: bounded search finds none gives way to another).
SEEDS_TO_TRY = 3


@dataclass(frozen=True)
class Key:
    """What a pool is kept for: a kind of question about a target rule ("" any) under a rule
    set at a game, by this version of the bank."""

    kind: str
    rules: str
    game: str
    rule: str = ""

    def make(self, seed: int) -> Question:
        return question(self.kind, self.rules, game=self.game, rule=self.rule or None, seed=seed)


def _pool(key: Key) -> QuerySet[PreparedQuestion]:
    """The questions in ``key``'s pool, made by this engine."""
    return PreparedQuestion.objects.filter(
        kind=key.kind,
        rules=key.rules,
        game=key.game,
        rule=key.rule,
        version=VERSION,
        engine=bank.fingerprint(),
        taken__isnull=True,
    )


def take(key: Key) -> Question | None:
    """A question from ``key``'s pool, taken by this request alone (None: the pool is
    empty). Two requests never take the same row: the row is marked taken by a conditional
    update, and a request that loses the race tries the next row."""
    for pk in _pool(key).order_by("pk").values_list("pk", flat=True)[:5]:
        if PreparedQuestion.objects.filter(pk=pk, taken__isnull=True).update(taken=timezone.now()):
            return PreparedQuestion.objects.get(pk=pk).question()
    return None


def ask(drill: bank.Drill) -> Question | None:
    """A question for ``drill``, from the pool when it has one, else made now; None if no
    seed tried gives one. The pool of the key served is then topped up (and the slow kinds'
    pools warmed up, the first time: :func:`warm`)."""
    warm()
    for _ in range(SEEDS_TO_TRY):
        seed = new_seed()
        try:
            kind, rule = drill.pick(seed)
        except (QuestionError, KeyError):  # a drill the catalogue no longer knows: UnknownRule
            continue
        key = Key(kind, drill.preset, drill.game, rule or "")
        q = take(key)
        if q is None:
            try:
                q = drill.ask(seed)  # the same kind and rule: the bank's pick by this seed
            except (QuestionError, KeyError):
                continue
            PreparedQuestion.keep(q, taken=True)
        top_up(key)
        return q
    return None


def fill(key: Key, size: int = POOL_SIZE) -> int:
    """Make questions for ``key``'s pool until it holds ``size``; how many were made. A key
    whose searches find nothing (a few seeds in a row) is left as it is."""
    made = 0
    failures = 0
    while _pool(key).count() < size and failures < SEEDS_TO_TRY:
        try:
            q = key.make(new_seed())
        except QuestionError:
            failures += 1
            continue
        PreparedQuestion.keep(q, taken=False)
        made += 1
    return made


def top_up(key: Key) -> None:
    """Fill ``key``'s pool as ``settings.TRAINER_PREPARE`` says: in a background thread,
    at once, or not at all."""
    mode = getattr(settings, "TRAINER_PREPARE", "thread")
    if mode == "inline":
        fill(key)
    elif mode == "thread":
        PREPARER.submit(key)


class Preparer:
    """One background thread per process that tops up the pools, one key at a time (each key
    queued once however many requests asked for it). An error is logged and kept for
    :meth:`wait` to raise (a test's thread that failed fails the test)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Key] = queue.Queue()
        self._waiting: set[Key] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.errors: list[BaseException] = []

    def submit(self, key: Key) -> None:
        with self._lock:
            if key in self._waiting:
                return
            self._waiting.add(key)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="trainer-preparer", daemon=True
                )
                self._thread.start()
        self._queue.put(key)

    def _run(self) -> None:
        while True:
            key = self._queue.get()
            try:
                with self._lock:
                    self._waiting.discard(key)
                close_old_connections()
                fill(key)
            except BaseException as error:  # kept for wait(), logged for a server
                logger.exception("could not prepare questions for %s", key)
                self.errors.append(error)
            finally:
                connection.close()
                self._queue.task_done()

    def wait(self) -> None:
        """Until every key submitted has been topped up; raises the first error met."""
        self._queue.join()
        if self.errors:
            error, self.errors = self.errors[0], []
            raise error


PREPARER = Preparer()

#: The kinds whose pools a server warms up by itself: those slow to make (judgement).
SLOW_KINDS = tuple(name for name, kind in KIND_BY_NAME.items() if kind.judgement)
#: How long one process's warm-up keeps the others from starting theirs (the shared cache).
WARM_LOCK_SECONDS = 600
_warmed = threading.Event()


def warm() -> None:
    """Once per process, where the pools are topped up in the background: queue every key of
    :data:`SLOW_KINDS` for the background thread (a key whose pool is full costs a count), if
    no other process has done so in the last :data:`WARM_LOCK_SECONDS`."""
    if _warmed.is_set() or getattr(settings, "TRAINER_PREPARE", "thread") != "thread":
        return
    _warmed.set()
    if not shared_cache.add("trainer:warm", 1, WARM_LOCK_SECONDS):
        return
    for key in every_key(SLOW_KINDS):
        PREPARER.submit(key)


def skip_warm_up() -> None:
    """This process does not warm up (a benchmark's smoke test that asks for a few questions:
    the warm-up would make every slow key's questions)."""
    _warmed.set()


def every_key(kinds: Iterable[str] | None = None) -> list[Key]:
    """Every key a drill can ask for: each kind (of ``kinds``), under each rule set at each
    of its games, about any rule and about each rule it asks about there."""
    wanted = set(kinds) if kinds is not None else set(bank.kinds())
    keys = []
    for preset, game in bank.places():
        for kind, rules in bank.coverage(preset, game).items():
            if kind in wanted and rules:
                keys += [Key(kind, preset, game), *(Key(kind, preset, game, r) for r in rules)]
    return keys
