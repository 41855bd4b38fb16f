"""Saving what was read: :class:`Content` writes everything in one transaction, updating rows
in place by their natural keys (:func:`sync`), with the parts that the apps built on the reading
side read (:class:`ContentPart`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.db import models, transaction

from games.loo import catalogue
from lessons import markup
from lessons.content.blocks import Block, file_name
from lessons.content.citations import ResolvedCitation
from lessons.content.sources import SourceContent, page_spans, passage_label
from lessons.content.witnesses import WitnessQuote
from lessons.models import (
    Citation,
    CitationOrigin,
    GlossaryTerm,
    Passage,
    PassageKind,
    Rule,
    Source,
    SourceRole,
    TimelineEntry,
    TimelineQuote,
    WitnessStatement,
)
from lessons.signals import content_loaded


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
        return file_name(path, self.root)

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
                cite_author=b.get("cite-author"),
                cite_year=b.get("cite-year"),
                changelog=[list(change) for change in sc.changes],
            )
            source.render(self.resolvers[sc.slug])
            rows.append(source)
        sync(Source, rows, lambda s: s.slug)

    def _save_passages(self) -> dict[tuple[str, str], int]:
        rows = []
        for sc in self.sources:
            pages = page_spans(sc)
            for position, b in enumerate(sc.passages, 1):
                first, last = pages[b.id]
                passage = Passage(
                    source_id=sc.slug,
                    key=b.id,
                    position=position,
                    kind=b.kind,
                    label=passage_label(b, (first, last)),
                    page=first,
                    last_page=last,
                    editorial=b.get("editorial") == "yes" or b.kind == PassageKind.GAP,
                    text=b.body,
                    quotation=b.get("quote"),
                    former_keys=b.listed("formerly"),
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
