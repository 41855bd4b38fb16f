"""What the live part's tests share: a Redis server of their own, and the bus's state reset."""

from __future__ import annotations

import concurrent.futures
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import pytest
import redis
from django.db import OperationalError, connection, connections

from games.live import bus

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RedisServer:
    """A redis-server on a loopback port, in memory only; it can be stopped and started again
    on the same port (an outage)."""

    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server is not None
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        give_up = time.monotonic() + 30  # a busy machine
        while time.monotonic() < give_up:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.02)
        raise AssertionError(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(5)
            self.process = None

    def pubsub_clients(self) -> int:
        """How many connections to Redis listen on any channel now."""
        client = redis.Redis.from_url(self.url)
        try:
            return len(client.client_list(_type="pubsub"))
        finally:
            client.close()

    def subscribers(self, channel: str) -> int:
        """How many connections listen on the bus's ``channel`` now."""
        client = redis.Redis.from_url(self.url)
        try:
            return int(
                dict(client.pubsub_numsub(bus.PREFIX + channel))[(bus.PREFIX + channel).encode()]
            )
        finally:
            client.close()


@pytest.fixture
def redis_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    # A deployment's Redis answers a connection or a publish within half a second, or is
    # taken as down for a while (its outage has tests: a stopped server refuses at once). On
    # a busy machine the tests' Redis can take longer: a subscriber then polled for 5 s and
    # came back after the first publishes, and a late publish was lost.
    monkeypatch.setattr(bus, "REDIS_TIMEOUT", 10.0)
    server = RedisServer(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _fresh_bus() -> Iterator[None]:
    """Each test starts with Redis thought up, and leaves no reader thread holding a
    connection to the test database (PostgreSQL would not drop it)."""
    bus.health.redis_down_until = 0.0
    bus.health.database_down = False
    bus._publisher.cache_clear()
    yield
    bus.close_readers()
    bus._publisher.cache_clear()


def in_a_thread(call: Callable[[], T]) -> T:
    """``call()`` on a thread of its own: a test run that has started Playwright's sync API
    (the browser tests' session-wide browser) keeps an event loop running on the main thread,
    where ``asyncio.run`` and ``async_to_sync`` refuse to run (seen in CI, in both lanes).
    The thread closes the database connections it opened before it ends: left open, they are
    collected with the thread, and psycopg warns of a connection deleted while open (a
    ResourceWarning that failed a later test in the PostgreSQL lane)."""

    def closing() -> T:
        try:
            return call()
        finally:
            connections.close_all()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(closing).result()


def written(write: Callable[[], T]) -> T:
    """``write()``, made again while SQLite's in-memory test database refuses it for a table
    another thread is reading (the bus's, a stream's hook): "database table is locked", as
    its locks are whole tables and never wait, where a file database's do. A write refused
    so was rolled back: nothing of it was stored."""
    for _ in range(100):
        try:
            return write()
        except OperationalError as error:
            if connection.vendor != "sqlite" or "locked" not in str(error):
                raise
            time.sleep(0.01)
    return write()
