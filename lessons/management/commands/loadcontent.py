"""Load content/ (sources, rule explanations, glossary) into the database, in one transaction."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons import content


class Command(BaseCommand):
    help = (
        "Load the sources, rule explanations, glossary and lessons from content/ into the "
        "database. "
        "Reloading updates rows in place, keeping every id and permalink; the files win over "
        "edits made in the admin."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--path",
            type=Path,
            default=None,
            help="The content folder (default: content/ at the top of the repository).",
        )

    def handle(self, *args: Any, path: Path | None, **options: Any) -> None:
        try:
            counts = content.read(path).save()
        except content.ContentError as error:
            raise CommandError(str(error)) from None
        self.stdout.write("Loaded " + ", ".join(f"{n} {what}" for what, n in counts.items()) + ".")
