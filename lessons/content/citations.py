"""The rule catalogue's citations (``games.loo.catalogue``), found in the sources' passages:
each locator read (``Laws 9–11``, ``¶11 b2``, ``p. 19–20``) and each quotation found word for
word, as the passage has it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from games.loo import catalogue
from lessons import markup
from lessons.content.sources import SourceContent, page_spans
from lessons.models import apply_corrections


@dataclass
class ResolvedCitation:
    rule: str
    source: str
    position: int
    locator: str
    quote: str
    primary: str
    passages: list[str]


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


def resolve_citations(
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
        spans = page_spans(sc)
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
    shown = " … ".join(" ".join(text[s:e].split()) for s, e in with_marks(spans, text, quote))
    return ResolvedCitation(
        rule_id,
        sc.slug,
        position,
        citation.locator,
        shown,
        touched[0],
        keys if explicit else touched,
    )


def with_marks(spans: list[tuple[int, int]], text: str, quote: str) -> list[tuple[int, int]]:
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
