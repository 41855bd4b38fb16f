"""The people together at a table for people, in Chromium, served by uvicorn with the live
streams: once a hand is over a latecomer (his page without JavaScript) takes a computer
player's seat by the join link, and the others' pages are told; a fixed phrase he says
reaches another person's page; a page whose stream drops says "Reconnecting…" until it is
back, and is then told what it missed; the host's "Same people, new game" opens a new table
where each of them takes his own seat, and the host starts it; and a person whose open live
pages reach the cap reads why on the page that was refused, which still shows the table when
reloaded, and goes live by itself once he closes another."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from playwright.sync_api import Browser, Page, expect

from games.models import PeopleSeat, PeopleTable
from tests.browser.test_people_tables import (  # noqa: F401 (live_poll_seconds: the fixture)
    _accessible,
    _log_in,
    live_poll_seconds,
)
from tests.live.test_sse import server  # noqa: F401 (the fixture)
from tests.people.conftest import make_user, play_to_end, started

# Playwright's sync API runs an event loop in the test thread (tests/browser/conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def _seated(table: PeopleTable) -> dict[int, str]:
    return {
        s.number: s.user.get_username()
        for s in PeopleSeat.objects.filter(table=table, left=None).exclude(user=None)
    }


def test_a_latecomer_sits_a_phrase_reaches_the_others_and_rematch_keeps_the_people(
    server: int,  # noqa: F811
    browser: Browser,
) -> None:
    base = f"http://127.0.0.1:{server}"
    table, users = started(("host", "ann"), players=3)  # seat 2: a computer player
    table = play_to_end(table, users)
    make_user("cat")
    pages: dict[str, Page] = {
        "host": _log_in(browser, base, "host"),
        "ann": _log_in(browser, base, "ann", viewport={"width": 375, "height": 740}),
        "cat": _log_in(browser, base, "cat", java_script_enabled=False),
    }
    try:
        _together(table, pages)
    finally:  # their live streams end with them, before the server stops
        for page in pages.values():
            page.context.close()


def _together(table: PeopleTable, pages: dict[str, Any]) -> None:
    host, ann, cat = pages["host"], pages["ann"], pages["cat"]
    for page in (host, ann):
        page.goto(table.get_absolute_url())
        expect(page.locator("#people-bar")).to_contain_text("At the table now")

    # The hand is over: cat takes the computer player's seat by the join link.
    cat.goto(table.join_url)
    cat.click("button:has-text('Take this seat')")
    expect(cat.locator("body")).to_contain_text("you play it from the next deal")
    assert _seated(table) == {0: "host", 1: "ann", 2: "cat"}
    table.refresh_from_db()
    assert table.hand_over  # the hand just over was not changed
    # The others' pages are told (their live streams): cat is at the table.
    expect(host.locator(".presence")).to_contain_text("cat")
    _accessible(host)  # the host's forms, who is here, the phrases

    # A fixed phrase of his reaches ann's page.
    cat.click("button:has-text('Good game')")
    expect(ann.locator(".phrases__said")).to_contain_text("cat: “Good game”")

    # Ann's phone loses the network: her page says so while its stream is down, and no more
    # once it is back, with what was said meanwhile. (Chromium's offline mode fails new
    # requests only: the open stream is cut by stopping the page's loads, as a dropped
    # connection cuts it.)
    status = ann.locator("[data-live-status]")
    expect(status).to_be_hidden()
    ann.context.set_offline(True)
    ann.evaluate("window.stop()")
    expect(status).to_be_visible()
    expect(status).to_have_text("Reconnecting…")
    cat.click("button:has-text('Thank you')")
    ann.context.set_offline(False)
    # The page tries again by itself, later and later (htmx's SSE extension): a few seconds.
    expect(status).to_be_hidden(timeout=30_000)
    expect(ann.locator(".phrases__said")).to_contain_text("cat: “Thank you”")

    # The host: same people, new game. Nobody else is seated by it.
    host.click("button:has-text('Same people, new game')")
    expect(host.locator("#people-bar")).to_contain_text("Waiting for players")
    table.refresh_from_db()
    new = table.rematch
    assert new is not None and _seated(new) == {0: "host"}
    # Each of the others is offered his seat on the old table's page, and takes it.
    ann.click("a:has-text('take your seat at the new table')")
    ann.click("button:has-text('Take a seat')")
    cat.reload()
    cat.click("a:has-text('take your seat at the new table')")
    cat.click("button:has-text('Take a seat')")
    assert set(_seated(new).values()) == {"host", "ann", "cat"}
    expect(host.locator("#people-bar")).to_contain_text("cat")  # told live, as they sat
    host.click("button:has-text('Start')")
    ann.locator("#hand-table").wait_for()  # ann's page was told the table started
    assert PeopleTable.objects.get(pk=new.pk).status == "playing"
    _too_many_live_pages(new, ann, cat)


#: One live page open at once per account (24 on the site): ann's second is refused.
ONE_AT_ONCE = {**settings.RATE_LIMITS, "people-streams-per-account": (1, 60)}


def _too_many_live_pages(table: PeopleTable, ann: Page, cat: Page) -> None:
    """Ann's page of the table holds her one live page; a second tab of it is refused its
    stream: it says so in plain words, still shows the table as it is when reloaded, and goes
    live by itself once she closes the first. (A page without JavaScript opens no stream: it
    is never refused, and comes again by itself.)"""
    with override_settings(RATE_LIMITS=ONE_AT_ONCE):
        second = ann.context.new_page()
        second.goto(table.get_absolute_url())
        status = second.locator("[data-live-status]")
        expect(status).to_contain_text("Live updates are off on this page")
        expect(status).to_contain_text("Too many live pages of tables are open")
        expect(status).to_contain_text("reload it to see the table as it is now")
        # What happens at the table reaches her first page, not the second, until reloaded.
        cat.goto(table.get_absolute_url())
        cat.click("button:has-text('One moment')")
        expect(ann.locator(".phrases__said")).to_contain_text("cat: “One moment”")
        expect(second.locator(".phrases")).not_to_contain_text("cat: “One moment”")
        second.reload()
        expect(second.locator(".phrases__said")).to_contain_text("cat: “One moment”")
        expect(status).to_contain_text("Live updates are off on this page")
        # She closes the first: the second goes live by itself (it tries again, later and
        # later: a few seconds).
        ann.close()
        expect(status).to_be_hidden(timeout=40_000)
        cat.click("button:has-text('Good game')")
        expect(second.locator(".phrases__said")).to_contain_text("cat: “Good game”")
