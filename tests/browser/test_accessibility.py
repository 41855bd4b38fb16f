"""axe-core finds no accessibility violations on the pages that exist."""

import pytest
from playwright.sync_api import Page

from tests.browser import axe

# The pages are only read: one database and one browser context for the module.
# Pages that only read, served on the live server's threads: either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]


@pytest.mark.parametrize("path", ["/", "/accounts/log-in/", "/accounts/sign-up/"])
def test_axe_finds_no_violations(shared_js_page: Page, path: str) -> None:
    shared_js_page.goto(path)

    found = axe.violations(shared_js_page)

    assert found == [], axe.report(found)


@pytest.mark.parametrize("width,height", [(1280, 900), (375, 740)])
def test_tab_goes_through_the_header_in_the_order_it_is_drawn(
    shared_js_page: Page, width: int, height: int
) -> None:
    """WCAG 2.4.3: on a phone the account's links were drawn above the sections but came
    after them when tabbing."""
    page = shared_js_page
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/")
    boxes = page.locator(".site-header a, .site-header button").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.textContent.trim(), Math.round(r.top), Math.round(r.left)]; })"
    )
    assert len(boxes) > 5, boxes
    for (name, top, left), (after, top2, left2) in zip(boxes, boxes[1:], strict=False):
        same_line = abs(top2 - top) < 8
        assert (same_line and left2 > left) or top2 >= top + 8, (name, after, boxes)
