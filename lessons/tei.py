"""The downloads of a public-domain source: TEI P5 XML and plain text.

Both are made from the passages as loaded (their content markup, :mod:`lessons.markup`):
the book's page breaks become ``<pb/>``, a gap in our copy ``<gap>`` (with what is missing, in
our words, as its ``<desc>``; a letter the keyers could not read, "[•]", an illegible gap),
a correction marked at its place ``<choice><sic>…</sic><corr>…</corr></choice>``, a variant
of another issue ``<app><lem>…</lem><rdg wit="#…">…</rdg></app>``, a footnote ``<note>``;
each passage carries its permalink's id as ``xml:id``. The header gives the source's record,
its licence, the editorial note and the changelog (``<revisionDesc>``). A modern text is not
offered: the site holds only our summaries of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from lessons import markup
from lessons.edition import changelog, locator
from lessons.models import Passage, PassageKind, Source

TEI_NS = "http://www.tei-c.org/ns/1.0"
CC0 = "https://creativecommons.org/publicdomain/zero/1.0/"
ILLEGIBLE = "[•]"

_TOKEN = re.compile(
    r"\[\[(?P<target>[^\[\]|]+?)(?:\|(?P<words>[^\[\]]+?))?\]\]"
    r"|\{(?P<brace>page|note):(?P<number>\d+)\}"
    r"|\[…missing:\s*(?P<gap>[^\[\]…]+?)\s*…\]"
    r"|\{(?P<app>var|sic):(?P<a>[^{}|]+)\|(?P<b>[^{}|]*)(?:\|(?P<c>[^{}|]*))?\}"
    r"|\{corr:(?P<right>[^|{}]+)\|(?P<printed>[^{}]+)\}"
)
_ITALIC = re.compile(r"_([^_\n]+)_")


def siglum_id(siglum: str) -> str:
    """The xml:id of an issue's ``<witness>``: ``w1687``."""
    return "w" + re.sub(r"[^A-Za-z0-9]", "", siglum)


def _words(target: str, words: str | None) -> str:
    if words:
        return words.strip()
    for prefix in ("rule:", "lesson:"):
        if target.startswith(prefix):
            return target.removeprefix(prefix).replace("-", " ")
    if target.startswith("source:"):
        return target.removeprefix("source:").split("#")[0]
    return target.strip()


def _plain_xml(text: str) -> str:
    """Words of the text as XML: escaped, italics as <hi>, an illegible letter as <gap>."""
    parts = escape(text).split(ILLEGIBLE)
    gap = '<gap reason="illegible" quantity="1" unit="chars"/>'
    return gap.join(_ITALIC.sub(r'<hi rend="italic">\1</hi>', part) for part in parts)


def inline_xml(text: str) -> str:
    """One passage's content markup as TEI (phrase level)."""
    text = " ".join(text.split())
    out: list[str] = []
    position = 0
    for m in _TOKEN.finditer(text):
        out.append(_plain_xml(text[position : m.start()]))
        position = m.end()
        if m.group("target"):
            out.append(_plain_xml(_words(m.group("target"), m.group("words"))))
        elif m.group("brace") == "page":
            out.append(f'<pb n="{m.group("number")}"/>')
        elif m.group("brace") == "note":
            n = m.group("number")
            out.append(f'<ref target="#fn-{n}">[{n}]</ref>')
        elif m.group("gap"):
            out.append(f'<gap reason="lost"><desc>{escape(m.group("gap"))}</desc></gap>')
        elif m.group("right"):  # the book's own fault, corrected by us ({corr:…})
            right, printed = m.group("right"), m.group("printed")
            out.append(
                f"<choice><sic>{_plain_xml(printed)}</sic><corr>{_plain_xml(right)}</corr></choice>"
            )
        elif m.group("app") == "var":
            siglum, lemma, reading = m.group("a").strip(), m.group("b"), m.group("c") or ""
            out.append(
                f"<app><lem>{_plain_xml(lemma)}</lem>"
                f'<rdg wit="#{siglum_id(siglum)}">{_plain_xml(reading)}</rdg></app>'
            )
        else:
            wrong, right = m.group("a"), m.group("b")
            out.append(
                f"<choice><sic>{_plain_xml(wrong)}</sic><corr>{_plain_xml(right)}</corr></choice>"
            )
    out.append(_plain_xml(text[position:]))
    return "".join(out)


