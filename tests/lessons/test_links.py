"""Every link of the site leads somewhere: a crawl from the start page follows each link to
one of our pages and checks that it answers, and that the passage, rule or section a link's
``#fragment`` names is on the page it opens."""

from __future__ import annotations

import pytest

from tests.crawl import ONE_OF, Crawl, targets


# A crawl of every page for broken links. The pages are the session's crawl (tests/crawl.py),
# by a visitor and by a reader logged in.
@pytest.mark.django_db
@pytest.mark.parametrize("who", ["visitor", "reader"])
def test_every_link_from_the_start_page_opens_a_page_with_its_fragment(
    site_crawl: Crawl, who: str
) -> None:
    reached = site_crawl.reached[who]
    pages = {url: site_crawl.page(url, who) for url in reached}
    wanted: list[tuple[str, str, str]] = []  # (page, fragment, linked from)
    for url, page in pages.items():
        for path, fragment in targets(url, page):
            if path not in pages and any(path.endswith(kind) for kind in ONE_OF):
                continue  # one page of its kind was followed (tests/crawl.py)
            assert path in pages, f"{path} (linked from {url}) was not followed"
            if fragment:
                wanted.append((path, fragment, url))
    broken = [f"{url}: {page.status}" for url, page in pages.items() if page.status != 200]
    missing = [
        f"{path}#{fragment} (linked from {origin})"
        for path, fragment, origin in wanted
        if fragment not in pages[path].ids
    ]
    assert not broken, broken
    assert not missing, missing[:20]
    assert len(pages) > 100
    assert all(any(url.endswith(kind) for url in pages) for kind in ONE_OF), ONE_OF
