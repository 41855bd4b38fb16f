"""An edition's conventions on every source (issue 39): "Cite this" on each passage, the TEI P5
and plain-text downloads of the public-domain texts (never the modern ones), the changelog of
editorial changes, and readers' reports of errors, stored for staff only."""

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from pytest_django import DjangoDbBlocker

from lessons import markup
from lessons.edition import citable
from lessons.models import ErrorReport, Passage, Source

pytestmark = pytest.mark.django_db

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
PUBLIC = ["hoffmann", "britannica", "peel", "cotton", "hoyle-improved", "enquire-within"]
MODERN = ["parlett", "whiteknuckle"]


@pytest.fixture(scope="module")
def rendered(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, dict[str, bytes]]]:
    """Each source's page and downloads, fetched once for the module."""
    with django_db_blocker.unblock():
        client = Client()
        found: dict[str, dict[str, bytes]] = {}
        for slug in PUBLIC + MODERN:
            found[slug] = {}
            for name, url in (("page", ""), ("tei", "tei.xml"), ("text", "text.txt")):
                response = client.get(f"/sources/{slug}/{url}")
                found[slug][name] = response.content if response.status_code == 200 else b""
        yield found


def _words(text: str) -> list[str]:
    return markup.words(text.replace(markup.GAP_PLAIN, " "))


# "Cite this"


@pytest.mark.parametrize("slug", PUBLIC + MODERN)
def test_every_passage_has_cite_this_with_its_permalink(
    rendered: dict[str, dict[str, bytes]], slug: str
) -> None:
    html = rendered[slug]["page"].decode()
    source = Source.objects.get(slug=slug)
    for passage in source.passages.all():
        if not citable(passage):
            continue
        url = f"http://testserver/sources/{slug}/#{passage.key}"
        block = html[html.index(f'id="{passage.key}"') :]
        block = unescape(block[: block.index('class="passage__report"')])
        assert '<details class="cite">' in block, passage.key
        assert f"[{passage.key}]. " in block and url in block, passage.key
        assert f"@{'misc' if source.modern else 'book'}{{{slug}" in block, passage.key
        assert f"<cite>{source.title}</cite>" in block, passage.key


def test_a_citation_names_author_title_year_place_and_resolves_to_its_passage(
    client: Client, rendered: dict[str, dict[str, bytes]]
) -> None:
    html = unescape(rendered["cotton"]["page"].decode())
    text = re.search(r'<dd class="cite__text">(.*?p145-2.*?)</dd>', html)
    assert text is not None
    assert text.group(1) == (
        'Cotton, Charles, The Compleat Gamester, chapter XXI "Lanterloo" (1674), p. 145 '
        "[p145-2]. Lanterloo's reading text: http://testserver/sources/cotton/#p145-2"
    )
    path, key = text.group(1).rsplit(" ", 1)[1].removeprefix("http://testserver").split("#")
    assert f'id="{key}"' in client.get(path).content.decode()
    assert "  pages = {145},\n  note = {p. 145, passage p145-2" in html


# Downloads


def _id_elements(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get(XML_ID, ""): el for el in root.iter() if el.get(XML_ID)}


@pytest.mark.parametrize("slug", PUBLIC)
def test_the_tei_download_is_well_formed_tei_and_carries_every_passage(
    rendered: dict[str, dict[str, bytes]], slug: str
) -> None:
    root = ET.fromstring(rendered[slug]["tei"])
    assert root.tag == f"{TEI}TEI"
    header = root.find(f"{TEI}teiHeader")
    assert header is not None
    for path in ("fileDesc/titleStmt/title", "fileDesc/publicationStmt/availability/licence"):
        assert header.find("/".join(TEI + p for p in path.split("/"))) is not None, path
    assert header.find(f"{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl") is not None
    body = root.find(f"{TEI}text/{TEI}body")
    assert body is not None
    # A <head> only opens a division: it never follows the division's text.
    for div in root.iter(f"{TEI}div"):
        tags = [child.tag for child in div if child.tag != f"{TEI}pb"]
        heads = [i for i, tag in enumerate(tags) if tag == f"{TEI}head"]
        assert heads == list(range(len(heads))), div.get("type")
    elements = _id_elements(root)
    for passage in Source.objects.get(slug=slug).passages.all():
        element = elements.get(passage.key)
        assert element is not None, passage.key
        # A passage of several paragraphs goes on in <key>.2, <key>.3, … (prev= the one before).
        parts = [element]
        while (more := elements.get(f"{passage.key}.{len(parts) + 1}")) is not None:
            parts.append(more)
        own = " ".join("".join(_text_without_readings(part)) for part in parts)
        assert _words(own) == _words(passage.plain), passage.key
    pages = {p.page for p in Passage.objects.filter(source=slug) if p.page}
    for p in Passage.objects.filter(source=slug):
        pages |= {n for kind, n in markup.braces(p.text) if kind == "page"}
    assert {int(pb.get("n", "0")) for pb in root.iter(f"{TEI}pb")} == pages


