"""The site rendered once per test session, for the link, page, copyright and internal-id
checks to read: each page fetched once and kept (:class:`Crawl`).

- ``site_pages``: the pages the checks name (every rule, source, term and lesson, the lists,
  comparisons and searches), as a visitor with no cookie gets them, some for htmx too;
- ``site_crawl``: those and every page reached from the start page by following its links,
  as a visitor and as a reader logged in (the link check's; the rest do not wait for it).

Each is fetched in a transaction of its own that is rolled back when it ends, before any test
reads it: what it makes (the reader's account and session, the shared cache's rows) is gone
again, and no test's own changes reach it (a session fixture is set up before the test that
first asks for it starts its transaction). The content is the session's (loaded once for the
session); the crawl loads it, in its own transaction, only if the database has none.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoDbBlocker

#: Not pages to read: the admin (its own login), static files (whitenoise, not the test
#: client) and actions that only take a POST.
SKIP = ("/admin/", "/static/", "/accounts/log-out/")
#: Pages made from one template for each passage (a reader's error report): the crawl follows
#: the first one it meets of each and no more, which checks the template and its links without
#: fetching a page per passage (about 250) in every crawl.
ONE_OF = ("/report/",)
HTMX = {"HX-Request": "true"}


class Anchors(HTMLParser):
    """A page's ids and the targets of its links."""

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


@dataclass(frozen=True, eq=False)
class Page:
    """One response, as the test client got it (each its own: hashed by identity)."""

    url: str
    status: int
    content: bytes
    headers: dict[str, str]
    #: The cookies the response set (their names).
    cookies: frozenset[str]

    @cached_property
    def html(self) -> str:
        return self.content.decode()

    @cached_property
    def _anchors(self) -> Anchors:
        parser = Anchors()
        if self.status == 200:
            parser.feed(self.html)
        return parser

    @property
    def links(self) -> list[str]:
        """The ``href`` of every link, in the page's order (none on a page that is not a 200)."""
        return self._anchors.links

    @property
    def ids(self) -> set[str]:
        return self._anchors.ids


def _snapshot(url: str, response: Any) -> Page:
    return Page(
        url=url,
        status=response.status_code,
        content=response.content,
        headers=dict(response.headers),
        cookies=frozenset(response.cookies),
    )


