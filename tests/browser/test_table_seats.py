"""The table as a card table (issue 26, items 6 and 10), in Chromium: the seats fixed round the
felt from your left, the same over three deals, each trick card in front of its player, at 3, 5
and 9 players, 1280x900 and 375x740, JavaScript on and off; a refusal and a guided hand's
banner leave your cards on the screen; the header's last section can be reached and seen.

Lean: the computer players' cards arrive without motion (the reader asks for none), and each
deal is played by its first legal card."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from games.models import PracticeTable
from games.naming import seat_label
from games.table.presenting import seat_slots
from tests.profile import thorough

# The tests share one database: each plays at a table of its own, in a session of its own.
pytestmark = pytest.mark.usefixtures("shared_database")

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 740}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture
def new_page(browser: Browser, live_server: LiveServer) -> Iterator[Any]:
    contexts = []

    def make(size: ViewportSize, javascript: bool = True) -> Page:
        context = browser.new_context(
            java_script_enabled=javascript,
            base_url=live_server.url,
            viewport=size,
            reduced_motion="reduce",
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()


def _deal(page: Page, players: int, seed: int, game: str = "three-card") -> None:
    page.goto(f"/play/seed/{game}/hoffmann/{players}/{seed}/")
    page.locator("form.chooser").get_by_role("button", name="Deal these cards").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))


def _decide(page: Page) -> bool:
    """Make the human's next decision (his first legal card, or play, or the first choice);
    False when the deal is over."""
    if "is over" in page.locator("#table-status").inner_text():
        return False
    before = page.locator("input[name=version]").first.get_attribute("value")
    card = page.locator(".my-cards .card-button:not([aria-disabled])")
    play = page.locator(".my-hand button[name=choice][value=play]")
    target = card.first if card.count() else (play if play.count() else None)
    if target is None:
        target = page.locator(".my-hand .choices button, #table-waiting button").first
    target.click()
    expect(page.locator("input[name=version]").first).not_to_have_value(before or "")
    return True


def _in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }"
    )
    assert box[0] >= 0 and box[1] <= box[2], (selector, box)


#: Where each played card lies against the trick's centre, for a check of its place: the
#: left seats' cards to the left, the right seats' to the right, the top seats' above yours,
#: in the order of their seats.
_PLACES = """() => {
  const trick = document.querySelector('#table-trick .trick-ring:not([hidden] *)');
  if (!trick) return null;
  const t = trick.getBoundingClientRect();
  const cards = [...trick.querySelectorAll('li[data-card]')].map(li => {
    const r = li.getBoundingClientRect();
    return [[...li.classList].find(c => c.startsWith('at-')).slice(3), r.left + r.width / 2,
            r.top + r.height / 2];
  });
  return {cx: t.left + t.width / 2, cards};
}"""


def _check_trick(page: Page, players: int) -> int:
    """Each card of the trick shown lies in front of its player's seat; how many cards."""
    places = page.evaluate(_PLACES)
    if not places:
        return 0
    centre, cards = places["cx"], places["cards"]
    slots = seat_slots(players)
    at = {slot: (x, y) for slot, x, y in cards}
    for slot, (x, y) in at.items():
        assert slot in slots
        if slot.startswith("left"):
            assert x < centre, (slot, x, centre)
        elif slot.startswith("right"):
            assert x > centre, (slot, x, centre)
        elif slot.startswith("top") and "you" in at:
            assert y < at["you"][1], (slot, y, at["you"])
    tops = [at[s][0] for s in slots if s.startswith("top") and s in at]
    assert tops == sorted(tops), tops
    for side in ("left", "right"):
        if f"{side}-high" in at and f"{side}-low" in at:
            assert at[f"{side}-high"][1] < at[f"{side}-low"][1]
    return len(cards)


