from django.apps import AppConfig


class CourseConfig(AppConfig):
    """The lessons at /learn/: units and lessons loaded from content/lessons.txt, each with
    exercises, a guided hand and a check answered by the engine, and each learner's
    progress."""

    name = "lessons.course"
    label = "course"
