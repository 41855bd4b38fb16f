"""A shared school computer on a phone-sized screen (issue 27, limits): a student mistypes
his password and then gets in; his classes page comes with ``Cache-Control: no-store``; he
logs out, and Back does not show the next person his page: the browser asks the server
again, which sends the page for nobody logged in. (Chromium asks again already because the
page varies by cookie; no-store is for browsers and proxies that would not.) And a student who
mistypes until his name is locked is unlocked by his teacher (issue 37), then gets in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher

from .classroom_world import new_page
from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase 7"


def _log_in(page: Page, password: str) -> None:
    page.goto("/accounts/log-in/")
    page.get_by_label("Username").fill("ada1815")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def _class() -> SchoolClass:
    """Mrs Quadrille's class, Loo on Fridays, of one student, ada1815."""
    teacher = User.objects.create_user("mrs_quadrille", password=PASSWORD)
    Teacher.objects.create(user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Loo on Fridays")
    student = User.objects.create_user("ada1815", password=PASSWORD)
    Membership.objects.create(school_class=school_class, student=student)
    return school_class


def test_a_typo_then_in_and_back_after_logging_out_shows_nothing(js_phone_page: Page) -> None:
    _class()
    # JavaScript on only: the log-in and class pages are plain forms (no htmx, no script of
    # their own), and what Back shows is the server's and the browser cache's doing.
    page = js_phone_page
    _log_in(page, "a long pass phrase 8")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    _log_in(page, PASSWORD)
    response = page.goto("/classes/")
    assert response is not None
    assert "no-store" in response.headers["cache-control"]
    expect(page.get_by_text("Loo on Fridays").first).to_be_visible()
    # The log-out's page must have loaded before going back: a go_back during its navigation
    # finds no page to read the history of (seen once in CI).
    with page.expect_navigation():
        page.get_by_role("button", name="Log out").click()
    page.go_back()
    expect(page.get_by_role("heading", name="Classes")).to_be_visible()
    expect(page.get_by_role("main").get_by_role("link", name="log in")).to_be_visible()
    expect(page.get_by_text("Loo on Fridays")).to_have_count(0)


def test_a_locked_student_is_unlocked_by_his_teacher(
    browser: Browser, live_server: LiveServer
) -> None:
    school_class = _class()
    student = new_page(browser, live_server, javascript=False, viewport=PHONE)
    for _ in range(5):
        _log_in(student, "a long pass phrase 8")
    expect(student.get_by_role("heading", name="Too many failed logins")).to_be_visible()
    _log_in(student, PASSWORD)  # the right one, refused while his name is locked
    expect(student.get_by_role("heading", name="Too many failed logins")).to_be_visible()

    teacher = new_page(browser, live_server, javascript=True)
    teacher.goto("/accounts/log-in/")
    teacher.get_by_label("Username").fill("mrs_quadrille")
    teacher.get_by_label("Password").fill(PASSWORD)
    teacher.get_by_role("button", name="Log in").click()
    teacher.goto(school_class.get_absolute_url())
    teacher.get_by_role("link", name="Locked out of logging in").click()
    locked = teacher.get_by_role("table", name=re.compile("Locked now"))
    expect(locked.get_by_role("row", name=re.compile("^ada1815 from one address"))).to_be_visible()
    teacher.get_by_role("button", name="Unlock ada1815").click()
    expect(teacher.get_by_text("ada1815 is unlocked: he can log in again.")).to_be_visible()
    expect(teacher.get_by_text("No student of this class is locked out now.")).to_be_visible()
    teacher.context.close()

    _log_in(student, PASSWORD)
    expect(student.get_by_text("Logged in as", exact=True)).to_be_attached()
    student.context.close()