def _text_without_readings(element: ET.Element) -> Iterator[str]:
    """The words of an element as our text has them: the lemma and the correction, not the
    other issue's reading nor the copy's fault; a lost gap's description and a note's
    reference mark ([27]) left out, as the passage's plain words leave them."""
    skip = {f"{TEI}rdg", f"{TEI}sic", f"{TEI}desc", f"{TEI}ref"}
    if element.tag not in skip:
        if element.text:
            yield element.text
        for child in element:
            if child.tag == f"{TEI}gap" and child.get("reason") == "illegible":
                yield "[•]"
            yield from _text_without_readings(child)
            if child.tag == f"{TEI}p":  # a note's paragraphs
                yield " "
            if child.tail:
                yield child.tail


def test_cotton_s_tei_marks_variants_corrections_gaps_and_changes(
    rendered: dict[str, dict[str, bytes]],
) -> None:
    root = ET.fromstring(rendered["cotton"]["tei"])
    apps = list(root.iter(f"{TEI}app"))
    assert len(apps) == 11
    assert {rdg.get("wit") for rdg in root.iter(f"{TEI}rdg")} == {"#w1687"}
    assert root.find(f".//{TEI}listWit/{TEI}witness").get(XML_ID) == "w1687"  # type: ignore[union-attr]
    choice = root.find(f".//{TEI}choice")
    assert choice is not None
    assert [choice.findtext(f"{TEI}sic"), choice.findtext(f"{TEI}corr")] == ["faith", "saith"]
    assert len([g for g in root.iter(f"{TEI}gap") if g.get("reason") == "illegible"]) == 1
    changes = list(root.iter(f"{TEI}change"))
    assert len(changes) == len(Source.objects.get(slug="cotton").changelog)
    assert {c.get("target") for c in changes} >= {"#p144-4", "#derived-3"}
    assert root.find(f".//{TEI}licence").get("target", "").endswith("/zero/1.0/")  # type: ignore[union-attr]
    peel = ET.fromstring(rendered["peel"]["tei"])
    assert [g.findtext(f"{TEI}desc") for g in peel.iter(f"{TEI}gap")]  # the gaps of our copy


@pytest.mark.parametrize("slug", PUBLIC)
def test_the_plain_text_download_carries_every_passage(
    rendered: dict[str, dict[str, bytes]], slug: str
) -> None:
    text = rendered[slug]["text"].decode()
    marks = r"\[p\. \d+\]|\[…missing:[^\]]*\]|\[\d+\]"  # pages, gaps, notes' marks
    words = " ".join(_words(re.sub(marks, " ", text)))
    for passage in Source.objects.get(slug=slug).passages.all():
        assert f"[{passage.key}] " in text, passage.key
        for part in passage.plain.split(markup.GAP_PLAIN):
            assert " ".join(_words(part)) in words, passage.key


@pytest.mark.parametrize("slug", MODERN)
def test_a_modern_text_cannot_be_downloaded(
    client: Client, rendered: dict[str, dict[str, bytes]], slug: str
) -> None:
    assert client.get(f"/sources/{slug}/tei.xml").status_code == 404
    assert client.get(f"/sources/{slug}/text.txt").status_code == 404
    assert "tei.xml" not in rendered[slug]["page"].decode()


