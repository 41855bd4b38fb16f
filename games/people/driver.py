"""The computer players' steps at tables for people, each made at its time by the process that
stored the change before it.

A person's decision is stored and told at once (``games.people.service``); the computer
players after him decide later, each as a change of its own, ``PeopleTable.bot_pause_ms``
after the one before. Once a change that leaves such a step due is committed, the service
calls :func:`follow` with its :class:`Steps` (the driver knows no table: the service is
above it); this process's driver, one background thread, makes the step when it falls due
(``service.advance``), then follows the table to its next step, until a person is to act or
the hand is over. Its thread makes one table's step at a time, keeps each table
once (the earlier time wins), closes its database connection after each step, and logs what
fails and goes on (a table whose step failed is tried again a few times, then left).

The driver only hurries things along: if its process dies mid-chain, whatever next finds the
step overdue makes it (the table's live streams, a request for its page, the ``timeouts``
command), and two processes that find it due at once make it once (the service's claim and
its version check).

``PEOPLE_BOT_STEPS`` (a setting, for tests) says who makes the steps a stored change leaves
due: ``"driver"`` (the default: this module's thread, at their pace), ``"inline"`` (at once,
in the thread that stored the change, the pace not waited for: a test drives a table
deterministically) or ``"off"`` (nobody here: a test calls ``service.advance`` itself).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

log = logging.getLogger(__name__)

#: After a step failed (the database away, say), the table is tried again this much later...
RETRY_SECONDS = 5.0
#: ...at most this many times in a row; then it is left to the others (streams, pages, cron).
RETRIES = 3


@dataclass(frozen=True)
class Steps:
    """What the driver calls, given by the service: ``advance(pk)`` does what is due at table
    ``pk`` (whether it changed), ``bots_due(pk)`` says in how many seconds its next computer
    player's step falls due (None: none is to act), ``finish(pk)`` makes every step due at
    once, the pace not waited for."""

    advance: Callable[[int], bool]
    bots_due: Callable[[int], float | None]
    finish: Callable[[int], int]


def follow(pk: int, due: datetime, steps: Steps) -> None:
    """A change stored at table ``pk`` leaves a computer player's step due at ``due``: this
    process makes it then (once the change's transaction has committed). Not while this
    thread makes every step due itself (:func:`making_them`)."""
    mode = str(getattr(settings, "PEOPLE_BOT_STEPS", "driver"))
    if getattr(_here, "making", False) or mode == "off":
        return
    if mode == "inline":
        steps.finish(pk)
    else:
        seconds = (due - timezone.now()).total_seconds()
        transaction.on_commit(lambda: DRIVER.schedule(pk, seconds, steps))


_here = threading.local()


@contextmanager
def making_them() -> Iterator[None]:
    """Within it, this thread makes every step that falls due itself (``service.finish``):
    the steps it makes are not followed."""
    outer = getattr(_here, "making", False)
    _here.making = True
    try:
        yield
    finally:
        _here.making = outer


class Driver:
    """One thread that makes the computer players' steps of the tables it follows, each at
    its time, one table's step at a time."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        #: Each table followed, and when (``time.monotonic()``) its next step falls due.
        self._due: dict[int, float] = {}
        self._failures: dict[int, int] = {}
        self._busy: int | None = None
        self._thread: threading.Thread | None = None
        self._steps: Steps | None = None

    def schedule(self, pk: int, seconds: float, steps: Steps) -> None:
        """Make table ``pk``'s next step in ``seconds`` (or at the time it is already due,
        if that is sooner), by ``steps``."""
        at = time.monotonic() + max(0.0, seconds)
        with self._changed:
            self._steps = steps
            if self._due.get(pk, at) < at:
                return
            self._due[pk] = at
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="people-driver", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no step is under way or due now (tests); whether that came within
        ``timeout`` seconds."""
        give_up = time.monotonic() + timeout
        with self._changed:
            while self._busy is not None or any(
                at <= time.monotonic() for at in self._due.values()
            ):
                left = give_up - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def forget(self, timeout: float = 30) -> None:
        """Follow no table any more, once the step under way is made (a test's end: its
        database is emptied next)."""
        with self._changed:
            self._due.clear()
            self._failures.clear()
        if not self.wait_idle(timeout):
            raise RuntimeError("a computer player's step did not end")

    def _next(self) -> tuple[int, Steps]:
        """The next table whose step is due, once it is: taken off the schedule, and busy."""
        with self._changed:
            while True:
                now = time.monotonic()
                if not self._due:
                    self._changed.wait()
                    continue
                pk = min(self._due, key=self._due.__getitem__)
                if self._due[pk] > now:
                    self._changed.wait(self._due[pk] - now)
                    continue
                del self._due[pk]
                self._busy = pk
                assert self._steps is not None  # given with every table scheduled
                return pk, self._steps

    def _run(self) -> None:
        while True:
            pk, steps = self._next()
            seconds: float | None = None
            try:
                seconds = _step(pk, steps)
            except Exception:
                failures = self._failures.get(pk, 0) + 1
                log.exception("A computer player's step at table %s failed (%s)", pk, failures)
                if failures <= RETRIES:
                    self._failures[pk] = failures
                    seconds = RETRY_SECONDS
                else:
                    self._failures.pop(pk, None)
            else:
                self._failures.pop(pk, None)
            finally:
                # A connection of its own, opened for each step: none held while it waits.
                connections.close_all()
            with self._changed:
                self._busy = None
                if seconds is not None:
                    at = time.monotonic() + max(0.0, seconds)
                    self._due[pk] = min(at, self._due.get(pk, at))
                self._changed.notify_all()


def _step(pk: int, steps: Steps) -> float | None:
    """Make what is due at table ``pk``; in how many seconds its next computer player's step
    falls due (None: it is not followed any more)."""
    changed = steps.advance(pk)
    seconds = steps.bots_due(pk)
    if seconds is not None and seconds <= 0 and not changed:
        # Due, and yet nothing could be made (not the case in any table the service stores):
        # left to the others rather than tried again at once, and again.
        log.warning("A computer player's step at table %s is due and cannot be made", pk)
        return None
    return seconds


#: This process's driver.
DRIVER = Driver()
