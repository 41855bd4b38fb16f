"""The content files: their format, their validation, and loading them into the database.

``content/`` holds one file per source (``sources/<id>.txt``: the five sources of the rule
sets, and the witnesses, marked ``role: witness``), the rule explanations (``rules.txt``), the
glossary (``glossary.txt``), what the witnesses say of each rule (``witnesses.txt``) and the
timeline of the game (``timeline.txt``), all in one plain-text format that an editor can read
and diff (README: "Reading the sources")::

    # A comment.
    [paragraph p2]
    label: ¶2
    rules: ante, stake-divisible

    The full pack of fifty-two cards is used, … known as "[[miss]]." …

A block starts with a ``[kind id]`` line; ``key: value`` lines follow it directly (a long
value may go on over indented lines); after a blank line comes its body, up to the next block.
Bodies use the markup of :mod:`lessons.markup`.

:func:`read` parses and validates everything without touching the database and raises
:class:`ContentError` ("content/<file>:<line>: <problem>") at the first problem;
:meth:`Content.save` then writes it in one transaction, updating rows in place by their
natural keys (source slug, source + passage key, rule id, term slug), so that reloading keeps
every primary key and permalink. The files are the master copy: whatever an editor changed in
the admin is overwritten by the next load.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import models, transaction

from games.loo import catalogue
from games.loo.errors import LooError
from lessons import markup
from lessons.examples import worked_example
from lessons.models import (
    Citation,
    CitationOrigin,
    GlossaryTerm,
    Licence,
    Passage,
    PassageKind,
    Rule,
    Source,
    SourceRole,
    TimelineEntry,
    TimelineQuote,
    WitnessStatement,
    WitnessStatus,
    apply_corrections,
    make_resolver,
)
from lessons.signals import content_loaded

#: A modern text may be quoted only in short passages: fewer words than this.
MAX_MODERN_QUOTE_WORDS = 50

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
}
_PASSAGE_FIELDS = {"label", "page", "editorial", "rules", "quote"}
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
        # deal:, start:, options: and laws: are read by the course's loader (README,
        # "Writing lessons").
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
        },
        "check": {"rules", "kinds", "count"},
    },
}
#: The fields that a block of a kind may give more than once, by (file type, kind).
_REPEATABLE: dict[tuple[str, str], set[str]] = {
    ("source", "source"): {"correct", "copy"},
    ("witnesses", "rule"): {"quote"},
    ("timeline", "step"): {"quote"},
}
#: Passages that hold no words of the text to quote.
_UNQUOTABLE = {PassageKind.HEADING, PassageKind.GAP}


class ContentError(Exception):
    """A problem in a content file, as one line: ``content/<file>:<line>: <problem>``."""

    def __init__(self, where: str, line: int, problem: str) -> None:
        super().__init__(f"{where}:{line}: {problem}")


# -- the file format ------------------------------------------------------------------------


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


# -- what the files say ---------------------------------------------------------------------


@dataclass
class SourceContent:
    block: Block
    note: Block
    passages: list[Block]
    corrections: list[tuple[str, str]]
    copies: list[tuple[str, str]] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.block.id

    @property
    def modern(self) -> bool:
        return self.block.get("licence") != Licence.PUBLIC_DOMAIN

    @property
    def witness(self) -> bool:
        return self.block.get("role") == SourceRole.WITNESS


@dataclass
class WitnessQuote:
    """A quotation of the witnesses' catalogue or the timeline, found in its passage."""

    source: str
    key: str
    quote: str


@dataclass
class ResolvedCitation:
    rule: str
    source: str
    position: int
    locator: str
    quote: str
    primary: str
    passages: list[str]


class ContentPart(Protocol):
    """A part of ``content/`` that an app built on the reading side reads itself (the course's
    ``lessons.txt``: ``lessons.course.loader.Course``): the reading side knows nothing of it,
    and only saves it in its own transaction, after its own rows, and counts its rows."""

    def save(self, resolver: markup.Resolver) -> None: ...

    def counts(self) -> dict[str, int]: ...


