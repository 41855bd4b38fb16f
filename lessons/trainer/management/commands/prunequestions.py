"""Delete the trainer's questions of browser sessions that have expired: nobody can reach them;
and the questions made ahead that were taken long enough ago, or by another engine."""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion, PreparedQuestion


class Command(BaseCommand):
    help = (
        "Delete the trainer's questions asked without an account whose browser session has "
        "expired (asked longer ago than a session lasts), and the questions made ahead that "
        "were taken over a day ago or made by another engine."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=float,
            default=settings.SESSION_COOKIE_AGE / 86400,
            help="Asked more than this many days ago (default: the session cookie's age).",
        )

    def handle(self, *args: Any, days: float, **options: Any) -> None:
        count, _ = AskedQuestion.objects.abandoned(days).delete()
        self.stdout.write(f"Deleted {count} abandoned question{'s' if count != 1 else ''}.")
        # A question's pages read it kept while it is answered; later they make it again.
        taken = PreparedQuestion.objects.filter(taken__lt=timezone.now() - timedelta(days=1))
        other = PreparedQuestion.objects.exclude(engine=bank.fingerprint())
        gone = taken.delete()[0] + other.delete()[0]
        self.stdout.write(f"Deleted {gone} question{'s' if gone != 1 else ''} made ahead.")
