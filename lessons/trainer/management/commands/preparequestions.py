"""Fill the trainer's pools of questions made ahead, so that no learner waits for one."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from lessons.trainer import prepared


class Command(BaseCommand):
    help = (
        "Make the trainer's questions ahead: for every kind (or those named), rule set, game "
        "and target rule, fill its pool to the pool's size. Run after a deploy (a new engine "
        "reads no question kept by another); serving then tops the pools up by itself."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kinds", nargs="*", help="Only these kinds (default: all).")
        parser.add_argument(
            "--size", type=int, default=prepared.POOL_SIZE, help="Questions per pool."
        )

    def handle(self, *args: Any, kinds: list[str], size: int, **options: Any) -> None:
        keys = prepared.every_key(kinds or None)
        made = sum(prepared.fill(key, size) for key in keys)
        self.stdout.write(f"Made {made} question{'s' if made != 1 else ''} for {len(keys)} pools.")
