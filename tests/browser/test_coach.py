"""The coach at the table, in Chromium at 1280 px and on a 375 px phone, JavaScript on and off:
ask the coach before a declaration and read its odds (htmx fills the region in place; without
JavaScript the form reloads the table with them), then, the hand over, read the review of your
decisions. axe finds nothing on either page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe

# The tests share one database: each plays at a table of its own, in a session of its own.
# Every request on the live server's own threads (which share the test's connection on
# SQLite): either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

#: A deal that starts with the human's declaration: play or pass (three-card, hoffmann, five).
DEAL = "/play/seed/three-card/hoffmann/5/2/"


def _ask_then_review(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")  # the computer players' cards at once
    page.goto(DEAL)
    page.get_by_role("button", name="Deal these cards").click()
    expect(page.locator("#table-status")).to_contain_text("Your turn to declare")
    page.get_by_role("button", name="Ask the coach").click()
    option = page.locator(".coach__option").first
    expect(option).to_be_visible()
    expect(page.locator("#coach-answer")).to_contain_text(
        re.compile(r"Play: \d+% \(±.\d+%\) to take a trick, [+-]?[\d.]+ counters on average \(±")
    )
    expect(page.locator("#coach-answer")).to_contain_text("best")
    expect(page.locator("#coach-answer")).to_contain_text("against these players")
    # A close call may be looked into deeper: four times the deals.
    page.get_by_role("button", name="Look deeper").click()
    expect(page.locator("#coach-answer")).to_contain_text("an average over 480 deals")
    expect(page.get_by_role("button", name="Look deeper")).to_have_count(0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True

    page.get_by_role("button", name="Pass", exact=True).click()
    review = page.get_by_role("link", name="Review your decisions")
    expect(review).to_be_visible()
    expect(page.locator("#coach")).to_have_count(0)  # nothing to ask once the hand is over
    review.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your decisions in deal 1, reviewed")
    expect(page.locator("#review-summary")).to_contain_text("1 decision weighed")
    expect(page.locator(".coach-review__item")).to_contain_text(
        re.compile(r"Passing: the coach agrees|Passing gave up about|Passing: too close to call")
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True


def test_ask_the_coach_and_review_the_hand_at_desktop_width(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    _ask_then_review(page)


def test_ask_the_coach_and_review_the_hand_on_a_phone(phone_page: Page) -> None:
    phone_page.set_viewport_size({"width": 375, "height": 740})
    _ask_then_review(phone_page)


def test_axe_finds_nothing_on_the_coach_s_answer_or_the_review(js_page: Page) -> None:
    page = js_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(reduced_motion="reduce")
    page.goto(DEAL)
    page.get_by_role("button", name="Deal these cards").click()
    page.get_by_role("button", name="Ask the coach").click()
    expect(page.locator(".coach__option").first).to_be_visible()
    assert axe.violations(page) == [], "the coach's answer"
    page.get_by_role("button", name="Pass", exact=True).click()
    page.get_by_role("link", name="Review your decisions").click()
    expect(page.locator(".coach-review__item")).to_have_count(1)
    assert axe.violations(page) == [], "the review"
