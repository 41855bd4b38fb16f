"""Delete the trainer's questions of browser sessions that have expired: nobody can reach them."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from lessons.trainer.models import AskedQuestion


class Command(BaseCommand):
    help = (
        "Delete the trainer's questions asked without an account whose browser session has "
        "expired (asked longer ago than a session lasts)."
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