def test_a_public_domain_page_links_its_downloads(rendered: dict[str, dict[str, bytes]]) -> None:
    html = rendered["peel"]["page"].decode()
    assert 'href="/sources/peel/tei.xml"' in html and 'href="/sources/peel/text.txt"' in html


# The changelog


def test_the_changelog_is_shown_on_the_source_page_newest_first(
    rendered: dict[str, dict[str, bytes]],
) -> None:
    html = unescape(rendered["cotton"]["page"].decode())
    log = html[
        html.index('id="changelog"') : html.index("</details>", html.index('id="changelog"'))
    ]
    changes = Source.objects.get(slug="cotton").changelog
    assert len(changes) >= 4
    dates = re.findall(r'<time datetime="([0-9-]+)">', log)
    assert dates == sorted((d for d, _, _ in changes), reverse=True)
    for _, key, what in changes:
        assert what in log
        if key:
            assert f'href="#{key}"' in log


# Readers' reports of errors


def _report(client: Client, what: str = "Put-card should read Putt-Card here.") -> int:
    response = client.post(
        "/sources/cotton/p144-2/report/", {"what": what, "evidence": "the 1687 issue, p. 101"}
    )
    return response.status_code


def test_a_report_is_stored_once_and_acknowledged_without_echoing_it(
    client: Client, limits_clock: object
) -> None:
    response = client.post(
        "/sources/cotton/p144-2/report/",
        {"what": "A secret note 41x: the word differs.", "evidence": "scan 41y"},
        follow=True,
    )
    assert response.redirect_chain == [("/sources/cotton/p144-2/report/thanks/", 302)]
    report = ErrorReport.objects.get()
    assert (report.source_slug, report.passage_key) == ("cotton", "p144-2")
    assert report.passage == Passage.objects.get(source="cotton", key="p144-2")
    assert (report.what, report.evidence) == ("A secret note 41x: the word differs.", "scan 41y")
    html = response.content.decode()
    assert "has reached the editors" in html
    assert "41x" not in html and "41y" not in html
    # Shown to no one else: not on the source page, the passage's form or the search.
    for url in ("/sources/cotton/", "/sources/cotton/p144-2/report/", "/search/?q=secret"):
        assert "41x" not in Client().get(url).content.decode(), url


@pytest.mark.parametrize(
    ("what", "error"),
    [("", "Say what is wrong"), ("!!!!!!", "in words"), ("x" * 2001, "under 2,000")],
)
def test_bad_input_is_a_clear_error_and_nothing_is_stored(
    client: Client, limits_clock: object, what: str, error: str
) -> None:
    response = client.post("/sources/cotton/p144-2/report/", {"what": what})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not ErrorReport.objects.exists()


def test_only_a_passage_of_the_text_can_be_reported(client: Client) -> None:
    assert client.get("/sources/cotton/chap-xxi/report/").status_code == 404
    assert client.get("/sources/cotton/nowhere/report/").status_code == 404
    assert client.get("/sources/cotton/p144-2/report/").status_code == 200


@override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "corrections-per-address": (2, 3600)})
def test_reports_are_limited_before_they_are_stored(client: Client, limits_clock: object) -> None:
    assert [_report(client), _report(client)] == [302, 302]
    assert _report(client) == 429
    assert ErrorReport.objects.count() == 2


def test_staff_see_a_report_with_its_passage_in_the_admin(
    client: Client, limits_clock: object
) -> None:
    assert _report(client, "The word 77z is wrong.") == 302
    report = ErrorReport.objects.get()
    anonymous = Client()
    assert anonymous.get("/admin/lessons/errorreport/").status_code == 302
    staff = Client()
    staff.force_login(User.objects.create_superuser("editor", "editor@example.com", "x"))
    listing = staff.get("/admin/lessons/errorreport/").content.decode()
    assert "The word 77z is wrong." in listing and "p144-2" in listing
    change = staff.get(f"/admin/lessons/errorreport/{report.pk}/change/").content.decode()
    assert 'href="/sources/cotton/#p144-2"' in change
    assert "Lift for dealing, and the best Put-card carries it" in change
