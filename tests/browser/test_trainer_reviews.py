"""Reviews that come back, in Chromium on a 375 px phone and at 1280 px, JavaScript on and
off: an answer in the trainer schedules its rule; once due, "Due for review" on the home page
starts a drill on it; the dashboard shows it. axe finds nothing on the pages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from lessons.trainer.models import AskedQuestion, RuleReview
from tests.browser import axe

pytestmark = pytest.mark.django_db(transaction=True)


def _review_a_due_rule(page: Page) -> None:
    page.goto("/trainer/")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/trainer/q/\d+/$"))
    page.locator(".answer-choice").first.click()
    page.get_by_role("button", name="Answer").click()
    expect(page.locator(".verdict")).to_be_visible()
    row = RuleReview.objects.get()
    RuleReview.objects.update(due=timezone.now() - timedelta(hours=1))  # time passes

    page.goto("/")
    expect(page.get_by_role("heading", name="Due for review")).to_be_visible()
    page.get_by_role("button", name="Review it now").click()

    expect(page).to_have_url(re.compile(r"/trainer/q/\d+/$"))
    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    assert AskedQuestion.objects.order_by("-pk").first().scope == f"rule:{row.rule}"
    page.goto("/trainer/reviews/")
    expect(page.get_by_role("row").nth(1)).to_contain_text("Due for review")


def test_a_due_rule_comes_back_on_a_phone(phone_page: Page) -> None:
    _review_a_due_rule(phone_page)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375


def test_a_due_rule_comes_back_at_desktop_width_and_axe_is_clean(js_page: Page) -> None:
    js_page.set_viewport_size({"width": 1280, "height": 900})
    _review_a_due_rule(js_page)
    for path in ("/trainer/reviews/", "/trainer/", "/"):
        js_page.goto(path)
        assert axe.violations(js_page) == [], path
