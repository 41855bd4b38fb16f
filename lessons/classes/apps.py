from django.apps import AppConfig


class ClassesConfig(AppConfig):
    """Teachers, their classes and students: who teaches, who is in which class, the join
    code, and the student accounts a teacher made (issue 15)."""

    name = "lessons.classes"
    label = "classes"

    def ready(self) -> None:
        from django.conf import settings
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_save

        from lessons.classes.middleware import note_one_time_password, note_student
        from lessons.classes.models import keep_username_key

        user_logged_in.connect(note_one_time_password, dispatch_uid="classes.one_time_password")
        user_logged_in.connect(note_student, dispatch_uid="classes.student")
        post_save.connect(
            keep_username_key,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="classes.username_key",
        )
