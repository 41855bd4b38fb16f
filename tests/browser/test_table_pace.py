"""The felt leads (issue 26, items 3, 4, 5, 7): while the computer players' cards arrive the
seats and the side panel show what they showed before, and the key that skips the cards acts
on nothing; focus is on the first decision after a deal, with JavaScript and without; the pace
is remembered, instant gives the turn back at once, and "Next trick" holds a finished trick
until it is pressed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

# The tests share one database: each plays at a table of its own, in a session of its own.
pytestmark = pytest.mark.usefixtures("shared_database")

#: The player's next decision, in the order play.js and the server's autofocus choose it.
DECISION = (
    ".my-cards .card-button:not([aria-disabled])",
    ".my-hand .discards input, .my-hand .choices button",
)


@pytest.fixture
def slow_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _deal(page: Page) -> None:
    """A new table: Hoffmann's three-card Loo, five players."""
    page.goto("/play/")
    page.get_by_role("button", name="Deal me a hand").click()
    expect(page.locator("#table-status")).to_be_visible()


def _set_pace(page: Page, pace: str, wait: bool = False) -> None:
    form = page.locator("#table-pace")
    form.locator(f"input[value={pace}]").check()
    form.locator("input[name=wait]").set_checked(wait)
    form.get_by_role("button", name="Set the pace").click()
    expect(page.locator(f"#table-pace input[value={pace}]")).to_be_checked()


def _decision(page: Page) -> Locator:
    for selector in DECISION:
        if page.locator(selector).count():
            return page.locator(selector).first
    return page.get_by_role("button", name="Deal the next hand")


def _over(page: Page) -> bool:
    return "is over" in page.locator("#table-status").inner_text()


def _act(page: Page, *, key: bool = False) -> None:
    """Make the first decision (Enter on it, or a click) and wait until the new table is in
    place (the cards may still be arriving)."""
    page.evaluate("document.getElementById('hand-table').setAttribute('data-old', '')")
    target = _decision(page)
    if key:
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()
    page.locator("#hand-table[data-old]").wait_for(state="detached")


def _arriving(page: Page) -> bool:
    return bool(page.locator(".table-status--wait").count())


def _posts(page: Page) -> list[str]:
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    return posts


