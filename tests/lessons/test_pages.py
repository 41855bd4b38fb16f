"""The reading pages: what each shows, its htmx fragment, and the queries it makes."""

import functools
import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from games.loo import catalogue
from games.loo.rulesets import PRESETS
from lessons.models import GlossaryTerm, Passage, Rule
from lessons.readings import option_readings
from tests.crawl import Anchors, Crawl, Page

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


class _Page(Anchors):
    """What the tests read from a page: headings, landmarks, ids, links and visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.h1: list[str] = []
        self.text: list[str] = []
        self._in_h1 = False
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        self.tags.append(tag)
        if tag == "h1":
            self._in_h1 = True
            self.h1.append("")
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1":
            self._in_h1 = False
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.text.append(data)
        if self._in_h1:
            self.h1[-1] += data


def _page(crawl: Crawl, url: str) -> _Page:
    """The page at ``url`` as the session's crawl fetched it (tests/crawl.py), read."""
    response = crawl.page(url)
    assert response.status == 200, url
    return _read(response)


@functools.cache
def _read(response: Page) -> _Page:
    """A page read once (the tests only look at what was read)."""
    page = _Page()
    page.feed(response.html)
    return page


def _text(page: _Page) -> str:
    return " ".join(" ".join(page.text).split())


PAGES = [
    ("/sources/", 1),
    ("/sources/hoffmann/", 3),
    ("/sources/peel/?view=side-by-side", 3),
    ("/sources/parlett/", 3),
    ("/rules/", 1),
    ("/rules/head-the-trick/", 5),
    ("/rules/ante/", 5),
    ("/rules/trick-winner/", 5),
    ("/rules/flush-tie-break/", 5),
    ("/rules/penalty-revoke/", 5),
    ("/rules/deal-order/", 5),
    ("/rules/shuffle-and-cut/", 5),
    ("/compare/", 3),
    ("/compare/?a=parlett&b=whiteknuckle&differ=on", 3),
    ("/disagreements/", 4),
    ("/timeline/", 2),
    ("/sources/cotton/", 3),
    ("/sources/enquire-within/?view=side-by-side", 3),
    ("/compare/?a=hoffmann&b=enquire-within", 4),
    ("/glossary/", 1),
    ("/glossary/miss/", 2),
    ("/search/?q=Pam", 3),
    ("/search/", 0),
]


@pytest.mark.parametrize(("url", "queries"), PAGES)
def test_each_page_makes_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries, url: str, queries: int
) -> None:
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize(("url", "queries"), PAGES)
def test_each_page_has_one_h1_the_landmarks_and_the_language(
    site_pages: Crawl, url: str, queries: int
) -> None:
    page = _page(site_pages, url)
    assert len(page.h1) == 1, page.h1
    for landmark in ("header", "nav", "main", "footer"):
        assert landmark in page.tags
    assert 'lang="en"' in site_pages.page(url).html[:200]


def test_the_menu_links_to_rules_sources_and_glossary(site_pages: Crawl) -> None:
    page = _page(site_pages, "/rules/")
    for url in ("/rules/", "/sources/", "/glossary/"):
        assert url in page.links
    assert '<a href="/rules/" aria-current="page">Rules</a>' in site_pages.page("/rules/").html


# Sources


def test_the_bibliography_lists_every_source_with_its_record(site_pages: Crawl) -> None:
    text = _text(_page(site_pages, "/sources/"))
    for title in ("Hoffmann (1909)", "Britannica (1911)", "Peel (1891)", "Parlett (modern)"):
        assert title in text
    assert "Public domain: shown in full" in text
    assert "Modern and copyrighted: short quotations only" in text
    assert "https://www.gutenberg.org/ebooks/27819" in text


@pytest.mark.parametrize("source", catalogue.SOURCE_IDS)
def test_every_passage_has_its_permalink_anchor_on_its_source_page(
    site_pages: Crawl, source: str
) -> None:
    page = _page(site_pages, f"/sources/{source}/")
    keys = set(Passage.objects.filter(source=source).values_list("key", flat=True))
    assert keys <= page.ids
    assert {"law-13", "p2", "fn-28"} <= keys or source != "hoffmann"