def _sigla(passages: Iterable[Passage]) -> list[str]:
    found: list[str] = []
    for p in passages:
        for entry in markup.apparatus(p.text):
            if entry.kind == "var" and entry.siglum not in found:
                found.append(entry.siglum)
    return found


def _paragraphs(text: str, tag: str, key: str = "", n: str = "") -> str:
    """A passage's body: one element per paragraph of its text. The first carries the
    passage's id; the others ``<key>.<n>``, each linked to the one before (``prev``)."""
    paras = markup.paragraphs(text) or [""]
    out = []
    for i, para in enumerate(paras):
        attrs = ""
        if key and i == 0:
            attrs = f' xml:id="{key}" n={quoteattr(n)}'
        elif key:
            before = key if i == 1 else f"{key}.{i}"
            attrs = f' xml:id="{key}.{i + 1}" prev="#{before}"'
        out.append(f"<{tag}{attrs}>{inline_xml(para)}</{tag}>")
    return "".join(out)


def tei_document(source: Source, passages: list[Passage], permalink: str) -> str:
    """The TEI P5 document of a public-domain source; ``permalink`` is its page's address."""
    header = _header(source, passages, permalink)
    body: list[str] = []
    notes: list[str] = []
    page: int | None = None
    started = False  # whether the chapter has text yet: a heading after it opens a section
    section = False
    for p in passages:
        if p.page is not None and p.page != page and p.kind != PassageKind.FOOTNOTE:
            body.append(f'<pb n="{p.page}"/>')
        if p.kind != PassageKind.FOOTNOTE and p.last_page is not None:
            page = p.last_page
        ident = f' xml:id="{p.key}" n={quoteattr(locator(p))}'
        if p.kind == PassageKind.HEADING:
            kind = ' type="editorial"' if p.editorial else ""
            if started:
                body.append("</div>" if section else "")
                body.append('<div type="section">')
                section, started = True, False
            body.append(f"<head{ident}{kind}>{inline_xml(p.text)}</head>")
            continue
        if p.kind == PassageKind.FOOTNOTE:
            notes.append(f'<note{ident} place="foot">{_paragraphs(p.text, "p")}</note>')
            continue
        started = True
        if p.kind == PassageKind.DERIVED:
            body.append(
                f'<div type="derived"><note type="editorial">A later writer\'s words, derived '
                f"from the source: not the source's own.</note>"
                f"{_paragraphs(p.text, 'p', p.key, locator(p))}"
                "</div>"
            )
        elif p.kind == PassageKind.SENTENCE:
            body.append(f'<ab type="sentence"{ident}>{inline_xml(p.text)}</ab>')
        else:
            body.append(_paragraphs(p.text, "p", p.key, locator(p)))
    if section:
        body.append("</div>")
    back = f'<back><div type="notes">{"".join(notes)}</div></back>' if notes else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<TEI xmlns="{TEI_NS}" xml:lang="en">{header}'
        f'<text><body><div type="chapter">{"".join(body)}</div></body>{back}</text></TEI>\n'
    )


def _target(key: str) -> str:
    return f' target="#{key}"' if key else ""


