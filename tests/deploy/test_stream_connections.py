"""Open live streams cost the database no connection (issue 36): a PostgreSQL server that
allows 20 connections, two ASGI servers (one uvicorn worker each) on it, and 40 streams of a
table open on them at once; every ordinary page still answers 200, the database has far fewer
connections than streams, and a change of the table reaches every stream. And a crowd of 60
pages asked for at once is answered, every one: each worker serves a few at a time
(gunicorn.conf.py's REQUESTS_AT_ONCE, sized from the database's budget), where before each
request took a connection of its own and PostgreSQL refused the ones past 20 (error pages).

Each stream used to hold a connection for as long as it was open (its request's thread kept
the one its middleware and its checks had opened): 40 streams asked for 40 connections and
PostgreSQL refused the rest ("sorry, too many clients already"), pages included. Now a stream
gives back its request's connection as it starts and touches the database only in its
worker's few reader threads, whose connections are closed after each read.

The PostgreSQL server is this module's own (the test database copied into it), started with
``max_connections=20``; run on PostgreSQL: ``scripts/with_postgres.sh .venv/bin/pytest
tests/deploy/test_stream_connections.py``.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from pytest_django import DjangoDbBlocker

from tests.deploy.servers import (
    PASSWORD,
    SERVERS_HASHER,
    Browser,
    Response,
    free_port,
    log_in,
    server_env,
    started,
    submit,
)
from tests.live.test_sse import Stream

pytestmark = pytest.mark.django_db

MAX_CONNECTIONS = 20
STREAMS = 40
#: Pages asked for at once, each by a visitor of its own: more than the database allows
#: connections.
CROWD = 60
#: Ordinary requests each worker serves at once (gunicorn.conf.py's REQUESTS_AT_ONCE), sized
#: from this database's budget as docs/deploying.md says: 2 workers x (3 + 4 live bus threads
#: + 1 driver) = 16 of its 20 connections.
REQUESTS_AT_ONCE = 3


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(f"no PostgreSQL {name} under /usr/lib/postgresql/*/bin")
    return found[-1]


@pytest.fixture(scope="module")
def small_database(site: None, django_db_blocker: DjangoDbBlocker) -> Iterator[str]:
    """A PostgreSQL server of its own with ``max_connections=20``, holding a copy of the test
    database (the content, and an account to stream with): its URL."""
    with django_db_blocker.unblock(), SERVERS_HASHER:
        User.objects.create_user("streamer", password=PASSWORD)
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-small-pg."))
    as_server: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root, as scripts/with_postgres.sh says
        shutil.chown(folder, "postgres")
        as_server = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()

    def server(*command: str) -> None:
        subprocess.run([*as_server, *command], cwd=folder, check=True, capture_output=True)

    server(_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    options += f" -c max_connections={MAX_CONNECTIONS}"
    server(_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o", options, "start")
    try:
        url = f"postgres://postgres@127.0.0.1:{port}/lanterloo"
        server(_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "lanterloo")
        db = connection.settings_dict
        source = ["-h", db["HOST"] or "127.0.0.1", "-U", db["USER"] or "postgres"]
        source += ["-p", str(db["PORT"] or 5432), db["NAME"]]
        dump = subprocess.run(
            [_bin("pg_dump"), "--no-owner", *source], check=True, capture_output=True
        )
        subprocess.run(
            [_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", url],
            input=dump.stdout,
            check=True,
            capture_output=True,
        )
        yield url
    finally:
        server(_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def _connections(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = 'lanterloo'"
        ).fetchone()
        assert row is not None
        return int(row[0]) - 1  # not this one


def test_more_open_streams_than_the_database_allows_connections_and_every_page_answers(
    small_database: str, static_files: None, logs: Path
) -> None:
    env = server_env(
        DATABASE_URL=small_database,
        DJANGO_SECRET_KEY="stream-connections-test-key-" + "0123456789" * 5,
        DJANGO_LIMIT_PEOPLE_STREAMS_PER_ACCOUNT=str(STREAMS * 2),
        DJANGO_LIMIT_PEOPLE_STREAMS_PER_ADDRESS=str(STREAMS * 2),
        DJANGO_REQUESTS_AT_ONCE=str(REQUESTS_AT_ONCE),
    )
    app = ["loo_site.asgi", "--worker-class", "uvicorn_worker.UvicornWorker"]
    with started(app, env, logs / "small-database") as ports:
        browser = Browser()
        assert log_in(browser, ports[0], "streamer", PASSWORD).status == 302
        opened = submit(
            browser,
            ports[0],
            browser.get(ports[0], "/play/people/new/").text,
            "/play/people/new/",
            game="three-card",
            rules="hoffmann",
            players="3",
            opponents="beginner",
            mode="learning",
            seconds_per_move="300",
        )
        assert opened.status == 302, opened.text[:2000]
        table = opened.location
        pk = int(table.strip("/").split("/")[-1])
        with psycopg.connect(small_database) as conn:
            row = conn.execute("SELECT version FROM games_peopletable WHERE id = %s", [pk])
            version = int(row.fetchone()[0])  # type: ignore[index]
        cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items())}
        streams = [
            Stream(ports[n % 2], f"{table}stream/?after={version}", cookie, timeout=60)
            for n in range(STREAMS)
        ]
        try:
            for stream in streams:
                assert stream.response.status == 200
                assert stream.event()[0] == "retry: 2000"
            held = _connections(small_database)
            # Every page, on both servers, while the streams are open.
            for port in ports:
                for path in ("/", "/play/", "/play/people/", table, "/healthz/"):
                    for _ in range(3):
                        response = browser.get(port, path)
                        assert response.status == 200, (port, path, response.text[:500])

            # A crowd asks for pages at once, more than the database allows connections:
            # each worker serves a few at a time (gunicorn.conf.py's requests_at_once), the
            # others wait their turn, and every one is answered.
            def visit(n: int) -> Response:
                visitor = Browser()
                visitor.cookies = dict(browser.cookies)  # logged in: his session, his tables
                return visitor.get(ports[n % 2], "/play/people/")

            with ThreadPoolExecutor(max_workers=CROWD) as pool:
                crowd = list(pool.map(visit, range(CROWD)))
            assert [r.status for r in crowd] == [200] * CROWD, [
                r.text[:300] for r in crowd if r.status != 200
            ][:3]
            # A change of the table reaches every stream, each with the table.
            start = submit(browser, ports[1], browser.get(ports[1], table).text, f"{table}start/")
            assert start.status == 302, start.text[:2000]
            for stream in streams:
                event = stream.next_update()
                assert event.split("\n")[1] == "event: table", event[:300]
                assert int(event.split("\n")[0].removeprefix("id: ")) > version
        finally:
            for stream in streams:
                stream.close()
    print(f"{STREAMS} open streams on 2 servers held {held} database connections")
    # The streams hold none; what may be open is each server's live-bus threads' (a thread
    # that ended a call while others waited keeps its connection: LIVE_DATABASE_THREADS, 4)
    # and its computer players' driver (1): 10 on two servers, against one per stream (40).
    assert held <= 2 * (settings.LIVE_DATABASE_THREADS + 1), held
