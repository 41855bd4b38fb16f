"""The reading side as a reader meets it, in Chromium.

The reader only reads: the module's tests share one database, content/ loaded once, and one
browser context (`shared_*` pages, tests/browser/conftest.py). A link that opens a glossary term
or a rule in place (htmx) and the search form (htmx swaps its results) behave differently
without JavaScript and are tried with it on and off; the rest are plain links, <details> and
server-rendered pages, the same HTML either way, tried with JavaScript on only.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe

# Pages that only read, served on the live server's threads: either lane (tests/lanes.py).
pytestmark = [
    pytest.mark.usefixtures("shared_database", "shared_content"),
    pytest.mark.any_database,
]


def _javascript(request: pytest.FixtureRequest) -> bool:
    return "no-js" not in request.node.callspec.id


def test_a_quotation_on_a_rule_page_leads_to_its_passage(shared_js_page: Page) -> None:
    page = shared_js_page  # a plain link: the same without JavaScript
    page.goto("/rules/head-the-trick/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Play higher if you can")

    hoffmann = page.locator("article#st-hoffmann, article:has(#st-hoffmann)").first
    hoffmann.get_by_role("link", name="Hoffmann (1909), ¶5").click()

    expect(page).to_have_url(re.compile(r"/sources/hoffmann/#p5$"))
    passage = page.locator("#p5")
    expect(passage).to_be_in_viewport()
    expect(passage).to_contain_text('he must "head the trick," i.e. play a higher card to it')


def test_a_step_of_the_timeline_leads_to_its_passage(shared_js_page: Page) -> None:
    page = shared_js_page  # a plain link: the same without JavaScript
    page.goto("/timeline/")
    step = page.locator("#three-card")
    expect(step).to_contain_text("whereas now the three-card game is in vogue")

    step.get_by_role("link", name="Peel (1891), p. 16").click()

    expect(page).to_have_url(re.compile(r"/sources/peel/#p16-1$"))
    passage = page.locator("#p16-1")
    expect(passage).to_be_in_viewport()
    expect(passage).to_contain_text("then the five-card variation was the most popular")


def test_a_glossary_term_in_a_passage_opens_in_place(
    shared_page: Page, request: pytest.FixtureRequest
) -> None:
    page = shared_page
    page.goto("/sources/hoffmann/")
    term = page.locator("#p2").get_by_role("link", name="miss", exact=True).first

    term.click()

    if _javascript(request):
        card = page.locator("#p2 .term-definition")
        expect(card).to_be_visible()
        expect(card).to_contain_text("an extra hand of three cards")
        expect(page).to_have_url(re.compile(r"/sources/hoffmann/$"))
        expect(term).to_have_attribute("aria-expanded", "true")
        card.get_by_role("button", name="Close").click()
        expect(card).to_have_count(0)
        expect(term).to_be_focused()
    else:
        expect(page).to_have_url(re.compile(r"/glossary/miss/$"))
        expect(page.get_by_role("heading", level=1)).to_contain_text("miss")


def test_a_rule_link_in_an_explanation_opens_in_place(shared_js_page: Page) -> None:
    page = shared_js_page  # without JavaScript the link is a link, as a glossary term's above
    page.goto("/rules/single/")
    page.locator(".rule-statement").get_by_role("link", name="must", exact=True).click()

    summary = page.locator(".rule-statement .rule-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Nobody may pass")
    expect(page).to_have_url(re.compile(r"/rules/single/$"))


def test_searching_for_pam_finds_rules_terms_and_passages(shared_page: Page) -> None:
    page = shared_page
    page.goto("/search/")

    page.get_by_label("Search the sources, rules and glossary").fill("Pam")
    page.get_by_role("button", name="Search").click()

    results = page.locator("#search-results")
    expect(results).to_contain_text("results for “Pam”")
    expect(results.get_by_role("link", name="Pam", exact=True)).to_be_visible()
    expect(results.get_by_role("link", name="Hoffmann (1909), ¶10")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/search/\?q=Pam$"))


def test_the_side_by_side_mode_shows_the_rules_beside_the_text(shared_js_page: Page) -> None:
    page = shared_js_page  # a plain link: the same without JavaScript
    page.goto("/sources/peel/")
    page.get_by_role("link", name="Show it side by side with the rules it states").click()

    passage = page.locator("#p20-1")
    expect(passage.locator(".passage__rules")).to_contain_text("The first lead")


#: A rule page with a worked example of each kind, and one without.
EXAMPLES = [
    "/rules/trick-winner/",
    "/rules/flush-tie-break/",
    "/rules/dealer-must-play-against-one/",
    "/rules/deal-order/",
    "/rules/shuffle-and-cut/",
]


@pytest.mark.parametrize(
    "path",
    ["/rules/head-the-trick/", "/sources/hoffmann/", "/timeline/", "/sources/cotton/", *EXAMPLES],
)
def test_axe_finds_no_serious_violations(shared_js_page: Page, path: str) -> None:
    shared_js_page.goto(path)

    serious = axe.serious(shared_js_page)

    assert serious == [], axe.report(serious)


@pytest.mark.parametrize(
    "path",
    [
        "/rules/head-the-trick/",
        "/sources/hoffmann/",
        "/disagreements/",
        "/compare/",
        "/timeline/",
        "/sources/cotton/",
        "/rules/limited-loo/",
        *EXAMPLES,
    ],
)
def test_a_phone_screen_reads_without_horizontal_scroll(shared_phone_page: Page, path: str) -> None:
    # JavaScript on only: nothing on these pages changes their layout by script.
    shared_phone_page.goto(path)

    scroll_width, client_width = shared_phone_page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll_width <= client_width == 375


def test_a_worked_hand_shows_its_trace_on_request(shared_js_page: Page) -> None:
    page = shared_js_page  # a <details>: the same without JavaScript
    page.goto("/rules/dealer-must-play-against-one/")
    group = page.locator(".example-group").filter(has_text="Not allowed")
    expect(group.get_by_role("heading")).to_have_text("Britannica (1911)")
    trace = group.locator(".example-trace")
    expect(trace.get_by_text("Seat 3 passes.")).to_be_hidden()

    trace.get_by_text("The hand as the table sees it").click()

    expect(trace.get_by_text("Seat 3 passes.")).to_be_visible()
