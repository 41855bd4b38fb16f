"""Settings shared by the whole suite (tests/engine/ included, which stays database-free)."""

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresqlOperations
from django.db.backends.signals import connection_created
from django.test import override_settings
from hypothesis import settings as hypothesis_settings
from hypothesis.database import DirectoryBasedExampleDatabase
from pytest_django import DjangoDbBlocker

from tests import lanes, profile
from tests.limits_clock import LimitsClock

# Hypothesis's profile follows the suite's (LOO_TEST_PROFILE, tests/profile.py) unless
# HYPOTHESIS_PROFILE names one: "ci" for every change, "thorough" for make test-full (500
# examples: a laws-mode session property takes minutes at that size), "hunt" (2,000) for
# hunting bugs. Its
# database of examples (the failing ones first, tried again in the next run) is kept between
# runs in a cache folder, git-ignored: $XDG_CACHE_HOME/lanterloo/hypothesis when that is set,
# else .hypothesis/ in the checkout. print_blob: a failure prints the
# @reproduce_failure(...) line that replays it; a failing case found is then pinned as an
# explicit @example(...) on its test, so every later run tries it whatever the database holds.
_CACHE = os.environ.get("XDG_CACHE_HOME")
_EXAMPLES = DirectoryBasedExampleDatabase(
    os.path.join(_CACHE, "lanterloo", "hypothesis")
    if _CACHE
    else os.path.join(os.path.dirname(os.path.dirname(__file__)), ".hypothesis", "examples")
)
for _name, _examples in (("ci", 50), ("thorough", 500), ("hunt", 2000)):
    hypothesis_settings.register_profile(
        _name, max_examples=_examples, deadline=None, print_blob=True, database=_EXAMPLES
    )
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or profile.name())


def _readers_never_wait_on_writers(sender: Any, connection: Any, **kwargs: Any) -> None:
    """SQLite's in-memory test database shares one cache between threads, whose locks are
    whole tables and refuse at once: a thread reading a table while another writes it got
    "database table is locked" (a live stream's table rendered while a test played a card:
    the stream ended, and a flaky test), where the site's database file, in write-ahead-log
    mode, never makes a reader wait. Read-uncommitted is shared cache's way to the same: a
    reading connection takes no table locks, so it neither blocks nor is blocked. (Two
    writers at once are still refused at once: tests/concurrency.py's at_once and
    tests/live/conftest.py's written make such a write again.)"""
    if connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.settings_dict["NAME"]
    ):
        connection.connection.execute("PRAGMA read_uncommitted = 1")


connection_created.connect(_readers_never_wait_on_writers)


def _postgresql_flush_deletes(self: Any, style: Any, tables: Any, **options: Any) -> list[str]:
    """The tests' flush on PostgreSQL empties the tables with DELETE rather than TRUNCATE
    (what SQLite's flush does): truncating the site's 67 tables makes new files for each, and
    their indexes, a quarter of a second a time (measured, 2026-11-28), where deleting the
    few rows a test left costs a few milliseconds; and a test that commits is flushed after
    it (about 170 a lane). Every table ends as empty either way, and the foreign keys, which
    Django makes deferred, are checked at the flush's commit, when no row is left. A flush
    that resets the sequences or cascades (neither of which the suite asks for) truncates
    as before."""
    if options.get("reset_sequences") or options.get("allow_cascade") or not tables:
        return _postgresql_truncate(self, style, tables, **options)
    return ["; ".join(f"DELETE FROM {self.quote_name(table)}" for table in tables)]


_postgresql_truncate = PostgresqlOperations.sql_flush
PostgresqlOperations.sql_flush = _postgresql_flush_deletes

# The site rendered once per session, for the page checks to read (the site_crawl fixture).
pytest_plugins = ["tests.crawl"]


def pytest_addoption(parser: pytest.Parser) -> None:
    lanes.addoption(parser)


def pytest_configure(config: pytest.Config) -> None:
    lanes.configure(config)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """This lane's share of the tests, in the order the database needs (tests/lanes.py),
    after pytest-django has ordered them its way."""
    lanes.select(config, items)
    lanes.order(items)


# Whether the test database holds the content committed by django_db_setup (below).
_CONTENT = {"committed": False}


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """The one test database of the session, with the site's content (content/: sources,
    rules, glossary, lessons) loaded once: every test in a transaction that is rolled back
    (pytest-django runs them all before the others) sees it, and may change it freely."""
    with django_db_blocker.unblock():
        call_command("loadcontent", verbosity=0)
    _CONTENT["committed"] = True


def _commits(request: pytest.FixtureRequest) -> bool:
    """Whether the test commits to the database (and pytest-django flushes it after)."""
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")) or bool(
        {"live_server", "transactional_db"} & set(request.fixturenames)
    )


@pytest.fixture(autouse=True)
def _committing_tests_start_empty(
    request: pytest.FixtureRequest, django_db_blocker: DjangoDbBlocker
) -> None:
    """A test that commits starts from an empty database, whichever ran before it: the first
    one flushes the content away (each is flushed after it by pytest-django), so that none
    depends on the order tests run in. Those that need content load it themselves."""
    if _CONTENT["committed"] and _commits(request):
        from django.core.cache import cache

        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)
            cache.clear()
        _CONTENT["committed"] = False


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher() -> Iterator[None]:
    """Hash passwords with MD5 in tests: a login costs microseconds instead of ~0.3 s. The
    one-time passwords of accounts a teacher made keep their own (cheap) hasher."""
    hashers = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "lessons.classes.hashers.OneTimePasswordHasher",
    ]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(autouse=True)
def _forget_rule_links() -> Iterator[None]:
    """Each worker keeps a source's rule links while the content version in the shared cache
    stays the same (games.links); a test's database, that cache's table included, is rolled
    back or flushed beneath that copy, so every test starts without one."""
    yield
    if "games.links" in sys.modules:
        sys.modules["games.links"].forget_links()


@pytest.fixture(autouse=True)
def limits_clock(monkeypatch: pytest.MonkeyPatch) -> LimitsClock:
    """The rate limits count in fixed windows: their clock stands a second into an hour, where
    every window begins, so that a slow machine never splits a test's requests over two
    windows; a test goes on to the next window with ``limits_clock.advance(seconds)``, never
    by waiting."""
    from loo_site.limits import LIMITS

    clock = LimitsClock()
    monkeypatch.setattr(LIMITS, "clock", clock)
    return clock


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request: pytest.FixtureRequest, django_db_blocker: Any) -> Iterator[None]:
    """The rate limits (loo_site.limits) count in the shared cache, a table of the database:
    a test in a transaction has its counts rolled back with it, but one on a live server (or
    in a transactional database) commits them, and a flush leaves that table: they are
    cleared after it (the test client's address is always 127.0.0.1)."""
    yield
    if _commits(request):
        from django.core.cache import cache

        with django_db_blocker.unblock():
            cache.clear()
