from django.apps import AppConfig


class LtiConfig(AppConfig):
    """Lanterloo as an LTI 1.3 tool in a school's learning platform (issue 40): launches,
    deep linking, grades back, class lists (docs/lti.md)."""

    name = "lessons.lti"
    label = "lti"
    verbose_name = "LTI (learning platforms)"

    def ready(self) -> None:
        from lessons.lti.outbox import on_attempt_ended, on_regraded
        from lessons.quizzes.signals import assignment_regraded, attempt_ended

        attempt_ended.connect(on_attempt_ended, dispatch_uid="lti.attempt_ended")
        assignment_regraded.connect(on_regraded, dispatch_uid="lti.regraded")
