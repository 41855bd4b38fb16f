"""The start page as a person meets it, in Chromium.

With JavaScript on only: the start page is the same server-rendered HTML without it (no htmx
attribute, no script of its own; the skip link is a plain link to #main), so a run with it off
would prove nothing more. Nothing here logs in or stores anything: the module's tests share
one database and one browser context."""

import pytest
from playwright.sync_api import Page, expect

# Pages that only read, served on the live server's threads: either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]


def test_the_start_page_loads(shared_js_page: Page) -> None:
    page = shared_js_page
    response = page.goto("/")

    assert response is not None and response.ok
    expect(page).to_have_title("Lanterloo: learn Loo, the old English card game")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Learn Loo")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()


def test_htmx_runs_when_javascript_is_on(shared_js_page: Page) -> None:
    page = shared_js_page
    page.goto("/")

    page.wait_for_function("() => window.htmx !== undefined")
    assert page.evaluate("() => htmx.version").startswith("2.")


def test_the_first_tab_reaches_the_skip_link_which_moves_focus_to_main(
    shared_js_page: Page,
) -> None:
    page = shared_js_page
    page.goto("/")

    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to main content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()

    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{page.url.split('#')[0]}#main")
    expect(page.locator("main#main")).to_be_focused()


def test_a_phone_screen_has_no_horizontal_scroll(shared_phone_page: Page) -> None:
    page = shared_phone_page
    page.goto("/")

    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    scroll_width, client_width = widths
    assert client_width == 375
    assert scroll_width <= client_width
