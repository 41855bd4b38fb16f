"""What the witnesses say of the rules (``content/witnesses.txt``) and the timeline of the
game (``content/timeline.txt``): each with its quotations, found word for word in the passages
they name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from games.loo import catalogue
from lessons import markup
from lessons.content.blocks import Block, ContentError, check_markup, file_name, parse
from lessons.content.citations import with_marks
from lessons.content.sources import SourceContent
from lessons.models import PassageKind, WitnessStatus, apply_corrections

#: Passages that hold no words of the text to quote.
_UNQUOTABLE = {PassageKind.HEADING, PassageKind.GAP}


@dataclass
class WitnessQuote:
    """A quotation of the witnesses' catalogue or the timeline, found in its passage."""

    source: str
    key: str
    quote: str


def read_witnesses(
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
    where = file_name(path, root)
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


def read_timeline(
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
    where = file_name(path, root)
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
    shown = " … ".join(" ".join(text[s:e].split()) for s, e in with_marks(spans, text, quote))
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
