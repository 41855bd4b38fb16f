"""The shared cache's two backends (settings.CACHES), each with what Django's own lacks for
the rate limits (loo_site.limits):

- :class:`DatabaseCache` (no REDIS_URL): Django's reads, adds a number and writes it back in
  two statements, so two workers counting at once both write the same count, and a limit of
  20 lets 21 through. Its ``incr`` here reads the row under a lock and writes it in one
  transaction: every count is counted.
- :class:`RedisCache`: Django's raises on every call while Redis is down, and a page that
  only reads a count (or the content version, games.links) failed with a 500. Here a
  connection error or a time-out is caught and answered as a miss: a get finds nothing, a set
  stores nothing, and ``incr`` raises :class:`CacheUnavailable`, so that the limits decide
  whether to let the request through (most) or refuse it (making accounts). A :class:`Breaker`
  shared by the whole process (and with the live bus's publisher) then leaves Redis alone for
  ``RETRY_SECONDS`` (one request tries it again after that): an outage costs one time-out
  (``TIMEOUT_SECONDS``), not one a request,
  and is logged once when it starts and once when it ends.

Django keeps a cache object per request under ASGI (its cache handler is context-local), so
what must outlive a request, the breaker and the connection pool, is kept here per server,
once per process: with a breaker on each object a hung Redis was tried (and its outage
logged) by every request, and every request opened a connection of its own.
"""

from __future__ import annotations

import base64
import logging
import pickle
import threading
import time
from collections.abc import Callable
from functools import cached_property
from typing import Any, TypeVar

from django.core.cache.backends import db, redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long Redis is left alone after a connection error or a time-out.
RETRY_SECONDS = 5.0
#: How long a connection to Redis may take to open, or a command to answer, unless the
#: settings' OPTIONS say otherwise. Redis answers in well under a millisecond on a network
#: of one site: half a second is only ever an outage (a hung or unreachable server).
TIMEOUT_SECONDS = 0.5


class Breaker:
    """Whether a service is worth trying now, for every thread of a process: closed (try it)
    until a call fails, then open (don't: fall back) for ``retry()`` seconds, after which one
    caller tries it again (the others still fall back) and closes it if it answers. The
    outage is logged once when it starts (``down``, with the error) and once when it ends
    (``up``), however many calls failed in between. ``clock`` is injected for the tests."""

    def __init__(
        self,
        down: str,
        up: str,
        retry: Callable[[], float] = lambda: RETRY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        logger: logging.Logger = log,
    ) -> None:
        self._down, self._up = down, up
        self._retry = retry
        self._clock = clock
        self._log = logger
        self._lock = threading.Lock()
        #: 0 while closed; else when the next try is due.
        self.down_until = 0.0
        #: Whether the outage was logged and its end is still to be.
        self.outage = False

    def usable(self) -> bool:
        """Whether to call the service now. Past the wait, True for one caller only: the
        next try is put off at once, so a hung service is not tried by every request that
        comes while the first try waits for its time-out."""
        if not self.down_until:
            return True
        with self._lock:
            now = self._clock()
            if not self.down_until:
                return True
            if now < self.down_until:
                return False
            self.down_until = now + self._retry()
            return True

    def failed(self, error: BaseException) -> None:
        with self._lock:
            if not self.outage:
                self.outage = True
                self._log.error("%s: %s", self._down, error)
            self.down_until = self._clock() + self._retry()

    def answered(self) -> None:
        if not (self.down_until or self.outage):
            return
        with self._lock:
            if self.outage:
                self._log.warning("%s", self._up)
            self.outage = False
            self.down_until = 0.0


_shared_lock = threading.Lock()
_breakers: dict[tuple[str, ...], Breaker] = {}
_clients: dict[tuple[Any, ...], Any] = {}


def breaker_for(servers: list[str]) -> Breaker:
    """The process's breaker for Redis on ``servers``: the shared cache's, and the live bus's
    when it uses the same Redis (games.live.bus, as the settings have it: REDIS_URL for both),
    so that whichever finds Redis down first spares the other its time-out, and the outage is
    logged once."""
    key = tuple(servers)
    with _shared_lock:
        if key not in _breakers:
            _breakers[key] = Breaker(
                "Redis cannot be reached (the shared cache goes without it, "
                "the live bus polls the database)",
                "Redis answers again.",
            )
        return _breakers[key]


