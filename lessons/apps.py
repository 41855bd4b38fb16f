from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Sources, passages, rule pages, glossary, classes and quizzes."""

    name = "lessons"
