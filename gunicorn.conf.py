"""How gunicorn serves Lanterloo: `make run`, the deploy tests' servers and a deployment
(docs/deploying.md, "Workers"). gunicorn reads this file by itself when it starts in this
folder; `make run` names it. The application, the worker class (uvicorn's ASGI worker) and the
number of workers stay on the command line, so that a WSGI server (the benchmarks', a deploy
test's) started here keeps its sync workers and gets only the times below.

Every value can be overridden on the command line or by GUNICORN_CMD_ARGS, but
REQUESTS_AT_ONCE (not a gunicorn setting): by DJANGO_REQUESTS_AT_ONCE.
"""

from __future__ import annotations

import os
from typing import Any

# A worker that stops answering its master this long is killed and replaced. Under uvicorn's
# worker the master hears from the event loop, so this catches a loop blocked by sync code or a
# deadlock, not a slow page (pages run in threads); under sync workers it is each request's time
# limit. The slowest page here takes well under a second: 20 s is only ever a stuck worker.
timeout = 20

# On a restart (HUP, a release) or a stop (TERM), a worker stops taking connections and gives
# what it is doing this long to finish before the master kills it. Uvicorn itself cancels what
# is left 5 s before that (UVICORN_SHUTDOWN_SECONDS below): the live streams, which never end
# by themselves, are closed cleanly (their browsers reconnect to another worker after 2 s), and
# the master's kill is left for a worker whose loop is stuck.
graceful_timeout = 15
UVICORN_SHUTDOWN_SECONDS = graceful_timeout - 5

# An idle keep-alive connection is closed after this long (uvicorn's timeout_keep_alive, which
# its worker takes from this setting; sync workers ignore it). A browser asks for a page's
# files and its htmx swaps within a second or two on the same connection; an idle connection
# kept longer only counts against the limit below and dies with its worker.
keepalive = 5

# At most this many connections at once per worker (uvicorn's limit_concurrency, set below):
# one more is answered 503 at once (the proxy tries another server for a GET, the page retries
# it: docs/deploying.md) instead of being taken on by a worker that cannot serve it. Every
# open connection counts, the live streams (one per open table page), idle keep-alive
# connections and requests waiting their turn (below) included: 1,000 holds a school's classes
# at their tables (about 40 streams a class of 30 with its teacher) with room to spare. It
# bounds a worker's sockets and memory, not its database connections: that is the next.
worker_connections = 1000

# At most this many ordinary requests served at once per worker (loo_site.requests_at_once,
# set below); the others wait their turn on the event loop, holding no database connection,
# up to 10 s (then 503). Under ASGI each request being served holds a database connection of
# its own, so this is what keeps a crowd within the database's budget (docs/deploying.md,
# "Workers"): a worker needs at most REQUESTS_AT_ONCE + 4 (the live bus's threads) + 1 (the
# computer players' driver) connections, 21; two servers of two workers 84 of PostgreSQL's
# default 100 (3 kept for its superusers), leaving some for cron and a shell. Two cores serve
# fewer than 16 at once anyway: a request waits for a place rather than for a core.
REQUESTS_AT_ONCE = int(os.environ.get("DJANGO_REQUESTS_AT_ONCE", "16"))


def post_worker_init(worker: Any) -> None:
    """Give uvicorn's worker what its gunicorn settings do not pass on (it reads ``keepalive``
    and ``timeout`` itself): the connection limit and the shutdown time above; and wrap its
    application (loaded by now, served once this returns) so that it serves at most
    REQUESTS_AT_ONCE ordinary requests at once. A sync worker has no uvicorn configuration and
    is left as it is (it serves one request at a time)."""
    config = getattr(worker, "config", None)
    if config is None or not hasattr(config, "limit_concurrency"):
        return
    config.limit_concurrency = worker.cfg.worker_connections
    config.timeout_graceful_shutdown = UVICORN_SHUTDOWN_SECONDS
    from loo_site.requests_at_once import RequestsAtOnce

    worker.wsgi = RequestsAtOnce(worker.wsgi, REQUESTS_AT_ONCE)
