from django.apps import AppConfig


class QuizzesConfig(AppConfig):
    """Quizzes a teacher builds from the engine's question bank, assigned to a class, taken by
    its students and graded by the engine; the results (issue 15)."""

    name = "lessons.quizzes"
    label = "quizzes"

    def ready(self) -> None:
        from lessons.classes import work
        from lessons.quizzes.student_work import work_in_class

        work.provide(work_in_class)  # a student's assignments on his class's page