@dataclass
class Content:
    """Everything in ``content/`` that the reading side reads, validated, ready to save; with
    the parts that the apps built on it read (:attr:`parts`), saved with it."""

    sources: list[SourceContent]
    rules: dict[str, Block]
    terms: list[Block]
    citations: list[ResolvedCitation]
    #: One resolver per source (its notes are its own), and "" for the rest.
    resolvers: dict[str, markup.Resolver] = field(repr=False)
    #: The folder read, and what the apps built on this one read from it (the lessons:
    #: ``manage.py loadcontent`` adds them), saved in the same transaction.
    root: Path = field(default_factory=Path)
    parts: list[ContentPart] = field(default_factory=list)
    #: What the witnesses say of the rules (``witnesses.txt``), with their quotations.
    witnesses: list[tuple[Block, list[WitnessQuote]]] = field(default_factory=list)
    #: The steps of the timeline (``timeline.txt``), with their quotations.
    timeline: list[tuple[Block, list[WitnessQuote]]] = field(default_factory=list)

    def save(self) -> dict[str, int]:
        """Write everything in one transaction; returns how many rows each model has."""
        with transaction.atomic():
            self._save_sources()
            passage_ids = self._save_passages()
            self._save_rules()
            self._save_witness_statements()
            self._save_terms(passage_ids)
            self._save_citations(passage_ids)
            self._save_timeline(passage_ids)
            for part in self.parts:
                part.save(self.resolvers[""])
        content_loaded.send(sender=type(self))
        counts = {
            "sources": Source.objects.count(),
            "passages": Passage.objects.count(),
            "rules": Rule.objects.count(),
            "glossary terms": GlossaryTerm.objects.count(),
            "citations": Citation.objects.count(),
            "witness statements": WitnessStatement.objects.count(),
            "timeline entries": TimelineEntry.objects.count(),
        }
        for part in self.parts:
            counts.update(part.counts())
        return counts

    @property
    def passage_keys(self) -> set[tuple[str, str]]:
        """(source, passage key) of every passage."""
        return {(sc.slug, b.id) for sc in self.sources for b in sc.passages}

    def display(self, path: Path) -> str:
        """How a file of the folder read is named in messages (``content/lessons.txt``)."""
        return _display(path, self.root)

    def _save_sources(self) -> None:
        rows = []
        for position, sc in enumerate(self.sources, 1):
            b = sc.block
            source = Source(
                slug=sc.slug,
                role=SourceRole.WITNESS if sc.witness else SourceRole.RULE_SET,
                position=position,
                short_title=b.get("short-title"),
                title=b.get("title"),
                author=b.get("author"),
                year=b.get("year"),
                edition=b.get("edition"),
                publisher=b.get("publisher"),
                extent=b.get("extent"),
                link=b.get("link"),
                licence=b.get("licence"),
                licence_note=b.get("licence-note"),
                completeness=b.get("completeness"),
                copies=[list(pair) for pair in sc.copies],
                about=b.body,
                editorial_note=sc.note.body,
                corrections=[list(pair) for pair in sc.corrections],
            )
            source.render(self.resolvers[sc.slug])
            rows.append(source)
        sync(Source, rows, lambda s: s.slug)

    def _save_passages(self) -> dict[tuple[str, str], int]:
        rows = []
        for sc in self.sources:
            pages = _page_spans(sc)
            for position, b in enumerate(sc.passages, 1):
                first, last = pages[b.id]
                passage = Passage(
                    source_id=sc.slug,
                    key=b.id,
                    position=position,
                    kind=b.kind,
                    label=_label(b, (first, last)),
                    page=first,
                    last_page=last,
                    editorial=b.get("editorial") == "yes" or b.kind == PassageKind.GAP,
                    text=b.body,
                    quotation=b.get("quote"),
                )
                passage.render(self.resolvers[sc.slug])
                rows.append(passage)
        sync(Passage, rows, lambda p: (p.source_id, p.key))
        return {(s, k): pk for pk, s, k in Passage.objects.values_list("pk", "source_id", "key")}

    def _save_rules(self) -> None:
        rows = []
        for position, entry in enumerate(catalogue.rules(), 1):
            b = self.rules.get(entry.id)
            rule = Rule(
                id=entry.id,
                position=position,
                group=entry.group,
                name=entry.name,
                statement=entry.statement,
                explanation=b.body if b else "",
                example_title=b.get("example-title") if b else "",
                example=json.loads(b.get("example")) if b and b.get("example") else None,
                no_example=b.get("no-example") if b else "",
            )
            rule.render(self.resolvers[""])
            rows.append(rule)
        sync(Rule, rows, lambda r: r.id)

    def _save_witness_statements(self) -> None:
        rows = []
        for position, (b, _) in enumerate(self.witnesses, 1):
            statement = WitnessStatement(
                rule_id=b.id,
                source_id=b.get("witness"),
                position=position,
                status=b.get("status"),
                says=b.get("says"),
                note=b.body,
            )
            statement.render(self.resolvers[b.get("witness")])
            rows.append(statement)
        sync(WitnessStatement, rows, lambda w: (w.rule_id, w.source_id))

    def _save_timeline(self, passage_ids: dict[tuple[str, str], int]) -> None:
        rows = []
        for position, (b, _) in enumerate(self.timeline, 1):
            entry = TimelineEntry(
                key=b.id, position=position, date=b.get("date"), title=b.get("title"), text=b.body
            )
            entry.render(self.resolvers[""])
            rows.append(entry)
        sync(TimelineEntry, rows, lambda e: e.key)
        entry_ids = dict(TimelineEntry.objects.values_list("key", "pk"))
        quotes = [
            TimelineQuote(
                entry_id=entry_ids[b.id],
                passage_id=passage_ids[(q.source, q.key)],
                position=n,
                quote=q.quote,
            )
            for b, found in self.timeline
            for n, q in enumerate(found)
        ]
        sync(TimelineQuote, quotes, lambda q: (q.entry_id, q.position))

    def _save_terms(self, passage_ids: dict[tuple[str, str], int]) -> None:
        rows = []
        for position, b in enumerate(self.terms, 1):
            source, _, key = b.get("quote-from").partition("#")
            term = GlossaryTerm(
                slug=b.id,
                position=position,
                term=b.get("term"),
                also=b.get("also"),
                forms=b.get("forms"),
                definition=b.body,
                quote_passage_id=passage_ids[(source, key)],
                quote=b.get("quote"),
                rules=b.listed("rules"),
            )
            term.render(self.resolvers[""])
            rows.append(term)
        sync(GlossaryTerm, rows, lambda t: t.slug)

    def _save_citations(self, passage_ids: dict[tuple[str, str], int]) -> None:
        rows: list[Citation] = []
        attached: set[tuple[str, int]] = set()
        for c in self.citations:
            for key in c.passages:
                passage_id = passage_ids[(c.source, key)]
                attached.add((c.rule, passage_id))
                rows.append(
                    Citation(
                        rule_id=c.rule,
                        passage_id=passage_id,
                        position=c.position,
                        origin=CitationOrigin.CATALOGUE,
                        primary=key == c.primary,
                        locator=c.locator,
                        quote=c.quote if key == c.primary else "",
                    )
                )
        labels = dict(Passage.objects.values_list("pk", "label"))
        for b, found in self.witnesses:
            for n, q in enumerate(found):
                passage_id = passage_ids[(q.source, q.key)]
                attached.add((b.id, passage_id))
                rows.append(
                    Citation(
                        rule_id=b.id,
                        passage_id=passage_id,
                        position=n,
                        origin=CitationOrigin.WITNESS,
                        primary=True,
                        locator=labels[passage_id],
                        quote=q.quote,
                    )
                )
        for sc in self.sources:
            for b in sc.passages:
                passage_id = passage_ids[(sc.slug, b.id)]
                for n, rule_id in enumerate(b.listed("rules"), 100):
                    if (rule_id, passage_id) in attached:
                        continue
                    attached.add((rule_id, passage_id))
                    rows.append(
                        Citation(
                            rule_id=rule_id,
                            passage_id=passage_id,
                            position=n,
                            origin=CitationOrigin.EDITOR,
                            primary=False,
                        )
                    )
        sync(Citation, rows, lambda c: (c.rule_id, c.passage_id, c.position))


