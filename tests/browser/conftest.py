"""Playwright fixtures: Debian's Chromium against pytest-django's live server.

Browsers cannot be downloaded here, so Playwright drives /usr/bin/chromium (`make test`
installs it). A missing browser fails the tests with a message rather than skipping them.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
from pytest_django.live_server_helper import LiveServer

# Playwright's sync API runs an asyncio event loop in the test thread, which makes Django
# refuse database access there (database set-up and teardown for live_server included).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: ViewportSize = {"width": 375, "height": 667}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's chromium "
            "(`make test` installs it as root; or run `apt-get install -y chromium`)."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _new_page(
    browser: Browser,
    *,
    javascript: bool,
    base_url: str,
    viewport: ViewportSize | None = None,
    bypass_csp: bool = False,
) -> Iterator[Page]:
    context = browser.new_context(
        java_script_enabled=javascript,
        base_url=base_url,
        viewport=viewport,
        bypass_csp=bypass_csp,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def page(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A page in a fresh context, once with JavaScript on and once with it off."""
    yield from _new_page(browser, javascript=request.param, base_url=live_server.url)


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def phone_page(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A page 375 CSS pixels wide, the width of a small phone."""
    yield from _new_page(
        browser, javascript=request.param, base_url=live_server.url, viewport=PHONE
    )


@pytest.fixture
def js_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A page with JavaScript on, for checks that run scripts in the page (axe)."""
    yield from _new_page(browser, javascript=True, base_url=live_server.url)


@pytest.fixture
def axe_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A page with JavaScript on that ignores the site's Content-Security-Policy, for tests
    that inject axe-core as a <script> element (page.add_script_tag), which the policy refuses.
    (axe-playwright-python's Axe().run evaluates axe through DevTools, which the policy does not
    govern, so js_page serves it.)"""
    yield from _new_page(browser, javascript=True, base_url=live_server.url, bypass_csp=True)
