"""An htmx GET that fails on the way is asked again, a POST never (static/js/retry.js, issue
36), in Chromium with the network cut by the test: a rule opened in place whose first request
is cut still opens; one whose every request is cut is asked three times in all, then the page
says in words that it could not reach the server; a POST that is cut is said so, and not made
again.

With JavaScript off there is nothing to retry (links and forms are the browser's own), so these
run with it on only."""

import re

import pytest
from playwright.sync_api import Page, Request, Route, expect

pytestmark = pytest.mark.usefixtures("shared_database", "shared_content")

NOTE = "This page could not reach the server just now"


def _cut(page: Page, method: str, times: int | None) -> list[str]:
    """Cut (a connection reset) the page's htmx requests of ``method``, the first ``times`` of
    them (all if None); the others go through. The addresses of all those asked."""
    asked: list[str] = []

    def route(route: Route, request: Request) -> None:
        if request.method != method or request.headers.get("hx-request") != "true":
            route.fallback()
            return
        asked.append(request.url)
        if times is None or len(asked) <= times:
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(re.compile(".*"), route)
    return asked


def _open_the_rule_in_place(page: Page) -> None:
    page.goto("/rules/single/")
    page.locator(".rule-statement").get_by_role("link", name="must", exact=True).click()


def test_a_get_cut_once_is_asked_again_and_the_rule_opens(js_page: Page) -> None:
    asked = _cut(js_page, "GET", times=1)
    _open_the_rule_in_place(js_page)

    summary = js_page.locator(".rule-statement .rule-summary")
    expect(summary).to_contain_text("Nobody may pass")
    assert len(asked) == 2 and asked[0] == asked[1], asked
    expect(js_page.get_by_text(NOTE)).to_have_count(0)


def test_a_get_that_keeps_failing_is_asked_three_times_then_the_page_says_so(
    js_page: Page,
) -> None:
    asked = _cut(js_page, "GET", times=None)
    _open_the_rule_in_place(js_page)

    expect(js_page.get_by_role("alert")).to_contain_text(NOTE)
    assert len(asked) == 3 and len(set(asked)) == 1, asked


def test_a_post_that_is_cut_is_said_so_and_never_made_again(js_page: Page) -> None:
    """An htmx POST put on the page by the test (the site's are at tables and in the trainer),
    cut; then a GET cut every time: by the time the page has given the GET up (its second
    retry, 1.2 s or more after the first failure), a retry of the POST (after 0.6 s at most)
    would have been made."""
    posted = _cut(js_page, "POST", times=None)
    _open_the_rule_in_place(js_page)
    expect(js_page.locator(".rule-statement .rule-summary")).to_be_visible()
    js_page.evaluate(
        """() => {
            const button = document.createElement("button");
            button.textContent = "Send";
            button.setAttribute("hx-post", "/rules/single/");
            button.setAttribute("hx-swap", "none");
            document.getElementById("main").append(button);
            window.htmx.process(button);
        }"""
    )
    with js_page.expect_event("requestfailed"):
        js_page.get_by_role("button", name="Send").click()
    expect(js_page.get_by_role("alert")).to_contain_text(
        "What you sent could not reach the server, so it may not have been done."
    )
    asked = _cut(js_page, "GET", times=None)
    js_page.locator(".rule-statement").get_by_role("link", name="must", exact=True).click()

    expect(js_page.get_by_role("alert")).to_contain_text(NOTE)
    assert len(asked) == 3, asked
    assert len(posted) == 1, posted