def rows() -> dict[str, int]:
    """How many rows each table of the database holds."""
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def changed(before: dict[str, int], after: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The tables whose number of rows changed: (before, after)."""
    return {
        table: (before.get(table, 0), after.get(table, 0))
        for table in before.keys() | after.keys()
        if before.get(table, 0) != after.get(table, 0)
    }


# -- the pages the checks name -------------------------------------------------------------------
# Each group is a list of addresses made from the content, inside the crawl's transaction.


def lesson_pages() -> Iterator[str]:
    """Every lesson, under each of its rule sets, and each of its steps asked for."""
    from lessons.course.models import Lesson

    for lesson in Lesson.objects.prefetch_related("steps"):
        url = lesson.get_absolute_url()
        yield url
        for preset in lesson.presets:
            yield f"{url}?rules={preset}"
        for step in lesson.steps.all():
            yield f"{url}?rules={lesson.presets[-1]}&step={step.key}"


def reading_pages() -> Iterator[str]:
    """One page of each kind of the reading side."""
    from lessons.models import GlossaryTerm, Rule, Source

    yield from ("/", reverse("lessons:source-list"), reverse("lessons:rule-list"))
    yield from (reverse("lessons:timeline"), reverse("lessons:term-list"))
    yield from (reverse("lessons:disagreement-list"), f"{reverse('lessons:search')}?q=trump")
    yield f"{reverse('lessons:source-compare')}?rule=follow-suit"
    yield reverse("lessons:source-detail", args=[Source.objects.first().pk])  # type: ignore[union-attr]
    yield reverse("lessons:rule-detail", args=[Rule.objects.first().pk])  # type: ignore[union-attr]
    yield reverse("lessons:term-detail", args=[GlossaryTerm.objects.first().pk])  # type: ignore[union-attr]


def other_pages() -> Iterator[str]:
    """The course's, the trainer's and the practice table's pages that a visitor reads."""
    yield from (reverse("course:home"), reverse("trainer:choose"), reverse("games:choose"))
    yield f"{reverse('trainer:choose')}?scope=any&rules=peel&game=five-card"
    yield f"{reverse('trainer:coverage')}?rules=parlett"
    yield reverse("games:hand-list")
    yield reverse("games:table-seed", args=["three-card", "hoffmann", 4, 1234])


#: Pages fetched without a cookie, plainly and for htmx, each group with the database's rows
#: counted before and after (tests/site/test_no_session_on_get.py).
READ_ONLY: dict[str, Callable[[], Iterator[str]]] = {
    "lesson_pages": lesson_pages,
    "reading_pages": reading_pages,
    "other_pages": other_pages,
}


def named_pages() -> Iterator[str]:
    """Every page the page checks read besides: each rule, source, term and lesson (under
    each rule set), the comparisons, searches and lists they name."""
    from games.loo import catalogue
    from games.loo.rulesets import PRESETS
    from lessons.course.models import Lesson
    from lessons.models import GlossaryTerm, Rule, Source

    yield from ("/sources/", "/rules/", "/disagreements/", "/timeline/", "/glossary/")
    yield from (reverse("games:choose"), reverse("trainer:choose"), reverse("course:home"))
    for source in sorted({*catalogue.SOURCE_IDS, *Source.objects.values_list("slug", flat=True)}):
        for query in ("", "?view=side-by-side", "?mode=all"):
            yield f"/sources/{source}/{query}"
    yield "/sources/hoffmann/?view=upside-down"
    for rule in sorted({*catalogue.rule_ids(), *Rule.objects.values_list("pk", flat=True)}):
        yield f"/rules/{rule}/"
    for term in GlossaryTerm.objects.values_list("slug", flat=True):
        yield f"/glossary/{term}/"
    yield from ("/compare/", "/compare/?a=parlett&b=whiteknuckle&differ=on")
    yield from ("/compare/?a=hoffmann&b=enquire-within", "/compare/?a=peel&b=enquire-within")
    yield from ("/compare/?a=hoffmann&b=peel", "/compare/?a=hoffmann&b=britannica&differ=on")
    yield from ("/compare/?a=peel&b=peel", "/compare/?a=peel&b=nobody")
    for a in ("parlett", "whiteknuckle"):
        yield from (f"/compare/?a={a}&b={b}" for b in PRESETS if b != a)
    for q in ("Pam", "lead", "scope", "trump", "pam", "flush", "miss", "ace+of+trumps", "%21%3F"):
        yield f"/search/?q={q}"
    yield "/search/"
    for preset in PRESETS:
        yield f"{reverse('trainer:coverage')}?rules={preset}"
    for lesson in Lesson.objects.all():
        for preset in PRESETS:
            yield f"{lesson.get_absolute_url()}?rules={preset}"


# -- the crawl -----------------------------------------------------------------------------------


@dataclass
class Crawl:
    """Every page fetched, by whom: ``visitor`` (no cookie: a new client for each page),
    ``htmx`` (the same, asking for htmx's fragment) and ``reader`` (logged in)."""

    visitor: dict[str, Page] = field(default_factory=dict)
    htmx: dict[str, Page] = field(default_factory=dict)
    reader: dict[str, Page] = field(default_factory=dict)
    #: The pages reached from the start page by following links, by visitor and reader, in
    #: the order they were reached.
    reached: dict[str, list[str]] = field(default_factory=dict)
    #: The addresses of each group of READ_ONLY.
    groups: dict[str, list[str]] = field(default_factory=dict)
    #: The tables whose rows a group's GETs changed, by (group, htmx): (before, after).
    stored: dict[tuple[str, bool], dict[str, tuple[int, int]]] = field(default_factory=dict)

    def page(self, url: str, who: str = "visitor") -> Page:
        """The page at ``url`` as ``who`` got it; a page the crawl did not fetch is an error
        (it names the pages to add to :func:`named_pages`)."""
        pages: dict[str, Page] = getattr(self, who)
        if url not in pages:
            raise LookupError(f"{url} was not crawled as {who}: add it to tests/crawl.py")
        return pages[url]


def _get(pages: dict[str, Page], url: str, client: Client | None = None, **headers: str) -> Page:
    """The page at ``url`` (fetched once): by ``client``, else by a new one, with no cookie."""
    if url not in pages:
        response = (client or Client()).get(url, headers=headers)
        pages[url] = _snapshot(url, response)
    return pages[url]


def targets(url: str, page: Page) -> Iterator[tuple[str, str]]:
    """Each link of the page at ``url`` to one of our pages to read: (its address, its
    fragment or "")."""
    for href in page.links:
        if href.startswith("#"):
            href = url + href
        target = urlsplit(href)
        if target.scheme or target.netloc or not target.path.startswith("/"):
            continue  # another site, mail
        if target.path.startswith(SKIP):
            continue
        yield urldefrag(href)


def _follow(pages: dict[str, Page], client: Client | None) -> list[str]:
    """Fetch every page reached from the start page by its links (breadth first); their
    addresses, in order."""
    reached: dict[str, None] = {}  # (a set that keeps its order)
    sampled: set[str] = set()
    queue = deque(["/"])
    while queue:
        url = queue.popleft()
        if url in reached:
            continue
        kind = next((k for k in ONE_OF if urlsplit(url).path.endswith(k)), None)
        if kind is not None:
            if kind in sampled:
                continue
            sampled.add(kind)
        reached[url] = None
        page = _get(pages, url, client)
        queue.extend(path for path, _ in targets(url, page) if path not in reached)
    return list(reached)


@contextmanager
def _rolled_back(django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """A transaction of the crawl's own, rolled back at its end, on the session's content
    (loaded in it if the database has none)."""
    from games.links import forget_links
    from lessons.models import Source

    with django_db_blocker.unblock(), transaction.atomic():
        if not Source.objects.exists():
            call_command("loadcontent", verbosity=0)
        yield
        transaction.set_rollback(True)
    # (This process's copy of the rule links was made inside it.)
    forget_links()


def read_pages() -> Crawl:
    """Fetch the pages the checks name: the groups of READ_ONLY, plainly and for htmx, and
    :func:`named_pages`."""
    from games.links import content_version

    crawl = Crawl()
    # The content's version, which the shared cache gets at the first page read after a
    # clear (games.links): the site's, not a visitor's.
    content_version()
    for htmx in (False, True):
        pages = crawl.htmx if htmx else crawl.visitor
        for name, urls in READ_ONLY.items():
            crawl.groups[name] = list(urls())
            before = rows()
            for url in crawl.groups[name]:
                _get(pages, url, **(HTMX if htmx else {}))
            crawl.stored[name, htmx] = changed(before, rows())
    for url in named_pages():
        _get(crawl.visitor, url)
    return crawl


def follow_links(named: Crawl) -> Crawl:
    """``named``'s pages and every page reached from the start page by following links, by
    a visitor and by a reader logged in (a new crawl: ``named`` stays as it is)."""
    crawl = Crawl(dict(named.visitor), named.htmx, groups=named.groups, stored=named.stored)
    crawl.reached["visitor"] = _follow(crawl.visitor, None)
    reader = Client()
    reader.force_login(User.objects.create_user("reader", password="x"))
    crawl.reached["reader"] = _follow(crawl.reader, reader)
    return crawl


@pytest.fixture(scope="session")
def site_pages(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Crawl:
    """The pages the checks name, fetched once for the session (:func:`read_pages`)."""
    with _rolled_back(django_db_blocker):
        return read_pages()


@pytest.fixture(scope="session")
def site_crawl(
    site_pages: Crawl, django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Crawl:
    """Every page of the site, fetched once for the session (:func:`follow_links`)."""
    with _rolled_back(django_db_blocker):
        return follow_links(site_pages)
