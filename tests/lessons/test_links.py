"""Every link of the site leads somewhere: a crawl from the start page follows each link to
one of our pages and checks that it answers, and that the passage, rule or section a link's
``#fragment`` names is on the page it opens."""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

#: Not pages to read: the admin (its own login), static files (whitenoise, not the test
#: client) and actions that only take a POST.
SKIP = ("/admin/", "/static/", "/accounts/log-out/")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")


def _read(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


# A crawl of every page for broken links: the links are the templates' and the content's,
# whichever database holds the content (one lane: README, Set-up).
@pytest.mark.db_agnostic
@pytest.mark.parametrize("signed_in", [False, True])
def test_every_link_from_the_start_page_opens_a_page_with_its_fragment(
    client: Client, django_user_model: Any, signed_in: bool
) -> None:
    if signed_in:
        client.force_login(django_user_model.objects.create_user("reader", password="x"))
    pages: dict[str, _Links] = {}
    wanted: list[tuple[str, str, str]] = []  # (page, fragment, linked from)
    queue = deque(["/"])
    broken: list[str] = []
    while queue:
        url = queue.popleft()
        if url in pages:
            continue
        response = client.get(url)
        if response.status_code != 200:
            broken.append(f"{url}: {response.status_code}")
            pages[url] = _Links()
            continue
        pages[url] = page = _read(response.content.decode())
        for href in page.links:
            if href.startswith("#"):
                href = url + href
            target = urlsplit(href)
            if target.scheme or target.netloc or not target.path.startswith("/"):
                continue  # another site, mail
            if target.path.startswith(SKIP):
                continue
            path, fragment = urldefrag(href)
            if fragment:
                wanted.append((path, fragment, url))
            if path not in pages:
                queue.append(path)
    missing = [
        f"{path}#{fragment} (linked from {origin})"
        for path, fragment, origin in wanted
        if path in pages and fragment not in pages[path].ids
    ]
    assert not broken, broken
    assert not missing, missing[:20]
    assert len(pages) > 100