def test_a_source_page_shows_the_editorial_note_and_the_corrections(site_pages: Crawl) -> None:
    text = _text(_page(site_pages, "/sources/peel/"))
    assert "Editorial note" in text
    assert "“ent.i.tled” → “entitled”" in text or "ent.i.tled" in text
    assert "the dealer is entitled to the amount in the pool" in text


def test_the_margin_names_the_rules_a_passage_states_and_its_terms(site_pages: Crawl) -> None:
    html = site_pages.page("/sources/hoffmann/").html
    law = html[html.index('id="law-13"') : html.index('id="law-14"')]
    assert 'href="/rules/head-the-trick/"' in law
    assert "States" in law and "Glossary" in law
    assert 'href="/glossary/head-the-trick/"' in law


def test_terms_in_a_passage_are_links_that_htmx_opens_in_place(site_pages: Crawl) -> None:
    html = site_pages.page("/sources/peel/").html
    assert re.search(
        r'<a class="ref ref--term" href="/glossary/miss/" hx-get="/glossary/miss/" '
        r'hx-target="#(slot-peel-p19-1-1)"[^>]*>miss</a><span class="ref-slot" id="\1"',
        html,
    )


def test_the_side_by_side_mode_puts_the_explanation_of_each_stated_rule_beside_it(
    site_pages: Crawl,
) -> None:
    plain = _page(site_pages, "/sources/hoffmann/")
    side = _page(site_pages, "/sources/hoffmann/?view=side-by-side")
    explanation = "The rule that makes Loo Loo"
    assert explanation not in _text(plain)
    assert explanation in _text(side)


def test_a_bad_view_falls_back_to_the_text(site_pages: Crawl) -> None:
    assert "Text with margin notes" in _text(
        _page(site_pages, "/sources/hoffmann/?view=upside-down")
    )


def test_an_unknown_source_is_404(client: Client) -> None:
    assert client.get("/sources/hoyle/").status_code == 404


# Rules


def test_the_rule_list_shows_every_rule_in_its_group(site_pages: Crawl) -> None:
    page = _page(site_pages, "/rules/")
    for slug, label in catalogue.GROUPS:
        assert slug in page.ids and label in _text(page)
    for rule_id in catalogue.rule_ids():
        assert f"/rules/{rule_id}/" in page.links


def test_a_rule_page_names_the_lessons_that_teach_it(site_pages: Crawl) -> None:
    page = _page(site_pages, "/rules/must-overtrump/")
    assert "/learn/overtrump/" in page.links
    assert "Taught in the course: Over-trumping" in _text(page)

    taught = _page(site_pages, "/rules/head-the-trick/")
    for lesson in ("head-the-trick", "trumped-trick", "choosing-rules"):
        assert f"/learn/{lesson}/" in taught.links


def test_every_rule_page_cites_a_passage_of_every_source_that_states_it(site_pages: Crawl) -> None:
    for entry in catalogue.rules():
        page = _page(site_pages, f"/rules/{entry.id}/")
        passages = [link for link in page.links if re.match(r"/sources/\w+/#", link)]
        assert passages, entry.id
        for source in entry.stated_by:
            assert any(link.startswith(f"/sources/{source}/#") for link in passages), (
                entry.id,
                source,
            )


def test_a_rule_page_sets_the_five_sources_side_by_side(site_pages: Crawl) -> None:
    page = _page(site_pages, "/rules/trump-after-trick/")
    text = _text(page)
    for slug in catalogue.SOURCE_IDS:
        assert f"st-{slug}" in page.ids
    assert "/sources/hoffmann/#p6" in page.links
    assert "/sources/hoffmann/#law-14" in page.links
    assert 'called "trump after trick"' in text or "called trump after trick" in text
    # White Knuckle is silent, and the page says what that means.
    assert "Silent" in text
    # The disagreement, and which rule set follows which reading.
    assert "no obligation (White Knuckle (modern))" in text
    assert "the winner of a trick must lead his highest trump (Peel (1891))" in text
    assert "default: the source is silent" in text


def test_a_quotation_on_a_rule_page_is_corrected_and_links_to_its_passage(
    site_pages: Crawl,
) -> None:
    html = site_pages.page("/rules/ante/").html
    assert "Each player contributes to the pool a sum previously agreed upon" in html
    assert "tothe" not in html
    assert 'href="/sources/britannica/#s6"' in html