def _stop_the_clock(page: Page) -> None:
    """The page's timers stand still (Playwright's clock) till ``page.clock.resume()``: what
    it shows while the cards arrive is looked at without racing the pace (a card every
    0.45 s at the slow one, which a busy machine's few round trips could outrun)."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # seconds, in Python


def test_the_seats_and_the_panel_never_run_ahead_of_the_felt(slow_page: Page) -> None:
    page = slow_page
    page.clock.install()
    _deal(page)
    _set_pace(page, "slow")
    for _ in range(30):
        if _over(page):
            _act(page)  # "Deal the next hand", and the new table in place
            continue
        # The cards of the last answer have all arrived: the seats and panel are the new ones.
        expect(page.locator(".table-status--wait")).to_have_count(0, timeout=20_000)
        seats = page.locator("#table-seats").inner_text()
        panels = page.locator(".table-panels").inner_text()
        _stop_the_clock(page)
        _act(page)
        if not _arriving(page):
            page.clock.resume()
            continue
        # The cards arrive: the seats and the panel are the old ones, and cannot be used.
        assert page.locator("#table-seats").inner_text() == seats
        assert page.locator(".table-panels").inner_text() == panels
        assert page.locator(".table-panels").evaluate("e => e.inert")
        assert page.locator("#table-trick .is-pending").count()
        page.clock.resume()
        # Once the last card is shown (here at the slow pace, unskipped): the new ones.
        expect(page.locator(".table-status--wait")).to_have_count(0, timeout=20_000)
        expect(page.locator("#table-trick .is-pending")).to_have_count(0)
        assert page.locator("#table-seats").inner_text() != seats
        assert page.locator(".table-panels").inner_text() != panels
        assert not page.locator(".table-panels").evaluate("e => e.inert")
        expect(_decision(page)).to_be_focused()
        return
    pytest.fail("no computer player's card arrived")


def _requests_seen(page: Page) -> None:
    """Every request the page has made so far has been reported (``page.on("request")``): a
    request made after them is. No time waited for a request that might come."""
    with page.expect_request(lambda r: "barrier" in r.url):
        page.evaluate(
            "fetch(document.querySelector('script[src*=play]').src + '?barrier',"
            " {cache: 'no-store'}).catch(() => {})"
        )


def test_enter_while_the_cards_arrive_plays_nothing(slow_page: Page) -> None:
    page = slow_page
    _deal(page)
    _set_pace(page, "slow")
    posts = _posts(page)
    for _ in range(30):
        if _over(page):
            _act(page)  # "Deal the next hand", and the new table in place
            continue
        # htmx settles a swapped table 20 ms after the swap; here a second after it (on this
        # page: a deal may have loaded another), so that the key below always comes before
        # the settling, which must not take focus from the decision the key hurried on to
        # (it went to the status line when the key came first: seen in CI).
        page.evaluate("htmx.config.defaultSettleDelay = 1000")
        _act(page, key=True)
        if not _arriving(page) or _over(page):
            continue
        version = page.locator("#hand-table input[name=version]").first.input_value()
        sent = len(posts)
        # Focus is on no control of the next decision while the cards arrive.
        assert page.evaluate("!document.activeElement.closest('.my-hand, .table-panels')")
        # Enter, held down (so that it repeats once the turn is back), then released.
        page.keyboard.down("Enter")
        expect(page.locator(".table-status--wait")).to_have_count(0)  # skipped
        page.keyboard.down("Enter")
        page.keyboard.up("Enter")
        _requests_seen(page)
        assert len(posts) == sent, posts[sent:]
        # Settled: nothing moves focus after this.
        expect(page.locator("#hand-table.htmx-settling")).to_have_count(0)
        assert page.locator("#hand-table input[name=version]").first.input_value() == version
        expect(_decision(page)).to_be_focused()
        return
    pytest.fail("no computer player's card arrived while a decision followed")


def test_focus_is_on_the_first_decision_after_a_deal(page: Page) -> None:
    _deal(page)
    _set_pace(page, "instant")
    expect(_decision(page)).to_be_focused()
    for _ in range(20):
        if _over(page):
            break
        _act(page)
        expect(_decision(page)).to_be_focused()
    deal = page.get_by_role("button", name="Deal the next hand")
    expect(deal).to_be_focused()
    deal.press("Enter")
    expect(page.locator("#table-status")).not_to_contain_text("is over")
    expect(_decision(page)).to_be_focused()


def test_the_pace_is_remembered_and_instant_gives_the_turn_back_at_once(
    slow_page: Page,
) -> None:
    page = slow_page
    _deal(page)
    _set_pace(page, "instant")
    _deal(page)  # another table, another page: the same pace
    expect(page.locator("#table-pace input[value=instant]")).to_be_checked()
    played = 0
    for _ in range(20):
        if _over(page):
            _act(page)  # "Deal the next hand", and the new table in place
            continue
        before = page.locator("#table-trick li[data-card]").count()
        _act(page)
        # At once, as the table is swapped: no card to wait for, the turn is back.
        assert not _arriving(page)
        assert page.locator("#table-trick .is-pending").count() == 0
        played += page.locator("#table-trick li[data-card]").count() > before + 1
        if played >= 2:
            break
    assert played, "the computer players never played after you"


def test_next_trick_holds_a_finished_trick_until_pressed(slow_page: Page) -> None:
    page = slow_page
    _deal(page)
    _set_pace(page, "fast", wait=True)
    for _ in range(40):
        if _over(page):
            _act(page)  # "Deal the next hand", and the new table in place
            continue
        # The cards of the last answer have all arrived: the seats are the new ones.
        expect(page.locator(".table-status--wait")).to_have_count(0, timeout=20_000)
        seats = page.locator("#table-seats").inner_text()
        _act(page)
        if not page.locator("#table-trick .trick-previous:not([hidden])").count():
            continue
        button = page.get_by_role("button", name="Next trick")
        expect(button).to_be_focused()
        page.wait_for_timeout(1_500)  # longer than any hold
        expect(button).to_be_visible()
        expect(page.locator("#table-trick .trick-previous")).to_be_visible()
        assert page.locator("#table-seats").inner_text() == seats
        expect(page.locator("#table-live")).to_contain_text("took it")
        button.press("Enter")
        expect(button).to_have_count(0)
        expect(page.locator("#table-trick .trick-previous")).to_be_hidden()
        expect(page.locator(".table-status--wait")).to_have_count(0)
        expect(page.locator("#table-status")).to_be_visible()
        expect(_decision(page)).to_be_focused()
        return
    pytest.fail("no finished trick was followed by the computer players' cards")


def test_a_refused_card_brings_no_card_back_to_the_felt(slow_page: Page) -> None:
    """A card the rules forbid is refused and nothing arrives: the last trick, which the
    answer brings back hidden, is not played again as if its cards were new."""
    page = slow_page
    _deal(page)
    for _ in range(80):
        page.keyboard.press("Escape")
        expect(page.locator(".table-status--wait")).to_have_count(0)
        forbidden = page.locator(".my-cards .card-button[aria-disabled]")
        if forbidden.count() and page.locator("#table-trick .trick-previous").count():
            page.evaluate("document.getElementById('hand-table').setAttribute('data-old', '')")
            forbidden.first.click(force=True)
            page.locator("#hand-table[data-old]").wait_for(state="detached")
            expect(page.locator(".alerts .alert--error")).to_be_visible()
            assert not _arriving(page), "'The others play…' after a refused card"
            assert page.locator("#table-trick .trick-previous").is_hidden()
            assert not page.locator("#table-trick .is-pending").count()
            return
        _act(page)
    pytest.fail("no card was forbidden after a first trick")
