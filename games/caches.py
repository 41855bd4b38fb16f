"""The shared cache's two backends (settings.CACHES), each with what Django's own lacks for
the rate limits (loo_site.limits):

- :class:`DatabaseCache` (no REDIS_URL): Django's reads, adds a number and writes it back in
  two statements, so two workers counting at once both write the same count, and a limit of
  20 lets 21 through. Its ``incr`` here reads the row under a lock and writes it in one
  transaction: every count is counted.
- :class:`RedisCache`: Django's raises on every call while Redis is down, and a page that
  only reads a count (or the content version, games.links) failed with a 500. Here a
  connection error is caught, logged once (and once when Redis is back), and answered as a
  miss: a get finds nothing, a set stores nothing, and ``incr`` raises
  :class:`CacheUnavailable`, so that the limits decide whether to let the request through
  (most) or refuse it (making accounts). After a failure Redis is left alone for
  ``RETRY_SECONDS``, so an outage does not cost every request a connection timeout.
"""

from __future__ import annotations

import base64
import logging
import pickle
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends import db, redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long Redis is left alone after a connection error.
RETRY_SECONDS = 5.0


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

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _safely(self, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        if self._down_until > time.monotonic():
            return fallback()
        try:
            result = call()
        except _ERRORS as error:
            with self._lock:
                if not self._down_until:
                    log.error("The shared cache (Redis) cannot be reached: %s", error)
                self._down_until = time.monotonic() + RETRY_SECONDS
            return fallback()
        if self._down_until:
            with self._lock:
                if self._down_until:
                    log.warning("The shared cache (Redis) answers again.")
                self._down_until = 0.0
        return result

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
