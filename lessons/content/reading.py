"""Reading ``content/``: every file parsed and checked, in the order their links need, into a
:class:`~lessons.content.saving.Content` ready to save."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games.loo import catalogue
from lessons.content.blocks import ContentError, check_markup, file_name, parse
from lessons.content.citations import resolve_citations
from lessons.content.glossary import check_term, read_glossary, term_forms
from lessons.content.rules import read_rules
from lessons.content.saving import Content
from lessons.content.sources import check_passage, read_sources
from lessons.content.witnesses import read_timeline, read_witnesses
from lessons.links import make_resolver
from lessons.models import PassageKind


def default_path() -> Path:
    return Path(settings.BASE_DIR) / "content"


def read(path: Path | None = None) -> Content:
    """Parse and validate ``content/``; raises ContentError at the first problem."""
    root = Path(path) if path is not None else default_path()
    if not root.is_dir():
        raise ContentError(str(root), 0, "no such directory")
    sources = read_sources(root)
    rules = read_rules(root)
    terms = read_glossary(root)
    forms = term_forms(terms)
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
            check_passage(sc, b)
            rendered = check_markup(b, resolvers[sc.slug], block=b.kind != PassageKind.HEADING)
            plains[(sc.slug, b.id)] = " ".join(filter(None, [b.get("quote"), rendered.plain]))
    for b in rules.values():
        check_markup(b, resolvers[""])
    for b in terms:
        check_term(b, resolvers[""], passage_keys, plains, sources)

    citations = list(resolve_citations(sources, plains))
    witnesses = read_witnesses(root, sources, plains, resolvers)
    timeline = read_timeline(root, sources, plains, resolvers[""])
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
    blocks = parse(path.read_text(encoding="utf-8"), file_name(path, root), "lessons")
    return {b.id: b.get("title") or b.id for b in blocks if b.kind == "lesson"}
