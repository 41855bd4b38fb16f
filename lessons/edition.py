"""An edition's conventions on the source pages: how to cite a passage (a citation string,
Chicago and BibTeX), the apparatus (the variants of another issue and the corrections, each
marked at its place and listed below the text), and the changelog of editorial changes.

Pure presentation: it reads :class:`~lessons.models.Source` and
:class:`~lessons.models.Passage` rows and returns what the templates show. The downloads (TEI
and plain text) are in :mod:`lessons.tei`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lessons import markup
from lessons.models import Passage, PassageKind, Source

#: The words a citation gives when the source's file names no ``cite-year:``.
NO_DATE = "n.d."


@dataclass(frozen=True)
class Cite:
    """How to cite one passage: our citation string, Chicago (bibliography style, as plain
    text and with the title in <cite>) and a BibTeX entry, all with its permalink."""

    key: str
    url: str
    text: str
    chicago: str
    chicago_title: str
    chicago_rest: str
    chicago_head: str
    bibtex: str


def locator(passage: Passage) -> str:
    """Where the passage is in its source: its label, with its pages when the label is not
    them (``Law 13``, ``p. 144``, ``¶2 (p. 73)``)."""
    label = passage.label
    pages = passage.pages
    if pages and pages != label and not label.startswith(("p. ", "pp. ")):
        return f"{label} ({pages})"
    return label


def _year(source: Source) -> str:
    return source.cite_year or NO_DATE


def cite(source: Source, passage: Passage, url: str) -> Cite:
    """The citations of ``passage``, whose permalink (absolute) is ``url``."""
    where = locator(passage)
    author = source.cite_author
    title = source.title
    year = _year(source)
    edition = "Lanterloo's reading text" if not source.modern else "summarised in Lanterloo"
    lead = f"{author}, " if author else ""
    text = f"{lead}{title} ({year}), {where} [{passage.key}]. {edition}: {url}"
    head = f"{author}. " if author else ""
    publisher = source.publisher.rstrip(".")
    rest_parts = [publisher, year] if publisher else [year]
    rest = ". " + ", ".join(rest_parts) + f". {_capital(where)}"
    if source.modern:
        rest += f". {source.link}. Place {passage.key}, summarised in Lanterloo. {url}."
    else:
        rest += f". {url}."
    chicago = f"{head}{title}{rest}"
    return Cite(
        key=passage.key,
        url=url,
        text=text,
        chicago=chicago,
        chicago_title=title,
        chicago_rest=rest,
        chicago_head=head,
        bibtex=bibtex(source, passage, url),
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def bibtex(source: Source, passage: Passage, url: str) -> str:
    """A BibTeX entry for one passage: ``@book`` for a printed text, ``@misc`` for a web page."""
    year = _year(source)
    digits = re.search(r"\d{4}", year)
    key = f"{source.slug}{digits.group() if digits else ''}:{passage.key}"
    fields: list[tuple[str, str]] = []
    author = source.cite_author
    if author.endswith(", ed."):
        fields.append(("editor", author.removesuffix(", ed.")))
    elif author:
        fields.append(("author", author))
    fields.append(("title", "{" + _tex(source.title) + "}"))
    fields.append(("year", year))
    if source.publisher:
        fields.append(("publisher", source.publisher))
    if passage.page is not None:
        pages = str(passage.page)
        if passage.last_page and passage.last_page != passage.page:
            pages += f"--{passage.last_page}"
        fields.append(("pages", pages))
    note = f"{locator(passage)}, passage {passage.key}"
    if source.modern:
        note += f"; the page itself: {source.link}; summarised in Lanterloo"
    else:
        note += "; Lanterloo's reading text"
    fields.append(("note", note))
    fields.append(("url", url))
    body = ",\n".join(
        f"  {name} = {{{value if name in ('url', 'title') else _tex(value)}}}"
        for name, value in fields
    )
    kind = "misc" if source.modern else "book"
    return f"@{kind}{{{key},\n{body},\n}}"


def _tex(text: str) -> str:
    """Text safe inside a BibTeX field: TeX's special characters escaped, "…" as ``…''."""
    text = re.sub(r"([&%$#_])", r"\\\1", text)
    text = re.sub(r'"([^"]*)"', r"``\1''", text)
    return text.replace("–", "--")


# -- the apparatus -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    """One note of the apparatus: at the passage ``key``, the text's ``text``; a variant's
    ``reading`` in the issue ``siglum``, or for a correction the copy's ``reading``."""

    id: str
    key: str
    where: str
    kind: str
    text: str
    reading: str
    siglum: str

    @property
    def ref(self) -> str:
        return f"ref-{self.id}"


def apparatus(passages: list[Passage]) -> list[Note]:
    """Every variant and correction marked in the passages, in the order of the text."""
    notes = []
    for passage in passages:
        for n, entry in enumerate(markup.apparatus(passage.text), 1):
            notes.append(
                Note(
                    markup.apparatus_id(passage.key, n),
                    passage.key,
                    locator(passage),
                    entry.kind,
                    entry.text,
                    entry.reading,
                    entry.siglum,
                )
            )
    return notes


# -- the changelog -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    date: str
    key: str
    label: str
    what: str


def changelog(source: Source, passages: list[Passage]) -> list[Change]:
    """The source's editorial changes, newest first, each with the passage it names."""
    labels = {p.key: locator(p) for p in passages}
    found = [
        Change(date, key, labels.get(key, key) if key else "the whole text", what)
        for date, key, what in source.changelog
    ]
    return sorted(found, key=lambda c: c.date, reverse=True)


def citable(passage: Passage) -> bool:
    """Whether a passage gets "Cite this" and "Report an error": every passage but a heading
    and a gap (which holds no words of the text)."""
    return passage.kind not in (PassageKind.HEADING, PassageKind.GAP)