def sync(model: type[models.Model], rows: list[Any], key: Callable[[Any], object]) -> None:
    """Make the table hold exactly ``rows``: update in place (same primary keys) by ``key``,
    insert what is new, delete what is gone."""
    editable = [
        f.attname
        for f in model._meta.concrete_fields
        if not f.primary_key and f.attname not in ("id",)
    ]
    existing = {key(obj): obj for obj in model._default_manager.all()}
    create, update = [], []
    for row in rows:
        old = existing.pop(key(row), None)
        if old is None:
            create.append(row)
            continue
        changed = [name for name in editable if getattr(old, name) != getattr(row, name)]
        if changed:
            for name in editable:
                setattr(old, name, getattr(row, name))
            update.append(old)
    if existing:
        model._default_manager.filter(pk__in=[obj.pk for obj in existing.values()]).delete()
    if update:
        model._default_manager.bulk_update(update, editable, batch_size=200)
    if create:
        model._default_manager.bulk_create(create, batch_size=200)


# -- reading and validating -------------------------------------------------------------------


def default_path() -> Path:
    return Path(settings.BASE_DIR) / "content"


def read(path: Path | None = None) -> Content:
    """Parse and validate ``content/``; raises ContentError at the first problem."""
    root = Path(path) if path is not None else default_path()
    if not root.is_dir():
        raise ContentError(str(root), 0, "no such directory")
    sources = _read_sources(root)
    rules = _read_rules(root)
    terms = _read_glossary(root)

    forms: dict[str, str] = {}
    for b in terms:
        for form in [b.id, *(f.strip().lower() for f in b.get("forms").split(";") if f.strip())]:
            if form in forms and forms[form] != b.id:
                raise b.error(f"the form {form!r} is already used by the term {forms[form]!r}")
            forms[form] = b.id
    passage_keys = {(sc.slug, b.id) for sc in sources for b in sc.passages}
    source_ids = {sc.slug for sc in sources}
    lessons = _lesson_titles(root)
    resolvers = {
        slug: make_resolver(forms, catalogue.rule_ids(), passage_keys, source_ids, slug, lessons)
        for slug in ["", *source_ids]
    }

    plains: dict[tuple[str, str], str] = {}
    for sc in sources:
        check_markup(sc.block, resolvers[sc.slug])
        check_markup(sc.note, resolvers[sc.slug])
        for b in sc.passages:
            _check_passage(sc, b)
            rendered = check_markup(b, resolvers[sc.slug], block=b.kind != PassageKind.HEADING)
            plains[(sc.slug, b.id)] = " ".join(filter(None, [b.get("quote"), rendered.plain]))
    for b in rules.values():
        check_markup(b, resolvers[""])
    for b in terms:
        _check_term(b, resolvers[""], passage_keys, plains, sources)

    citations = list(_resolve_citations(sources, plains))
    witnesses = _read_witnesses(root, sources, plains, resolvers)
    timeline = _read_timeline(root, sources, plains, resolvers[""])
    return Content(
        sources,
        rules,
        terms,
        citations,
        resolvers,
        witnesses=witnesses,
        timeline=timeline,
        root=root,
    )


