"""An honest table, in Chromium (issue 26): a decision is taken back only until something
hidden is shown because of it, an honest table offers none, and a shared hand's link cannot
deal its table's next hand. With JavaScript on (htmx) and off (forms and redirects)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.loo.hand import stack_pack
from games.loo.rulesets import RuleSet
from games.models import PracticeTable

# The tests share one database: each plays at a table of its own, in a session of its own.
# Every request on the live server's own threads (which share the test's connection on
# SQLite): either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

TAKE_BACK = "Take back your last decision"
REFUSED = "Your last decision cannot be taken back."


@pytest.fixture(autouse=True)
def _cards_at_once(page: Page) -> None:
    """The computer players' cards arrive without motion (the reader asks for none): their
    pace is test_table_pace's and test_card_table's to try; here it only cost 450 ms a card and
    1.2 s a trick (30 s of the shared hand's 35)."""
    page.emulate_media(reduced_motion="reduce")


def _seeded(page: Page, game: str, players: int, seed: int, mode: str) -> None:
    """A Hoffmann table from the shareable link of ``seed``, take-backs offered."""
    page.goto(f"/play/seed/{game}/hoffmann/{players}/{seed}/")
    form = page.locator("form.chooser")
    form.locator(f"input[name=mode][value={mode}]").check()
    form.locator("input[name=takebacks][value=offered]").check()
    form.get_by_role("button", name="Deal these cards").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))


def _no_take_back(page: Page, reason: str) -> None:
    expect(page.get_by_role("button", name=TAKE_BACK)).to_have_count(0)
    expect(page.locator("p.take-back")).to_have_text(f"{REFUSED} {reason}")


@pytest.mark.parametrize("mode", ["learning", "laws"])
def test_the_miss_taken_is_not_taken_back(page: Page, mode: str) -> None:
    for seed in range(1, 40):
        _seeded(page, "three-card", 3, seed, mode)
        if page.get_by_role("button", name="Take miss").count():
            break
    else:
        raise AssertionError("no deal offered the miss at the first decision")

    page.get_by_role("button", name="Take miss").click()

    _no_take_back(page, "You have seen the miss.")


def test_cards_drawn_are_not_taken_back_in_laws_mode(page: Page) -> None:
    for seed in range(1, 40):
        _seeded(page, "five-card", 3, seed, "laws")
        if page.locator("input[name=discards]").count():
            break
    else:
        raise AssertionError("no deal let the human draw at his first decision")

    page.locator("input[name=discards]").first.check()
    page.get_by_role("button", name=re.compile(r"^Play")).click()

    _no_take_back(page, "You have seen the cards you drew.")


def test_a_declaration_the_others_answered_is_not_taken_back(page: Page) -> None:
    _seeded(page, "three-card", 5, 3, "learning")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()

    page.get_by_role("button", name="Play", exact=True).click()

    _no_take_back(
        page, "The others have played since your last decision: you have seen their answers."
    )


def _stacked_for(page: Page) -> PracticeTable:
    """A table in the page's browser session whose deal the test knows: the human deals (so
    plays last to each trick) with three trumps, the others hold none; a must, so everyone
    plays."""
    page.goto("/play/")
    page.get_by_role("button", name="Deal me a hand").click()  # the browser's session
    cookie = next(c for c in page.context.cookies() if c["name"] == "sessionid")
    rules = RuleSet.preset("hoffmann")
    hands = [["AS", "KS", "QS"], ["2H", "3H", "4H"], ["2C", "3C", "4C"]]
    return PracticeTable.deal_new(
        game="three-card",
        rules="hoffmann",
        players=3,
        seed=1,
        opponents="beginner",
        laws=False,
        session_key=cookie["value"],
        first_pack=stack_pack("three-card", rules, 3, 0, hands, "9S"),
        first_dealer=0,
        start="after-no-loo",
    )


def test_a_trick_won_is_taken_back_before_anything_is_shown(page: Page) -> None:
    practice = _stacked_for(page)
    page.goto(practice.get_absolute_url())
    page.get_by_role("button", name="Play", exact=True).click()
    cards = page.locator(".my-hand .pcard").all_inner_texts()

    # His queen of trumps takes the first trick: his lead, nobody has answered.
    page.locator("button.card-button:not([aria-disabled])", has_text="Q").first.click()

    expect(page.get_by_role("button", name=TAKE_BACK)).to_be_visible()
    expect(page.locator("#take-back-help")).to_contain_text("Offered only until something hidden")
    page.get_by_role("button", name=TAKE_BACK).click()
    expect(page.locator(".my-hand .pcard")).to_have_count(len(cards))


def test_an_honest_table_offers_no_take_back(page: Page) -> None:
    page.goto("/play/")
    form = page.locator("form.chooser")
    form.locator("input[name=takebacks][value=honest]").check()
    form.get_by_role("button", name="Deal", exact=True).click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    honest = "This is an honest table: no decision is taken back, as at a real table."
    expect(page.locator("p.take-back")).to_have_text(honest)

    page.locator(".choices button, button.card-button:not([aria-disabled])").first.click()

    expect(page.get_by_role("button", name=TAKE_BACK)).to_have_count(0)
    expect(page.locator("p.take-back")).to_have_text(honest)


def _play_out(page: Page) -> None:
    status = page.locator("#table-status")
    for _ in range(60):
        if "is over" in status.inner_text():
            return
        before = page.locator("input[name=version]").first.input_value()
        legal = page.locator("button.card-button:not([aria-disabled])")
        if legal.count():
            legal.first.click()
        else:
            page.locator(".choices button").first.click()
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    raise AssertionError("the hand did not end")


def _next_hand(page: Page) -> tuple[int, list[str]]:
    """Play the hand out, deal the next, and give its number and the human's cards in it. A
    deal that ends before the human holds his cards (a flush shown at once, everyone passing
    before him) is passed over: the next is dealt."""
    for _ in range(8):
        _play_out(page)
        before = page.locator("input[name=version]").first.input_value()
        page.get_by_role("button", name="Deal the next hand").click()
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
        cards = page.locator(".my-hand .pcard").all_inner_texts()
        if cards and "is over" not in page.locator("#table-status").inner_text():
            # The stakes' heading, in the table itself (an htmx swap leaves the title alone).
            heading = page.locator("#stakes-title").text_content() or ""
            found = re.match(r"Deal (\d+)", heading)
            assert found, heading
            return int(found.group(1)), cards
    raise AssertionError("no deal left the human his cards")


def test_a_shared_hand_opened_elsewhere_cannot_deal_the_tables_next_hand(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    _seeded(page, "five-card", 4, 8, "learning")
    _play_out(page)
    link = page.locator("p.share a").get_attribute("href")
    assert link and "/play/shared/" in link

    friend = browser.new_context(base_url=live_server.url, reduced_motion="reduce")
    other = friend.new_page()
    other.goto(link)
    expect(other.get_by_role("heading", level=1)).to_contain_text("Replay of a shared deal")
    other.get_by_role("button", name="Play this deal yourself").click()
    expect(other).to_have_url(re.compile(r"/play/\d+/$"))
    theirs = _next_hand(other)
    mine = _next_hand(page)
    # The same deal's number at both tables (one may have passed over a deal that ended at once).
    for _ in range(6):
        if mine[0] == theirs[0]:
            break
        if mine[0] < theirs[0]:
            mine = _next_hand(page)
        else:
            theirs = _next_hand(other)
    friend.close()
    assert mine[0] == theirs[0], (mine, theirs)
    assert sorted(mine[1]) != sorted(theirs[1])
