"""The small markup that editors write in content files and in the admin.

Blocks: paragraphs are separated by blank lines; a paragraph whose every line starts with
"- " is a bulleted list. Single line breaks are spaces.

Inline:

- ``[[miss]]`` or ``[[miss|the spare hand]]``: a glossary term, found by its slug or one of
  its forms; it is a link to the term's page that htmx opens in place.
- ``[[rule:head-the-trick]]`` or ``[[rule:head-the-trick|head the trick]]``: a rule page,
  likewise opened in place.
- ``[[source:peel#p21-2|p. 21]]`` or ``[[source:peel]]``: a source, or one passage of it.
- ``[[lesson:follow-suit]]`` or ``[[lesson:follow-suit|the lesson on following suit]]``: a
  lesson of the course (/learn/<lesson>/), shown by default with the lesson's title.
- ``{page:22}``: a page of the printed book begins here.
- ``{note:28}``: the reference mark of footnote 28 (the passage ``fn-28`` of the same source).
- ``[…missing: the rest of this sentence…]``: a gap in our copy of a text, with what is
  missing said in our words. It is shown as a gap, never as words of the text: its plain text
  is ``[…]``, so that no quotation can be found in it.
- ``{corr:be|he}``: our correction of a fault of the printed text itself ("can he looed"):
  the corrected word ``be``, marked at the place as ours, with what the book prints (``he``)
  shown beside it in brackets. Its plain text is the corrected word alone.
- ``_words_``: italics (the convention of the Project Gutenberg texts).
- ``{var:1687|lood|loo'd}``: a variant of another issue at its place: the text reads
  ``lood``, the issue named ``1687`` reads ``loo'd``. Shown as the text's word with a mark
  that links to the apparatus note (:mod:`lessons.edition`).
- ``{sic:faith|saith}``: a transcription fault corrected at its place: the copy has
  ``faith``, the text shows ``saith``, with a mark that links to its note. Each must be one of
  the source's ``correct:`` lines.

Rendering is pure: the caller passes a :class:`Resolver` that knows which terms, rules,
passages and lessons exist and how to link to them. An unknown reference raises :class:`MarkupError`
with the offending text, so that the loader and the admin can say what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.html import escape

_REFERENCE = re.compile(r"\[\[([^\[\]|]+?)(?:\|([^\[\]]+?))?\]\]")
_BRACE = re.compile(r"\{(page|note):(\d+)\}")
_ITALIC = re.compile(r"_([^_\n]+)_")
_GAP = re.compile(r"\[…missing:\s*([^\[\]…]+?)\s*…\]")
#: ``{var:siglum|text|reading}`` and ``{sic:wrong|right}``: apparatus entries at their place.
_APPARATUS = re.compile(r"\{(var|sic):([^{}|]+)\|([^{}|]*)(?:\|([^{}|]*))?\}")
_CORRECTION = re.compile(r"\{corr:([^|{}]+)\|([^{}]+)\}")
_TOKEN = re.compile(
    f"{_REFERENCE.pattern}|{_BRACE.pattern}|{_GAP.pattern}|{_APPARATUS.pattern}"
    f"|{_CORRECTION.pattern}"
)
#: The plain text of a gap: no words, so a quotation cannot run across it unnoticed.
GAP_PLAIN = "[…]"


class MarkupError(ValueError):
    """A reference in editor text that points at nothing."""


@dataclass(frozen=True)
class Link:
    """Where a reference points: its URL, and whether htmx may open it in place."""

    url: str
    inline_url: str | None = None
    kind: str = "term"


@dataclass
class Resolver:
    """What exists and how to link to it; the loader and the models supply the lookups."""

    term: Callable[[str], tuple[str, Link] | None]
    rule: Callable[[str], Link | None]
    passage: Callable[[str, str], Link | None]
    #: The source whose text is rendered (for ``{note:n}``), or "".
    source: str = ""
    note_exists: Callable[[int], bool] = lambda n: False
    #: A lesson of the course by its id: its link and its title, or None.
    lesson: Callable[[str], tuple[Link, str] | None] = lambda slug: None


@dataclass
class Rendered:
    html: str
    plain: str
    #: (slug, words shown) for every glossary term marked, in order of first use.
    terms: list[tuple[str, str]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs (separated by blank lines), stripped, empty ones dropped."""
    return [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def render(
    text: str,
    resolver: Resolver,
    *,
    slot_prefix: str,
    block: bool = True,
    apparatus_prefix: str = "",
) -> Rendered:
    """HTML for editor text. ``slot_prefix`` makes the in-place slots' ids unique on a page;
    ``apparatus_prefix`` (a passage's key) names its apparatus notes (:func:`apparatus_id`).

    With ``block=False`` the text is rendered as phrasing content (no ``<p>``), for a heading
    or a one-line field.
    """
    out = Rendered(html="", plain="")
    counter = iter(range(1, 10_000))
    apparatus_counter = iter(range(1, 10_000))
    html_parts: list[str] = []
    plain_parts: list[str] = []
    for para in paragraphs(text) if block else [text.strip()]:
        lines = para.splitlines()
        if block and lines[0].startswith("- "):
            items = [
                _inline(
                    item, resolver, out, slot_prefix, counter, apparatus_counter, apparatus_prefix
                )
                for item in _list_items(lines)
            ]
            html_parts.append("<ul>" + "".join(f"<li>{h}</li>" for h, _ in items) + "</ul>")
            plain_parts.append(" ".join(p for _, p in items))
            continue
        html, plain = _inline(
            " ".join(line.strip() for line in lines),
            resolver,
            out,
            slot_prefix,
            counter,
            apparatus_counter,
            apparatus_prefix,
        )
        html_parts.append(f"<p>{html}</p>" if block else html)
        plain_parts.append(plain)
    out.html = "".join(html_parts) if not block else "\n".join(html_parts)
    out.plain = "\n\n".join(plain_parts)
    return out


def _list_items(lines: list[str]) -> list[str]:
    """The items of a list paragraph: each starts with "- "; other lines continue it."""
    items: list[str] = []
    for line in lines:
        if line.startswith("- ") or not items:
            items.append(line.removeprefix("- ").strip())
        else:
            items[-1] += " " + line.strip()
    return items


def plain_text(text: str) -> str:
    """The words of editor text without its markup (no resolver needed)."""
    parts = []
    for para in paragraphs(text):
        line = " ".join(line.strip().removeprefix("- ") for line in para.splitlines())
        line = _REFERENCE.sub(lambda m: m.group(2) or _default_words(m.group(1)), line)
        line = _BRACE.sub("", line)
        line = _APPARATUS.sub(lambda m: Entry.of(m).text, line)
        line = _CORRECTION.sub(r"\1", line)
        line = _GAP.sub(GAP_PLAIN, line)
        parts.append(" ".join(_ITALIC.sub(r"\1", line).split()))
    return "\n\n".join(parts)


def references(text: str) -> Iterator[tuple[str, str | None]]:
    """Every ``[[target|words]]`` reference in ``text``, as (target, words or None)."""
    for match in _REFERENCE.finditer(text):
        yield match.group(1).strip(), match.group(2)


def gaps(text: str) -> list[str]:
    """What each ``[…missing: …]`` gap of ``text`` says is missing, in order."""
    return [match.group(1) for match in _GAP.finditer(text)]


def braces(text: str) -> Iterator[tuple[str, int]]:
    """Every ``{page:n}`` and ``{note:n}`` mark in ``text``, as ("page"/"note", n)."""
    for match in _BRACE.finditer(text):
        yield match.group(1), int(match.group(2))


@dataclass(frozen=True)
class Entry:
    """An entry of the apparatus at its place: a variant of another issue (``var``: the text
    reads ``text``, the issue ``siglum`` reads ``reading``) or a correction (``sic``: the copy
    has ``reading``, the text shows ``text``)."""

    kind: str
    text: str
    reading: str
    siglum: str = ""

    @classmethod
    def of(cls, match: re.Match[str]) -> Entry:
        kind, first, second, third = match.group(1, 2, 3, 4)
        if kind == "var":
            return cls("var", second, third or "", first.strip())
        return cls("sic", second, first)


def apparatus(text: str) -> list[Entry]:
    """The variants and corrections marked in ``text``, in order."""
    return [Entry.of(match) for match in _APPARATUS.finditer(text)]


def apparatus_id(slot_prefix: str, n: int) -> str:
    """The id of the ``n``-th apparatus note (from 1) of a passage: ``app-p144-2-1``."""
    return f"app-{slot_prefix}-{n}"


def _default_words(target: str) -> str:
    if target.startswith("rule:"):
        return target.removeprefix("rule:").replace("-", " ")
    if target.startswith("source:"):
        return target.removeprefix("source:").split("#")[0]
    if target.startswith("lesson:"):
        return target.removeprefix("lesson:").replace("-", " ")
    return target


def _inline(
    text: str,
    resolver: Resolver,
    out: Rendered,
    slot_prefix: str,
    counter: Iterator[int],
    apparatus_counter: Iterator[int],
    apparatus_prefix: str,
) -> tuple[str, str]:
    html: list[str] = []
    plain: list[str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        before = text[position : match.start()]
        html.append(_italics(escape(before)))
        plain.append(_ITALIC.sub(r"\1", before))
        position = match.end()
        if match.group(6) is not None:  # {var:…} or {sic:…}
            entry = Entry.of(_APPARATUS.fullmatch(match.group(0)))  # type: ignore[arg-type]
            number = next(apparatus_counter)
            html.append(_apparatus_html(entry, apparatus_id(apparatus_prefix, number)))
            plain.append(entry.text)
            continue
        if match.group(10) is not None:  # {corr:right|printed}
            right, printed = escape(match.group(10)), escape(match.group(11))
            html.append(
                f'<span class="correction"><ins>{right}</ins> '
                f'<span class="sic">[printed: <q>{printed}</q>]</span></span>'
            )
            plain.append(match.group(10))
            continue
        if match.group(5) is not None:  # […missing: …]
            what = _italics(escape(match.group(5)))
            html.append(f'<span class="gap">[…<em>missing:</em> {what}…]</span>')
            plain.append(GAP_PLAIN)
            continue
        if match.group(3):  # {page:n} or {note:n}
            kind, number = match.group(3), int(match.group(4))
            if kind == "page":
                html.append(f'<span class="page-mark">[p.&nbsp;{number}]</span>')
            else:
                if not resolver.note_exists(number):
                    raise MarkupError(
                        f"{{note:{number}}} refers to a note fn-{number} that does not exist"
                    )
                html.append(
                    f'<sup class="note-mark"><a href="#fn-{number}" id="note-{number}">'
                    f"[{number}]</a></sup>"
                )
            continue
        target, words = match.group(1).strip(), match.group(2)
        link, shown = _resolve(target, words, resolver, out)
        slot = f"slot-{slot_prefix}-{next(counter)}"
        html.append(_link_html(link, escape(shown), slot))
        plain.append(shown)
    rest = text[position:]
    html.append(_italics(escape(rest)))
    plain.append(_ITALIC.sub(r"\1", rest))
    return "".join(html), " ".join("".join(plain).split())


def _resolve(target: str, words: str | None, resolver: Resolver, out: Rendered) -> tuple[Link, str]:
    if target.startswith("rule:"):
        rule_id = target.removeprefix("rule:")
        link = resolver.rule(rule_id)
        if link is None:
            raise MarkupError(f"[[{target}]]: {rule_id!r} is not a rule id in the catalogue")
        if rule_id not in out.rules:
            out.rules.append(rule_id)
        return link, (words or rule_id.replace("-", " ")).strip()
    if target.startswith("source:"):
        source, _, key = target.removeprefix("source:").partition("#")
        link = resolver.passage(source, key)
        if link is None:
            what = f"passage {source}#{key}" if key else f"source {source!r}"
            raise MarkupError(f"[[{target}]]: there is no {what}")
        return link, (words or (key or source)).strip()
    if target.startswith("lesson:"):
        slug = target.removeprefix("lesson:")
        lesson = resolver.lesson(slug)
        if lesson is None:
            raise MarkupError(f"[[{target}]]: there is no lesson {slug!r} in the course")
        link, title = lesson
        return link, (words or title).strip()
    found = resolver.term(target)
    if found is None:
        raise MarkupError(f"[[{target}]]: {target!r} is not a glossary term (nor one of its forms)")
    slug, link = found
    shown = (words or target).strip()
    if slug not in [s for s, _ in out.terms]:
        out.terms.append((slug, shown))
    return link, shown


def _apparatus_html(entry: Entry, note: str) -> str:
    """The text's words with a mark linking to the apparatus note (readable without
    JavaScript, and by a screen reader as "variant of 1687" or "corrected")."""
    if entry.kind == "var":
        mark = escape(entry.siglum)
        spoken = f"variant of {escape(entry.siglum)}"
        css = "app-mark"
    else:
        mark = "corr."
        spoken = "corrected"
        css = "app-mark app-mark--corr"
    words = _italics(escape(entry.text))
    return (
        f'<span class="app-lemma">{words}</span><sup class="{css}">'
        f'<a href="#{note}" id="ref-{note}"><span aria-hidden="true">{mark}</span>'
        f'<span class="visually-hidden">({spoken})</span></a></sup>'
    )


def _link_html(link: Link, shown: str, slot: str) -> str:
    if link.inline_url is None:
        return f'<a href="{escape(link.url)}">{shown}</a>'
    return (
        f'<a class="ref ref--{link.kind}" href="{escape(link.url)}" '
        f'hx-get="{escape(link.inline_url)}" hx-target="#{slot}" hx-swap="innerHTML" '
        f'aria-controls="{slot}" aria-expanded="false">'
        f'{shown}</a><span class="ref-slot" id="{slot}" aria-live="polite"></span>'
    )


def _italics(escaped: str) -> str:
    return _ITALIC.sub(r"<i>\1</i>", escaped)


# -- quotations ------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The words of ``text`` for comparing quotations: letters and digits only, lower case,
    so that quotation marks, stray spaces, italics and dotted mirror artefacts do not count.
    Joined words (``dealer"s`` → ``dealers``, ``ent.i.tled`` → ``entitled``) stay joined."""
    joined = re.sub(r"(?<=[^\W_])[\"'’.*_]+(?=[^\W_])", "", text)
    return [w.lower() for w in _WORD.findall(joined)]


def find_quotation(quote: str, text: str) -> list[tuple[int, int]] | None:
    """Where each part of ``quote`` (parts are separated by "…") occurs in ``text``, in order,
    as (start, end) character offsets into ``text``; None if some part is not there."""
    spans = _word_spans(text)
    tokens = _tokens(text)
    found: list[tuple[int, int]] = []
    start = 0
    for part in quote.split("…"):
        wanted = words(_without_marks(part))
        if not wanted:
            continue
        index = _find_run(tokens, wanted, start)
        if index is None:
            return None
        end = index + len(wanted) - 1
        found.append((spans[index][1], spans[end][2]))
        start = end + 1
    return found or None


def _without_marks(text: str) -> str:
    """A quotation without the page and note marks ([22], [28]) that RULES.md keeps."""
    return re.sub(r"\[\d+\]", " ", text)


@lru_cache(maxsize=64)
def _word_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """(word, start, end) for each word of ``text`` as :func:`words` sees them. Kept for the
    last texts asked about: loading the content and checking the quotations look up many
    quotations in each of the same few long texts."""
    pattern = re.compile(r"[^\W_]+(?:[\"'’.*_]+[^\W_]+)*")
    return tuple(
        (re.sub(r"[\"'’.*_]", "", match.group()).lower(), match.start(), match.end())
        for match in pattern.finditer(text)
    )


@lru_cache(maxsize=64)
def _tokens(text: str) -> list[str]:
    return [w for w, _, _ in _word_spans(text)]


def _find_run(tokens: list[str], wanted: list[str], start: int) -> int | None:
    first = wanted[0]
    for i in range(start, len(tokens) - len(wanted) + 1):
        if tokens[i] == first and tokens[i : i + len(wanted)] == wanted:
            return i
    return None
