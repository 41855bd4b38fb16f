"""The sources (``content/sources/<id>.txt``): the five of the rule sets and the witnesses,
each with its record, its editorial note and its passages, checked; and how a passage is
cited (its label) and the pages it spans."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from games.loo import catalogue
from lessons import markup
from lessons.content.blocks import Block, ContentError, check_rule_ids, file_name, parse
from lessons.models import Licence, Passage, PassageKind, SourceRole

#: A modern text may be quoted only in short passages: fewer words than this.
MAX_MODERN_QUOTE_WORDS = 50


@dataclass
class SourceContent:
    block: Block
    note: Block
    passages: list[Block]
    corrections: list[tuple[str, str]]
    copies: list[tuple[str, str]] = field(default_factory=list)
    #: (date, passage key or "", what changed): the source's changelog, oldest first.
    changes: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.block.id

    @property
    def modern(self) -> bool:
        return self.block.get("licence") != Licence.PUBLIC_DOMAIN

    @property
    def witness(self) -> bool:
        return self.block.get("role") == SourceRole.WITNESS


def read_sources(root: Path) -> list[SourceContent]:
    folder = root / "sources"
    files = {p.stem: p for p in sorted(folder.glob("*.txt"))} if folder.is_dir() else {}
    found: dict[str, SourceContent] = {}
    for stem, path in files.items():
        where = file_name(path, root)
        blocks = parse(path.read_text(encoding="utf-8"), where, "source")
        if not blocks or blocks[0].kind != "source":
            raise ContentError(
                where, blocks[0].line if blocks else 1, "must begin with [source id]"
            )
        head = blocks[0]
        role = head.get("role", SourceRole.RULE_SET)
        if role not in SourceRole.values:
            raise head.error(
                f"role must be one of {', '.join(SourceRole.values)}", head.line_of("role")
            )
        if role == SourceRole.RULE_SET and head.id not in catalogue.SOURCE_IDS:
            raise head.error(
                f"unknown source id {head.id!r} (the sources of the rule sets are "
                f"{', '.join(catalogue.SOURCE_IDS)}; a text that no rule set follows is a "
                "witness: give it 'role: witness')"
            )
        if role == SourceRole.WITNESS and head.id in catalogue.SOURCE_IDS:
            raise head.error(
                f"{head.id!r} is a source of the rule sets, not a witness", head.line_of("role")
            )
        if head.id != stem:
            raise head.error(f"the source {head.id!r} belongs in sources/{head.id}.txt")
        for name in ("short-title", "title", "author", "year", "link", "licence"):
            head.require(name)
        if head.get("licence") not in Licence.values:
            raise head.error(
                f"licence must be one of {', '.join(Licence.values)}", head.line_of("licence")
            )
        corrections = []
        for value, line in head.fields.get("correct", []):
            wrong, arrow, right = value.partition(" => ")
            if not arrow or not wrong:
                raise ContentError(where, line, "malformed line: write 'correct: wrong => right'")
            corrections.append((wrong, right))
        copies = []
        for value, _line in head.fields.get("copy", []):
            where, _, what = value.partition(" | ")
            copies.append((where.strip(), what.strip()))
        notes = [b for b in blocks[1:] if b.kind == "editorial-note"]
        if len(notes) != 1:
            raise head.error("needs exactly one [editorial-note] block")
        passages = [b for b in blocks[1:] if b.kind not in ("source", "editorial-note")]
        for b in blocks[1:]:
            if b.kind == "source":
                raise b.error("only one [source] block per file")
        seen: dict[str, int] = {}
        for b in passages:
            if b.id in seen:
                raise b.error(f"duplicate passage id {b.id!r} (first used on line {seen[b.id]})")
            seen[b.id] = b.line
        changes = read_changes(head, {b.id for b in passages})
        check_apparatus(head, passages, corrections)
        found[head.id] = SourceContent(head, notes[0], passages, corrections, copies, changes)
    missing = [s for s in catalogue.SOURCE_IDS if s not in found]
    if missing:
        raise ContentError(
            file_name(folder, root), 0, f"no file for the source(s) {', '.join(missing)}"
        )
    # The five in the catalogue's order, then the witnesses from the oldest.
    witnesses = sorted(
        (sc for sc in found.values() if sc.witness),
        key=lambda sc: (_first_year(sc.block.get("year")), sc.slug),
    )
    return [found[s] for s in catalogue.SOURCE_IDS] + witnesses


def read_changes(head: Block, keys: set[str]) -> list[tuple[str, str, str]]:
    """The ``change: <date> | <passage id or "all"> | <what changed>`` lines, oldest first."""
    changes = []
    last = ""
    for value, line in head.fields.get("change", []):
        parts = [part.strip() for part in value.split("|", 2)]
        if len(parts) != 3 or not all(parts):
            raise head.error(
                "malformed line: write 'change: <YYYY-MM-DD> | <passage id or all> | <what "
                "changed>'",
                line,
            )
        date, key, what = parts
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
            raise head.error(f"the change's date {date!r} must be YYYY-MM-DD", line)
        if date < last:
            raise head.error("the changes must be in order of date, oldest first", line)
        last = date
        if key != "all" and key not in keys:
            raise head.error(f"the change names an unknown passage id {key!r}", line)
        changes.append((date, "" if key == "all" else key, " ".join(what.split())))
    return changes


def check_apparatus(head: Block, passages: list[Block], corrections: list[tuple[str, str]]) -> None:
    """Each correction marked at its place (``{sic:wrong|right}``) is one of the source's
    ``correct:`` lines; a former id (``formerly:``) names no passage of the source and is given
    once."""
    keys = {b.id for b in passages}
    former: set[str] = set()
    for b in passages:
        for entry in markup.apparatus(b.body):
            if entry.kind == "sic" and (entry.reading, entry.text) not in corrections:
                raise b.error(
                    f"{{sic:{entry.reading}|{entry.text}}} is not one of the source's "
                    f"'correct:' lines (add 'correct: {entry.reading} => {entry.text}')"
                )
            if entry.kind == "var" and not (entry.siglum and entry.text):
                raise b.error("a variant needs its issue and its words: {var:1687|text|reading}")
        for key in b.listed("formerly"):
            if key in keys or key in former:
                raise b.error(f"the former id {key!r} is already in use", b.line_of("formerly"))
            former.add(key)


def _first_year(text: str) -> int:
    """The first year a ``year:`` line names (``c. 1800–1850`` → 1800), or 9999."""
    found = re.search(r"\b(1[0-9]{3})\b", text)
    return int(found.group(1)) if found else 9999


def check_passage(sc: SourceContent, b: Block) -> None:
    if b.kind == PassageKind.QUOTATION and not sc.modern:
        raise b.error("[quotation] blocks are for modern texts; give the text itself")
    if b.kind == PassageKind.GAP and markup.plain_text(b.body) == "":
        raise b.error(f"the gap {b.id!r} must say what is missing")
    if sc.modern and b.kind not in (PassageKind.QUOTATION, PassageKind.HEADING):
        raise b.error(
            f"{sc.slug} is a modern text: only [quotation] and [heading] blocks, not [{b.kind}]"
        )
    quote = b.get("quote")
    if quote and b.kind != PassageKind.QUOTATION:
        raise b.error("'quote:' belongs to [quotation] blocks", b.line_of("quote"))
    if quote and len(quote.split()) >= MAX_MODERN_QUOTE_WORDS:
        raise b.error(
            f"quotation of {len(quote.split())} words: a modern text may only be quoted in "
            f"passages of fewer than {MAX_MODERN_QUOTE_WORDS} words",
            b.line_of("quote"),
        )
    if b.kind != PassageKind.HEADING and not b.body:
        raise b.error(f"the passage {b.id!r} has no text")
    if b.get("page") and not b.get("page").isdigit():
        raise b.error("'page:' must be a page number", b.line_of("page"))
    if b.get("editorial") not in ("", "yes", "no"):
        raise b.error("'editorial:' must be yes or no", b.line_of("editorial"))
    check_rule_ids(b, b.listed("rules"), "rules")


# -- passages: labels and pages ----------------------------------------------------------------


_LABELS: list[tuple[str, str]] = [
    (r"p(\d+)", "¶{0}"),
    (r"p(\d+)-b(\d+)", "¶{0} b{1}"),
    (r"p(\d+)-([ivx]+)", "¶{0}.{1}"),
    (r"law-(\d+)", "Law {0}"),
    (r"after-law-(\d+)", "after Law {0}"),
    (r"s(\d+)", "s. {0}"),
    (r"fn-(\d+)", "note [{0}]"),
]


def passage_label(b: Block, pages: tuple[int | None, int | None]) -> str:
    """How a passage is cited, from its id unless a ``label:`` line says otherwise: ¶2,
    Law 13, s. 19, ¶11 b2; a paragraph of Peel by its pages (p. 21, pp. 21–22)."""
    if b.get("label"):
        return _fits(b, b.get("label"))
    if b.kind == PassageKind.HEADING:
        return _fits(b, markup.plain_text(b.body).rstrip("."))
    first, last = pages
    if first is not None and re.fullmatch(r"p\d+-\d+", b.id):
        return f"p. {first}" if first == last else f"pp. {first}–{last}"
    for pattern, label in _LABELS:
        if m := re.fullmatch(pattern, b.id):
            return label.format(*m.groups())
    return b.id


def _fits(b: Block, label: str) -> str:
    """A label the database can hold (PostgreSQL refuses a longer one; SQLite would not)."""
    most = Passage._meta.get_field("label").max_length
    assert most is not None
    if len(label) > most:
        raise b.error(
            f"the passage's label {label!r} is {len(label)} characters long, more than {most}: "
            "give it a shorter 'label:' line"
        )
    return label


def page_spans(sc: SourceContent) -> dict[str, tuple[int | None, int | None]]:
    """First and last page of each passage: a ``page:`` line sets the page a passage starts
    on, and each ``{page:n}`` mark inside a passage opens page n for it and what follows."""
    spans: dict[str, tuple[int | None, int | None]] = {}
    page: int | None = None
    for b in sc.passages:
        if b.get("page"):
            page = int(b.get("page"))
        first = page
        for kind, number in markup.braces(b.body):
            if kind == "page":
                page = number
        spans[b.id] = (first, page)
    return spans