def test_the_worked_example_comes_from_the_engine_with_cards_drawn_as_cards(
    site_pages: Crawl,
) -> None:
    rule = Rule.objects.get(pk="head-the-trick")
    html = site_pages.page(rule.get_absolute_url()).html
    assert (
        '<span class="card card--diamonds" role="img" aria-label="king of diamonds">K♦</span>'
        in html
    )
    for row in rule.worked_example():
        for application in row.moves.explanations:
            assert application.text.replace("'", "&#x27;") in html
    # Parlett must head with the K♦ although the trick is trumped; Hoffmann need not.
    parlett = next(row for row in rule.worked_example() if row.preset == "parlett")
    hoffmann = next(row for row in rule.worked_example() if row.preset == "hoffmann")
    assert [c.code for c in parlett.moves.legal] == ["KD"]
    assert [c.code for c in hoffmann.moves.legal] == ["KD", "6D"]


#: The rules that have no worked example: the page says why (content/rules.txt no-example:).
#: Each is settled before the hand (who deals first, the shuffle and cut) or across hands (the
#: deal passing on, when a session ends), and an example follows one hand.
NO_EXAMPLE = {
    "first-dealer",
    "shuffle-and-cut",
    "deal-rotation",
    "round-continues-until-no-loo",
}


def test_every_rule_page_has_a_worked_example_or_says_why_not(site_pages: Crawl) -> None:
    assert set(Rule.objects.filter(example__isnull=True).values_list("id", flat=True)) == (
        NO_EXAMPLE
    )
    kinds = {"example-legal", "example-trick", "example-flush", "example-hand"}
    for rule in Rule.objects.all():
        page = _page(site_pages, rule.get_absolute_url())
        text = _text(page)
        assert "example-title" in page.ids, rule.id
        if rule.id in NO_EXAMPLE:
            assert "There is no worked example for this rule." in text, rule.id
            assert " ".join(rule.no_example.split()) in text, rule.id
            assert not kinds & page.ids
        else:
            assert len(kinds & page.ids) == 1, rule.id
            assert "There is no worked example" not in text


def _between(html: str, start: str, end: str) -> str:
    assert start in html, start
    piece = html[html.index(start) :]
    return piece[: piece.index(end)]


def _card(code_label: str, display: str, suit: str) -> str:
    return f'<span class="card card--{suit}" role="img" aria-label="{code_label}">{display}</span>'


def test_a_trick_example_shows_who_takes_it_under_every_rule_set(site_pages: Crawl) -> None:
    html = site_pages.page("/rules/trick-winner/").html
    example = _between(html, 'id="example-trick"', "</table>")
    assert _card("four of diamonds", "4♦", "diamonds") in example
    assert "Every rule set" in example
    assert "The trick was trumped: the highest trump played, the 4♦, takes it." in example
    # RULES.md W4: clubs are trumps, and Pam is above the ace.
    html = site_pages.page("/rules/pam-highest-trump/").html
    example = _between(html, 'id="example-trick"', "</table>")
    assert _card("knave of clubs", "J♣", "clubs") in _between(example, "<tbody>", "</tbody>")
    assert "Pam (J♣) is the highest trump, above the ace of trumps: it takes the trick." in example


def test_a_flush_example_shows_the_winner_the_excused_and_the_payers(site_pages: Crawl) -> None:
    # RULES.md F2: the elder hand wins under britannica and peel, the better cards elsewhere.
    html = site_pages.page("/rules/flush-tie-break/").html
    example = _between(html, 'id="example-flush"', "</table>")
    assert _card("ace of diamonds", "A♦", "diamonds") in example
    britannica = _between(example, '<th scope="row">Britannica (1911)</th>', "</tr>")
    assert "<td>Player 1 (elder hand)</td>" in britannica
    assert "<td>Player 2, Player 3</td>" in britannica
    assert "the elder hand wins" in britannica
    hoffmann = _between(example, '<th scope="row">Hoffmann (1909)</th>', "</tr>")
    assert "<td>Player 2</td>" in hoffmann
    assert "the better cards win" in hoffmann
    assert "<td>Player 3, Player 4</td>" in _between(
        example, '<th scope="row">White Knuckle (modern)</th>', "</tr>"
    )


