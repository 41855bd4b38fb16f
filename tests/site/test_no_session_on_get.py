"""No GET makes a session or a row (issue 27): a visitor who only reads (a lesson with its rule
set chosen in the link, one of its steps, the trainer's chooser, the reading pages, the
practice table's chooser) leaves nothing stored. A session, a progress row, a question or a
table is made only when he acts, by a POST.

Each page is fetched by a client with no cookie, and every table of the database is counted
before and after (sessions and the shared cache's table included).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from games.links import content_version
from lessons.course.models import Lesson
from lessons.models import GlossaryTerm, Rule, Source

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """The site's content (sources, rules, lessons), loaded once, as the other page tests do."""
    with django_db_blocker.unblock():
        call_command("loadcontent", verbosity=0)


def rows() -> dict[str, int]:
    """How many rows each table of the database holds."""
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def lesson_pages() -> Iterator[str]:
    """Every lesson under each of its rule sets, and each of its steps asked for."""
    for lesson in Lesson.objects.prefetch_related("steps"):
        url = lesson.get_absolute_url()
        yield url
        for preset in lesson.presets:
            yield f"{url}?rules={preset}"
        for step in lesson.steps.all():
            yield f"{url}?rules={lesson.presets[-1]}&step={step.key}"


def reading_pages() -> Iterator[str]:
    yield from ("/", reverse("lessons:source-list"), reverse("lessons:rule-list"))
    yield from (reverse("lessons:timeline"), reverse("lessons:term-list"))
    yield from (reverse("lessons:disagreement-list"), f"{reverse('lessons:search')}?q=trump")
    yield f"{reverse('lessons:source-compare')}?rule=follow-suit"
    yield reverse("lessons:source-detail", args=[Source.objects.first().pk])  # type: ignore[union-attr]
    yield reverse("lessons:rule-detail", args=[Rule.objects.first().pk])  # type: ignore[union-attr]
    yield reverse("lessons:term-detail", args=[GlossaryTerm.objects.first().pk])  # type: ignore[union-attr]


def other_pages() -> Iterator[str]:
    yield from (reverse("course:home"), reverse("trainer:choose"), reverse("games:choose"))
    yield f"{reverse('trainer:choose')}?scope=any&rules=peel&game=five-card"
    yield f"{reverse('trainer:coverage')}?rules=parlett"
    yield reverse("games:hand-list")
    yield reverse("games:table-seed", args=["three-card", "hoffmann", 4, 1234])


@pytest.mark.parametrize("pages", [lesson_pages, reading_pages, other_pages])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_get_without_a_cookie_stores_nothing(pages: object, htmx: bool) -> None:
    # The content's version, which the shared cache (a table here) gets again at the first
    # page read after a clear (games.links): the site's, not a visitor's.
    content_version()
    before = rows()
    for url in pages():  # type: ignore[operator]
        client = Client()
        response = client.get(url, headers={"HX-Request": "true"} if htmx else {})

        assert response.status_code == 200, url
        assert "sessionid" not in response.cookies, url
    assert rows() == before


def test_a_lesson_page_carries_the_rule_set_of_its_link_in_its_own(client: Client) -> None:
    """The rule set chosen is carried in the URL, not in a session: the step's form and the
    neighbouring lessons keep it."""
    lesson = Lesson.objects.get(slug="follow-suit")
    page = client.get(lesson.get_absolute_url(), {"rules": "parlett"}).content.decode()

    assert "sessionid" not in client.cookies
    assert 'action="/learn/follow-suit/follow-suit-1/start/?rules=parlett"' in page
    following = Lesson.objects.filter(position__gt=lesson.position).first()
    assert following is not None
    assert f'href="{following.get_absolute_url()}?rules=parlett"' in page