def _lesson_titles(root: Path) -> dict[str, str]:
    """The lessons of ``lessons.txt`` (id → title), read first so that every file may link
    one with ``[[lesson:id]]``; the course itself is read and checked by the course's loader."""
    path = root / "lessons.txt"
    if not path.is_file():
        return {}
    blocks = parse(path.read_text(encoding="utf-8"), _display(path, root), "lessons")
    return {b.id: b.get("title") or b.id for b in blocks if b.kind == "lesson"}


def _display(path: Path, root: Path) -> str:
    """How a file is named in messages: from the content folder's name down, as
    ``content/sources/peel.txt``, wherever the folder is."""
    return str(Path(root.name) / path.relative_to(root))


def _read_sources(root: Path) -> list[SourceContent]:
    folder = root / "sources"
    files = {p.stem: p for p in sorted(folder.glob("*.txt"))} if folder.is_dir() else {}
    found: dict[str, SourceContent] = {}
    for stem, path in files.items():
        where = _display(path, root)
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
        found[head.id] = SourceContent(head, notes[0], passages, corrections, copies)
    missing = [s for s in catalogue.SOURCE_IDS if s not in found]
    if missing:
        raise ContentError(
            _display(folder, root), 0, f"no file for the source(s) {', '.join(missing)}"
        )
    # The five in the catalogue's order, then the witnesses from the oldest.
    witnesses = sorted(
        (sc for sc in found.values() if sc.witness),
        key=lambda sc: (_first_year(sc.block.get("year")), sc.slug),
    )
    return [found[s] for s in catalogue.SOURCE_IDS] + witnesses


