"""How long a play takes to reach the other people's open streams, on `make run`'s stack.

    PYTHONPATH=. .venv/bin/python scripts/live_delivery.py [--redis] [--tables 20] [--people 5]

Starts gunicorn with uvicorn's workers as `make run` does (2 workers, DEBUG off, SQLite in a
throwaway file, migrated and loaded), with a Redis server of its own when ``--redis`` is
given, and the test-only live views of tests/live/urls.py (``tests.live.settings``): a
practice table's stream, and a POST that does to the live part what a play does (stores the
version + 1, publishes it on commit). Deals ``--tables`` practice tables through the chooser,
opens ``--people`` streams on each, then POSTs ``--plays`` plays per table (tables at once,
each table's plays 0.3-0.6 s apart, as people take turns), and times each from the POST
being sent to its event arriving on each of the table's streams.

The last line: ``live: backend=B tables=T streams=S plays=N delivery_p50_ms=A
delivery_p95_ms=B post_p50_ms=C skipped=K lost=L out_of_order=O`` (``post_p50_ms``: the play's
POST itself, which the delivery includes). ``skipped``: versions a stream never
saw because a newer came in the same poll (allowed: the page asks for what happened since);
``lost``: streams that never heard their table's last version (must be 0). The server and
this client share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} stopped at start-up")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"{what} did not listen on {port}")


async def request(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, list[tuple[str, str]], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    lines.append(f"Content-Length: {len(body)}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin1").split("\r\n")
    found = [(n.strip().lower(), v.strip()) for n, _, v in (h.partition(":") for h in header_lines)]
    return int(status_line.split()[1]), found, content


async def deal(port: int) -> int:
    """A practice table dealt through the chooser, with a session of its own; its id."""
    status, headers, page = await request(port, "GET", "/play/")
    assert status == 200, status
    cookies = "; ".join(v.split(";")[0] for n, v in headers if n == "set-cookie")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    form = {"csrfmiddlewaretoken": token.group(1).decode(), "game": "three-card"}
    form |= {"rules": "hoffmann", "players": "5", "opponents": "beginner", "mode": "learning"}
    status, headers, _ = await request(
        port,
        "POST",
        "/play/new/",
        urllib.parse.urlencode(form).encode(),
        {"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 302, status
    location = dict(headers)["location"]
    return int(location.strip("/").split("/")[-1])


async def bump(port: int, pk: int) -> int:
    status, _, body = await request(port, "POST", f"/live-test/{pk}/bump/")
    assert status == 200, status
    return int(body)


class Stream:
    """One person's open stream: when each version arrived."""

    def __init__(self) -> None:
        self.heard: dict[int, float] = {}
        self.order: list[int] = []
        self.ready = asyncio.Event()

    async def run(self, port: int, pk: int, after: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET /live-test/{pk}/stream/?after={after} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        try:
            while line := await reader.readline():
                if line.startswith(b"retry:"):
                    self.ready.set()
                found = re.match(rb"data: (\d+)", line)
                if found:
                    version = int(found.group(1))
                    self.heard[version] = time.monotonic()
                    self.order.append(version)
        finally:
            writer.close()


async def measure(port: int, tables: int, people: int, plays: int) -> dict[str, float]:
    pks = [await deal(port) for _ in range(tables)]
    starts = {pk: await bump(port, pk) for pk in pks}
    streams = {pk: [Stream() for _ in range(people)] for pk in pks}
    tasks = [
        asyncio.create_task(stream.run(port, pk, starts[pk]))
        for pk in pks
        for stream in streams[pk]
    ]
    for pk in pks:
        for stream in streams[pk]:
            await asyncio.wait_for(stream.ready.wait(), 10)
    await asyncio.sleep(0.5)
    sent: dict[tuple[int, int], float] = {}
    answered: list[float] = []

    async def play(pk: int) -> None:
        await asyncio.sleep(random.uniform(0, 0.3))
        for _ in range(plays):
            at = time.monotonic()
            version = await bump(port, pk)
            sent[pk, version] = at
            answered.append(time.monotonic() - at)
            await asyncio.sleep(random.uniform(0.3, 0.6))

    await asyncio.gather(*(play(pk) for pk in pks))
    await asyncio.sleep(1.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    delays, skipped, lost, out_of_order = [], 0, 0, 0
    for pk in pks:
        last = starts[pk] + plays
        for stream in streams[pk]:
            seen = [v for v in stream.order if v > starts[pk]]
            out_of_order += sum(1 for a, b in zip(seen, seen[1:], strict=False) if b <= a)
            lost += last not in stream.heard
            for version in range(starts[pk] + 1, last + 1):
                if version in stream.heard:
                    delays.append(stream.heard[version] - sent[pk, version])
                else:
                    skipped += 1
    delays.sort()
    return {
        "streams": tables * people,
        "plays": tables * plays,
        "p50": statistics.median(delays) * 1000,
        "p95": delays[int(len(delays) * 0.95) - 1] * 1000,
        "post_p50": statistics.median(answered) * 1000,
        "skipped": skipped,
        "lost": lost,
        "out_of_order": out_of_order,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", action="store_true", help="a Redis server for the bus")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--people", type=int, default=5)
    parser.add_argument("--plays", type=int, default=20, help="plays per table")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="lanterloo-live-"))
    processes: list[subprocess.Popen[bytes]] = []
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.live.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="live-delivery-" + "0123456789" * 5,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="WARNING",
        DJANGO_STATIC_ROOT=str(folder / "static"),
        DJANGO_LIMIT_TABLES_PER_ADDRESS="10000",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    try:
        if args.redis:
            server = shutil.which("redis-server")
            if server is None:
                raise SystemExit("--redis: no redis-server on this machine")
            redis_port = free_port()
            processes.append(
                subprocess.Popen(
                    [server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            wait_for(redis_port, processes[-1], "redis-server")
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        for command in (
            ["migrate", "--noinput"],
            ["createcachetable"],
            ["loadcontent"],
            ["collectstatic", "--noinput"],
        ):
            subprocess.run(
                [sys.executable, "manage.py", *command, "--verbosity", "0"],
                cwd=ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        port = free_port()
        processes.append(
            subprocess.Popen(
                [str(BIN / "gunicorn"), "loo_site.asgi", "--bind", f"127.0.0.1:{port}"]
                + ["--worker-class", "uvicorn_worker.UvicornWorker"]
                + ["--workers", str(args.workers), "--error-logfile", str(folder / "log")],
                cwd=ROOT,
                env=env,
            )
        )
        wait_for(port, processes[-1], "gunicorn")
        figures = asyncio.run(measure(port, args.tables, args.people, args.plays))
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(40)  # gunicorn's graceful timeout is 30 s
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if os.environ.get("KEEP"):  # the database and the server's log, to look into
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print(
        f"live: backend={'redis' if args.redis else 'database'} tables={args.tables} "
        f"streams={figures['streams']} plays={figures['plays']} "
        f"delivery_p50_ms={figures['p50']:.0f} delivery_p95_ms={figures['p95']:.0f} "
        f"post_p50_ms={figures['post_p50']:.0f} "
        f"skipped={figures['skipped']} lost={figures['lost']} "
        f"out_of_order={figures['out_of_order']}"
    )


if __name__ == "__main__":
    main()
