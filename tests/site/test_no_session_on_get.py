"""No GET makes a session or a row (issue 27): a visitor who only reads (a lesson with its rule
set chosen in the link, one of its steps, the trainer's chooser, the reading pages, the
practice table's chooser) leaves nothing stored. A session, a progress row, a question or a
table is made only when he acts, by a POST.

Each page is fetched by a client with no cookie, and every table of the database is counted
before and after (sessions and the shared cache's table included): once for the session, by
its crawl of the site (tests/crawl.py).
"""

from __future__ import annotations

import pytest

from lessons.course.models import Lesson
from tests.crawl import READ_ONLY, Crawl

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("pages", list(READ_ONLY))
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_get_without_a_cookie_stores_nothing(site_pages: Crawl, pages: str, htmx: bool) -> None:
    """The session's crawl (tests/crawl.py) fetched each group's pages with a new client each,
    and counted every table's rows before and after the group."""
    urls = site_pages.groups[pages]
    assert urls
    for url in urls:
        response = site_pages.page(url, "htmx" if htmx else "visitor")

        assert response.status == 200, url
        assert "sessionid" not in response.cookies, url
    assert site_pages.stored[pages, htmx] == {}


def test_a_lesson_page_carries_the_rule_set_of_its_link_in_its_own(site_pages: Crawl) -> None:
    """The rule set chosen is carried in the URL, not in a session: the step's form and the
    neighbouring lessons keep it."""
    lesson = Lesson.objects.get(slug="follow-suit")
    response = site_pages.page(f"{lesson.get_absolute_url()}?rules=parlett")
    page = response.html

    assert "sessionid" not in response.cookies
    assert 'action="/learn/follow-suit/follow-suit-1/start/?rules=parlett"' in page
    following = Lesson.objects.filter(position__gt=lesson.position).first()
    assert following is not None
    assert f'href="{following.get_absolute_url()}?rules=parlett"' in page