def _group(html: str, names: str) -> str:
    """The block of a hand example for one group of rule sets."""
    return _between(html, f">{names}</h3>", "</article>")


def test_a_hand_example_shows_the_options_the_trace_and_the_settlement(site_pages: Crawl) -> None:
    html = site_pages.page("/rules/dealer-must-play-against-one/").html
    example = _between(html, 'id="example-hand"', 'id="sources-title"')
    assert "Seat 1 (elder hand):" in example and "Seat 4 (dealer):" in example
    assert _card("king of hearts", "K♥", "hearts") in example  # the miss, drawn as cards
    others = _group(
        example, "Hoffmann (1909), White Knuckle (modern), Parlett (modern) and Peel (1891)"
    )
    assert "<strong>Seat 4 (dealer)</strong> is to declare." in others
    assert "He may play; or take the miss; or play the miss for the pool." in others
    assert (
        "Only seat 1 has declared to play, on his own cards, so seat 4, the dealer, may not "
        "pass: he may play his own cards, take miss, or play miss for the pool." in others
    )
    assert "Seat 4 takes trick 3." in others  # the trace, from the engine
    assert "<td>Trick 3 <a" in others  # the settlement
    britannica = _group(example, "Britannica (1911)")
    assert "Not allowed: Seat 4 (dealer) chooses to play." in britannica
    assert "He may take the miss; or play the miss for the pool." in britannica
    assert "The example stops here for this rule set." in britannica
    assert "example-settlement" not in britannica


def test_a_hand_example_under_the_laws(site_pages: Crawl) -> None:
    html = site_pages.page("/rules/penalty-revoke/").html
    example = _between(html, 'id="example-hand"', 'id="sources-title"')
    assert "<strong>Laws mode:</strong>" in example
    hoffmann = _group(example, "Hoffmann (1909)")
    assert "Seat 4 forfeits four singles (12) to the next pool" in hoffmann
    assert "(under Hoffmann (1909) only)" in example
    peel = _group(example, "Peel (1891)")
    assert "The cards are taken up and the hand is played again in proper order." in peel
    # The settlement names the offence (issue 12, item 8).
    assert "Looed (Peel, p. 25), for the 10♦ in trick 1, when he had to follow suit" in peel
    for names in ("Britannica (1911)", "White Knuckle (modern) and Parlett (modern)"):
        assert "Not allowed: Seat 4 (dealer) plays the 10♦." in _group(example, names)


#: Each law's page (issue 12): the irregularity committed (the step in words), and the
#: penalties the engine has each rule set that has a law for it pay under that rule (payer,
#: payee: None for the pool, counters). The other rule sets refuse the step.
LAW_PAGES: dict[str, tuple[str, dict[str, list[tuple[int | None, int | None, int]]]]] = {
    "penalty-misdeal": (
        "Seat 4 (dealer) misdeals",
        # A single; a single loo, "generally half the amount of the full loo" (peel p. 23).
        {"hoffmann": [(3, None, 3)], "peel": [(3, None, 3)]},
    ),
    "faced-card-in-pack": ("Seat 4 (dealer) finds a card face up in the pack", {"hoffmann": []}),
    "penalty-interfering-with-deal": (
        "Seat 2 interferes with the cards during the deal",
        # A single loo: "most other cases of penalty prior to the commencement of the playing
        # of the cards" (peel p. 23-24).
        {"peel": [(1, None, 3)]},
    ),
    "penalty-declare-out-of-turn": (
        "Seat 2 declares before his turn",
        {"hoffmann": [(1, None, 3), (2, None, 3)], "peel": [(1, None, 3), (2, None, 3)]},
    ),
    "penalty-look-at-miss": (
        "Seat 2 looks at the miss without taking it",
        {"hoffmann": [(1, None, 3)], "peel": [(1, None, 3)]},
    ),
    "penalty-look-at-others-cards": (
        "Seat 1 (elder hand) looks at Seat 3's cards",
        {"hoffmann": [(0, None, 3)], "peel": [(0, None, 6)]},  # a single; the full loo
    ),
    "penalty-exposed-card": (
        "Seat 3 exposes the 5♣",
        {"hoffmann": [(2, None, 3)], "peel": [(2, None, 6)]},
    ),
    "look-at-cards-in-turn": (
        "Seat 2 looks at his cards before his turn",
        {"hoffmann": [], "peel": []},
    ),
}


