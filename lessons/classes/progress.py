"""What a teacher sees of his students' work in the lessons: per lesson, the steps done and
the stars (exercises right at the first try), read from :class:`lessons.course.models.Progress`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Q

from lessons.course.models import Lesson, Progress, StepKind


@dataclass
class LessonMark:
    done: int = 0
    stars: int = 0

    @property
    def star_text(self) -> str:
        return "★" * self.stars


@dataclass
class StudentProgress:
    marks: dict[str, LessonMark] = field(default_factory=dict)
    last_step: datetime | None = None

    @property
    def lessons_done(self) -> int:
        return sum(1 for m in self.marks.values() if m.done)

    @property
    def stars(self) -> int:
        return sum(m.stars for m in self.marks.values())


def course_lessons() -> list[Lesson]:
    """The course's lessons in order, each with ``steps_count`` and ``exercises_count``."""
    return list(
        Lesson.objects.order_by("position").annotate(  # type: ignore[no-redef]
            steps_count=Count("steps"),
            exercises_count=Count("steps", filter=Q(steps__kind=StepKind.EXERCISE)),
        )
    )


def progress_of(student_ids: Iterable[int]) -> dict[int, StudentProgress]:
    """Each student's progress, in one query."""
    found: dict[int, StudentProgress] = {}
    rows = (
        Progress.objects.filter(owner__in=list(student_ids), done__isnull=False)
        .values("owner_id", "step__lesson_id")
        .annotate(
            done_count=Count("pk"),
            stars=Count("pk", filter=Q(step__kind=StepKind.EXERCISE, first_try=True)),
            last=Max("done"),
        )
        .order_by()
    )
    for row in rows:
        progress = found.setdefault(row["owner_id"], StudentProgress())
        progress.marks[row["step__lesson_id"]] = LessonMark(row["done_count"], row["stars"])
        if progress.last_step is None or row["last"] > progress.last_step:
            progress.last_step = row["last"]
    return found


def marks_in_order(progress: StudentProgress | None, lessons: list[Lesson]) -> list[LessonMark]:
    """A student's mark for each lesson, in the order of ``lessons`` (empty where none)."""
    marks = progress.marks if progress else {}
    return [marks.get(lesson.slug, LessonMark()) for lesson in lessons]
