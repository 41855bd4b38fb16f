"""The rate limits' counting (loo_site.limits, games.caches): N requests at once let exactly
the limit through, on the database cache the tests use and on Redis; and with Redis down the
cache answers misses, the limits let requests through (or refuse making accounts, if told
to), and no page fails."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from games.caches import CacheUnavailable
from loo_site.limits import LIMITS, Limit, LimitsUnavailable, Per
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _redis(url: str) -> dict[str, Any]:
    return {
        "default": {
            "BACKEND": "games.caches.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def _exactly_the_limit_passes() -> None:
    rule = Limit("test-at-once", 20, 600, Per.ADDRESS, "Too many.")
    # SQLite's in-memory test database refuses a write while another thread's is open
    # ("locked") where the site's file would wait: at_once makes such a call again after.
    results = at_once(*[lambda: LIMITS.take(rule, "ip:192.0.2.1").wait] * 30)
    assert sorted(r == 0 for r in results).count(True) == 20, results


def test_thirty_at_once_let_exactly_twenty_through_on_the_database_cache() -> None:
    _exactly_the_limit_passes()


@pytest.fixture
def redis_url() -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server on this machine")
    port = _free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(5)


def test_thirty_at_once_let_exactly_twenty_through_on_redis(redis_url: str) -> None:
    with override_settings(CACHES=_redis(redis_url)):
        _exactly_the_limit_passes()


# -- Redis down -------------------------------------------------------------------------------


@pytest.fixture
def redis_down() -> Iterator[None]:
    """REDIS_URL names a port where nothing listens."""
    with override_settings(CACHES=_redis(f"redis://127.0.0.1:{_free_port()}/0")):
        yield


def test_with_redis_down_the_cache_answers_misses(redis_down: None) -> None:
    cache = caches["default"]
    assert cache.get("x", "default") == "default"
    assert cache.add("x", 1) is False
    cache.set("x", 1)
    with pytest.raises(CacheUnavailable):
        cache.incr("x")


def test_with_redis_down_limits_let_through_unless_they_guard_accounts(redis_down: None) -> None:
    rule = Limit("test-down", 1, 600, Per.ADDRESS, "Too many.")
    assert [LIMITS.take(rule, "ip:192.0.2.2").wait for _ in range(3)] == [0, 0, 0]
    with pytest.raises(LimitsUnavailable):
        LIMITS.take(Limit("test-down", 1, 600, Per.ADDRESS, "Too many.", True), "ip:192.0.2.2")
    LIMITS.hit(rule, "ip:192.0.2.2")  # the calls that count failures do not raise either
    assert LIMITS.retry_after(rule, "ip:192.0.2.2") == 0


def test_with_redis_down_no_page_fails(redis_down: None) -> None:
    """Logging in, signing up (refused: 503, nothing made), a new table, the lesson pages."""
    from django.contrib.auth.models import User

    User.objects.create_user("ada", password="a-long-enough-password-9")
    client = Client(REMOTE_ADDR="192.0.2.30")
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("login")).status_code == 200
    assert client.get(reverse("course:home")).status_code == 200
    assert client.get(reverse("lessons:rule-list")).status_code == 200
    response = client.post(
        reverse("sign-up"),
        {
            "username": "new",
            "password1": "a-long-enough-password-9",
            "password2": "a-long-enough-password-9",
        },
    )
    assert response.status_code == 503
    assert "cannot be made just now" in response.content.decode()
    assert not User.objects.filter(username="new").exists()
    response = client.post(reverse("login"), {"username": "ada", "password": "wrong"})
    assert response.status_code == 200
    response = client.post(
        reverse("login"), {"username": "ada", "password": "a-long-enough-password-9"}
    )
    assert response.status_code == 302
    assert client.get(reverse("games:choose")).status_code == 200
    deal = {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
    response = client.post(reverse("games:table-create"), {**deal, "mode": "learning", "seed": 1})
    assert response.status_code == 302


def test_sessions_are_not_in_the_cache() -> None:
    """A Redis outage must log nobody out: sessions are in the database."""
    from django.conf import settings

    assert settings.SESSION_ENGINE in (
        "django.contrib.sessions.backends.db",
        "django.contrib.sessions.backends.cached_db",
    )