def _group_of(example: str, title: str) -> str:
    """The block of a hand example for the group of rule sets that includes ``title``, its
    entities decoded and its white space made single spaces."""
    for article in example.split('<article class="example-group"')[1:]:
        heading = _between(article, "<h3", "</h3>")
        if title in heading or heading.endswith(">Every rule set"):
            return " ".join(html.unescape(article).split())
    raise AssertionError(f"no group for {title}")


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


@pytest.mark.parametrize("rule_id", sorted(LAW_PAGES))
def test_each_law_page_shows_the_offence_and_its_penalty_from_the_engine(
    site_pages: Crawl, rule_id: str
) -> None:
    said, penalties = LAW_PAGES[rule_id]
    example = Rule.objects.get(pk=rule_id).worked_example()
    assert example is not None and example.kind == "hand" and example.laws
    page = site_pages.page(f"/rules/{rule_id}/").html
    shown = _between(page, 'id="example-hand"', 'id="sources-title"')
    assert "<strong>Laws mode:</strong>" in shown
    assert said in html.unescape(_between(shown, "<ol>", "</ol>"))  # the steps, in words
    for preset in PRESETS.values():
        row = example.row(preset.id)
        group = _group_of(shown, preset.title)
        if preset.id not in penalties:
            # No law for it: the step is refused, and the page says why.
            assert row.refusal is not None and row.refusal.step is not None
            assert row.refusal.step.said == said, preset.id
            assert f"Not allowed: {row.refusal.step.said}." in group, preset.id
            assert _capfirst(row.refusal.text) in group
            assert "example-settlement" not in group
            continue
        # The law applied: the offence and its penalty, as the engine tells them, and the hand
        # played out to its settlement.
        assert row.refusal is None and row.over, preset.id
        lines = [e.text for e in row.events if rule_id in e.rules]
        assert lines, preset.id
        lines += [_capfirst(str(p.reason)) for p in row.payments if p.rule == rule_id]
        for _, moment in row.moments:
            lines += [_capfirst(a.text) for a in moment.explanations]
            if moment.kind != "play":
                lines.append(f"He may {'; or '.join(moment.choice_words)}.")
        for line in lines:
            assert _capfirst(line) in group, (preset.id, line)
        assert "Not allowed" not in group
        assert "example-settlement" in group
        paid = [(p.payer, p.payee, p.amount) for p in row.payments if p.rule == rule_id]
        assert paid == penalties[preset.id], preset.id


def test_after_looking_at_the_miss_hoffmann_retires_the_offender_and_peel_does_not(
    site_pages: Crawl,
) -> None:
    shown = site_pages.page("/rules/penalty-look-at-miss/").html
    hoffmann = _group_of(shown, "Hoffmann (1909)")
    assert "<strong>Seat 2</strong> is to declare. He may pass." in hoffmann
    peel = _group_of(shown, "Peel (1891)")
    assert "<strong>Seat 2</strong> is to declare. He may play; or take the miss; or pass." in peel


def test_a_pack_is_dealt_as_each_rule_set_deals(site_pages: Crawl) -> None:
    html = site_pages.page("/rules/deal-order/").html
    example = _between(html, 'id="example-hand"', 'id="sources-title"')
    wk = _group(example, "White Knuckle (modern)")
    elder = _between(wk, "Seat 1 (elder hand):", "</p>")
    labels = re.findall(r'aria-label="([^"]+)"', elder)
    assert labels == [
        "ace of spades",
        "king of hearts",
        "four of spades",
        "three of hearts",
        "two of diamonds",
    ]


#: Hand examples whose rule the engine does not name in its trace, options or payments: the
#: loo's amount, the stake and Irish Loo show in the counters and the exchange, and the
#: engine cites elder-leads-first for whoever leads first.
def test_every_hand_example_shows_its_rule_at_work() -> None:
    for rule in Rule.objects.exclude(example__isnull=True):
        example = rule.worked_example()
        assert example is not None
        if example.kind != "hand":
            continue
        cited = set().union(*(row.cited for row in example.rows))
        assert rule.id in cited, rule.id


