"""Load content/ (sources, rule explanations, glossary, lessons) into the database, in one
transaction.

The command stands above the apps it loads: the reading side (lessons.content) reads its files,
then the course (lessons.course.loader) reads lessons.txt against them, and the reading side
saves both. The reading side never calls the course, which is built on it.
"""

import hashlib
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons import content
from lessons.course.deals import FILE
from lessons.course.loader import read_course


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
            counts = read_all(path).save()
        except content.ContentError as error:
            raise CommandError(str(error)) from None
        self.stdout.write("Loaded " + ", ".join(f"{n} {what}" for what, n in counts.items()) + ".")


#: The folders read in this process, by the digest of their files: loading the same files again
#: (a test session loads content/ into a fresh database hundreds of times) only saves them.
_READ: dict[str, content.Content] = {}


def read_all(path: Path | None) -> content.Content:
    """``content/`` (:func:`lessons.content.read`) with its lessons, all checked before anything
    is saved; raises ContentError at the first problem. The same files, read before by this
    process, are not read and checked again: nothing the check reads but the files changes
    while a process runs."""
    root = Path(path) if path is not None else content.default_path()
    digest = _digest(root)
    if digest in _READ:
        return _READ[digest]
    found = _read_all(path)
    if len(_READ) >= 4:
        _READ.clear()
    _READ[digest] = found
    return found


def _digest(root: Path) -> str:
    """A digest of every file under ``root``, their names and their bytes."""
    hashed = hashlib.sha256(str(root.resolve()).encode())
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        hashed.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return hashed.hexdigest()


def _read_all(path: Path | None) -> content.Content:
    found = content.read(path)
    lessons = found.root / "lessons.txt"
    if lessons.is_file():
        text = lessons.read_text(encoding="utf-8")
        found.parts.append(
            read_course(
                text,
                found.display(lessons),
                found.resolvers[""],
                found.passage_keys,
                found.root / FILE,
            )
        )
    return found
