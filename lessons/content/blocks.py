"""The file format of ``content/``: the blocks of a file, which kinds and fields each file
may have, and the checks every kind of block shares (its markup, the rule ids it names)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from games.loo import catalogue
from lessons import markup
from lessons.models import PassageKind

_HEADER = re.compile(r"^\[([a-z][a-z-]*)(?: ([^\s\]]+))?\]\s*$")
_FIELD = re.compile(r"^([a-z][a-z-]*):(?:\s(.*))?$")
_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*$")

_PASSAGE_KINDS = {kind.value for kind in PassageKind}
_SOURCE_FIELDS = {
    "short-title",
    "title",
    "author",
    "year",
    "edition",
    "publisher",
    "extent",
    "link",
    "licence",
    "licence-note",
    "correct",
    "role",
    "completeness",
    "copy",
    "cite-author",
    "cite-year",
    "change",
}
_PASSAGE_FIELDS = {"label", "page", "editorial", "rules", "quote", "formerly"}
_KINDS: dict[str, dict[str, set[str]]] = {
    "source": {"source": _SOURCE_FIELDS, "editorial-note": set()}
    | {kind: _PASSAGE_FIELDS for kind in _PASSAGE_KINDS},
    "rules": {"rule": {"example-title", "example", "no-example"}},
    "glossary": {"term": {"term", "also", "forms", "quote-from", "quote", "rules"}},
    "witnesses": {"rule": {"witness", "status", "says", "quote"}},
    "timeline": {"step": {"date", "title", "quote"}},
    "lessons": {
        "unit": {"title"},
        "lesson": {"unit", "title", "game", "teaches", "quotes", "presets", "differ"},
        "exercise": {"kind", "rule", "position", "card"},
        # deal:, start:, options: and laws: are read by the course's loader
        # (docs/trainer-and-course.md, "Writing lessons").
        "guided-hand": {
            "rule",
            "players",
            "banner",
            "deal",
            "start",
            "options",
            "laws",
            "declares",
            "asks",
            "trumped",
        },
        "check": {"rules", "kinds", "count"},
    },
}
#: The fields that a block of a kind may give more than once, by (file type, kind).
_REPEATABLE: dict[tuple[str, str], set[str]] = {
    ("source", "source"): {"correct", "copy", "change"},
    ("witnesses", "rule"): {"quote"},
    ("timeline", "step"): {"quote"},
}


class ContentError(Exception):
    """A problem in a content file, as one line: ``content/<file>:<line>: <problem>``."""

    def __init__(self, where: str, line: int, problem: str) -> None:
        super().__init__(f"{where}:{line}: {problem}")


@dataclass
class Block:
    file: str
    line: int
    kind: str
    id: str
    fields: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    body_lines: list[tuple[str, int]] = field(default_factory=list)

    def error(self, problem: str, line: int | None = None) -> ContentError:
        return ContentError(self.file, self.line if line is None else line, problem)

    @property
    def body(self) -> str:
        return "\n".join(text for text, _ in self.body_lines).strip()

    def get(self, name: str, default: str = "") -> str:
        values = self.fields.get(name)
        return values[0][0] if values else default

    def line_of(self, name: str) -> int:
        values = self.fields.get(name)
        return values[0][1] if values else self.line

    def require(self, name: str) -> str:
        value = self.get(name)
        if not value:
            raise self.error(f"[{self.kind} {self.id}] needs a '{name}:' line")
        return value

    def listed(self, name: str) -> list[str]:
        return [item.strip() for item in self.get(name).split(",") if item.strip()]


def parse(text: str, where: str, file_type: str) -> list[Block]:
    """The blocks of one content file; raises ContentError on a malformed line."""
    kinds = _KINDS[file_type]
    blocks: list[Block] = []
    current: Block | None = None
    in_fields = False
    last_field = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            kind, key = header.group(1), header.group(2) or ""
            if kind not in kinds:
                allowed = ", ".join(f"[{k}]" for k in sorted(kinds))
                raise ContentError(where, number, f"unknown block [{kind}] (allowed: {allowed})")
            if key and not _KEY.match(key):
                raise ContentError(
                    where, number, f"malformed id {key!r}: use lower-case letters, digits and -"
                )
            if not key and kind != "editorial-note":
                raise ContentError(where, number, f"[{kind}] needs an id: [{kind} some-id]")
            current = Block(where, number, kind, key)
            blocks.append(current)
            in_fields = True
            last_field = ""
            continue
        if current is None:
            if line.strip():
                raise ContentError(
                    where, number, f"malformed line: expected a [block id] line, not {line!r}"
                )
            continue
        if in_fields:
            if not line.strip():
                in_fields = False
                continue
            if line[:1].isspace() and last_field:
                # A long value goes on over indented lines.
                value, first = current.fields[last_field][-1]
                current.fields[last_field][-1] = (f"{value}\n{line.strip()}", first)
                continue
            found = _FIELD.match(line)
            if found:
                name, value = found.group(1), (found.group(2) or "").strip()
                if name not in kinds[current.kind]:
                    allowed = ", ".join(sorted(kinds[current.kind])) or "none"
                    raise ContentError(
                        where,
                        number,
                        f"malformed line: unknown field '{name}:' in a [{current.kind}] block "
                        f"(fields: {allowed})",
                    )
                repeatable = _REPEATABLE.get((file_type, current.kind), set())
                if name in current.fields and name not in repeatable:
                    raise ContentError(where, number, f"'{name}:' is given twice")
                current.fields.setdefault(name, []).append((value, number))
                last_field = name
                continue
            in_fields = False
        current.body_lines.append((line, number))
    return blocks


def file_name(path: Path, root: Path) -> str:
    """How a file is named in messages: from the content folder's name down, as
    ``content/sources/peel.txt``, wherever the folder is."""
    return str(Path(root.name) / path.relative_to(root))


def check_rule_ids(b: Block, ids: Iterable[str], field_name: str) -> None:
    for rule_id in ids:
        if rule_id not in catalogue.rule_ids():
            raise b.error(
                f"unknown rule id {rule_id!r}: it is not in the engine's rule catalogue",
                b.line_of(field_name),
            )


def check_markup(b: Block, resolver: markup.Resolver, *, block: bool = True) -> markup.Rendered:
    """Render a block's body, reporting a bad reference on the line where it is."""
    for text, line in b.body_lines:
        for target, words in markup.references(text):
            try:
                markup.render(f"[[{target}|{words or target}]]", resolver, slot_prefix="x")
            except markup.MarkupError:
                raise b.error(_unknown(target, resolver), line) from None
        for kind, number in markup.braces(text):
            if kind == "note" and not resolver.note_exists(number):
                raise b.error(f"unknown passage id 'fn-{number}' (for {{note:{number}}})", line)
    try:
        return markup.render(b.body, resolver, slot_prefix=f"{b.file}-{b.id}", block=block)
    except markup.MarkupError as error:  # a reference broken across lines
        raise b.error(str(error)) from None


def _unknown(target: str, resolver: markup.Resolver) -> str:
    if target.startswith("rule:"):
        return f"unknown rule id {target.removeprefix('rule:')!r} in [[{target}]]"
    if target.startswith("source:"):
        source, _, key = target.removeprefix("source:").partition("#")
        if resolver.passage(source, "") is None:
            return f"unknown source id {source!r} in [[{target}]]"
        return f"unknown passage id {key!r} of {source} in [[{target}]]"
    if target.startswith("lesson:"):
        return (
            f"unknown lesson {target.removeprefix('lesson:')!r} in [[{target}]]: it is not a "
            "[lesson] of lessons.txt"
        )
    return f"unknown glossary term {target!r} in [[{target}]]"