def test_a_rule_opens_in_place_for_htmx(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(1):
        response = client.get("/rules/must/", headers=HTMX)
    html = response.content.decode()
    assert html.strip().startswith('<span class="inline-card rule-summary" id="rule-summary-must">')
    assert "<html" not in html and "Close</button>" in html
    assert 'href="/rules/must/"' in html
    assert "HX-Request" in response["Vary"]


def test_an_unknown_rule_is_404(client: Client) -> None:
    assert client.get("/rules/no-such-rule/").status_code == 404
    assert client.get("/rules/no-such-rule/", headers=HTMX).status_code == 404


# Disagreements and comparison


def test_every_option_on_which_the_presets_differ_is_on_the_disagreements_page(
    site_pages: Crawl,
) -> None:
    page = _page(site_pages, "/disagreements/")
    text = _text(page)
    differing = [o for o in option_readings() if o.differs]
    assert len(differing) >= 30
    for option in differing:
        assert f"option-{option.spec.name}" in page.ids, option.spec.name
        assert option.spec.label in text
        for reading in option.readings:
            assert reading.phrase in text


def test_every_rule_some_source_leaves_out_is_on_the_disagreements_page(site_pages: Crawl) -> None:
    page = _page(site_pages, "/disagreements/")
    for entry in catalogue.rules():
        if set(entry.stated_by) != set(catalogue.SOURCE_IDS):
            assert f"/rules/{entry.id}/" in page.links, entry.id


def test_every_silence_of_the_matrix_of_rules_md_is_on_the_disagreements_page(
    site_pages: Crawl, rules_md: str
) -> None:
    page = _page(site_pages, "/disagreements/")
    matrix = rules_md[rules_md.index("### 2.1 Matrix") : rules_md.index("### 2.2")]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \|(.*)\|$", matrix, re.M)
    assert len(rows) == len(catalogue.rule_ids())
    for rule_id, cells in rows:
        values = [cell.strip() for cell in cells.replace("\\|", "/").split("|")]
        if any(value.startswith("—") for value in values):
            assert f"/rules/{rule_id}/" in page.links, rule_id


def test_the_cells_of_the_disagreements_table_link_to_passages(site_pages: Crawl) -> None:
    html = site_pages.page("/disagreements/").html
    row = html[html.index('id="option-trump-after-trick"') :]
    row = row[: row.index("</tr>")]
    assert 'href="/sources/hoffmann/#p6"' in row
    assert 'href="/sources/peel/#p21-2"' in row or 'href="/sources/peel/#p20-2"' in row
    assert "no obligation" in row


def test_compare_aligns_two_sources_rule_by_rule(site_pages: Crawl) -> None:
    page = _page(site_pages, "/compare/?a=hoffmann&b=peel")
    text = _text(page)
    assert page.h1 == ["Hoffmann (1909) and Peel (1891), rule by rule"]
    assert "/sources/hoffmann/#law-13" in page.links and "/sources/peel/#p20-2" in page.links
    assert len([i for i in page.ids if i.startswith("cmp-")]) == len(catalogue.rule_ids())
    assert "differ" in text


def test_compare_can_show_only_the_differences(site_pages: Crawl) -> None:
    page = _page(site_pages, "/compare/?a=hoffmann&b=britannica&differ=on")
    shown = {i.removeprefix("cmp-") for i in page.ids if i.startswith("cmp-")}
    assert "lead-highest-trump-heads-up" in shown  # hoffmann's sequence exception
    assert "follow-suit" not in shown


def test_compare_refuses_the_same_source_twice_on_the_page(site_pages: Crawl) -> None:
    text = _text(_page(site_pages, "/compare/?a=peel&b=peel"))
    assert "Choose two different sources." in text
    assert (
        "/compare/?a=peel&b=nobody" and site_pages.page("/compare/?a=peel&b=nobody").status == 200
    )


# Glossary


def test_the_glossary_lists_every_term(site_pages: Crawl) -> None:
    page = _page(site_pages, "/glossary/")
    for term in GlossaryTerm.objects.all():
        assert term.get_absolute_url() in page.links


def test_a_term_has_a_definition_and_a_quotation_linked_to_its_passage(site_pages: Crawl) -> None:
    page = _page(site_pages, "/glossary/miss/")
    text = _text(page)
    assert "an extra hand of three cards" in text
    assert 'designate it the "cat"' in text
    assert "/sources/peel/#p19-1" in page.links
    assert "/rules/take-miss/" in page.links
    assert "/sources/hoffmann/#p2" in page.links  # where the term is marked


def test_a_term_opens_in_place_for_htmx(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(1):
        response = client.get("/glossary/pam/", headers=HTMX)
    html = response.content.decode().strip()
    assert html.startswith('<span class="inline-card term-definition" id="term-definition-pam">')
    assert "knave of clubs" in html and "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_an_unknown_term_is_404(client: Client) -> None:
    assert client.get("/glossary/nonsense/").status_code == 404


# Search


def test_search_finds_rules_terms_and_passages(site_pages: Crawl) -> None:
    page = _page(site_pages, "/search/?q=Pam")
    text = _text(page)
    assert "/rules/pam-highest-trump/" in page.links
    assert "/glossary/pam/" in page.links
    assert "/sources/hoffmann/#p10" in page.links
    assert re.search(r"\d+ results for “Pam”", text)


# PostgreSQL searches with its full-text search, SQLite by word beginnings (lessons.search).
@pytest.mark.both_databases
def test_search_answers_htmx_with_its_results_only(client: Client) -> None:
    response = client.get("/search/?q=flush", headers=HTMX)
    html = response.content.decode().strip()
    assert html.startswith('<div id="search-results"')
    assert "/glossary/flush/" in html


def test_an_empty_search_shows_the_form_only(site_pages: Crawl) -> None:
    assert "result" not in _text(_page(site_pages, "/search/"))
    assert "Type a word to search for." in _text(_page(site_pages, "/search/?q=%21%3F"))


@pytest.mark.both_databases
@pytest.mark.parametrize("word", ["Pam", "flush", "miss", "knave"])
def test_a_simple_search_finds_the_same_rows_on_every_database(word: str) -> None:
    """The rows whose text has the word (or its plural): the same on SQLite and PostgreSQL."""
    pattern = re.compile(rf"\b{word}(s|es|ed)?\b", re.I)
    for model in (Passage, Rule, GlossaryTerm):
        expected = {o.pk for o in model.objects.all() if pattern.search(o.plain)}
        assert expected, (model, word)
        assert set(model.objects.search(word).values_list("pk", flat=True)) == expected


# The modern sources are never reproduced


def _shingles(text: str, size: int = 50) -> set[tuple[str, ...]]:
    from lessons.markup import words

    tokens = words(text)
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def test_no_page_holds_50_consecutive_words_of_a_modern_source(
    site_pages: Crawl, shared_texts: dict[str, str]
) -> None:
    from lessons.markup import words

    forbidden = _shingles(shared_texts["whiteknuckle"]) | _shingles(shared_texts["parlett"])
    urls = ["/sources/", "/rules/", "/disagreements/", "/glossary/", "/search/?q=Pam"]
    urls += [f"/sources/{s}/" for s in catalogue.SOURCE_IDS]
    urls += [f"/sources/{s}/?view=side-by-side" for s in ("parlett", "whiteknuckle")]
    urls += [f"/rules/{r}/" for r in catalogue.rule_ids()]
    urls += [f"/glossary/{t}/" for t in GlossaryTerm.objects.values_list("slug", flat=True)]
    urls += [
        f"/compare/?a={a}&b={b}" for a in ("parlett", "whiteknuckle") for b in PRESETS if b != a
    ]
    for url in urls:
        tokens = words(_text(_page(site_pages, url)))
        runs = {tuple(tokens[i : i + 50]) for i in range(len(tokens) - 49)}
        assert not runs & forbidden, url


@pytest.fixture(scope="module")
def rules_md() -> str:
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the shared folder must sit beside the checkout.")
    return path.read_text(encoding="utf-8")


def test_reverse_names_are_kebab_case() -> None:
    assert reverse("lessons:rule-detail", args=["must"]) == "/rules/must/"
    assert reverse("lessons:source-compare") == "/compare/"
