"""Serve Lanterloo as `make run` does and measure practice hands over HTTP; prints figures.

    .venv/bin/python bench/http.py [--clients 32] [--seconds 20] [--workers 2] [--tables N]

1. Starts gunicorn like `make run`: DEBUG off, a secret key, SQLite (a throwaway database
   file, migrated and loaded with the site's content, with the settings' own SQLite options),
   collected static files, two sync workers, on a free port of 127.0.0.1.
2. Play: ``--clients`` simulated players, each with its own session, play realistic hands for
   ``--seconds``: open the practice page, deal a table (``POST /play/new/``, then the table
   page), then declare, exchange and play cards through the htmx requests the page makes
   (``POST /play/<pk>/act/`` with ``HX-Request``), choosing among the buttons the fragment
   offers, deal the next hand, and after two hands start a new table. Beginner opponents.
3. Bare: the same number of clients request ``/healthz/`` (no database, no template) on the
   same server for the same time: the bare-Django baseline.

4. Then each again with a single client (``--solo-seconds``): the time one request takes
   when nothing queues, printed for the account of where the time goes.

Both phases use the same client (asyncio, one connection per request, as gunicorn's sync
workers close each one), so the ratio compares the site with bare Django on equal terms. An
error is a failed connection, a status other than 200/302, a table fragment that reports a
refused request, or a stale page. The last line is exactly
``http: play_rps=N bare_rps=M ratio=R p99_ms=P errors=E``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

# This file is called http.py: keep its folder off the import path, or it would stand in for
# the standard library's http package in any later import (none of the above imports it).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

ROOT = Path(__file__).resolve().parents[1]
PYTHON = Path(sys.executable)
GUNICORN = PYTHON.parent / "gunicorn"

TABLES = [
    ("three-card", "hoffmann", 5),
    ("three-card", "peel", 4),
    ("five-card", "hoffmann", 5),
    ("five-card", "britannica", 6),
    ("irish", "britannica", 4),
]
HANDS_PER_TABLE = 2

_VERSION = re.compile(r'name="version" value="(\d+)"')
_LEGAL_CARD = re.compile(r'name="card" value="(\w\w)" class="card-button"(?: autofocus)?>')
_CHOICE = re.compile(r'name="choice" value="([\w-]+)"')
_DISCARD = re.compile(r'name="discards" value="(\w\w)"')
_TABLE_URL = re.compile(r"^/play/(\d+)/$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    errors: int = 0
    problems: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    elapsed: float = 0.0

    def fail(self, what: str) -> None:
        self.errors += 1
        self.problems[what] = self.problems.get(what, 0) + 1


class Browser:
    """One player: a cookie jar and HTTP/1.1 requests on a fresh connection each."""

    def __init__(self, port: int, stats: Stats, record: bool) -> None:
        self.port = port
        self.stats = stats
        self.record = record
        self.cookies: dict[str, str] = {}

    async def request(
        self, method: str, path: str, form: list[tuple[str, str]] | None = None, htmx: bool = False
    ) -> tuple[int, dict[str, str], str]:
        body = urllib.parse.urlencode(form or []).encode()
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Connection: close",
            "User-Agent: lanterloo-bench",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
            lines.append(f"X-CSRFToken: {self.cookies.get('csrftoken', '')}")
        if htmx:
            lines.append("HX-Request: true")
        start = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        elapsed = time.perf_counter() - start
        head, _, content = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, val = cookie.partition("=")
                self.cookies[key.strip()] = val.strip()
            else:
                headers[name] = value
        if self.record:
            self.stats.requests += 1
            self.stats.latencies.append(elapsed)
            if status not in (200, 302):
                self.stats.fail(f"status {status} for {method} {path.split('?')[0]}")
        return status, headers, content.decode("utf-8", "replace")


async def play(
    port: int, stats: Stats, deadline: float, seed: int, record: bool, tables: int | None = None
) -> None:
    """Visit the practice page, deal a table and play its hands; again until the deadline (or
    ``tables`` times)."""
    rng = random.Random(seed)
    dealt = 0
    while time.perf_counter() < deadline and (tables is None or dealt < tables):
        dealt += 1
        browser = Browser(port, stats, record)  # a new visitor, with a new session
        try:
            await browser.request("GET", "/play/")
            await play_table(browser, rng, deadline)
        except (OSError, ValueError, IndexError) as error:
            if record:
                stats.fail(f"{type(error).__name__}: {error}"[:80])


async def play_table(browser: Browser, rng: random.Random, deadline: float) -> None:
    game, rules, players = rng.choice(TABLES)
    form = [("game", game), ("rules", rules), ("players", str(players))]
    form += [("opponents", "beginner"), ("mode", "learning")]
    status, headers, _ = await browser.request("POST", "/play/new/", form)
    match = _TABLE_URL.match(headers.get("location", ""))
    if status != 302 or not match:
        if browser.record:
            browser.stats.fail("no table dealt")
        return
    table = f"/play/{match.group(1)}/"
    _, _, page = await browser.request("GET", table)
    for hand in range(HANDS_PER_TABLE):
        for _ in range(60):
            if time.perf_counter() >= deadline:
                return
            # Peel's single deal (one card each) is over as soon as it is dealt.
            if re.search(rf"Deal {hand + 1}(?:, the single,)? is over", page):
                break
            form = decide(page, rng)
            status, _, page = await browser.request("POST", f"{table}act/", form, htmx=True)
            if status != 200:
                return
            if browser.record and ('<p class="alert alert--' in page):
                browser.stats.fail("refused or stale")
        else:
            if browser.record:
                browser.stats.fail("hand did not end")
            return
        if browser.record:
            browser.stats.hands += 1
        if hand + 1 < HANDS_PER_TABLE:
            version = _VERSION.search(page)
            if version is None:
                raise ValueError("no version on the finished hand")
            form = [("version", version.group(1))]
            status, _, page = await browser.request("POST", f"{table}next/", form, htmx=True)
            if status != 200:
                return


def decide(page: str, rng: random.Random) -> list[tuple[str, str]]:
    """A decision among the buttons the fragment offers: a legal card, or a declaration."""
    version = _VERSION.search(page)
    if version is None:
        raise ValueError("no version in the page")
    form = [("version", version.group(1))]
    cards = _LEGAL_CARD.findall(page)
    if cards:
        return form + [("kind", "play"), ("card", rng.choice(cards))]
    if "Your turn: a revoke was made" in page:
        return form + [("kind", "replay"), ("choice", "decline")]
    choices = _CHOICE.findall(page)
    choice = "play" if "play" in choices and rng.random() < 0.7 else rng.choice(choices)
    form += [("kind", "declare"), ("choice", choice)]
    discards = _DISCARD.findall(page)
    if discards and choice == "play":
        form += [("discards", c) for c in rng.sample(discards, rng.randint(0, 2))]
    return form


async def hammer(
    port: int, stats: Stats, deadline: float, record: bool, requests: int | None = None
) -> None:
    browser = Browser(port, stats, record)
    made = 0
    while time.perf_counter() < deadline and (requests is None or made < requests):
        made += 1
        try:
            status, _, body = await browser.request("GET", "/healthz/")
        except OSError as error:
            if record:
                stats.fail(type(error).__name__)
            continue
        if record and body != "ok":
            stats.fail("healthz body")


async def phase(
    kind: str, port: int, clients: int, seconds: float, warmup: float, count: int | None = None
) -> Stats:
    """``clients`` at once for ``seconds`` (after ``warmup``); or, given ``count``, until each
    has played ``count`` tables or made ten times as many bare requests, however long that
    takes (no warmup)."""
    stats = Stats()
    runs = ((False, warmup), (True, seconds)) if count is None else ((True, float("inf")),)
    for record, duration in runs:
        deadline = time.perf_counter() + duration
        if kind == "play":
            base = 1000 * record
            tasks = [play(port, stats, deadline, base + i, record, count) for i in range(clients)]
        else:
            requests = None if count is None else 10 * count
            tasks = [hammer(port, stats, deadline, record, requests) for _ in range(clients)]
        start = time.perf_counter()
        await asyncio.gather(*tasks)
        if record:
            stats.elapsed = time.perf_counter() - start
    return stats


def rps(stats: Stats) -> float:
    return stats.requests / stats.elapsed if stats.elapsed else 0.0


def percentile_ms(stats: Stats, fraction: float) -> float:
    ordered = sorted(stats.latencies) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def stop(server: subprocess.Popen[bytes] | None, folder: Path) -> None:
    """Stop the server :func:`serve` started (if it did), then remove its throwaway folder."""
    if server is not None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    shutil.rmtree(folder, ignore_errors=True)


def _settings_env(
    database: Path, static_root: Path, extra_env: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment of the server's settings (and of its management commands): DEBUG off,
    SQLite in ``database``, the collected static files in ``static_root``."""
    options = urllib.parse.urlencode(
        {
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    return {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        # The settings' SQLite, in a throwaway file (connections kept as the settings say).
        "DATABASE_URL": f"sqlite:///{database}?{options}",
        "DJANGO_LOG_LEVEL": "WARNING",
        # Collected beside the database, not into the checkout (where a deploy test may be
        # collecting at the same moment).
        "DJANGO_STATIC_ROOT": str(static_root),
        # Every simulated player comes from 127.0.0.1: the limit on tables dealt from one
        # address (meant for one abuser) would stop them all.
        "DJANGO_LIMIT_TABLES_PER_ADDRESS": "1000000",
        **(extra_env or {}),
    }


#: What :func:`prepare` makes in its folder.
PREPARED_DATABASE = "db.sqlite3"
PREPARED_STATIC = "static"


def prepare(folder: Path) -> None:
    """A database as the server needs it, in ``folder``: migrated, with the cache table and the
    site's content, and the static files collected beside it (``--prepare``). ``--prepared``
    serves from a copy of it: the smoke tests (tests/bench) prepare one for all the scripts."""
    folder.mkdir(parents=True, exist_ok=True)
    _migrate(folder / PREPARED_DATABASE, folder / PREPARED_STATIC)


def _migrate(database: Path, static_root: Path) -> None:
    """Migrate ``database``, make its cache table, load the content; collect the static files
    into ``static_root``."""
    env = _settings_env(database, static_root)
    manage = [str(PYTHON), "manage.py"]
    for command in (
        ["migrate", "--noinput"],
        ["createcachetable"],
        ["loadcontent"],
        ["collectstatic", "--noinput"],
    ):
        subprocess.run(manage + [*command, "--verbosity", "0"], cwd=ROOT, env=env, check=True)


def add_prepared_option(parser: argparse.ArgumentParser) -> None:
    """The scripts' ``--prepared DIR`` (their own database and static files by default)."""
    parser.add_argument(
        "--prepared",
        type=Path,
        metavar="DIR",
        help="serve from a copy of the database that `bench/http.py --prepare DIR` made, and "
        "from its collected static files, instead of migrating, loading the content and "
        "collecting the static files anew",
    )


def serve(
    workers: int,
    database: Path,
    *,
    asgi: bool = False,
    extra_env: dict[str, str] | None = None,
    prepared: Path | None = None,
) -> tuple[subprocess.Popen[bytes], int, dict[str, str]]:
    """gunicorn on a throwaway SQLite database, as ``make run`` serves the site: sync workers
    (WSGI), or with ``asgi`` uvicorn's workers as ``make run`` has them now; ``extra_env``
    adds to the settings' environment (limits, REDIS_URL). The database is migrated and loaded
    here, or copied from ``prepared`` (made by :func:`prepare`, whose static files are then
    served: they are only read)."""
    if prepared is None:
        static_root = database.with_name("static")
        _migrate(database, static_root)
    else:
        # Copied through SQLite, whatever its journal holds, so the copy is whole.
        with (
            contextlib.closing(sqlite3.connect(prepared / PREPARED_DATABASE)) as source,
            contextlib.closing(sqlite3.connect(database)) as copy,
        ):
            source.backup(copy)
        static_root = prepared / PREPARED_STATIC
    env = _settings_env(database, static_root, extra_env)
    port = free_port()
    # The server's log goes to a file beside the database: a pipe nobody reads fills up (a
    # warning for each 429 answer, say) and then blocks the workers that write to it.
    log = database.with_name("gunicorn.log")
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [str(GUNICORN), "loo_site.asgi" if asgi else "loo_site.wsgi"]
            + (["--worker-class", "uvicorn_worker.UvicornWorker"] if asgi else [])
            + ["--bind", f"127.0.0.1:{port}"]
            + ["--workers", str(workers), "--access-logfile", "-"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"gunicorn did not start:\n{log.read_text()[-2000:]}") from None
            time.sleep(0.05)
    return server, port, env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--solo-seconds", type=float, default=5.0)
    parser.add_argument(
        "--prepare",
        type=Path,
        metavar="DIR",
        help="only make DIR ready for --prepared (a migrated database with the content, and "
        "the collected static files), then stop",
    )
    add_prepared_option(parser)
    parser.add_argument(
        "--tables",
        type=int,
        default=None,
        help="each client plays this many tables (and makes ten times as many bare requests), "
        "however long it takes, in place of the timed phases: what is played then does not "
        "depend on the machine's speed (the smoke test's way)",
    )
    args = parser.parse_args()
    if args.prepare is not None:
        prepare(args.prepare)
        return
    if not GUNICORN.exists():
        raise SystemExit(f"{GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-bench."))
    server = None
    try:
        server, port, _ = serve(args.workers, folder / "db.sqlite3", prepared=args.prepared)
        print(f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, DEBUG off, SQLite")
        n = args.tables
        played = asyncio.run(phase("play", port, args.clients, args.seconds, args.warmup, n))
        bare = asyncio.run(phase("bare", port, args.clients, args.seconds, args.warmup, n))
        solo = {
            kind: asyncio.run(phase(kind, port, 1, args.solo_seconds, 1.0, n))
            for kind in ("play", "bare")
        }
    finally:
        stop(server, folder)
    play_rps, bare_rps = rps(played), rps(bare)
    errors = played.errors + bare.errors + sum(stats.errors for stats in solo.values())
    p99 = percentile_ms(played, 0.99)
    print(
        f"play: {played.requests} requests, {played.hands} hands finished by {args.clients} "
        f"clients in {played.elapsed:.1f} s: {play_rps:.0f}/s; "
        f"median {percentile_ms(played, 0.5):.1f} ms, p99 {p99:.1f} ms"
    )
    print(
        f"bare /healthz/: {bare.requests} requests in {bare.elapsed:.1f} s: {bare_rps:.0f}/s; "
        f"median {percentile_ms(bare, 0.5):.1f} ms, p99 {percentile_ms(bare, 0.99):.1f} ms"
    )
    for kind, stats in solo.items():
        print(
            f"{kind}, one client alone: {rps(stats):.0f}/s; median "
            f"{percentile_ms(stats, 0.5):.1f} ms, p99 {percentile_ms(stats, 0.99):.1f} ms"
        )
    problems: dict[str, int] = {}
    for stats in (played, bare, *solo.values()):
        for what, count in stats.problems.items():
            problems[what] = problems.get(what, 0) + count
    for what, count in sorted(problems.items()):
        print(f"error: {what}: {count}")
    ratio = play_rps / bare_rps if bare_rps else 0.0
    print(
        f"http: play_rps={play_rps:.0f} bare_rps={bare_rps:.0f} "
        f"ratio={ratio:.2f} p99_ms={p99:.0f} errors={errors}"
    )


if __name__ == "__main__":
    main()
