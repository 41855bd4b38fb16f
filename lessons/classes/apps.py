from django.apps import AppConfig


class ClassesConfig(AppConfig):
    """Teachers, their classes and students: who teaches, who is in which class, the join
    code, and the student accounts a teacher made (issue 15)."""

    name = "lessons.classes"
    label = "classes"