def forget_redis() -> None:
    """Drop the process's breakers and clients (for the tests: each starts with Redis
    thought up)."""
    with _shared_lock:
        _breakers.clear()
        _clients.clear()


class CacheUnavailable(ValueError):
    """The shared cache cannot be reached: a count cannot be counted. (A ValueError, as
    Django's ``incr`` raises for a missing key, so code that only knows Django's contract
    treats it as a count that is not there.)"""


class DatabaseCache(db.DatabaseCache):
    """Django's database cache with an ``incr`` that no concurrent ``incr`` can lose."""

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        using = router.db_for_write(self.cache_model_class)
        connection = connections[using]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]
        # PostgreSQL locks the row; SQLite's write transactions (IMMEDIATE) lock the file.
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = connection.ops.adapt_datetimefield_value(tz_now().replace(microsecond=0))
        with transaction.atomic(using=using), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote('value')} FROM {table} "  # noqa: S608 (quoted names)
                f"WHERE {quote('cache_key')} = %s AND {quote('expires')} >= %s{lock}",
                [key, now],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(row[0].encode())) + delta  # noqa: S301 (ours)
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {quote('value')} = %s "  # noqa: S608 (quoted names)
                f"WHERE {quote('cache_key')} = %s",
                [encoded, key],
            )
        return value


class RedisCache(redis.RedisCache):
    """Django's Redis cache that answers a miss, not an exception, while Redis is down."""

    # Django's, which its type stubs leave out.
    _servers: list[str]
    _options: dict[str, Any]
    _class: type[Any]

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {
            "socket_connect_timeout": TIMEOUT_SECONDS,
            "socket_timeout": TIMEOUT_SECONDS,
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        self._breaker = breaker_for(self._servers)

    @cached_property
    def _cache(self) -> Any:
        """Django's client (its pools of connections) for these servers and options, one per
        process: redis-py's pools are thread-safe."""
        key = (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))
        with _shared_lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]

    def _safely(self, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        if not self._breaker.usable():
            return fallback()
        try:
            result = call()
        except _ERRORS as error:
            self._breaker.failed(error)
            return fallback()
        self._breaker.answered()
        return result

    def answers(self) -> bool:
        """Whether Redis answers now (a PING; False at once while the breaker is open): the
        readiness check's question."""
        return self._safely(lambda: bool(self._cache.get_client(write=True).ping()), bool)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).get(key, default, version), lambda: default
        )

    def get_many(self, keys: Any, version: int | None = None) -> Any:
        return self._safely(lambda: super(RedisCache, self).get_many(keys, version), dict)

    def has_key(self, key: Any, version: int | None = None) -> Any:
        return self._safely(lambda: super(RedisCache, self).has_key(key, version), lambda: False)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).add(key, value, timeout, version), lambda: False
        )

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).set(key, value, timeout, version), lambda: None
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).set_many(data, timeout, version), lambda: list(data)
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).touch(key, timeout, version), lambda: False
        )

    def delete(self, key: Any, version: int | None = None) -> Any:
        return self._safely(lambda: super(RedisCache, self).delete(key, version), lambda: False)

    def delete_many(self, keys: Any, version: int | None = None) -> Any:
        return self._safely(
            lambda: super(RedisCache, self).delete_many(keys, version), lambda: None
        )

    def clear(self) -> Any:
        return self._safely(lambda: super(RedisCache, self).clear(), lambda: None)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        return self._safely(lambda: super(RedisCache, self).incr(key, delta, version), _unavailable)


def _unavailable() -> Any:
    raise CacheUnavailable("The shared cache cannot be reached.")


def _redis_errors() -> tuple[type[Exception], ...]:
    try:
        import redis as client  # the client library, present wherever REDIS_URL is used
    except ImportError:
        return ()
    return (client.exceptions.ConnectionError, client.exceptions.TimeoutError)


#: What an outage raises: the client's errors (not its others: a wrong command is a bug).
_ERRORS: tuple[type[Exception], ...] = (ConnectionError, TimeoutError, *_redis_errors())
