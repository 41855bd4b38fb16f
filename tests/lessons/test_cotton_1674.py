"""Cotton's chapter of 1674 on the site (issue 39, RULES.md A57): every word of the shared file
(../shared/sources/more/cotton-1674-lanterloo.txt) with its page marks, the 1687 issue's
variants at their places, the old permalinks still opening their words, and every Cotton entry
of the witnesses' catalogue and the timeline's first step resting on the 1674 words (or saying
plainly that it rests on the derived article only)."""

import re
from collections.abc import Iterator
from html import unescape

import pytest
from django.test import Client
from pytest_django import DjangoDbBlocker

from lessons import markup
from lessons.models import Passage, PassageKind, Source, TimelineEntry, WitnessStatement

pytestmark = pytest.mark.django_db

FILE = "cotton-1674-lanterloo.txt"
DERIVED_ONLY = "derived article only (early nineteenth century)"


@pytest.fixture(scope="module")
def page(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[str]:
    """Cotton's page, rendered once for the module."""
    with django_db_blocker.unblock():
        yield Client().get("/sources/cotton/").content.decode()


def _chapter(text: str) -> str:
    """The chapter's words in the shared file: between its header and its list of variants,
    without the page marks [p. N]."""
    body = re.split(r"\n={20,}\n", text)[1]
    return re.sub(r"\[p\. \d+\]", " ", body)


def _variants(text: str) -> list[tuple[str, str, int]]:
    """(1674, 1687, how many times) from the file's list of the 1687 issue's variants."""
    listed = re.split(r"\n={20,}\n", text)[2].split("\n", 1)[1]
    found = []
    for item in " ".join(listed.split()).split(" | "):
        m = re.fullmatch(r"(\S+) -> (\S+)(?: \((?:(\w+) times|first way)\))?", item.strip())
        if m is None:  # "Twelve-pence (same)"
            assert "(same)" in item, item
            continue
        times = {"three": 3}.get(m.group(3) or "", 1)
        found.append((m.group(1), m.group(2), times))
    return found


def _text_passages() -> list[Passage]:
    return list(
        Passage.objects.filter(source="cotton", editorial=False).exclude(kind=PassageKind.DERIVED)
    )


def test_cotton_s_page_holds_every_word_of_the_1674_file(
    more_texts: dict[str, str], page: str
) -> None:
    cotton = Source.objects.get(slug="cotton")
    ours = " ".join(p.plain for p in _text_passages()).split()
    assert ours == cotton.correct(_chapter(more_texts[FILE])).split()
    # And the page shows each passage's words, once its marks are taken out.
    shown = re.sub(r'<sup class="app-mark[^"]*">.*?</sup>', "", page)
    shown = re.sub(r'<span class="page-mark">.*?</span>', " ", shown)
    shown = " ".join(unescape(re.sub(r"<[^>]+>", "", shown)).split())
    for passage in _text_passages():
        assert " ".join(passage.plain.split()) in shown, passage.key


def test_the_page_marks_fall_where_the_book_turns_its_pages(page: str) -> None:
    spans = {p.key: (p.page, p.last_page) for p in _text_passages()}
    assert spans["p144-1"] == (144, 144)
    assert spans["p144-4"] == (144, 145)
    assert spans["p145-4"] == (145, 146)
    assert spans["p146-3"] == (146, 147)
    assert spans["p147-2"] == (147, 147)
    for n in (145, 146, 147):
        assert page.count(f'<span class="page-mark">[p.&nbsp;{n}]</span>') == 1


def test_every_variant_of_the_1687_issue_is_marked_at_its_place(
    more_texts: dict[str, str], page: str
) -> None:
    marked = [
        (e.text, e.reading)
        for p in Passage.objects.filter(source="cotton")
        for e in markup.apparatus(p.text)
        if e.kind == "var"
    ]
    sigla = {
        e.siglum for p in _text_passages() for e in markup.apparatus(p.text) if e.kind == "var"
    }
    assert sigla == {"1687"}
    listed = _variants(more_texts[FILE])
    corrected = {("faith", "saith")}  # a fault of the keyboarding: a correction, below
    expected = [(a, b) for a, b, n in listed for _ in range(n) if (a, b) not in corrected]
    assert sorted(marked) == sorted(expected)
    # Each mark links to its note, and each note back to its place, without JavaScript.
    notes = re.findall(r'<li id="(app-[^"]+)">', page)
    assert len(notes) == len(marked) + 1
    for note in notes:
        assert f'href="#{note}" id="ref-{note}"' in page
        assert f'href="#ref-{note}" class="backlink"' in page
    assert "(variant of 1687)" in page and "(corrected)" in page


def test_the_keyers_fault_is_corrected_at_its_place_and_the_unread_letter_left() -> None:
    p = Passage.objects.get(source="cotton", key="p144-4")
    assert "{sic:faith|saith}" in p.text and "If the Eldest saith he passeth" in p.plain
    assert ["faith", "saith"] in Source.objects.get(slug="cotton").corrections
    assert "h[•]th" in p.plain and "{var:1687|h[•]th|hath}" in p.text


def test_the_old_permalinks_still_open_the_words_they_named(page: str) -> None:
    moved = {
        "fragment-1": "p144-2",
        "fragment-2": "p146-3",
        "fragment-3": "p145-2",
        "fragment-4": "p146-1",
        "lost-text": "chap-xxi",
        "derived-1": "derived-article",
        "derived-2": "derived-article",
        "derived-4": "derived-article",
    }
    for old, new in moved.items():
        assert page.count(f'id="{old}"') == 1, old
        assert old in Passage.objects.get(source="cotton", key=new).former_keys


def test_the_record_gives_the_provenance_and_the_cc0_licence(page: str) -> None:
    cotton = Source.objects.get(slug="cotton")
    assert cotton.short_title == "Cotton (1674)"
    assert "CC0" in cotton.licence_note and "EEBO-TCP A34637" in cotton.edition
    assert "pp. 144–147" in cotton.extent
    assert any("B02403" in where for where, _ in cotton.copies)
    assert "The whole chapter" in cotton.completeness


def test_every_cotton_entry_quotes_the_1674_words_or_says_it_rests_on_the_derived_article() -> None:
    entries = WitnessStatement.objects.filter(source="cotton").prefetch_related()
    assert entries.count() >= 14
    for entry in entries:
        quotes = Passage.objects.filter(
            citations__rule=entry.rule_id, citations__origin="witness", source="cotton"
        )
        kinds = {q.kind for q in quotes}
        assert kinds, entry.rule_id
        if PassageKind.DERIVED in kinds:
            assert kinds == {PassageKind.DERIVED}, entry.rule_id
            assert entry.says.startswith(DERIVED_ONLY), entry.rule_id
            assert " ".join(entry.note.split()).startswith("Derived article only"), entry.rule_id
        else:
            assert kinds <= {PassageKind.PARAGRAPH}, entry.rule_id
    # A57: "After this all must play", and a loo the size of what is on the board.
    must = Passage.objects.get(citations__rule="must", source="cotton", citations__origin="witness")
    assert "After this all must play" in must.plain
    assert WitnessStatement.objects.filter(source="cotton", rule="unlimited-loo").exists()


def test_the_timeline_begins_with_cotton_s_two_ways_of_1674() -> None:
    first = TimelineEntry.objects.first()
    assert first is not None and first.key == "lanterloo" and first.date == "1674"
    quoted = {(q.passage.source_id, q.passage.kind) for q in first.quotes.select_related("passage")}
    assert quoted == {("cotton", PassageKind.PARAGRAPH)}
    words = [q.quote for q in first.quotes.all()]
    assert any("none but two" in w for w in words)
    assert any("After this all must play" in w for w in words)
    text = " ".join(first.text.split())
    assert "In the first way" in text and "In the second way" in text
    assert "Cotton's chapter says nothing of [[Pam]], of a [[miss]] or of a three-card game" in text
