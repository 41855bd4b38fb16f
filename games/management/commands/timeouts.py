"""Let a computer player decide for each person at a table for people whose time ran out.

The tables check this themselves on every request and on their live streams' heartbeats;
run from cron (every minute, say) it also moves on a table nobody is looking at, so that the
others find it played on when they come back."""

from typing import Any

from django.core.management.base import BaseCommand

from games.people import service as people


class Command(BaseCommand):
    help = (
        "At tables for people, a computer player decides for each person whose time for a "
        "decision ran out, and plays his seat until he is back."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = people.expire_all()
        self.stdout.write(f"{count} table{'s' if count != 1 else ''} moved on.")
