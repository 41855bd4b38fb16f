"""gunicorn.conf.py gives uvicorn's worker the limit and the shutdown time its gunicorn settings
do not pass on, and leaves a sync worker alone (issue 36). That the limit answers 503 in a real
server is seen in docs/deploying.md's figures; here, what the hook sets."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from uvicorn.config import Config

CONF = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))


def test_uvicorns_worker_gets_the_limit_and_a_shutdown_inside_gunicorns() -> None:
    config = Config(app=None)
    worker: Any = SimpleNamespace(config=config, cfg=SimpleNamespace(worker_connections=7))
    CONF["post_worker_init"](worker)
    assert config.limit_concurrency == 7
    assert config.timeout_graceful_shutdown is not None
    assert 0 < config.timeout_graceful_shutdown < CONF["graceful_timeout"]


def test_a_sync_worker_is_left_alone() -> None:
    worker: Any = SimpleNamespace(cfg=SimpleNamespace(worker_connections=7))
    CONF["post_worker_init"](worker)
    assert not hasattr(worker, "config")
