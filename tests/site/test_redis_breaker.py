"""The breaker that keeps a hung or dead Redis from costing every request a time-out
(games.caches.Breaker; the shared cache's and the live bus's publisher's, issue 36): on a clock
the test moves (no sleep), and on the cache objects Django makes one per request under ASGI."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache.backends.redis import RedisCacheClient
from django.test import override_settings

from games import caches
from games.caches import Breaker, CacheUnavailable, RedisCache
from games.live import bus
from tests.site.test_throttle import _free_port


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _breaker(clock: Clock, logger: logging.Logger) -> Breaker:
    return Breaker("It is down", "It is up.", retry=lambda: 5.0, clock=clock, logger=logger)


def _lines(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == name]


def test_one_outage_is_logged_once_and_its_end_once(
    clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    breaker = _breaker(clock, logging.getLogger("test.breaker"))
    assert breaker.usable()
    for _ in range(7):  # seven requests that failed at once, before any saw the breaker open
        breaker.failed(TimeoutError("Timeout reading from socket"))
    assert not breaker.usable()
    clock.now += 4.9
    assert not breaker.usable()  # left alone for the whole wait

    clock.now += 0.2  # the wait over: one caller tries, the others still fall back
    assert breaker.usable()
    assert not breaker.usable()
    breaker.failed(TimeoutError("Timeout reading from socket"))  # still hung
    clock.now += 5.0
    assert breaker.usable()
    breaker.answered()
    assert breaker.usable() and breaker.usable()
    breaker.answered()  # answering again logs nothing more

    breaker.failed(ConnectionError("refused"))  # a second outage is a new one
    assert _lines(caplog, "test.breaker") == [
        "It is down: Timeout reading from socket",
        "It is up.",
        "It is down: refused",
    ]


def test_a_try_that_never_reports_lets_another_through_after_the_wait(clock: Clock) -> None:
    """A caller that took the try and went away (a cancelled request) does not keep the
    service closed for ever: the next wait ends as the first did."""
    breaker = _breaker(clock, logging.getLogger("test.breaker"))
    breaker.failed(OSError("unreachable"))
    clock.now += 5.0
    assert breaker.usable()
    clock.now += 4.0
    assert not breaker.usable()
    clock.now += 1.0
    assert breaker.usable()


# -- the shared cache: one breaker and one pool per process, whatever the request ----------------


@pytest.fixture
def dead_redis() -> Iterator[str]:
    caches.forget_redis()
    yield f"redis://127.0.0.1:{_free_port()}/0"
    caches.forget_redis()


def test_cache_objects_of_one_process_share_the_breaker_so_an_outage_costs_one_try(
    dead_redis: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten requests' cache objects (Django makes one per request under ASGI) on a Redis that
    refuses: one call reaches Redis, the others fall back at once; logged once."""
    tries: list[str] = []
    real_get = RedisCacheClient.get

    def get(self: RedisCacheClient, key: Any, default: Any) -> Any:
        tries.append(key)
        return real_get(self, key, default)

    monkeypatch.setattr(RedisCacheClient, "get", get)
    objects = [RedisCache(dead_redis, {}) for _ in range(10)]
    assert [cache.get("content-version", "miss") for cache in objects] == ["miss"] * 10
    assert len(tries) == 1
    with pytest.raises(CacheUnavailable):
        objects[3].incr("a-count")
    assert len({id(cache._cache) for cache in objects}) == 1  # one client, one pool
    assert _lines(caplog, "games.caches")[0].startswith("Redis cannot be reached")
    assert len(_lines(caplog, "games.caches")) == 1


def test_the_cache_times_out_quickly_unless_told_otherwise(dead_redis: str) -> None:
    options = RedisCache(dead_redis, {})._options
    assert options["socket_timeout"] == options["socket_connect_timeout"] == 0.5
    assert (
        RedisCache(dead_redis, {"OPTIONS": {"socket_timeout": 2}})._options["socket_timeout"] == 2
    )


# -- the live bus's publisher ------------------------------------------------------------------


def test_publishing_to_a_dead_redis_tries_once_per_wait_and_logs_once(
    dead_redis: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    breaker = Breaker(
        "The live bus (Redis) is down", "Up.", retry=lambda: 5.0, clock=clock, logger=bus.log
    )
    monkeypatch.setattr(bus, "health", bus._Health(breaker))
    bus._publisher.cache_clear()
    tries: list[str] = []
    real_publish = bus.redis.Redis.publish

    def publish(self: Any, channel: str, message: str) -> Any:
        tries.append(message)
        return real_publish(self, channel, message)

    monkeypatch.setattr(bus.redis.Redis, "publish", publish)
    try:
        with override_settings(LIVE_REDIS_URL=dead_redis):
            for version in range(1, 6):
                bus.publish("breaker", version)  # never raises
            clock.now += 5.0
            for version in range(6, 9):
                bus.publish("breaker", version)
    finally:
        bus._publisher.cache_clear()
    assert tries == ["1", "6"]
    assert [line.split(":")[0] for line in _lines(caplog, "games.live.bus")] == [
        "The live bus (Redis) is down"
    ]


def test_the_cache_and_the_bus_on_one_redis_share_its_breaker(dead_redis: str) -> None:
    """Whichever finds Redis down first spares the other its time-out."""
    cache = RedisCache(dead_redis, {})
    with override_settings(LIVE_REDIS_URL=dead_redis):
        assert bus.health.redis is cache._breaker
        assert not bus.health.redis_down()
        assert cache.get("content-version") is None  # refused: the breaker opens
        assert bus.health.redis_down()  # the connections poll
        assert not bus.health.redis_usable()  # the publisher need not try
        cache._breaker.down_until = 1.0  # the wait over (not slept)
        assert bus.health.redis_down()  # asking hands out no try...
        assert bus.health.redis_usable()  # ...which the next caller gets
