"""Club law chosen at a practice table, and a player's statistics, in Chromium on a 375 px
phone with JavaScript off, by keyboard (issue 38, the player's side): both are plain forms,
links and server-drawn pages."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.loo.bots import BeginnerBot
from games.loo.view import view_for
from games.models import PracticeTable
from games.naming import HUMAN
from tests.browser import axe

from .conftest import PHONE, TIMEOUT_MS

pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

PASSWORD = "a long pass phrase"


@pytest.fixture
def no_js_phone(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(
        java_script_enabled=False, base_url=live_server.url, viewport=PHONE
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _by_keyboard(page: Page, selector: str) -> None:
    """Focus ``selector``'s element and press Space, as a keyboard user does on a radio
    button or a checkbox."""
    page.locator(selector).focus()
    page.keyboard.press("Space")


def test_club_law_is_chosen_on_a_phone_without_javascript(
    no_js_phone: Page, shared_content: None
) -> None:
    page = no_js_phone
    page.goto("/play/")
    _fits(page)
    form = page.locator("form.chooser")
    _by_keyboard(page, "form.chooser input[name=game][value=three-card]")
    _by_keyboard(page, "form.chooser input[name=rules][value=parlett]")
    _by_keyboard(page, "form.chooser input[name=variations][value=club-law]")
    expect(form.locator("input[name=variations][value=club-law]")).to_be_checked()
    form.get_by_role("button", name="Deal", exact=True).focus()
    page.keyboard.press("Enter")
    # Refused in plain words, the choice kept, and the page still fits.
    expect(
        page.get_by_role("alert").filter(has_text="Parlett (modern) gives club law")
    ).to_be_visible()
    expect(page.locator("form.chooser input[name=variations][value=club-law]")).to_be_checked()
    _fits(page)
    _by_keyboard(page, "form.chooser input[name=game][value=five-card]")
    page.locator("form.chooser").get_by_role("button", name="Deal", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Five-card Loo under Parlett (modern) with club law"
    )
    agreed = page.locator("#table-variations")
    expect(agreed.locator("summary")).to_have_text("Variations agreed: Club law")
    # Opened by keyboard, without a script: what club law does, and the source's passage.
    agreed.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(agreed).to_contain_text("Whenever a club is turned up for trumps, everyone must play")
    expect(agreed.get_by_role("link", name=re.compile(r"^Parlett \(modern\), "))).to_have_count(1)
    _fits(page)
    pk = int(page.url.rstrip("/").split("/")[-1])
    assert PracticeTable.objects.get(pk=pk).options == {"club-law": "on"}


def _finish_hands(user: object, deals: int, **fields: object) -> None:
    """A table of ``user``'s with ``deals`` hands played out by the engine (the human's
    decisions a beginner's), stored as the views store them."""
    practice = PracticeTable.deal_new(
        game=str(fields.get("game", "three-card")),
        rules=str(fields.get("rules", "hoffmann")),
        players=5,
        seed=int(str(fields.get("seed", 1))),
        opponents="beginner",
        laws=False,
        owner=user,
    )
    for number in range(deals):
        table = practice.to_engine()
        if number:
            table.deal()
            assert practice.update_from_engine(table, practice.run_bots(table, [], wait=True))
            table = practice.to_engine()
        while (hand := table.hand) is not None and not hand.over:
            if hand.to_act == HUMAN:
                bot = BeginnerBot(f"browser:{number}:{len(hand.log)}")
                table.apply(bot.decide(view_for(hand, HUMAN)).action)
            notes = practice.run_bots(table, list(practice.notes))
            assert practice.update_from_engine(table, notes)


def test_the_statistics_fit_a_phone_without_javascript(no_js_phone: Page) -> None:
    page = no_js_phone
    user = get_user_model().objects.create_user("cleo", password=PASSWORD)
    _finish_hands(user, 3, seed=2)
    _finish_hands(user, 2, game="five-card", rules="britannica", seed=3)
    page.goto("/accounts/log-in/?next=/play/")
    page.get_by_label("Username").fill("cleo")
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/play/$"))
    # Reached from the practice page's links, by keyboard.
    page.get_by_role("link", name="Your statistics").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your statistics")
    table = page.locator("table.stats-table")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table.locator("tbody th")).to_contain_text(
        ["Three-card Loo, Hoffmann (1909)", "Five-card Loo, Britannica (1911)"]
    )
    expect(table.locator("tfoot td").first).to_have_text("5")
    expect(page.locator("svg[role=img]")).to_have_count(2)
    for chart in page.locator("svg[role=img]").all():
        box = chart.bounding_box()
        assert box is not None and box["width"] <= PHONE["width"]
    _fits(page)


def test_axe_finds_no_violations_in_the_statistics_and_the_refused_variation(
    js_page: Page, shared_content: None
) -> None:
    page = js_page
    user = get_user_model().objects.create_user("dora", password=PASSWORD)
    _finish_hands(user, 2, seed=4)
    page.goto("/accounts/log-in/?next=/play/statistics/")
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your statistics")
    found = axe.violations(page)
    assert found == [], axe.report(found)
    page.goto("/play/")
    form = page.locator("form.chooser")
    form.locator("input[name=rules][value=whiteknuckle]").check()
    form.locator("input[name=variations][value=unlimited-loo]").check()
    form.get_by_role("button", name="Deal", exact=True).click()
    expect(
        page.get_by_role("alert").filter(has_text="does not offer unlimited loo")
    ).to_be_visible()
    found = axe.violations(page)
    assert found == [], axe.report(found)
