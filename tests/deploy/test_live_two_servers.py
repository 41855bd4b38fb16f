"""Two ASGI app servers share the live bus: a play through one reaches a stream on the other
within a second, in order (issue 29).

Starts two servers as `make run` does (gunicorn with uvicorn's worker, DEBUG off; one worker
each) on free loopback ports, on the test database, with a Redis server (``REDIS_URL``) or
without (the bus polls the database), and the site's settings plus the test-only views of
tests/live/urls.py (``DJANGO_SETTINGS_MODULE=tests.live.settings``): a stream of a practice
table's versions, and a POST that does what a play does to the live part (stores the table's
version + 1 in a transaction, publishes it on commit) without the engine, so that a play can
be timed to the millisecond. A practice table is dealt through server 1's chooser as a
person deals one; streams are opened on both servers; ten plays are POSTed to server 1 and
each must be heard on both streams, in order, within a second of the POST's answer.

Like tests/deploy/test_two_servers.py, this needs a database other processes reach: it runs
in the PostgreSQL lane (``scripts/with_postgres.sh .venv/bin/pytest tests/deploy``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_django import DjangoDbBlocker

from games.models import PracticeTable
from tests.deploy.test_two_servers import (  # noqa: F401 (fixtures)
    Browser,
    database_url,
    deal,
    free_port,
    logs,
    redis_url,
    site,
    started,
    static_files,
    stop,
    wait_for_port,
)
from tests.live.test_sse import Stream, bump, update

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PLAYS = 10


@dataclass
class Servers:
    one: int
    two: int
    bus: str


@pytest.fixture(scope="module", params=["redis", "database"])
def servers(
    request: pytest.FixtureRequest,
    site: None,  # noqa: F811
    static_files: None,  # noqa: F811
    logs: Path,  # noqa: F811
    django_db_blocker: DjangoDbBlocker,
) -> Iterator[Servers]:
    """Two ASGI servers, one uvicorn worker each, configured alike (test_two_servers.py's
    environment) with the live test views."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.live.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="live-two-servers-test-key-" + "0123456789" * 5,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url(),
        # The servers import this checkout's packages (and tests.live), wherever they run.
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    if request.param == "redis":
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    app = ["loo_site.asgi", "--worker-class", "uvicorn_worker.UvicornWorker"]
    with started(app, env, logs / f"uvicorn-{request.param}") as ports:
        yield Servers(ports[0], ports[1], request.param)


def test_plays_through_one_server_reach_streams_on_both_within_a_second_in_order(
    servers: Servers, django_db_blocker: DjangoDbBlocker
) -> None:
    address = deal(Browser(), servers.one)
    pk = int(address.strip("/").split("/")[-1])
    with django_db_blocker.unblock():
        table = PracticeTable.objects.get(pk=pk)
    start = table.version
    path = f"/live-test/{pk}/stream/?after={start}"
    on_two, on_one = Stream(servers.two, path), Stream(servers.one, path)
    delays: list[float] = []
    try:
        for stream in (on_two, on_one):
            assert stream.response.status == 200
            assert stream.response.getheader("Content-Type") == "text/event-stream"
            assert stream.event()[0] == "retry: 2000"
        for n in range(1, PLAYS + 1):
            version, sent = bump(servers.one, table)
            assert version == start + n
            for stream in (on_two, on_one):
                event = stream.next_update()
                heard = time.monotonic()
                assert event == update(version), (servers.bus, n, event)
                delays.append(heard - sent)
                assert heard - sent < 1.0, (servers.bus, n, heard - sent)
    finally:
        on_two.close()
        on_one.close()
    print(
        f"live bus ({servers.bus}) across two servers: {len(delays)} deliveries, median "
        f"{statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms"
    )
