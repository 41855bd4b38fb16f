"""The first guided hand asks only what has been taught (issue 26, item 12), in Chromium with
JavaScript on and off: the table declares for the learner, and holds back who takes each trick
until he has said."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from lessons.course.models import Step
from tests.browser.test_course import _ask, _finish_in_the_database, _take_turn, _title, _version

# What a run stores (progress, the guided hand's table) belongs to its own browser session:
# the two runs share one database, content/ loaded once (tests/browser/conftest.py).
pytestmark = pytest.mark.usefixtures("shared_database", "shared_content")

LESSON = "cards-and-tricks"
HAND = "cards-and-tricks-hand"


def test_the_first_guided_hand_asks_who_takes_each_trick_before_telling(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")  # the others' cards at once (test_table_pace's)
    page.goto(f"/learn/{LESSON}/")
    _ask(page)  # the first exercise begun: the browser has its session
    before = Step.objects.filter(lesson_id=LESSON, position__lt=Step.objects.get(key=HAND).position)
    _finish_in_the_database(page, *before.values_list("key", flat=True))
    page.goto(f"/learn/{LESSON}/")
    expect(_title(page)).to_have_text("Guided hand")
    page.get_by_role("button", name="Deal the hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))

    # Declaring is not yet taught: the table declared for him, and says where it is taught.
    guide = page.locator("aside.guide")
    expect(guide).to_contain_text("The table declares for you in this hand")
    expect(guide.get_by_role("link", name="Play, pass or take the miss")).to_be_visible()

    status = page.locator("#table-status")
    asked = 0
    for _ in range(30):
        if "is over" in status.inner_text():
            break
        ask = page.locator("form.guide-ask")
        before_version = _version(page)
        if ask.count():
            asked += 1
            # The whole trick lies on the felt; nothing yet says who took it.
            expect(status).to_have_text(f"Trick {asked} is complete: who takes it?")
            expect(page.locator("#table-log")).not_to_contain_text(
                re.compile(rf"takes? trick {asked}\b")
            )
            ask.get_by_role("button").first.click()
            expect(page.locator(".alert").first).to_contain_text(
                re.compile(rf"^(Right|Not so): .* takes? trick {asked}\.")
            )
        else:
            _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before_version)
    assert "is over" in status.inner_text()
    assert asked == 3
