"""Delete the practice tables of browser sessions that have expired: nobody can reach them."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.models import PracticeTable


class Command(BaseCommand):
    help = (
        "Delete practice tables dealt without an account whose browser session has expired "
        "(untouched for longer than a session lasts), with their finished hands."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=float,
            default=settings.SESSION_COOKIE_AGE / 86400,
            help="Untouched for more than this many days (default: the session cookie's age).",
        )

    def handle(self, *args: Any, days: float, **options: Any) -> None:
        tables = PracticeTable.objects.abandoned(days)
        count = tables.count()
        tables.delete()
        self.stdout.write(f"Deleted {count} abandoned practice table{'s' if count != 1 else ''}.")
