"""The glossary (``content/glossary.txt``): each term with its forms, a definition, and a
quotation of a period source found word for word in the passage it names."""

from __future__ import annotations

from pathlib import Path

from lessons import markup
from lessons.content.blocks import (
    Block,
    ContentError,
    check_markup,
    check_rule_ids,
    file_name,
    parse,
)
from lessons.content.sources import MAX_MODERN_QUOTE_WORDS, SourceContent
from lessons.models import apply_corrections


def read_glossary(root: Path) -> list[Block]:
    path = root / "glossary.txt"
    where = file_name(path, root)
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


def term_forms(terms: list[Block]) -> dict[str, str]:
    """Every word a text may use for a term (its id, and its ``forms:``) → the term's id; no
    two terms may share one."""
    forms: dict[str, str] = {}
    for b in terms:
        for form in [b.id, *(f.strip().lower() for f in b.get("forms").split(";") if f.strip())]:
            if form in forms and forms[form] != b.id:
                raise b.error(f"the form {form!r} is already used by the term {forms[form]!r}")
            forms[form] = b.id
    return forms


def check_term(
    b: Block,
    resolver: markup.Resolver,
    passages: set[tuple[str, str]],
    plains: dict[tuple[str, str], str],
    sources: list[SourceContent],
) -> None:
    check_markup(b, resolver)
    check_rule_ids(b, b.listed("rules"), "rules")
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