def _first_year(text: str) -> int:
    """The first year a ``year:`` line names (``c. 1800–1850`` → 1800), or 9999."""
    found = re.search(r"\b(1[0-9]{3})\b", text)
    return int(found.group(1)) if found else 9999


def _read_rules(root: Path) -> dict[str, Block]:
    path = root / "rules.txt"
    where = _display(path, root)
    if not path.is_file():
        raise ContentError(where, 0, "missing file")
    rules: dict[str, Block] = {}
    for b in parse(path.read_text(encoding="utf-8"), where, "rules"):
        if b.id not in catalogue.rule_ids():
            raise b.error(f"unknown rule id {b.id!r}: it is not in the engine's rule catalogue")
        if b.id in rules:
            raise b.error(f"the rule {b.id!r} has a block already, on line {rules[b.id].line}")
        rules[b.id] = b
        _check_example(b)
    return rules


def _check_example(b: Block) -> None:
    """A rule has a worked example that the engine can work out, or says why it has none."""
    if b.get("example") and b.get("no-example"):
        raise b.error("give either 'example:' or 'no-example:', not both", b.line_of("no-example"))
    if not b.get("example"):
        if not b.get("no-example"):
            raise b.error(
                f"the rule {b.id!r} needs an 'example:' line, or a 'no-example:' line saying "
                "why it cannot have one"
            )
        return
    line = b.line_of("example")
    try:
        data = json.loads(b.get("example"))
    except json.JSONDecodeError as error:
        # The value may go on over several lines: point at the line of the fault.
        raise b.error(
            f"the example is not valid JSON: {error.msg}", line + error.lineno - 1
        ) from None
    try:
        worked_example(data)
    except (LooError, KeyError, TypeError, ValueError) as error:
        raise b.error(f"impossible example: {error}", line) from None


def _read_glossary(root: Path) -> list[Block]:
    path = root / "glossary.txt"
    where = _display(path, root)
    if not path.is_file():
        raise ContentError(where, 0, "missing file")
    terms: list[Block] = []
    seen: dict[str, int] = {}
    for b in parse(path.read_text(encoding="utf-8"), where, "glossary"):
        if b.id in seen:
            raise b.error(f"duplicate glossary term {b.id!r} (first used on line {seen[b.id]})")
        seen[b.id] = b.line
        for name in ("term", "quote-from", "quote"):
            b.require(name)
        if not b.body:
            raise b.error(f"the term {b.id!r} needs a definition (its body)")
        terms.append(b)
    return terms


def _check_passage(sc: SourceContent, b: Block) -> None:
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
    _check_rule_ids(b, b.listed("rules"), "rules")


def _check_rule_ids(b: Block, ids: Iterable[str], field_name: str) -> None:
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


def _check_term(
    b: Block,
    resolver: markup.Resolver,
    passages: set[tuple[str, str]],
    plains: dict[tuple[str, str], str],
    sources: list[SourceContent],
) -> None:
    check_markup(b, resolver)
    _check_rule_ids(b, b.listed("rules"), "rules")
    line = b.line_of("quote-from")
    source, hash_, key = b.get("quote-from").partition("#")
    if source not in {sc.slug for sc in sources}:
        raise b.error(f"unknown source id {source!r} in 'quote-from:'", line)
    if not hash_ or (source, key) not in passages:
        raise b.error(f"unknown passage id {key!r} of {source} in 'quote-from:'", line)
    corrections = next(sc.corrections for sc in sources if sc.slug == source)
    quote = apply_corrections(b.get("quote"), corrections)
    if markup.find_quotation(quote, plains[(source, key)]) is None:
        raise b.error(f"the quotation is not in {source}#{key}", b.line_of("quote"))
    modern = next(sc.modern for sc in sources if sc.slug == source)
    if modern and len(quote.split()) >= MAX_MODERN_QUOTE_WORDS:
        raise b.error(
            f"quotation of {len(quote.split())} words: a modern text may only be quoted in "
            f"passages of fewer than {MAX_MODERN_QUOTE_WORDS} words",
            b.line_of("quote"),
        )


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


def _label(b: Block, pages: tuple[int | None, int | None]) -> str:
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


def _page_spans(sc: SourceContent) -> dict[str, tuple[int | None, int | None]]:
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


# -- the catalogue's citations -----------------------------------------------------------------

