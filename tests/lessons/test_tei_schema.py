"""The TEI downloads of the public-domain sources are valid TEI P5 (issue 39): each is checked
against the TEI's own ``tei_all`` RELAX NG schema (P5 4.7.0, tests/lessons/data/README.md),
which libxml2 compiles once for the module (about five seconds)."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from lxml import etree
from pytest_django import DjangoDbBlocker

pytestmark = pytest.mark.django_db

PUBLIC = ["hoffmann", "britannica", "peel", "cotton", "hoyle-improved", "enquire-within"]
SCHEMA = Path(__file__).parent / "data" / "tei_all.rng.gz"


@pytest.fixture(scope="module")
def tei_all() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMA)))


@pytest.fixture(scope="module")
def downloads(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, bytes]]:
    with django_db_blocker.unblock():
        client = Client()
        found = {}
        for slug in PUBLIC:
            response = client.get(f"/sources/{slug}/tei.xml")
            assert response.status_code == 200, slug
            found[slug] = response.content
        yield found


@pytest.mark.parametrize("slug", PUBLIC)
def test_the_tei_download_is_valid_against_tei_all(
    tei_all: etree.RelaxNG, downloads: dict[str, bytes], slug: str
) -> None:
    document = etree.fromstring(downloads[slug])
    valid = tei_all.validate(document)
    errors = [f"line {e.line}: {e.message}" for e in tei_all.error_log][:10]
    assert valid, "\n".join(errors)


def test_the_schema_refuses_what_tei_does_not_allow(tei_all: etree.RelaxNG) -> None:
    """The check can fail: a <sic> outside a paragraph's phrase content, a <pb> without the TEI
    namespace and an unknown element are each refused."""
    good = (
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt>'
        "<title>T</title></titleStmt><publicationStmt><p>P</p></publicationStmt>"
        "<sourceDesc><p>S</p></sourceDesc></fileDesc></teiHeader>"
        "<text><body>{}</body></text></TEI>"
    )
    assert tei_all.validate(
        etree.fromstring(good.format("<p>a <choice><sic>b</sic><corr>c</corr></choice></p>"))
    )
    for body in ("<sic>b</sic>", '<p><pb xmlns="" n="1"/></p>', "<p><folio/></p>"):
        assert not tei_all.validate(etree.fromstring(good.format(body))), body
