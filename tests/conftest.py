"""Settings shared by the whole suite (tests/engine/ included, which stays database-free)."""

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

# The site rendered once per session, for the page checks to read (the site_crawl fixture).
pytest_plugins = ["tests.crawl"]

# "ci" is loaded unless HYPOTHESIS_PROFILE names another; "thorough" is for hunting bugs.
hypothesis_settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
hypothesis_settings.register_profile("thorough", max_examples=2000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
def _fresh_rate_limits(request: pytest.FixtureRequest, django_db_blocker: Any) -> Iterator[None]:
    """The rate limits (games.throttle) count in the shared cache, a table of the database:
    a test in a transaction has its counts rolled back with it, but one on a live server (or
    in a transactional database) commits them, and a flush leaves that table: they are
    cleared after it (the test client's address is always 127.0.0.1)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    committed = bool(marker and marker.kwargs.get("transaction")) or bool(
        {"live_server", "transactional_db"} & set(request.fixturenames)
    )
    if committed:
        from django.core.cache import cache

        with django_db_blocker.unblock():
            cache.clear()
