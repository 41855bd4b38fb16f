"""The two health checks (issue 36): ``/healthz/`` says the process is alive and asks nothing;
``/healthz/ready/`` says whether it can serve pages: 200 while the database (and Redis, when it
is the shared cache) answer, 503 with a short plain reason while one does not. Neither needs a
login, sets a cookie or may be kept by a cache. A database that is down is tested with real
servers (tests/deploy/test_resilience.py): here the test database is always up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from games import caches as shared_caches
from tests.site.test_throttle import _free_port, _redis, redis_url  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _redis_thought_up() -> Iterator[None]:
    shared_caches.forget_redis()
    yield
    shared_caches.forget_redis()


def _plain(response: object) -> str:
    assert response["Content-Type"] == "text/plain"  # type: ignore[index]
    return response.content.decode()  # type: ignore[attr-defined]


def test_ready_when_the_database_answers(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(1):  # SELECT 1, and no session read or written
        response = client.get(reverse("readiness"))

    assert response.status_code == 200
    assert _plain(response) == "ready"
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies


def test_ready_with_redis_as_the_shared_cache_when_it_answers(redis_url: str) -> None:  # noqa: F811
    with override_settings(CACHES=_redis(redis_url)):
        response = Client().get(reverse("readiness"))

    assert (response.status_code, _plain(response)) == (200, "ready")


def test_not_ready_while_redis_cannot_be_reached_and_still_alive() -> None:
    """Redis at a port where nothing listens: not ready (once asked, and again while its
    breaker is open, without asking it), while the liveness check still answers ok."""
    client = Client()
    with override_settings(CACHES=_redis(f"redis://127.0.0.1:{_free_port()}/0")):
        for _ in range(2):
            response = client.get(reverse("readiness"))
            assert response.status_code == 503
            assert _plain(response) == "not ready: The shared cache (Redis) cannot be reached."
            assert "no-store" in response["Cache-Control"]
        assert caches["default"]._breaker.outage  # type: ignore[attr-defined]
        alive = client.get(reverse("healthz"))
        assert (alive.status_code, _plain(alive)) == (200, "ok")


def test_ready_again_once_redis_answers(redis_url: str) -> None:  # noqa: F811
    """The breaker open from an outage (Redis tried and failed), then Redis up: ready again once
    the breaker lets a try through (the wait put back by hand, not slept)."""
    with override_settings(CACHES=_redis(redis_url)):
        breaker = caches["default"]._breaker  # type: ignore[attr-defined]
        breaker.failed(redis.exceptions.ConnectionError("refused"))
        assert Client().get(reverse("readiness")).status_code == 503
        breaker.down_until = 1.0  # the wait over
        assert Client().get(reverse("readiness")).status_code == 200
        assert not breaker.outage


def test_the_readiness_check_only_reads() -> None:
    assert Client().post(reverse("readiness")).status_code == 405
