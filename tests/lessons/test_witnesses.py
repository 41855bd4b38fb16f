"""The witnesses (issue 23): texts to read and compare that no rule set follows. Each rule page
shows what they say where they speak to the rule, from our witnesses' catalogue
(content/witnesses.txt), whose every quotation is found word for word in the witness's text; the
disagreements page and the comparison give them columns of their own; and nothing that plays,
trains or teaches offers them as rule sets."""

import re
from html import unescape

import pytest
from django.test import Client

from games.loo import catalogue
from games.loo.rulesets import PRESET_IDS, PRESETS, RuleSet, RuleSetError
from lessons import markup
from lessons.models import Citation, Rule, Source, WitnessStatement

pytestmark = pytest.mark.django_db

WITNESSES = ("cotton", "hoyle-improved", "enquire-within")
FILES = {
    "hoyle-improved": "hoyle-improved.txt",
    "enquire-within": "enquire-within-1894.txt",
    "cotton": "cotton-1674-lanterloo.txt",
}
#: Cotton's one derived paragraph is quoted from the derived article's file.
DERIVED_FILE = "cotton-1680-fragments.txt"


def _text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


# They are sources, not rule sets


def test_the_witnesses_are_sources_that_no_rule_set_follows() -> None:
    assert list(Source.objects.witnesses().values_list("slug", flat=True)) == list(WITNESSES)
    assert list(Source.objects.rule_sets().values_list("slug", flat=True)) == list(
        catalogue.SOURCE_IDS
    )
    for slug in WITNESSES:
        assert slug not in PRESETS and slug not in PRESET_IDS
        assert slug not in catalogue.SOURCE_IDS
        with pytest.raises(RuleSetError):
            RuleSet.preset(slug)


@pytest.mark.parametrize("url", ["/play/", "/trainer/", "/learn/"])
def test_nothing_that_plays_trains_or_teaches_offers_a_witness(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    for slug in WITNESSES:
        assert f'value="{slug}"' not in html and f"rules={slug}" not in html, (url, slug)


def test_a_witness_page_says_it_is_not_a_rule_set_and_how_complete_it_is(client: Client) -> None:
    for slug in WITNESSES:
        source = Source.objects.get(slug=slug)
        text = _text(client, source.get_absolute_url())
        assert "A witness, not a rule set." in text
        assert source.completeness and " ".join(source.completeness.split()) in text
        assert source.copies
    cotton = _text(client, "/sources/cotton/")
    assert "The whole chapter, both ways of playing" in cotton
    assert "EEBO-TCP A34637" in cotton


def test_the_source_list_shows_the_witnesses_apart_and_links_the_timeline(client: Client) -> None:
    html = client.get("/sources/").content.decode()
    witnesses = html[html.index('id="witnesses"') :]
    rule_sets = html[: html.index('id="witnesses"')]
    for slug in WITNESSES:
        assert f'id="bib-{slug}"' in witnesses and f'id="bib-{slug}"' not in rule_sets
    for slug in catalogue.SOURCE_IDS:
        assert f'id="bib-{slug}"' in rule_sets
    assert 'href="/timeline/"' in rule_sets


# The witnesses' catalogue


def test_every_quotation_of_a_witness_is_word_for_word_in_its_passage_and_its_file(
    more_bodies: dict[str, str],
) -> None:
    quoted = Citation.objects.filter(origin="witness").select_related("passage__source")
    assert quoted.count() >= 80
    for c in quoted:
        source = c.passage.source
        assert source.witness, c
        assert markup.find_quotation(c.quote, c.passage.plain), c
        # The words are the shared file's too (once its faults are corrected as listed).
        derived = c.passage.kind == "derived"
        shared = source.correct(more_bodies[DERIVED_FILE if derived else FILES[source.slug]])
        assert markup.find_quotation(c.quote, shared), c


def test_every_statement_of_a_witness_quotes_it_and_names_a_rule_of_the_catalogue() -> None:
    statements = WitnessStatement.objects.select_related("source")
    assert {s.source_id for s in statements} == set(WITNESSES)
    for s in statements:
        assert s.rule_id in catalogue.rule_ids()
        assert s.source.witness
        quotes = Citation.objects.filter(
            rule=s.rule_id, origin="witness", passage__source=s.source_id
        )
        assert quotes.exists(), s
        assert all(q.locator == q.passage.label for q in quotes.select_related("passage"))


def test_a_witness_that_says_nothing_of_a_rule_is_silent_there() -> None:
    rules = Rule.objects.with_witnesses()
    trick = rules.get(pk="trump-after-trick")
    for source in Source.objects.witnesses():
        assert trick.entry_of(source).silent
    limited = rules.get(pk="limited-loo")
    assert limited.entry_of(Source.objects.get(slug="cotton")).status == "differs"


# Pages


def test_a_rule_page_shows_what_the_witnesses_say_with_their_passages(client: Client) -> None:
    html = client.get("/rules/limited-loo/").content.decode()
    section = html[html.index('id="witnesses-title"') : html.index('id="disagree-title"')]
    assert "if any be lood he must lay down so much for his loo" in section
    assert 'href="/sources/cotton/#p146-3"' in section
    assert 'href="/sources/enquire-within/#p97-end"' in section
    assert "Says otherwise" in section
    disagree = html[html.index('id="disagree-title"') :]
    assert "Cotton (1674)</strong>, a witness, says otherwise" in disagree
    # A quotation of the derived article says so.
    html = client.get("/rules/pam-identity/").content.decode()
    section = html[html.index('id="witnesses-title"') :]
    derived = section[section.index('href="/sources/cotton/#derived-3"') :]
    assert "not the original" in derived[: derived.index("</figcaption>")]


def test_a_rule_page_names_the_witnesses_that_are_silent(client: Client) -> None:
    html = client.get("/rules/trump-after-trick/").content.decode()
    section = html[html.index('id="witnesses-title"') :]
    section = section[: section.index("</section>")]
    assert "Silent on this rule:" in section
    for slug in WITNESSES:
        assert f'href="/sources/{slug}/"' in section


def test_the_disagreements_page_gives_the_witnesses_columns_of_their_own(client: Client) -> None:
    html = client.get("/disagreements/").content.decode()
    head = html[html.index("<thead>") : html.index("</thead>")]
    assert "Witnesses (no rule set)" in head
    for source in Source.objects.witnesses():
        assert f">{source.short_title}</th>" in head
    row = html[html.index('id="option-two-trumps"') :]
    row = row[: row.index("</tr>")]
    assert row.count("<td") == 1 + 5 + 3  # the point, the five, the witnesses
    assert 'href="/sources/enquire-within/#p98-i"' in row or "enquire-within" in row
    otherwise = html[html.index('id="otherwise-title"') :]
    assert 'href="/rules/limited-loo/"' in otherwise and "Cotton (1674)" in otherwise
    assert 'href="/sources/cotton/#p145-2"' in otherwise


def test_compare_sets_a_witness_beside_a_source(client: Client) -> None:
    html = client.get("/compare/?a=hoffmann&b=enquire-within").content.decode()
    assert "Hoffmann (1909) and Enquire Within (1894), rule by rule" in html
    assert '<optgroup label="Witnesses, which no rule set follows">' in html
    assert 'href="/sources/enquire-within/#p97-x"' in html
    differ = client.get("/compare/?a=peel&b=cotton&differ=on").content.decode()
    assert 'id="cmp-limited-loo"' in differ
    assert 'id="cmp-trump-after-trick"' in differ  # Peel states it; Cotton is silent
    assert client.get("/compare/?a=cotton&b=nobody").status_code == 200
