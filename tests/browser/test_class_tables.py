"""A class's tables in Chromium, served by uvicorn with the live streams (issue 29): a teacher
(1280×900) opens two tables for a class of four students, who are dealt two a table; two of
them (one on a 375×740 phone, one with JavaScript off) go to their seats from the class page
and play a whole hand while the teacher watches from his spectator page, which never names a
card anyone holds; then he shows every hand to the table, and both students see them. And axe
on the tables' pages, which fit a phone."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games.models import PeopleTable
from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.classes.tables import open_for_class
from tests.browser import axe
from tests.browser.test_people_tables import _act, _hand, _holds_only_his_own, _log_in
from tests.live.test_sse import server  # noqa: F401 (the fixture)
from tests.people.conftest import PASSWORD, make_user

# Playwright's sync API runs an event loop in the test thread (tests/browser/conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 740}


@pytest.fixture
def live_poll_seconds() -> float:
    """The site's own poll (tests/live/test_sse.py's ``server`` says why)."""
    return 0.25


def _act_again_if_locked(page: Page, table: PeopleTable, seat: int, javascript: bool) -> None:
    """``_act``, and once more if nothing was stored: the test's SQLite database (in memory,
    its cache shared by the server's threads) refuses a write while another thread reads the
    table ("database table is locked": a 500 that changed nothing; the live streams poll it
    every 50 ms), where PostgreSQL or a file database waits. Seen once in four runs; the
    person presses again, as he would."""
    try:
        _act(page, table, seat, javascript)
    except AssertionError:
        page.goto(table.get_absolute_url())  # not a reload: that would post again
        _act(page, table, seat, javascript)


def test_a_teacher_watches_two_students_play_at_a_table_of_his_class(
    server: int,  # noqa: F811
    browser: Browser,
) -> None:
    base = f"http://127.0.0.1:{server}"
    Teacher.objects.create(user=make_user("teacher"))
    school_class = SchoolClass.objects.create(teacher_id=Teacher.objects.get().pk, name="Year 8")
    for name in ("ann", "bob", "cat", "dan"):
        Membership.objects.create(school_class=school_class, student=make_user(name))
    teacher = _log_in(browser, base, "teacher", viewport=DESKTOP)
    ann = _log_in(browser, base, "ann", viewport=PHONE)
    cat = _log_in(browser, base, "cat", java_script_enabled=False, viewport=DESKTOP)
    try:
        _play_at_the_class_table(school_class, teacher, ann, cat)
    finally:  # their live streams end with them, before the server stops
        for page in (teacher, ann, cat):
            page.context.close()


def _play_at_the_class_table(school_class: Any, teacher: Page, ann: Page, cat: Page) -> None:
    """The teacher opens two tables, ann (a phone) and cat (JavaScript off) play a hand at
    table 1 while he watches, then he shows every hand."""
    class_page = f"/classes/{school_class.pk}/"
    teacher.goto(class_page)
    teacher.click("text=Open tables for the class")
    teacher.fill("input[name=players]", "3")
    teacher.fill("input[name=tables]", "2")
    teacher.check("input[name=opponents][value=beginner]")
    teacher.check("input[name=seating][value=seat]")
    teacher.click("button:has-text('Open the tables')")
    expect(teacher.locator(".alert")).to_contain_text("2 tables opened")
    one = teacher.locator("#table-1")
    expect(one.locator(".seats")).to_have_text(re.compile(r"ann\s*cat\s*a computer player"))
    expect(teacher.locator("#table-2 .seats")).to_contain_text("bob")

    # Each student goes to his seat from the class page; nobody has one at table 2.
    for student in (ann, cat):
        student.goto(class_page)
        expect(student.locator("#table-2")).not_to_contain_text("Back to my seat")
        student.click("text=Back to my seat at table 1")
        expect(student).to_have_url(re.compile(r"/play/people/\d+/$"))
    table = PeopleTable.objects.get(class_table__number=1)
    assert ann.url.endswith(table.get_absolute_url())

    teacher.click("button:has-text('Start table 1')")
    expect(teacher.locator(".alert", has_text="Table 1 has started.")).to_be_visible()
    expect(teacher.locator("#table-1 h3")).to_contain_text("Playing")
    teacher.click("text=Watch table 1")
    expect(teacher).to_have_url(re.compile(rf"/play/people/{table.pk}/watch/$"))
    ann.locator("#hand-table").wait_for(timeout=5000)  # her page was told of the start

    pages, javascript = {0: ann, 1: cat}, {0: True, 1: False}
    for _ in range(60):
        hand = _hand(table)
        teacher.reload()
        if not hand.over:
            _holds_only_his_own(teacher, hand, -1)  # the spectator sees nobody's hand
        for seat, page in pages.items():
            if not javascript[seat]:
                page.reload()
            _holds_only_his_own(page, hand, seat)
        if hand.over:
            break
        assert hand.to_act in pages
        _act_again_if_locked(pages[hand.to_act], table, hand.to_act, javascript[hand.to_act])
    else:
        raise AssertionError("the hand did not end")

    teacher.reload()
    teacher.click("button:has-text('Show all hands')")
    expect(teacher.locator(".revealed")).to_be_visible()
    for page in (ann, cat):
        page.reload()
        expect(page.locator(".revealed")).to_contain_text("Every hand of this deal")
    # The class page tells where each sits, and nothing of the cards.
    cat.goto(class_page)
    expect(cat.locator("#table-1 .seats")).to_contain_text("cat (you)")
    expect(cat.locator("#table-1")).to_contain_text("Back to my seat at table 1")


def _no_serious_violations(page: Page, path: str) -> None:
    page.goto(path)
    axe.assert_nothing_serious(page, path)


def test_the_table_pages_pass_axe_and_fit_a_phone(js_page: Page) -> None:
    teacher = make_user("teacher")
    Teacher.objects.create(user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Year 8")
    for name in ("ann", "bob", "cat", "dan"):
        Membership.objects.create(school_class=school_class, student=make_user(name))
    settings = {"game": "three-card", "rules": "hoffmann", "players": 3, "opponents": "beginner"}
    open_for_class(school_class, teacher, tables=2, students_choose=False, **settings)
    open_for_class(school_class, teacher, tables=1, students_choose=True, **settings)
    pk = school_class.pk
    pages = {
        "teacher": [
            f"/classes/{pk}/",
            f"/classes/{pk}/tables/new/",
            f"/classes/{pk}/tables/1/seats/",
        ],
        "ann": [f"/classes/{pk}/"],
    }
    for name, paths in pages.items():
        js_page.context.clear_cookies()
        js_page.goto("/accounts/log-in/")
        js_page.fill("input[name=username]", name)
        js_page.fill("input[name=password]", PASSWORD)
        js_page.click("form button[type=submit]")
        js_page.wait_for_load_state()
        for path in paths:
            js_page.set_viewport_size(DESKTOP)
            _no_serious_violations(js_page, path)
            js_page.set_viewport_size(PHONE)
            js_page.goto(path)
            width = js_page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, (name, path, width)
