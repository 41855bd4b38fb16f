"""Whether this server can serve its pages now: what the readiness check (``/healthz/ready/``,
loo_site.views) asks. The liveness check (``/healthz/``) asks nothing: a process that answers
it is alive, whatever its services say.

Ready means: the database answers a query, and, when the shared cache is Redis (REDIS_URL), so
does Redis. Each check is cheap (one round trip) and bounded: Redis by its time-out and its
breaker (games.caches: while the breaker is open, Redis is said down without being asked), the
database by its own connection's behaviour (a refused connection fails at once).
"""

from __future__ import annotations

from django.core.cache import caches
from django.db import DatabaseError, connections

from games.caches import RedisCache


def not_ready() -> str | None:
    """Why this server cannot serve its pages now (a short sentence for an operator, with no
    address or password in it), or None if it can."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "The database cannot be reached."
    cache = caches["default"]
    if isinstance(cache, RedisCache) and not cache.answers():
        return "The shared cache (Redis) cannot be reached."
    return None
