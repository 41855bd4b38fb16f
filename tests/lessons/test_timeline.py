"""The timeline of the game, 1674 to 1911 (content/timeline.txt): each step quotes the passages
it rests on, word for word, and links each to its permalink."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from lessons import markup
from lessons.models import PassageKind, TimelineEntry, TimelineQuote

pytestmark = pytest.mark.django_db


def test_the_timeline_runs_from_cotton_to_the_britannica_in_order() -> None:
    keys = list(TimelineEntry.objects.values_list("key", flat=True))
    assert keys[0] == "lanterloo" and keys[-1] == "britannica"
    assert {"hoyle", "three-card", "enquire-within", "peel", "hoffmann"} <= set(keys)
    sources = {q.passage.source_id for q in TimelineQuote.objects.select_related("passage__source")}
    assert {"cotton", "hoyle-improved", "enquire-within", "peel", "hoffmann", "britannica"} <= (
        sources
    )


def test_every_quotation_of_the_timeline_is_word_for_word_in_its_passage() -> None:
    quotes = TimelineQuote.objects.select_related("passage__source")
    assert quotes.count() >= 16
    for q in quotes:
        assert markup.find_quotation(q.quote, q.passage.plain), q
    for entry in TimelineEntry.objects.all():
        assert entry.quotes.exists(), entry.key


def test_peel_s_words_on_the_rise_of_three_card_loo_are_quoted() -> None:
    three = TimelineEntry.objects.get(key="three-card")
    words = [q.quote for q in three.quotes.all()]
    assert any(
        "then the five-card variation was the most popular, whereas now the three-card game is "
        "in vogue" in w
        for w in words
    )


def test_the_timeline_page_links_every_quotation_to_its_passage(client: Client) -> None:
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/timeline/").content.decode()
    assert len(queries) == 2
    assert "<h1>Loo from 1674 to 1911</h1>" in html
    for q in TimelineQuote.objects.select_related("passage__source"):
        url = q.passage.get_absolute_url()
        assert f'href="{url}"' in html, url
        # The permalink opens the passage on its source's page.
        source_page = client.get(url.split("#")[0]).content.decode()
        assert f'id="{q.passage.key}"' in source_page
    for entry in TimelineEntry.objects.all():
        assert f'id="{entry.key}"' in html and entry.date in html


def test_a_quotation_of_the_derived_article_is_never_shown_as_cotton_s(client: Client) -> None:
    html = client.get("/timeline/").content.decode()
    derived = TimelineQuote.objects.filter(passage__kind=PassageKind.DERIVED)
    assert derived.exists()
    for q in derived.select_related("passage"):
        after = html[html.index(f'href="{q.passage.get_absolute_url()}"') :]
        assert "not the original" in after[: after.index("</figcaption>")]


def test_where_the_texts_are_silent_the_timeline_says_so() -> None:
    said = " ".join(re.sub(r"\s+", " ", e.text) for e in TimelineEntry.objects.all())
    assert "Cotton's chapter says nothing of [[Pam]]" in said
    assert "When the miss came into the game our texts do not say" in said


def test_the_timeline_is_linked_from_the_sources_and_the_witnesses(client: Client) -> None:
    assert 'href="/timeline/"' in client.get("/sources/").content.decode()
    assert 'href="/timeline/"' in client.get("/sources/cotton/").content.decode()
