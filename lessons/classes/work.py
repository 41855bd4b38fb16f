"""What a student has to do in a class, as the quizzes app tells it (issue 37): his class's
page lists his assignments there. The quizzes app builds on this one, which never imports
it: it gives its function at its ``AppConfig.ready()`` (:func:`provide`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from lessons.classes.models import SchoolClass


@dataclass(frozen=True)
class Work:
    """One assignment of a class as one student sees it: its title and page, when it closes
    for him (shown in ``zone``, its teacher's time zone), and his state ("not started", "in
    progress", "submitted", "done"...)."""

    title: str
    url: str
    closes: datetime
    zone: tzinfo
    state: str
    #: Open now; closed (else still to come, or open).
    open: bool
    closed: bool


WorkOf = Callable[[Any, SchoolClass], list[Work]]

_provided: list[WorkOf] = []


def provide(work_of: WorkOf) -> None:
    """The quizzes app's function: a student's assignments in a class."""
    _provided[:] = [work_of]


def of(student: Any, school_class: SchoolClass) -> list[Work]:
    """``student``'s assignments in ``school_class`` (none without the quizzes app)."""
    return _provided[0](student, school_class) if _provided else []
