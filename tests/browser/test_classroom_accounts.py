"""A whole class made at once, in Chromium (issue 27): a teacher pastes 100 names, some in
other scripts, and gets the printable page of usernames and one-time passwords in one
request; a student logs in with his and is asked to choose his own.

The teacher and his empty class are made in the database (how they are made through the
pages is test_classroom.py's path); the accounts only through the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import MAX_STUDENTS, SchoolClass, Teacher

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase 7"
NAMES = ["Анна Иванова", "Γιώργος Παπαδόπουλος"] + [
    f"Pupil {i:03d}" for i in range(MAX_STUDENTS - 2)
]


def _log_in(page: Page, username: str, password: str) -> None:
    page.goto("/accounts/log-in/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_a_teacher_makes_a_class_of_100_and_a_student_logs_in_with_his_slip(
    browser: Browser, js_page: Page, live_server: LiveServer
) -> None:
    teacher = User.objects.create_user("mrs_quadrille", password=PASSWORD)
    Teacher.objects.create(user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Loo on Fridays")
    page = js_page

    _log_in(page, "mrs_quadrille", PASSWORD)
    page.goto(school_class.get_absolute_url())
    page.get_by_role("link", name="Add students").click()
    page.get_by_label("Your students' names, one a line").fill("\n".join(NAMES))
    page.get_by_role("button", name="Make the accounts").click()

    expect(page.get_by_text("Shown once.")).to_be_visible()
    rows = page.locator("table.passwords tbody tr")
    expect(rows).to_have_count(MAX_STUDENTS)
    first = rows.nth(0).locator("td")
    assert [first.nth(i).inner_text() for i in range(2)] == ["Анна Иванова", "AnnaIvanova"]
    assert rows.nth(1).locator("td").nth(1).inner_text() == "GiorgosPapadopoylos"
    password = first.nth(2).inner_text()

    context = browser.new_context(base_url=live_server.url)
    student = context.new_page()
    student.set_default_timeout(10_000)
    _log_in(student, "AnnaIvanova", password)
    expect(student.get_by_text("Choose your own password first")).to_be_visible()
    # Shown as a message (the page has the alerts' styles), and said once.
    notice = student.locator(".alert", has_text="Choose your own password first")
    expect(notice).to_have_css("background-color", "rgb(237, 247, 240)")
    expect(student.get_by_text("works only once")).to_have_count(1)
    context.close()
