"""The deploy tests' fixtures, set up once for the folder (its __init__.py makes it a package,
so that they are torn down when its last test ends, not at the end of the session): the test
database committed with the content and an editor, the static files collected, a Redis
server, a folder for the servers' logs. Each module starts its own servers on them.

The servers must reach the test database from other processes, so these tests run on
PostgreSQL only: ``scripts/with_postgres.sh .venv/bin/pytest tests/deploy``.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from pytest_django import DjangoDbBlocker

from tests.deploy.servers import PASSWORD, ROOT, SERVERS_HASHER, redis_server


@pytest.fixture(scope="package")
def site(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The test database as servers in other processes need it: committed, with the site's
    content, a superuser and a player; emptied again afterwards."""
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            pytest.fail(
                "Two servers in other processes need a database they can reach: run this on "
                "PostgreSQL (scripts/with_postgres.sh .venv/bin/pytest tests/deploy)."
            )
        call_command("loadcontent", verbosity=0)
        with SERVERS_HASHER:
            User.objects.create_superuser("editor", password=PASSWORD)
        try:
            yield
        finally:
            call_command("flush", interactive=False, verbosity=0)
            cache.clear()


@pytest.fixture(scope="package")
def static_files() -> None:
    """DEBUG off serves the collected, hashed static files: collect them as a deploy does."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


@pytest.fixture(scope="package")
def logs() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-deploy-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="package")
def redis_url(logs: Path) -> Iterator[str]:
    """A Redis server of its own, in memory only, on a free loopback port."""
    with redis_server(logs, "redis") as (url, _):
        yield url


@pytest.fixture(scope="module", autouse=True)
def _counts_cleared(redis_url: str, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """What a module's servers counted in the shared caches (the rate limits' counts of failed
    logins, in Redis or in the database's cache table) is cleared after it: the next module's
    logins from the same address start from nothing."""
    yield
    redis.Redis.from_url(redis_url).flushall()
    with django_db_blocker.unblock():
        cache.clear()
