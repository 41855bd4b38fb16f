"""The vendored htmx SSE extension (static/vendor/htmx-ext-sse.js) in Chromium, under the
site's Content-Security-Policy, against the live stream of a real ASGI server: a page shows
each new version of a table within a second of the play that stored it, and the browser
reports no CSP violation."""

from __future__ import annotations

import os
import time

import pytest
from playwright.sync_api import Browser, Page

from games.models import PracticeTable
from tests.live import urls
from tests.live.test_sse import bump, live_poll_seconds, server, table  # noqa: F401 (fixtures)

# Playwright's sync API runs an event loop in the test thread (tests/browser/conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # WhiteNoise's static files under ASGI: Django warns, and serves them (loo_site/asgi.py
    # silences it; the suite's warnings-as-errors would cut each file short).
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_the_sse_extension_shows_each_new_version_under_the_csp(
    server: int,  # noqa: F811
    table: PracticeTable,  # noqa: F811
    browser: Browser,
) -> None:
    # The browser tests' session-wide Chromium: a second sync Playwright cannot start while
    # it runs (it keeps an event loop on the main thread).
    page = browser.new_page()
    try:
        _versions_shown(page, server, table)
    finally:  # its stream ends with it, before the server stops
        page.context.close()


def _versions_shown(page: Page, server: int, table: PracticeTable) -> None:  # noqa: F811
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    urls.WAKES.pop(table.pk, None)
    response = page.goto(f"http://127.0.0.1:{server}/live-test/{table.pk}/")
    assert response is not None and response.status == 200
    assert "default-src 'self'" in response.headers["content-security-policy"]
    output = page.locator("#version")
    assert output.text_content() == str(table.version)
    # The page's stream is open (its hook was called on opening) before the first play: the
    # second below is the play's, not the page's connecting (slow on a busy machine).
    give_up = time.monotonic() + 30
    while not urls.WAKES.get(table.pk):
        assert time.monotonic() < give_up, "the page's stream never opened"
        page.wait_for_timeout(20)  # lets Playwright's loop run: the page's requests go on
    for _ in range(3):
        version, sent = bump(server, table)
        page.wait_for_function(
            f"() => document.getElementById('version').textContent === '{version}'", timeout=2000
        )
        assert time.monotonic() - sent < 1.0
    assert violations == []
