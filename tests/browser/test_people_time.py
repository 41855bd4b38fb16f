"""Time at a table for people in Chromium, served by uvicorn with its live streams (issue 36):
three people, one on a 375×740 phone and one with JavaScript off. On the phone the clock of
her turn counts down, and at her deadline a computer player takes her seat: her page says so
by itself, with "Back to my seat" on its first screen. The page without JavaScript, whose
form was left open past the deadline, sends a decision and is told in plain words when his
time ran out, with the button that takes his seat back."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page

from games.models import PeopleSeat, PeopleTable
from games.people import service as people
from tests.browser.test_people_tables import _accessible, _hand, _log_in, decision_button
from tests.live.test_sse import server  # noqa: F401 (the fixture)
from tests.people.conftest import decision, make_user, open_table

# Playwright's sync API runs an event loop in the test thread (tests/browser/conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PHONE = {"width": 375, "height": 740}
#: The phone's time for her decision: long enough to see the clock move before it runs out.
PHONE_SECONDS = 6


@pytest.fixture
def live_poll_seconds() -> float:
    """The site's own poll (tests/live/test_sse.py's ``server`` says why)."""
    return 0.25


def _seconds(text: str) -> int:
    minutes, seconds = text.strip().split(":")
    return int(minutes) * 60 + int(seconds)


def _until(seat: PeopleSeat) -> None:
    """Wait until the seat is back (a state waited for: a busy machine is slow)."""
    give_up = time.monotonic() + 30
    while PeopleSeat.objects.get(pk=seat.pk).away:
        assert time.monotonic() < give_up, "the seat was not taken back"
        time.sleep(0.05)


def test_the_clock_counts_down_and_the_time_out_is_said_on_a_phone_and_without_javascript(
    server: int,  # noqa: F811
    browser: Browser,
) -> None:
    base = f"http://127.0.0.1:{server}"
    users = [make_user(name) for name in ("host", "ann", "bob")]
    table = open_table(users[0], players=3)
    for user in users[1:]:
        people.sit(table, user)
    table.refresh_from_db()
    people.start(table, users[0], table.version)
    phone = _log_in(browser, base, "ann", viewport=PHONE)
    plain = _log_in(browser, base, "bob", java_script_enabled=False)
    try:
        _play(table, users, phone, plain)
    finally:  # their live streams end with them, before the server stops
        for page in (phone, plain):
            page.context.close()


def _play(table: PeopleTable, users: list[Any], phone: Page, plain: Page) -> None:
    """The host's decisions are made by the service; the phone's (seat 1) and the page
    without JavaScript's (seat 2) first turns run out."""
    done: set[int] = set()
    for _ in range(60):
        table.refresh_from_db()
        hand = _hand(table)
        if hand.over:
            people.next_hand(table, users[0], table.version)
            continue
        seat = hand.to_act
        assert seat is not None
        if seat == 1 and seat not in done:
            _runs_out_on_the_phone(table, phone)
            done.add(seat)
        elif seat == 2 and seat not in done:
            _runs_out_without_javascript(table, plain)
            done.add(seat)
        else:
            people.act(table, users[seat], decision(table, seat))
        if done == {1, 2}:
            return
    raise AssertionError(f"only {sorted(done)} had a turn")


def _runs_out_on_the_phone(table: PeopleTable, phone: Page) -> None:
    deadline = timezone.now() + timedelta(seconds=PHONE_SECONDS)
    PeopleSeat.objects.filter(table=table, number=1).update(deadline=deadline)
    phone.goto(table.get_absolute_url())
    turn = phone.locator("#people-turn")
    assert "Your turn" in turn.inner_text()
    first = _seconds(turn.locator("[data-clock]").inner_text())
    assert 0 < first <= PHONE_SECONDS
    # The clock counts down in the page.
    phone.wait_for_function(
        """(first) => {
          const clock = document.querySelector('#people-turn [data-clock]');
          if (!clock) return false;
          const [m, s] = clock.textContent.trim().split(':');
          return Number(m) * 60 + Number(s) < first;
        }""",
        arg=first,
    )
    # At the deadline a computer player takes her seat, and her page says so by itself.
    back = turn.locator("button:has-text('Back to my seat')")
    back.wait_for(timeout=30_000)
    seat = PeopleSeat.objects.get(table=table, number=1)
    assert seat.away and seat.ran_out == deadline
    ran_out = timezone.localtime(deadline).strftime("%H:%M")
    assert f"Your time ran out at {ran_out}" in turn.inner_text()
    # On the phone's first screen, beside the felt.
    bottom = phone.evaluate(
        "() => document.querySelector('#people-turn button').getBoundingClientRect().bottom"
        " + window.scrollY"
    )
    assert bottom <= PHONE["height"], bottom
    _accessible(phone)
    back.click()
    _until(seat)


def _runs_out_without_javascript(table: PeopleTable, plain: Page) -> None:
    plain.goto(table.get_absolute_url())
    turn = plain.locator("#people-turn")
    assert "Your turn" in turn.inner_text() and re.search(r"until \d\d:\d\d", turn.inner_text())
    # His form stays open past his deadline; then he decides.
    button = decision_button(plain, table, 2)
    deadline = timezone.now() - timedelta(seconds=1)
    PeopleSeat.objects.filter(table=table, number=2).update(deadline=deadline)
    button.click()
    plain.wait_for_load_state()
    ran_out = timezone.localtime(deadline).strftime("%H:%M")
    said = plain.locator("#people-turn").inner_text()
    assert f"Your time ran out at {ran_out}, so a computer player played for you" in said
    page = plain.content()
    assert "it was not played" in page and "out of date" not in page
    seat = PeopleSeat.objects.get(table=table, number=2)
    assert seat.away and seat.ran_out == deadline
    plain.locator("#people-turn button:has-text('Back to my seat')").click()
    plain.wait_for_load_state()
    _until(seat)
    assert "Back to my seat" not in plain.content()
