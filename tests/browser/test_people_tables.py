"""A table for people in Chromium, served by a real ASGI server (uvicorn) with its live
streams: three people in three browser contexts (one with JavaScript off, one a 375×740 phone)
play a whole hand to the end, each page holding only its own player's cards; then a player's
time runs out, a computer player takes his seat, and he comes back to it."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games.loo.hand import Hand
from games.loo.view import view_for
from games.models import PeopleSeat, PeopleTable
from games.people.driver import DRIVER
from tests.live.test_sse import server  # noqa: F401 (the fixture)
from tests.people.conftest import PASSWORD, make_user

# Playwright's sync API runs an event loop in the test thread (tests/browser/conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

NAMES = ("host", "ann", "bob")


@pytest.fixture
def live_poll_seconds() -> float:
    """The site's own poll (tests/live/test_sse.py's ``server`` says why)."""
    return 0.25


def _log_in(browser: Browser, base: str, name: str, **context: Any) -> Page:
    page = browser.new_context(base_url=base, **context).new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/log-in/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    return page


def _accessible(page: Page) -> None:
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def fits_a_phone(page: Page) -> None:
    """Nothing on ``page`` (375 px wide) is wider than the screen, and each button shown is a
    target a finger can press (24 px high at least: WCAG 2.5.8)."""
    assert page.viewport_size is not None and page.viewport_size["width"] == 375
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, (page.url, width)
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll('main button'))
            .map((b) => [b.textContent.trim(), b.getBoundingClientRect().height])
            .filter(([, h]) => h > 0 && h < 24)"""
    )
    assert small == [], (page.url, small)


def _hand(table: PeopleTable) -> Hand:
    """The table's hand once its computer players have made every step due (each a change of
    its own, made by the server's driver at their pace): a person's turn, or the hand over."""
    give_up = time.monotonic() + 30  # a state waited for: a busy machine is slow
    table.refresh_from_db()
    while table.bot_due is not None:
        assert time.monotonic() < give_up, "the computer players did not play"
        time.sleep(0.05)
        table.refresh_from_db()
    hand = table.to_engine().hand
    assert hand is not None
    return hand


def _holds_only_his_own(page: Page, hand: Hand, seat: int) -> None:
    """No card another player holds now is named anywhere on ``seat``'s page."""
    html = page.content()
    for other, cards in enumerate(hand.hands):
        if other != seat:
            for c in cards:
                assert c.label not in html, (seat, c.label)


def _settled(page: Page, javascript: bool) -> None:
    """With JavaScript, wait until the others' cards have all arrived (play.js: a click while
    they arrive only hurries them on)."""
    if javascript:
        page.wait_for_function(
            "() => !document.querySelector('.is-pending, .my-hand.is-waiting')", timeout=15000
        )


def _act(page: Page, table: PeopleTable, seat: int, javascript: bool) -> None:
    """The person at ``seat`` makes a legal decision on his page (he plays, and his lowest
    legal card)."""
    if not javascript:
        page.reload()
    button = decision_button(page, table, seat)
    # With JavaScript the page was told of the others' plays: his form comes by itself, and
    # the tab's title says it is his turn (a background tab shows it).
    button.wait_for()
    if javascript:
        expect(page).to_have_title(re.compile(r"^Your turn"))
    _stored(page, button, table, javascript)


def decision_button(page: Page, table: PeopleTable, seat: int) -> Any:
    """The button of a legal decision of ``seat`` now on his page (he plays, and his lowest
    legal card)."""
    options = view_for(_hand(table), seat).options
    assert options is not None
    if options.kind == "play":
        assert options.legal is not None
        code = sorted(c.code for c in options.legal.legal)[0]
        return page.locator(f"button[name=card][value='{code}']")
    choice = "play" if "play" in options.choices else options.choices[0]
    return page.locator(f"button[name=choice][value='{choice}']")


