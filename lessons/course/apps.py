from collections.abc import Iterable

from django.apps import AppConfig


class CourseConfig(AppConfig):
    """The lessons at /learn/: units and lessons loaded from content/lessons.txt, each with
    exercises, a guided hand and a check answered by the engine, and each learner's
    progress."""

    name = "lessons.course"
    label = "course"

    def ready(self) -> None:
        from lessons.links import provide_lessons

        # The reading side links the lessons ([[lesson:id]] in the admin, "Taught in" on a rule
        # page) through lessons.links, which never imports the course (STYLE.md 31).
        provide_lessons(lesson_rows)


def lesson_rows() -> Iterable[tuple[str, str, list[str]]]:
    """One query: every lesson of the course, in order, with the rules it teaches."""
    from lessons.course.models import Lesson

    return Lesson.objects.order_by("position").values_list("slug", "title", "teaches")
