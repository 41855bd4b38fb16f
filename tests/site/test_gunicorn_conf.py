"""gunicorn.conf.py gives uvicorn's worker the limit and the shutdown time its gunicorn settings
do not pass on, and the cap on ordinary requests at once (loo_site.requests_at_once), and
leaves a sync worker alone (issue 36). Here, what the hook sets; on a real server,
tests/deploy/test_stream_connections.py (the cap keeps a crowd within the database's
connections) and tests/deploy/test_resilience.py (the connection limit answers 503)."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from uvicorn.config import Config

from loo_site.requests_at_once import RequestsAtOnce

CONF = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))


def test_uvicorns_worker_gets_the_limit_and_a_shutdown_inside_gunicorns() -> None:
    config = Config(app=None)
    app = object()
    worker: Any = SimpleNamespace(
        config=config, cfg=SimpleNamespace(worker_connections=7), wsgi=app
    )
    CONF["post_worker_init"](worker)
    assert config.limit_concurrency == 7
    assert config.timeout_graceful_shutdown is not None
    assert 0 < config.timeout_graceful_shutdown < CONF["graceful_timeout"]
    # What it serves is its application, a few ordinary requests at a time.
    assert isinstance(worker.wsgi, RequestsAtOnce) and worker.wsgi.app is app
    assert worker.wsgi.limit == CONF["REQUESTS_AT_ONCE"]


def test_the_requests_at_once_fit_the_database_budget_the_docs_state() -> None:
    """docs/deploying.md: two servers of two workers, each needing REQUESTS_AT_ONCE + 4 (the
    live bus's threads) + 1 (the driver) connections, within PostgreSQL's default 100 less
    the 3 kept for its superusers, with room for cron and a shell."""
    per_worker = CONF["REQUESTS_AT_ONCE"] + settings.LIVE_DATABASE_THREADS + 1
    assert 2 * 2 * per_worker <= 100 - 3 - 5
    assert CONF["REQUESTS_AT_ONCE"] >= 2  # two cores are kept busy


def test_a_sync_worker_is_left_alone() -> None:
    worker: Any = SimpleNamespace(cfg=SimpleNamespace(worker_connections=7))
    CONF["post_worker_init"](worker)
    assert not hasattr(worker, "config")
