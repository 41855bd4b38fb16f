"""Do what has fallen due by itself at tables for people: a computer player decides for each
person whose time ran out, and the computer players make the decisions whose time has come.

The tables see to this themselves: the process that stored a change makes the computer
players' decisions after it, at their pace, and any request to a table or its live stream
does what is overdue there. Run from cron (every minute, say) this also moves on a table
nobody is looking at, and one whose process died before its computer players had decided, so
that the others find it played on when they come back."""

from typing import Any

from django.core.management.base import BaseCommand

from games.people import service as people


class Command(BaseCommand):
    help = (
        "At tables for people, a computer player decides for each person whose time for a "
        "decision ran out (and plays his seat until he is back), and the computer players "
        "make the decisions that are overdue."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = people.expire_all()
        self.stdout.write(f"{count} table{'s' if count != 1 else ''} moved on.")
