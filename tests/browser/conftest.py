"""Playwright fixtures: Debian's Chromium against pytest-django's live server.

Browsers cannot be downloaded here, so Playwright drives /usr/bin/chromium (`make test`
installs it). A missing browser fails the tests with a message rather than skipping them.

A test on the live server commits what it does, so pytest-django empties the database after
each one (a DELETE from every table on PostgreSQL, tests/conftest.py: under 0.1 s; loading
content/ again costs 0.15-0.4 s more). A module whose tests do not change what another of them
sees opts out with `pytestmark = pytest.mark.usefixtures("shared_database")`: its tests share
one database, content/ loaded into it at most once (`shared_content`) and emptied once, at the
module's end. Its tests that only read may also share one browser context (`shared_page` and
its kin); a test that logs in or changes state keeps a context of its own (`page`, `js_page`,
...).

JavaScript on and off (`page`, `phone_page`) is for pages that behave differently without it
(htmx swaps, the table's and the trainer's scripts); a page that is the same server-rendered
HTML either way is visited with JavaScript on only, and the test says so where it chooses.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connections
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)
from pytest_django import DjangoDbBlocker
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
#: How long an action waits for its element, and an `expect` for its state (Playwright's 5 s
#: by default: a trainer's answer not back within 5 s on a loaded 2-core machine failed a test).
TIMEOUT_MS = 10_000
expect.set_options(timeout=TIMEOUT_MS)


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


# -- one database per module, for modules that opt in -------------------------------------------


class SharedDatabase:
    """The test database as a module's tests share it: committed to, never emptied between
    them; content/ is loaded at the first test that asks for it."""

    def __init__(self, blocker: DjangoDbBlocker) -> None:
        self.blocker = blocker
        self.has_content = False

    def load_content(self) -> None:
        if not self.has_content:
            with self.blocker.unblock():
                call_command("loadcontent", verbosity=0)
            self.has_content = True

    def empty(self) -> None:
        """Leave the database as pytest-django leaves it after a test on the live server."""
        with self.blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)
        _close_connections()


def _close_connections() -> None:
    """Close this thread's connections, as Django's TransactionTestCase does after each test:
    one left open keeps PostgreSQL from dropping the test database at the session's end."""
    for connection in connections.all(initialized_only=True):
        connection.close()


@pytest.fixture(scope="module")
def shared_database(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[SharedDatabase]:
    """One database for the module's tests (the module's `pytestmark` asks for it, so that
    every test of the module has it: one that flushed would take the others' rows away).
    Nothing is done before the first test; the module's end empties it, so the next module
    starts from what a test on the live server leaves."""
    shared = SharedDatabase(django_db_blocker)
    yield shared
    shared.empty()


@pytest.fixture
def shared_content(shared_database: SharedDatabase) -> None:
    """content/ in the module's shared database, loaded at the first test that asks (in that
    test rather than at the module's start, so that whatever a test does before it, emptying
    the database included, comes first)."""
    shared_database.load_content()


@pytest.fixture(autouse=True)
def _live_server_helper(request: pytest.FixtureRequest) -> Iterator[None]:
    """pytest-django's own helper (pytest_django/fixtures.py, the same name overrides it here),
    which gives every test on the live server `transactional_db`, so that the database is
    emptied after it; except in a module that shares its database (`shared_database`), whose
    tests reach the database without it."""
    if "live_server" not in request.fixturenames:
        yield
        return
    shared = "shared_database" in request.fixturenames
    if shared:
        marker = request.node.get_closest_marker("django_db")
        if marker or {"db", "transactional_db"} & set(request.fixturenames):
            pytest.fail(
                "a test in a module that shares its database must not ask for its own "
                "(the django_db mark, db or transactional_db): it would empty the database "
                "the module's other tests read"
            )
    else:
        request.getfixturevalue("transactional_db")
    live_server: LiveServer = request.getfixturevalue("live_server")
    live_server._live_server_modified_settings.enable()
    if shared:
        blocker: DjangoDbBlocker = request.getfixturevalue("django_db_blocker")
        with blocker.unblock():
            yield
        _close_connections()
    else:
        yield
    live_server._live_server_modified_settings.disable()


# -- pages: a fresh context each ---------------------------------------------------------------


def _new_page(
    browser: Browser,
    *,
    javascript: bool,
    base_url: str,
    viewport: ViewportSize | None = None,
) -> Iterator[Page]:
    context = browser.new_context(
        java_script_enabled=javascript, base_url=base_url, viewport=viewport
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
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
    """A page with JavaScript on: for checks that run scripts in the page (axe), and for pages
    that are the same without JavaScript."""
    yield from _new_page(browser, javascript=True, base_url=live_server.url)


@pytest.fixture
def js_phone_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A phone's page with JavaScript on, for pages that are the same without it."""
    yield from _new_page(browser, javascript=True, base_url=live_server.url, viewport=PHONE)


# -- pages: one context per module, for tests that only read ---------------------------------


class SharedContexts:
    """A module's browser contexts, one with JavaScript on and one with it off, each made when
    a test first asks for it. Cookies and storage carry over from one test to the next: the
    tests that use them log in to nothing and store nothing another would see."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.made: dict[bool, BrowserContext] = {}

    def new_page(self, *, javascript: bool, viewport: ViewportSize | None = None) -> Page:
        if javascript not in self.made:
            self.made[javascript] = self.browser.new_context(
                java_script_enabled=javascript, base_url=self.base_url
            )
        page = self.made[javascript].new_page()
        page.set_default_timeout(TIMEOUT_MS)
        if viewport is not None:
            page.set_viewport_size(viewport)
        return page

    def close(self) -> None:
        for context in self.made.values():
            context.close()


@pytest.fixture(scope="module")
def shared_contexts(
    browser: Browser, live_server: LiveServer, shared_database: SharedDatabase
) -> Iterator[SharedContexts]:
    contexts = SharedContexts(browser, live_server.url)
    yield contexts
    contexts.close()


def _shared_page(
    contexts: SharedContexts, *, javascript: bool, viewport: ViewportSize | None = None
) -> Iterator[Page]:
    page = contexts.new_page(javascript=javascript, viewport=viewport)
    yield page
    page.close()


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def shared_page(shared_contexts: SharedContexts, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A new page in the module's context with JavaScript on, then in the one with it off."""
    yield from _shared_page(shared_contexts, javascript=request.param)


@pytest.fixture
def shared_js_page(shared_contexts: SharedContexts) -> Iterator[Page]:
    """A new page in the module's context with JavaScript on."""
    yield from _shared_page(shared_contexts, javascript=True)


@pytest.fixture
def shared_phone_page(shared_contexts: SharedContexts) -> Iterator[Page]:
    """A new page 375 CSS pixels wide in the module's context with JavaScript on."""
    yield from _shared_page(shared_contexts, javascript=True, viewport=PHONE)
