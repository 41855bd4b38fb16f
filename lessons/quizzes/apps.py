from django.apps import AppConfig


class QuizzesConfig(AppConfig):
    """Quizzes a teacher builds from the engine's question bank, assigned to a class, taken by
    its students and graded by the engine; the results (issue 15)."""

    name = "lessons.quizzes"
    label = "quizzes"