_LOCATOR = re.compile(
    r"after Law (?P<after>\d+)"
    r"|¶\s?(?P<para>\d+)(?:\s?b(?P<bullet>\d+))?"
    r"|\bLaws? (?P<law>\d+)(?:[–-](?P<law2>\d+))?"
    r"|\bs\. (?P<s>\d+)(?:[–-](?P<s2>\d+))?"
    r"|\bp\. (?P<page>\d+)(?:[–-](?P<page2>\d+))?"
    r"|\b(?P<game>[35]c):(?P<heading>Optional rules|[A-Z][A-Za-z-]*)(?P<fn> fn)?"
    r"|\b(?P<intro>intro)\b"
)


def locator_places(locator: str) -> tuple[list[str], list[int]]:
    """The passage keys and the pages a catalogue locator names.

    ``"Laws 9–11"`` → law-9, law-10, law-11; ``"s. 44; repeated s. 52"`` → s44, s52;
    ``"¶11 b2"`` → p11-b2; ``"3c:Optional rules"`` → 3c-optional-rules; ``"p. 19–20"`` →
    pages 19 and 20 (peel's passages are found by page).
    """
    keys: list[str] = []
    pages: list[int] = []
    for m in _LOCATOR.finditer(locator):
        if m["after"]:
            keys.append(f"after-law-{m['after']}")
        elif m["para"]:
            keys.append(f"p{m['para']}" + (f"-b{m['bullet']}" if m["bullet"] else ""))
        elif m["law"]:
            keys += [f"law-{n}" for n in _span(m["law"], m["law2"])]
        elif m["s"]:
            keys += [f"s{n}" for n in _span(m["s"], m["s2"])]
        elif m["page"]:
            pages += list(_span(m["page"], m["page2"]))
        elif m["game"]:
            heading = m["heading"].lower().replace(" ", "-")
            keys.append(f"{m['game']}-{heading}" + ("-fn" if m["fn"] else ""))
        elif m["intro"]:
            keys.append("intro")
    return keys, pages


def _span(first: str, last: str | None) -> range:
    return range(int(first), int(last or first) + 1)


def _resolve_citations(
    sources: list[SourceContent], plains: dict[tuple[str, str], str]
) -> Iterator[ResolvedCitation]:
    by_slug = {sc.slug: sc for sc in sources}
    for entry in catalogue.rules():
        for statement in entry.sources:
            sc = by_slug[statement.source]
            resolved = [
                _resolve(sc, entry.id, position, citation, plains)
                for position, citation in enumerate(statement.citations)
            ]
            yield from resolved
            if statement.silent or (resolved and not sc.modern):
                continue
            # Stated without a quotation ("3 chips (¶4) and 5 chips (¶14)"), or, for a modern
            # page, partly in our words: link the passages its locators name.
            cited = {key for c in resolved for key in c.passages}
            named = dict.fromkeys(
                k for k in locator_places(statement.text)[0] if (sc.slug, k) in plains
            )
            keys = [k for k in named if k not in cited]
            if keys:
                yield ResolvedCitation(entry.id, sc.slug, len(resolved), "", "", keys[0], keys)


def _resolve(
    sc: SourceContent,
    rule_id: str,
    position: int,
    citation: catalogue.Citation,
    plains: dict[tuple[str, str], str],
) -> ResolvedCitation:
    keys, pages = locator_places(citation.locator)
    order = [b.id for b in sc.passages]
    what = f"the catalogue cites {sc.slug} {citation.locator or '(no locator)'} for {rule_id!r}"
    if pages:
        spans = _page_spans(sc)
        wanted = set(pages)
        keys = [k for k in order if _overlaps(spans[k], wanted)]
        explicit = False
    elif keys:
        missing = [k for k in keys if k not in order]
        if missing:
            raise sc.block.error(f"{what}, but there is no passage {missing[0]!r}")
        explicit = True
    elif citation.locator:
        raise sc.block.error(f"{what}: cannot read the locator")
    else:
        keys, explicit = order, False

    quote = apply_corrections(citation.quote, sc.corrections)
    if sc.modern:
        return _resolve_modern(sc, rule_id, position, citation, keys, explicit, quote, what)

    text, offsets = "", []
    for key in keys:
        offsets.append((len(text), key))
        text += plains[(sc.slug, key)] + "\n"
    spans = markup.find_quotation(quote, text)
    if spans is None:
        raise sc.block.error(f"{what}, but the quotation {citation.quote!r} is not there")
    touched = []
    for start, end in spans:
        for i, (offset, key) in enumerate(offsets):
            after = offsets[i + 1][0] if i + 1 < len(offsets) else len(text)
            if start < after and end > offset and key not in touched:
                touched.append(key)
    shown = " … ".join(" ".join(text[s:e].split()) for s, e in _with_marks(spans, text, quote))
    return ResolvedCitation(
        rule_id,
        sc.slug,
        position,
        citation.locator,
        shown,
        touched[0],
        keys if explicit else touched,
    )