def _check_seats(page: Page, players: int) -> None:
    """The seats from your left round to your right, each in its place round the centre."""
    labels = [seat_label(s, players) for s in range(1, players)]
    names = page.locator("#table-seats .seat__name").evaluate_all(
        "els => els.map(e => e.firstChild.textContent.trim())"
    )
    assert names == labels
    boxes = page.locator("#table-seats .seat-ring > li").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.className, r.left, r.right, r.top]; })"
    )
    centre = page.locator(".felt__centre").bounding_box()
    assert centre is not None
    for (slot, left, right, top), expected in zip(boxes, seat_slots(players)[1:], strict=True):
        assert slot == f"at-{expected}"
        if expected.startswith("left"):
            assert right <= centre["x"] + 1
        elif expected.startswith("right"):
            assert left >= centre["x"] + centre["width"] - 1
        else:
            assert top < centre["y"]


# Without JavaScript every decision loads the whole page (about twice as long): make test
# tries the most crowded table so, make test-full every size (tests/profile.py).
SEAT_CASES = [
    pytest.param(
        players, size, javascript, id=f"{players}-{size}-{'js' if javascript else 'no-js'}"
    )
    for players in (3, 5, 9)
    for size in ("desktop", "phone")
    for javascript in (True, False)
    if javascript or players == 9 or thorough()
]


@pytest.mark.parametrize(("players", "size", "javascript"), SEAT_CASES)
def test_the_seats_stay_round_the_felt_over_three_deals(
    new_page: Any, players: int, size: str, javascript: bool
) -> None:
    page = new_page(SIZES[size], javascript)
    _deal(page, players, seed=players + 20)
    seen = 0
    for deal in range(3):
        for _ in range(20):
            _check_seats(page, players)
            seen += _check_trick(page, players)
            if not _decide(page):
                break
        assert "is over" in page.locator("#table-status").inner_text()
        seen += _check_trick(page, players)
        if deal < 2:
            page.get_by_role("button", name="Deal the next hand").click()
            expect(page.locator("#table-status")).not_to_contain_text("is over")
    assert seen, "no trick was seen on the felt"


def test_a_refusal_leaves_your_cards_on_a_phone(new_page: Any) -> None:
    for javascript in (True, False):
        page = new_page(PHONE, javascript)
        _deal(page, 5, seed=1)
        for _ in range(6):
            illegal = page.locator(".my-cards .card-button[aria-disabled=true]")
            if illegal.count():
                break
            assert _decide(page)
        illegal.first.click(force=True)
        expect(page.locator(".alerts .alert--error")).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        _in_view(page, ".alerts .alert--error")
        _in_view(page, ".my-hand .my-cards")


def test_a_guided_hand_leaves_your_cards_above_the_fold(
    new_page: Any, live_server: LiveServer
) -> None:
    page = new_page(DESKTOP)
    _deal(page, 5, seed=11, game="five-card")
    # A lesson's banner, as long as the longest the course shows.
    guide = dict(lesson="Follow suit", rule="follow-suit", back="/learn/")
    guide["banner"] = (
        "Watch the first card of each trick: while you hold a card of its suit you must play "
        "one, and only when you hold none may you trump or throw away any other card."
    )
    PracticeTable.objects.filter(pk=page.url.rstrip("/").rsplit("/", 1)[1]).update(guide=guide)
    page.reload()
    expect(page.locator(".guide")).to_contain_text("only when you hold none")
    decisions = 0
    for _ in range(12):
        if "is over" in page.locator("#table-status").inner_text():
            break
        page.evaluate("window.scrollTo(0, 0)")
        _in_view(page, ".my-hand .my-cards, .my-hand .choices, #table-waiting")
        decisions += _decide(page)
    assert decisions >= 3


def test_every_section_of_the_header_is_on_a_phones_screen(new_page: Any) -> None:
    page = new_page(PHONE)
    for path in ("/", "/play/", "/learn/"):
        page.goto(path)
        links = page.locator(".site-nav li a")
        expect(links.last).to_have_text("Classes")
        nav = page.locator(".site-nav ul").bounding_box()
        assert nav is not None
        # Every section wholly on the screen as the page opens, none scrolled out of sight;
        # the sections take two lines at most.
        for box in (links.nth(i).bounding_box() for i in range(links.count())):
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
            assert box["y"] + box["height"] <= nav["y"] + nav["height"] + 1, box
        assert nav["height"] < 80, nav
        links.last.focus()
        expect(links.last).to_be_focused()