def _header(source: Source, passages: list[Passage], permalink: str) -> str:
    e = escape
    note = "".join(
        f"<p>{e(para)}</p>" for para in markup.paragraphs(markup.plain_text(source.editorial_note))
    )
    corrections = "".join(
        f"<item><sic>{e(wrong)}</sic> → <corr>{e(right)}</corr></item>"
        for wrong, right in source.corrections
    )
    if corrections:
        note += f"<p>Transcription faults corrected: <list>{corrections}</list></p>"
    witnesses = "".join(
        f'<witness xml:id="{siglum_id(s)}">The {e(s)} issue</witness>' for s in _sigla(passages)
    )
    list_wit = f"<listWit>{witnesses}</listWit>" if witnesses else ""
    changes = "".join(
        f'<change when="{c.date}"{_target(c.key)}>{e(c.what)}</change>'
        for c in changelog(source, passages)
    )
    revision = f"<revisionDesc>{changes}</revisionDesc>" if changes else ""
    variants = (
        '<variantEncoding method="parallel-segmentation" location="internal"/>' if witnesses else ""
    )
    copies = "".join(
        f"<item>{e(where)}{': ' + e(what) if what else ''}</item>" for where, what in source.copies
    )
    copy_list = f"<p>Where our copy was found: <list>{copies}</list></p>" if copies else ""
    licence = f' target="{CC0}"' if "CC0" in source.licence_note else ""
    return (
        "<teiHeader><fileDesc>"
        f"<titleStmt><title>{e(source.title)}</title><author>{e(source.author)}</author>"
        "<respStmt><resp>reading text, corrections and encoding</resp>"
        "<name>the Lanterloo project</name></respStmt></titleStmt>"
        "<publicationStmt><publisher>Lanterloo</publisher>"
        f'<availability status="free"><licence{licence}>{e(source.licence_note)}'
        f'</licence></availability><ptr target="{e(permalink)}"/></publicationStmt>'
        f"<sourceDesc><bibl><title>{e(source.title)}</title><author>{e(source.author)}</author>"
        f"<date>{e(source.year)}</date><publisher>{e(source.publisher)}</publisher>"
        f"<extent>{e(source.extent)}</extent><edition>{e(source.edition)}</edition>"
        f'<ref target="{e(source.link)}">{e(source.link)}</ref>'
        f"<note>{e(source.completeness)}</note></bibl>{list_wit}</sourceDesc>"
        "</fileDesc>"
        f"<encodingDesc><editorialDecl>{note}{copy_list}</editorialDecl>{variants}</encodingDesc>"
        f"{revision}</teiHeader>"
    )


# -- plain text --------------------------------------------------------------------------------


def _plain_inline(text: str) -> str:
    text = " ".join(text.split())
    out: list[str] = []
    position = 0
    for m in _TOKEN.finditer(text):
        out.append(text[position : m.start()])
        position = m.end()
        if m.group("target"):
            out.append(_words(m.group("target"), m.group("words")))
        elif m.group("brace") == "page":
            out.append(f"[p. {m.group('number')}]")
        elif m.group("brace") == "note":
            out.append(f"[{m.group('number')}]")
        elif m.group("gap"):
            out.append(f"[…missing: {m.group('gap')}…]")
        elif m.group("right"):
            out.append(m.group("right"))
        elif m.group("app") == "var":
            out.append(m.group("b"))
        else:
            out.append(m.group("b"))
    out.append(text[position:])
    return _ITALIC.sub(r"\1", "".join(out))


def plain_document(source: Source, passages: list[Passage], permalink: str) -> str:
    """The text as plain UTF-8: its record, then each passage under its id, page breaks as
    [p. N], gaps as […missing: …], then the apparatus and the changelog."""
    lines = [
        f"{source.title}",
        f"{source.author}, {source.year}",
        f"Edition: {source.edition}" if source.edition else "",
        f"Licence: {source.licence_note}",
        f"Our copy: {source.completeness}" if source.completeness else "",
        f"Reading text: {permalink} (each passage below: {permalink}#<id>)",
        "=" * 72,
        "",
    ]
    page: int | None = None
    apparatus: list[str] = []
    for p in passages:
        if p.page is not None and p.page != page and p.kind != PassageKind.FOOTNOTE:
            lines += [f"[p. {p.page}]", ""]
        if p.kind != PassageKind.FOOTNOTE and p.last_page is not None:
            page = p.last_page
        tag = {"derived": " (derived: a later writer's words)", "heading": " (heading)"}
        lines.append(f"[{p.key}] {locator(p)}{tag.get(p.kind, '')}")
        for para in markup.paragraphs(p.text):
            lines += [_plain_inline(para), ""]
        for entry in markup.apparatus(p.text):
            if entry.kind == "var":
                apparatus.append(f"{p.key}: {entry.text}] {entry.siglum}: {entry.reading}")
            else:
                apparatus.append(f"{p.key}: {entry.text}] corrected; our copy has {entry.reading}")
    lines = [line for line in lines if line is not None]
    if apparatus:
        lines += ["=" * 72, "Apparatus (variants and corrections)", *apparatus, ""]
    changes = changelog(source, passages)
    if changes:
        lines += ["=" * 72, "Changelog (newest first)"]
        lines += [f"{c.date} {c.key or 'all'}: {c.what}" for c in changes]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"
