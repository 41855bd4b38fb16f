"""The start page as a person meets it: in Chromium, with and without JavaScript."""

from playwright.sync_api import Page, expect


def test_the_start_page_loads(page: Page) -> None:
    response = page.goto("/")

    assert response is not None and response.ok
    expect(page).to_have_title("Lanterloo: learn Loo, the old English card game")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Learn Loo")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()


def test_htmx_runs_when_javascript_is_on(js_page: Page) -> None:
    js_page.goto("/")

    js_page.wait_for_function("() => window.htmx !== undefined")
    assert js_page.evaluate("() => htmx.version").startswith("2.")


def test_the_first_tab_reaches_the_skip_link_which_moves_focus_to_main(page: Page) -> None:
    page.goto("/")

    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to main content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()

    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{page.url.split('#')[0]}#main")
    expect(page.locator("main#main")).to_be_focused()


def test_a_phone_screen_has_no_horizontal_scroll(phone_page: Page) -> None:
    phone_page.goto("/")

    widths = phone_page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    scroll_width, client_width = widths
    assert client_width == 375
    assert scroll_width <= client_width
