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
