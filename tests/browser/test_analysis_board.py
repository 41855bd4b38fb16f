"""The analysis board and the hint on the table, in Chromium at 1280 px and on a 375 px phone,
JavaScript on and off, worked by keyboard: from a finished hand's review to the board of a
decision, its figures, a filter of its deals and the lines of play in one of them, the same
cards and play weighed under another rule set by the what-if, then the same position set up
and weighed under another rule set; at the table, the hint turned on marks the
coach's choice, described by its reason. axe finds nothing on the board or the hinted table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe

# The tests share one database: each plays at a table of its own, in a session of its own.
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

#: A deal that starts with the human's declaration: play or pass (three-card, hoffmann, five).
DEAL = "/play/seed/three-card/hoffmann/5/2/"


def _press(page: Page, name: str, role: str = "link") -> None:
    """Activate a control by keyboard: focus it, then Enter."""
    control = page.get_by_role(role, name=name, exact=True).first  # type: ignore[arg-type]
    control.focus()
    page.keyboard.press("Enter")


def _fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert page.viewport_size is None or width <= page.viewport_size["width"], width


def _board_by_keyboard(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(DEAL)
    _press(page, "Deal these cards", "button")
    expect(page.locator("#table-status")).to_contain_text("Your turn to declare")
    _press(page, "Pass", "button")
    expect(page.get_by_role("link", name="Review your decisions")).to_be_visible()
    _press(page, "Review your decisions")
    _press(page, "Weigh it on the analysis board")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Analysis board: your decision")
    options = page.locator(".board__option")
    expect(options.first).to_contain_text(re.compile(r"counters"))
    expect(page.locator("#figures")).to_contain_text("best")
    expect(page.locator("#deals-count")).to_have_text(re.compile(r"^120 of 120 deals\."))
    _fits(page)
    # Filter the deals: where the player on the left holds a card you have not seen.
    page.locator("#where").select_option(label="Left")
    page.locator("#card").select_option(index=1)
    card = page.locator("#card option").nth(1).inner_text().removeprefix("the ")
    _press(page, "Filter", "button")
    expect(page.locator("#deals-count")).to_have_text(re.compile(r"^\d+ of 120 deals match\."))
    first = page.locator(".board__deal").first
    expect(first.locator(".board__holdings li").first).to_contain_text("Left")
    expect(first.get_by_role("img", name=card)).to_be_visible()
    title = first.locator(".board__deal-title").inner_text()
    number = title.split()[-1]
    _press(page, f"Lines of play in deal {number}")
    expect(page.locator("#lines-title")).to_have_text(f"Lines of play in deal {number}")
    expect(page.locator(".board__line")).to_have_count(options.count())
    expect(page.locator("#lines")).to_contain_text(re.compile(r"You (win|lose)"))
    _fits(page)
    # What-if: the same cards and play under another rule set, chosen in the what-if form.
    rule_sets = page.locator("#whatif-rules option")
    expect(rule_sets.first).to_have_text("Hoffmann (1909) (as played)")
    other = rule_sets.nth(1).inner_text()
    page.locator("#whatif-rules").select_option(index=1)
    _press(page, "See the figures move", "button")
    expect(page.locator("#board-rules-changed")).to_contain_text(f"Weighed under {other}")
    expect(page.locator("#board-rules-changed")).to_contain_text("played under Hoffmann (1909)")
    expect(page.locator("#whatif-rules")).to_have_value(re.compile(r"^[a-z]+$"))
    expect(page.locator(".board__option").first).to_contain_text("counters")
    expect(page.locator("#deals-count")).to_have_text(re.compile(r"^120 of 120 deals\."))
    _fits(page)
    _press(page, "Back to the decision as it was")
    expect(page.locator("#board-rules-changed")).to_have_count(0)
    # The other what-if controls, chosen by keyboard alone: a card of yours changed for one
    # you cannot see, and the other players' level.
    mine = page.locator("#swap-out option").nth(1).inner_text()
    for control in ("#swap-out", "#swap-in", "#level"):
        page.locator(control).focus()
        page.keyboard.press("ArrowDown")
    expect(page.locator("#level")).to_have_value("beginner")
    into = page.locator("#swap-in option:checked").inner_text()
    _press(page, "See the figures move", "button")
    expect(page.locator("#board-refusal")).to_have_count(0)
    cards = page.locator(".board__position p", has_text="Your cards")
    expect(cards.get_by_role("img", name=into)).to_be_visible()
    expect(cards.get_by_role("img", name=mine)).to_have_count(0)
    expect(page.locator("#level")).to_have_value("beginner")
    expect(page.locator(".board__option").first).to_contain_text("counters")
    _fits(page)
    # The same position set up: under another rule set.
    _press(page, "Set this position up")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Analysis board: a position you set up"
    )
    page.locator("summary", has_text="Change the position").focus()
    page.keyboard.press("Enter")
    page.get_by_label("Rule set:", exact=True).select_option("britannica")
    _press(page, "Weigh this position", "button")
    expect(page.locator(".board__position")).to_contain_text("Britannica")
    expect(page.locator(".board__option").first).to_contain_text("counters")
    # An impossible position is refused in plain words.
    page.locator("summary", has_text="Change the position").focus()
    page.keyboard.press("Enter")
    page.get_by_label("The turn-up").fill(page.get_by_label("Your cards").input_value().split()[0])
    _press(page, "Weigh this position", "button")
    expect(page.locator("#board-refusal")).to_contain_text("That position cannot happen:")
    _fits(page)


def test_the_board_at_desktop_width(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    _board_by_keyboard(page)


def test_the_board_on_a_phone(phone_page: Page) -> None:
    phone_page.set_viewport_size({"width": 375, "height": 740})
    _board_by_keyboard(phone_page)


def _hint(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(DEAL)
    _press(page, "Deal these cards", "button")
    expect(page.locator("#table-status")).to_contain_text("Your turn to declare")
    expect(page.locator(".hinted")).to_have_count(0)
    _press(page, "Show the coach’s hint on my turn", "button")
    marked = page.locator("button.hinted")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("aria-describedby", "table-hint")
    expect(page.locator("#table-hint")).to_contain_text(
        re.compile(r"The coach’s choice\. .+ counters")
    )
    expect(marked).to_have_accessible_description(re.compile(r"The coach’s choice"))
    _fits(page)
    _press(page, "Hide the coach’s hint", "button")
    expect(page.locator(".hinted")).to_have_count(0)
    expect(page.locator("#table-hint")).to_have_count(0)


def test_the_hint_at_desktop_width(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    _hint(page)


def test_the_hint_on_a_phone(phone_page: Page) -> None:
    phone_page.set_viewport_size({"width": 375, "height": 740})
    _hint(phone_page)


def test_axe_finds_nothing_on_the_board_or_the_hinted_table(js_page: Page) -> None:
    page = js_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(reduced_motion="reduce")
    page.goto(DEAL)
    page.get_by_role("button", name="Deal these cards").click()
    page.get_by_role("button", name="Show the coach’s hint on my turn").click()
    expect(page.locator("button.hinted")).to_have_count(1)
    assert axe.violations(page) == [], "the hinted table"
    page.get_by_role("button", name="Pass", exact=True).click()
    page.get_by_role("link", name="Review your decisions").click()
    page.get_by_role("link", name="Weigh it on the analysis board").click()
    page.get_by_role("link", name="Lines of play in deal 1", exact=True).click()
    expect(page.locator(".board__line").first).to_be_visible()
    assert axe.violations(page) == [], "the board"
    page.locator("#whatif-rules").select_option(index=1)
    page.get_by_role("button", name="See the figures move").click()
    expect(page.locator("#board-rules-changed")).to_contain_text("Weighed under")
    assert axe.violations(page) == [], "the board under another rule set"