def _stored(page: Page, button: Any, table: PeopleTable, javascript: bool) -> None:
    """Press ``button`` once the page has settled, and wait until the table has stored what it
    sent (with JavaScript, htmx sends it)."""
    _settled(page, javascript)
    before = PeopleTable.objects.get(pk=table.pk).version
    button.click()
    give_up = time.monotonic() + 30  # a state waited for: a busy machine is slow
    while PeopleTable.objects.get(pk=table.pk).version == before:
        assert time.monotonic() < give_up, "nothing was stored"
        time.sleep(0.05)


def test_three_people_play_a_hand_and_one_comes_back_after_his_time_ran_out(
    server: int,  # noqa: F811
    browser: Browser,
) -> None:
    base = f"http://127.0.0.1:{server}"
    for name in NAMES:
        make_user(name)
    host = _log_in(browser, base, "host")
    phone = _log_in(browser, base, "ann", viewport={"width": 375, "height": 740})
    plain = _log_in(browser, base, "bob", java_script_enabled=False)
    javascript = {0: True, 1: True, 2: False}
    pages = {0: host, 1: phone, 2: plain}
    try:
        _play(pages, javascript)
    finally:  # their live streams end with them, before the server stops
        for page in pages.values():
            page.context.close()
        DRIVER.forget()  # no computer player's step after the database is emptied


def _play(pages: dict[int, Page], javascript: dict[int, bool]) -> None:
    """The hand, and the time running out: the host at seat 0, the phone at 1, bob's page
    without JavaScript at 2."""
    host, phone, plain = pages[0], pages[1], pages[2]
    host.goto("/play/people/new/")
    _accessible(host)
    host.check("input[name=opponents][value=beginner]")
    host.fill("input[name=players]", "5")
    host.click("button:has-text('Open the table')")
    code = host.locator(".join-code__code").inner_text()
    table = PeopleTable.objects.get(code=code)
    _accessible(host)
    phone.goto("/play/people/join/")
    fits_a_phone(phone)
    phone.fill("input[name=code]", code.lower())
    phone.click("button:has-text('Find the table')")
    fits_a_phone(phone)
    phone.click("button:has-text('Take a seat')")
    fits_a_phone(phone)
    plain.goto(f"/play/people/join/{code}/")
    plain.click("button:has-text('Take a seat')")
    # The host's page is told of those who sat.
    host.locator("#people-bar", has_text="bob").wait_for(timeout=5000)
    host.click("button:has-text('Start')")
    phone.locator("#hand-table").wait_for(timeout=5000)  # the phone's page was told
    _settled(phone, True)
    _accessible(phone)
    fits_a_phone(phone)

    for _ in range(60):
        hand = _hand(table)
        for seat, page in pages.items():
            if not javascript[seat]:
                page.reload()
            _holds_only_his_own(page, hand, seat)
        if hand.over:
            break
        seat = hand.to_act
        assert seat in pages
        _act(pages[seat], table, seat, javascript[seat])
    else:
        raise AssertionError("the hand did not end")
    for page in pages.values():
        page.reload()
        assert "Settlement" in page.content()
    fits_a_phone(phone)

    # The next hand; the first person to act lets his time run out.
    deal = host.locator("button:has-text('Deal the next hand')")
    for _ in range(10):
        _stored(host, deal, table, True)
        hand = _hand(table)
        if not hand.over:
            break
    seat = hand.to_act
    assert seat in pages
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    page = pages[seat]
    page.reload()  # a request after the deadline: the seat is taken over, and it says so
    page.locator("button:has-text('Back to my seat')").wait_for()
    row = PeopleSeat.objects.get(table=table, number=seat)
    assert row.away
    assert _hand(table).to_act != seat or _hand(table).over  # a computer player decided
    page.click("button:has-text('Back to my seat')")
    page.wait_for_load_state()
    assert not PeopleSeat.objects.get(table=table, number=seat).away
    assert "Back to my seat" not in page.content()