def _with_marks(spans: list[tuple[int, int]], text: str, quote: str) -> list[tuple[int, int]]:
    """The spans of a quotation widened to the quotation marks and the stop that its words
    leave out: ``stated as "trump after trick."``, not ``stated as "trump after trick``."""
    widened = []
    for n, (first, last) in enumerate(spans):
        stop = quote.rstrip()[-1:]
        if n == len(spans) - 1 and stop in ".,;:!?" and text[last : last + 1] == stop:
            last += 1
        if sum(text[first:last].count(mark) for mark in '"“”') % 2:
            if text[last : last + 1] in '"”':
                last += 1
            elif text[last : last + 1] in ".,;:!?" and text[last + 1 : last + 2] in '"”':
                last += 2
            elif first and text[first - 1] in '"“':
                first -= 1
        widened.append((first, last))
    return widened


def _resolve_modern(
    sc: SourceContent,
    rule_id: str,
    position: int,
    citation: catalogue.Citation,
    keys: list[str],
    explicit: bool,
    quote: str,
    what: str,
) -> ResolvedCitation:
    """A modern text is not in the files, only places in it: the locator names the place.
    Without a locator, the place is the one whose quotation (or rules: line) has it."""
    blocks = {b.id: b for b in sc.passages}
    if not explicit:
        keys = [
            k
            for k in keys
            if markup.find_quotation(quote, blocks[k].get("quote"))
            or rule_id in blocks[k].listed("rules")
        ][:1]
        if not keys:
            raise sc.block.error(f"{what}, but no passage quotes {citation.quote!r}")
    return ResolvedCitation(
        rule_id, sc.slug, position, citation.locator, citation.quote, keys[0], keys
    )


def _overlaps(span: tuple[int | None, int | None], pages: set[int]) -> bool:
    first, last = span
    if first is None:
        return False
    return any(first <= page <= (last or first) for page in pages)


# -- the witnesses' catalogue and the timeline --------------------------------------------------


def _read_witnesses(
    root: Path,
    sources: list[SourceContent],
    plains: dict[tuple[str, str], str],
    resolvers: dict[str, markup.Resolver],
) -> list[tuple[Block, list[WitnessQuote]]]:
    """``witnesses.txt``: for a rule a witness speaks to, its status, a few words for the
    tables, its quotations (each ``<passage id>: <words>``, found word for word in that
    passage of the witness) and our note."""
    path = root / "witnesses.txt"
    if not path.is_file():
        return []
    where = _display(path, root)
    witnesses = {sc.slug: sc for sc in sources if sc.witness}
    seen: dict[tuple[str, str], int] = {}
    found = []
    for b in parse(path.read_text(encoding="utf-8"), where, "witnesses"):
        if b.id not in catalogue.rule_ids():
            raise b.error(f"unknown rule id {b.id!r}: it is not in the engine's rule catalogue")
        witness = b.require("witness")
        if witness not in witnesses:
            known = ", ".join(witnesses) or "none"
            raise b.error(
                f"unknown witness {witness!r} (the witnesses are {known}; the five sources of the "
                "rule sets are in the rule catalogue)",
                b.line_of("witness"),
            )
        if (b.id, witness) in seen:
            raise b.error(
                f"{witness} on {b.id!r} has a block already, on line {seen[(b.id, witness)]}"
            )
        seen[(b.id, witness)] = b.line
        status = b.require("status")
        if status not in WitnessStatus.values:
            raise b.error(
                f"status must be one of {', '.join(WitnessStatus.values)} (a witness that says "
                "nothing of a rule has no block)",
                b.line_of("status"),
            )
        if len(b.get("says")) > 200:
            raise b.error("'says:' is for a few words (at most 200 characters)", b.line_of("says"))
        quotes = b.fields.get("quote", [])
        if not quotes:
            raise b.error(f"{witness} on {b.id!r} needs a 'quote:' line: its own words")
        found_quotes = []
        for value, line in quotes:
            key, colon, words = value.partition(": ")
            found_quotes.append(
                _find_quote(b, line, witnesses[witness], key.strip(), words, plains, bool(colon))
            )
        check_markup(b, resolvers[witness])
        found.append((b, found_quotes))
    return found


