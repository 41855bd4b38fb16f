"""A visitor who only reads a lesson is given no session; the rule set he chooses travels in
the lesson's links; his first "Begin" makes the session and the question (issue 27)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from lessons.course.models import Lesson, Progress
from lessons.trainer.models import AskedQuestion


@pytest.fixture
def content(transactional_db: None) -> None:
    call_command("loadcontent", verbosity=0)


def _session_cookies(page: Page) -> list[str]:
    return [c["name"] for c in page.context.cookies() if c["name"] == "sessionid"]


def test_reading_a_lesson_makes_no_session_until_the_learner_begins(
    page: Page, content: None
) -> None:
    lesson = Lesson.objects.get(slug="follow-suit")
    following = Lesson.objects.filter(position__gt=lesson.position).first()
    assert following is not None
    page.goto(lesson.get_absolute_url())
    page.get_by_label("Rule set").select_option("parlett")
    page.get_by_role("button", name="Show").click()

    expect(page).to_have_url(re.compile(r"/learn/follow-suit/\?rules=parlett$"))
    nav = page.get_by_role("navigation", name="Lessons")
    expect(nav.get_by_role("link", name=re.compile(following.title))).to_have_attribute(
        "href", f"{following.get_absolute_url()}?rules=parlett"
    )
    assert _session_cookies(page) == [] and not Progress.objects.exists()

    page.locator("#lesson-steps").get_by_role("button", name="Begin").click()

    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    assert _session_cookies(page) == ["sessionid"]
    assert AskedQuestion.objects.get().rules == "parlett"
    assert Progress.objects.count() == 1
