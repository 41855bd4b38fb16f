"""axe-core finds no accessibility violations on the pages that exist."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page


@pytest.mark.parametrize("path", ["/", "/accounts/log-in/", "/accounts/sign-up/"])
def test_axe_finds_no_violations(js_page: Page, path: str) -> None:
    js_page.goto(path)

    results = Axe().run(js_page)

    assert results.violations_count == 0, results.generate_report()