def _read_timeline(
    root: Path,
    sources: list[SourceContent],
    plains: dict[tuple[str, str], str],
    resolver: markup.Resolver,
) -> list[tuple[Block, list[WitnessQuote]]]:
    """``timeline.txt``: the steps of the history of the game, each with a date, a title,
    our account and its quotations (each ``<source>#<passage id>: <words>``, found word for
    word in that passage)."""
    path = root / "timeline.txt"
    if not path.is_file():
        return []
    where = _display(path, root)
    by_slug = {sc.slug: sc for sc in sources}
    seen: dict[str, int] = {}
    found = []
    for b in parse(path.read_text(encoding="utf-8"), where, "timeline"):
        if b.id in seen:
            raise b.error(f"duplicate step {b.id!r} (first used on line {seen[b.id]})")
        seen[b.id] = b.line
        b.require("date")
        b.require("title")
        if not b.body:
            raise b.error(f"the step {b.id!r} needs our account of it (its body)")
        quotes = b.fields.get("quote", [])
        if not quotes:
            raise b.error(f"the step {b.id!r} needs a 'quote:' line: the words it rests on")
        found_quotes = []
        for value, line in quotes:
            ref, colon, words = value.partition(": ")
            source, hash_, key = ref.strip().partition("#")
            if source not in by_slug:
                raise ContentError(where, line, f"unknown source id {source!r} in 'quote:'")
            if not hash_:
                raise ContentError(where, line, "write 'quote: <source>#<passage id>: <words>'")
            found_quotes.append(
                _find_quote(b, line, by_slug[source], key, words, plains, bool(colon))
            )
        check_markup(b, resolver)
        found.append((b, found_quotes))
    return found


def _find_quote(
    b: Block,
    line: int,
    sc: SourceContent,
    key: str,
    words: str,
    plains: dict[tuple[str, str], str],
    well_formed: bool,
) -> WitnessQuote:
    """A quotation of a passage, checked word for word (after the source's corrections), as
    the passage has it."""
    if not well_formed or not words.strip():
        raise ContentError(b.file, line, "write 'quote: <passage id>: <words of the passage>'")
    blocks = {p.id: p for p in sc.passages}
    if key not in blocks:
        raise ContentError(b.file, line, f"unknown passage id {key!r} of {sc.slug} in 'quote:'")
    if blocks[key].kind in _UNQUOTABLE:
        raise ContentError(
            b.file, line, f"{sc.slug}#{key} is a {blocks[key].kind}: it has no words to quote"
        )
    text = plains[(sc.slug, key)]
    quote = apply_corrections(words.strip(), sc.corrections)
    spans = markup.find_quotation(quote, text)
    if spans is None:
        raise ContentError(b.file, line, f"the quotation is not in {sc.slug}#{key}")
    spans = _with_ends(spans, text, quote)
    shown = " … ".join(" ".join(text[s:e].split()) for s, e in _with_marks(spans, text, quote))
    return WitnessQuote(sc.slug, key, shown)


def _with_ends(spans: list[tuple[int, int]], text: str, quote: str) -> list[tuple[int, int]]:
    """The spans of a quotation widened to the marks that begin and end the quotation as
    written, where the passage has them too: ``(that is, win never a trick).``, not
    ``(that is, win never a trick``."""
    first, last = spans[0][0], spans[-1][1]
    head = re.match(r"[^\w\s…]*", quote.strip())
    tail = re.search(r"[^\w\s…]*$", quote.strip())
    start = first - len(head.group()) if head else first
    if head and head.group() and start >= 0 and text[start:first] == head.group():
        first -= len(head.group())
    if tail and tail.group() and text[last : last + len(tail.group())] == tail.group():
        last += len(tail.group())
    return (
        [(first, spans[0][1]), *spans[1:-1], (spans[-1][0], last)]
        if len(spans) > 1
        else [(first, last)]
    )
