"""Slips, new passwords and announcements in Chromium (issue 37): a teacher makes two "Olivia
Smith"s, prints their slips (the print stylesheet checked in Chromium's print-to-PDF: only the
slips are printed, each with its address), gives them new passwords in bulk from the roster,
and posts an announcement that a student, on a 375 px phone, sees in his header and on his
class's page, which fits the phone.

The teacher and his class are made in the database; the accounts only through the pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import SchoolClass, Teacher
from lessons.classes.tables import open_for_class
from tests.browser.conftest import PHONE, TIMEOUT_MS
from tests.browser.test_classroom_accounts import PASSWORD, _log_in

pytestmark = pytest.mark.django_db(transaction=True)

MINE = "my very own phrase 12"


def _printed_links(pdf: bytes) -> list[str]:
    """The addresses of the links Chromium kept in a printed PDF (its link annotations)."""
    return re.findall(r"/URI \(([^)]*)\)", pdf.decode("latin-1"))


def test_slips_print_new_passwords_and_an_announcement(
    browser: Browser, js_page: Page, live_server: LiveServer
) -> None:
    teacher = User.objects.create_user("mrs_quadrille", password=PASSWORD)
    Teacher.objects.create(user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Loo on Fridays")
    page = js_page
    _log_in(page, "mrs_quadrille", PASSWORD)
    page.goto(school_class.get_absolute_url())
    page.get_by_role("link", name="Add students").click()
    page.get_by_label("Your students' names, one a line").fill("Olivia Smith\nOlivia Smith")
    page.get_by_role("button", name="Make the accounts").click()

    # The page of slips: one a student, and on paper nothing else.
    slips = page.locator("li.slip")
    expect(slips).to_have_count(2)
    expect(slips.nth(1)).to_contain_text("OliviaSmith2")
    first = slips.nth(0).locator(".password").inner_text()
    login = f"{live_server.url}/accounts/log-in/"
    links = _printed_links(page.pdf(format="A4"))
    # Only the slips' addresses (a link that wraps is kept once a line): no header's link, no
    # "Back to the class".
    assert set(links) == {login} and len(links) >= 2, links
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("table.passwords")).to_be_hidden()
    assert slips.nth(0).evaluate("e => getComputedStyle(e).breakInside") == "avoid"
    assert slips.nth(0).evaluate("e => getComputedStyle(e).outlineStyle") == "dashed"
    page.emulate_media(media="screen")

    # The roster tells the two apart; a new password for both, from the roster.
    page.get_by_role("link", name="Back to the class").click()
    roster = page.locator("table.roster")
    expect(roster).to_contain_text("Olivia Smith")
    page.get_by_label("Tick OliviaSmith", exact=True).check()
    page.get_by_label("Tick OliviaSmith2").check()
    page.get_by_label("Do", exact=True).select_option("slips")
    page.get_by_role("button", name="Go").click()
    expect(page.locator("li.slip")).to_have_count(2)
    expect(page.locator("li.slip .password")).to_have_count(0)  # none is kept to show
    page.get_by_role("button", name="Give new passwords and print the slips").click()
    expect(page.get_by_text("Shown once.")).to_be_visible()
    new = page.locator("li.slip").nth(0).locator(".password").inner_text()
    assert new != first

    # An announcement, which the student sees on his phone.
    page.goto(school_class.get_absolute_url())
    page.get_by_label("A short notice to the class").fill("Bring <b>cards</b> on Friday.")
    page.get_by_role("button", name="Announce").click()
    expect(page.locator(".notice")).to_contain_text("Bring <b>cards</b> on Friday.")
    open_for_class(
        school_class,
        teacher,
        tables=1,
        students_choose=True,
        game="five-card",
        rules="hoffmann",
        players=9,
        opponents="beginner",
    )

    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    try:
        _log_in(phone, "OliviaSmith", first)  # the old password no longer works
        expect(phone.locator(".alert, .errorlist").first).to_be_visible()
        _log_in(phone, "OliviaSmith", new)
        phone.get_by_label("New password:", exact=True).fill(MINE)
        phone.get_by_label("New password confirmation").fill(MINE)
        phone.get_by_role("button", name="Choose this password").click()
        expect(phone).to_have_url(f"{live_server.url}{school_class.get_absolute_url()}")
        marker = phone.locator(".notice-marker")
        expect(marker).to_contain_text("1 new notice")
        expect(phone.locator(".notice--unread")).to_contain_text("Bring <b>cards</b> on Friday.")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.get_by_role("button", name="I have read them").click()
        expect(phone.locator(".notice--unread")).to_have_count(0)
        expect(marker).to_have_count(0)
        expect(phone.get_by_role("link", name="Assignments", exact=True)).to_be_attached()
    finally:
        context.close()
