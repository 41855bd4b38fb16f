"""Tables of people playing at once: serve Lanterloo as `make run` does and measure how fast a
play reaches the others.

    .venv/bin/python bench/multiplayer.py [--tables 20] [--people 5] [--bots 0]
                                          [--seconds 60] [--workers 2] [--think 1-3]
                                          [--redis]

1. Starts gunicorn with uvicorn's workers as ``make run`` does (``bench/http.py``'s ``serve``
   with ``asgi``: DEBUG off, SQLite in a throwaway file, migrated and loaded; the live bus
   polls the database, as it does with no ``REDIS_URL``; ``--redis`` starts a redis-server
   and uses its pub/sub instead).
2. Makes ``--tables`` × ``--people`` accounts, each logged in (a session made for him), and,
   over the site's own pages: each table's host opens a table for people and ``--bots``
   computer players (``POST /play/people/new/``: ``--people 2 --bots 3`` is a family's
   table of five), the others take a seat through its invitation
   (``POST /play/people/join/<code>/``), the host starts it.
3. Every person keeps the table's live stream open (``/play/people/<pk>/stream/``, Server-
   Sent Events, read as the browser's EventSource does): each event is his table, rendered,
   which his page swaps in without another request. On his turn (the table the stream
   brought says so) he thinks (``--think``: 1 to 3 s, a quick player; ``0.3-1`` is a stress
   test, faster than anyone plays) and sends a decision as the page's buttons offer it
   (``POST /play/people/<pk>/act/``, htmx); when a hand is over the host deals the next. For
   ``--seconds``.
4. A play's *delivery* is the time from the moment its POST was sent to the moment each other
   person's stream receives the table drawn with it (an event whose table is at least as new
   as the version the play stored). A play that never reaches one of them is *lost*
   (each person waits, after the end, until every play of his table has reached him, or 5 s
   at most), and so is a stream that receives an older table after a newer one (out of
   order).

An error is a failed connection, a status other than 200/302, a refusal in the fragment (a
decision refused), or a stream that ended while its table played. The last line is exactly
``multiplayer: tables=T people=P plays=N delivery_p50_ms=A delivery_p95_ms=B errors=E
lost=L``. Goal on this machine: 20 tables of 5 people, p95 ≤ 300 ms, 0 errors, 0 lost; and
the same at tables with computer players (``--people 2 --bots 3``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Keep this folder off the import path: bench/http.py would stand in for the standard library.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http
_spec.loader.exec_module(bench_http)

ROOT = bench_http.ROOT
PYTHON = bench_http.PYTHON
# bench/http.py's client and its figures (loaded by path: typed as Any here).
Browser: Any = bench_http.Browser
Stats: Any = bench_http.Stats

#: The tables' games: each seats five.
TABLES = [
    ("three-card", "hoffmann"),
    ("five-card", "hoffmann"),
    ("three-card", "britannica"),
    ("irish", "britannica"),
]

_TABLE_URL = re.compile(r"^/play/people/(\d+)/$")
_CODE = re.compile(r'class="join-code__code">(\w+)<')
_VERSION = re.compile(r'name="version" value="(\d+)"')
_NEXT = re.compile(r'action="/play/people/\d+/next/"')

#: Run in ``manage.py shell``: the accounts, each logged in; prints their session keys.
SETUP = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore

def logged_in(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key

print(json.dumps([logged_in(User.objects.create_user(f"bench-person-{i:03d}"))
                  for i in range(COUNT)]))
"""


@dataclass
class Heard:
    """What one person's stream received: each table's version, when, and the newest table;
    and whether it broke."""

    versions: list[tuple[int, float]] = field(default_factory=list)
    page: str = ""
    broke: str = ""


@dataclass
class Sent:
    """A play: its table, who sent it, when, and the version of the page it was made on."""

    table: int
    person: int
    at: float
    version: int


@dataclass
class Run:
    stats: Any = field(default_factory=Stats)
    sent: list[Sent] = field(default_factory=list)
    heard: dict[int, Heard] = field(default_factory=dict)
    seated: dict[int, list[int]] = field(default_factory=dict)
    #: The people of each table who have stopped playing (the deadline passed).
    stopped: dict[int, int] = field(default_factory=dict)
    news: asyncio.Event = field(default_factory=asyncio.Event)

    def arrived(self, table: int, person: int) -> bool:
        """Whether every play of the others at ``table`` has reached ``person``'s stream,
        once they have all stopped playing."""
        if self.stopped.get(table, 0) < len(self.seated[table]):
            return False
        newest = max((v for v, _ in self.heard[person].versions), default=-1)
        return all(
            newest > play.version
            for play in self.sent
            if play.table == table and play.person != person
        )


async def listen(
    port: int, browser: Any, path: str, heard: Heard, news: asyncio.Event, run: Run
) -> None:
    """Read a stream as an EventSource does (HTTP/1.1, chunked), noting each table's version
    and when it came, and keeping the newest; ``news`` (and ``run.news``) is set at each.
    Ends when cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
        f"Cache-Control: no-cache\r\nCookie: {cookies}\r\nUser-Agent: lanterloo-bench\r\n\r\n"
    )
    try:
        writer.write(request.encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            heard.broke = f"stream status {status}"
            return
        chunked = b"chunked" in head.lower()
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).strip() or b"0", 16)
                if size == 0:
                    heard.broke = "stream ended"
                    return
                data = await reader.readexactly(size + 2)
                buffer += data[:-2]
            else:
                data = await reader.read(4096)
                if not data:
                    heard.broke = "stream ended"
                    return
                buffer += data
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                at = time.perf_counter()
                fields: dict[str, list[str]] = {}
                for line in event.decode().split("\n"):
                    name, _, value = line.partition(": ")
                    fields.setdefault(name, []).append(value)
                if fields.get("event") == ["table"]:
                    heard.versions.append((int(fields["id"][0]), at))
                    heard.page = "\n".join(fields.get("data", []))
                    news.set()
                    run.news.set()
                elif fields.get("event") == ["reload"]:
                    heard.broke = "told to reload"
                    return
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        heard.broke = f"stream: {type(error).__name__}"
    finally:
        writer.close()


async def person(
    port: int,
    browser: Any,
    number: int,
    table: int,
    host: bool,
    run: Run,
    deadline: float,
    rng: random.Random,
    think: tuple[float, float],
) -> None:
    """One person at his table until the deadline: the stream open, each table it brings
    looked at (no request: the page swaps it in), a decision on his turn, the next hand dealt
    if he hosts; then until every play of his table has reached him."""
    path = f"/play/people/{table}/"
    status, _, page = await browser.request("GET", path, htmx=True)
    version = _VERSION.search(page)
    after = version.group(1) if version else "0"
    heard = run.heard[number] = Heard(page=page)
    news = asyncio.Event()
    listening = asyncio.create_task(
        listen(port, browser, f"{path}stream/?after={after}", heard, news, run)
    )
    news.set()  # the page as it is now
    acted = -1  # the version his last decision was made on
    try:
        while time.perf_counter() < deadline:
            left = max(0.0, deadline - time.perf_counter())
            try:
                await asyncio.wait_for(news.wait(), timeout=left)
            except TimeoutError:
                break
            news.clear()
            newest = max((v for v, _ in heard.versions), default=0)
            if newest <= acted:
                continue  # his own last decision's table has not come yet: the page shows it
            page = heard.page
            # His turn, and a decision on his felt (the strip above it may say "Your turn" a
            # moment before the felt offers one: the cards still arriving, a seat taken over).
            offered = bench_http._LEGAL_CARD.search(page) or bench_http._CHOICE.search(page)
            mine = "Your turn" in page and _VERSION.search(page) and offered
            deal = host and _NEXT.search(page)
            if not (mine or deal):
                continue
            await asyncio.sleep(rng.uniform(*think))
            if time.perf_counter() >= deadline:
                break
            if mine:
                form = bench_http.decide(page, rng)
                url = f"{path}act/"
            else:
                found = _VERSION.search(page[deal.start() :]) if deal else None
                if found is None:
                    continue
                form = [("version", found.group(1))]
                url = f"{path}next/"
            sent = Sent(table, number, time.perf_counter(), int(form[0][1]))
            acted = sent.version
            status, _, answer = await browser.request("POST", url, form, htmx=True)
            if status == 200 and '<p class="alert alert--error' not in answer:
                if mine:
                    run.sent.append(sent)
            else:
                run.stats.fail(f"refused ({status}) at {url.rsplit('/', 2)[-2]}")
            news.set()  # look again at the newest table the stream brought
    finally:
        run.stopped[table] = run.stopped.get(table, 0) + 1
        run.news.set()
        # Until every play of the others at his table has reached him (5 s at most).
        give_up = time.perf_counter() + 5
        while not run.arrived(table, number) and time.perf_counter() < give_up:
            run.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.news.wait(), give_up - time.perf_counter())
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
        if heard.broke:
            run.stats.fail(heard.broke)


async def open_table(
    port: int, browsers: list[Any], bots: int, game: str, rules: str, run: Run
) -> int | None:
    """The host opens a table for the people and ``bots`` computer players, the others sit
    through its invitation, the host starts it: its pk (None, counted as an error, if any
    step failed)."""
    host, *guests = browsers
    await host.request("GET", "/play/people/new/")
    form = [("game", game), ("rules", rules), ("players", str(len(browsers) + bots))]
    form += [("opponents", "beginner"), ("mode", "learning"), ("seconds_per_move", "300")]
    status, headers, _ = await host.request("POST", "/play/people/new/", form)
    match = _TABLE_URL.match(headers.get("location", ""))
    if status != 302 or match is None:
        run.stats.fail("no table opened")
        return None
    pk = int(match.group(1))
    _, _, page = await host.request("GET", f"/play/people/{pk}/")
    code = _CODE.search(page)
    if code is None:
        run.stats.fail("no join code")
        return None
    for guest in guests:
        join = f"/play/people/join/{code.group(1)}/"
        await guest.request("GET", join)
        status, _, _ = await guest.request("POST", join, [])
        if status != 302:
            run.stats.fail("could not sit")
            return None
    _, _, page = await host.request("GET", f"/play/people/{pk}/")
    version = _VERSION.search(page)
    status, _, _ = await host.request(
        "POST", f"/play/people/{pk}/start/", [("version", version.group(1) if version else "")]
    )
    if status != 302:
        run.stats.fail("could not start")
        return None
    return pk


async def play(
    port: int,
    sessions: list[str],
    tables: int,
    people: int,
    bots: int,
    seconds: float,
    think: tuple[float, float],
) -> Run:
    run = Run()
    browsers = []
    for session in sessions:
        browser = Browser(port, run.stats, True)
        browser.cookies["sessionid"] = session
        browsers.append(browser)
    groups = [browsers[t * people : (t + 1) * people] for t in range(tables)]
    pks = await asyncio.gather(
        *(open_table(port, g, bots, *TABLES[t % len(TABLES)], run) for t, g in enumerate(groups))
    )
    deadline = time.perf_counter() + seconds
    tasks = []
    for t, (pk, group) in enumerate(zip(pks, groups, strict=True)):
        if pk is None:
            continue
        run.seated[pk] = [t * people + i for i in range(people)]
        for i, browser in enumerate(group):
            number = t * people + i
            rng = random.Random(number)
            tasks.append(person(port, browser, number, pk, i == 0, run, deadline, rng, think))
    await asyncio.gather(*tasks)
    return run


def deliveries(run: Run) -> tuple[list[float], int]:
    """Each play's delivery to each other person at its table (seconds), and how many
    never arrived or arrived out of order."""
    times: list[float] = []
    lost = 0
    for heard in run.heard.values():
        versions = [v for v, _ in heard.versions]
        lost += sum(1 for a, b in zip(versions, versions[1:], strict=False) if b <= a)
    for play in run.sent:
        for other in run.seated[play.table]:
            if other == play.person:
                continue
            arrived = [
                at for v, at in run.heard[other].versions if v > play.version and at >= play.at
            ]
            if arrived:
                times.append(min(arrived) - play.at)
            else:
                lost += 1
    return times, lost


def percentile_ms(values: list[float], fraction: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def shell(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(PYTHON), "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip().splitlines()[-1]


def redis_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("--redis needs redis-server on this machine")
    port = bench_http.free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.02)
    raise SystemExit("redis-server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--people", type=int, default=5)
    parser.add_argument(
        "--bots", type=int, default=0, help="computer players at each table, beside the people"
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--think", default="1-3", help="seconds a person takes to decide: lowest-highest"
    )
    parser.add_argument("--redis", action="store_true", help="the live bus through Redis")
    bench_http.add_prepared_option(parser)
    args = parser.parse_args()
    if not bench_http.GUNICORN.exists():
        raise SystemExit(f"{bench_http.GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-multiplayer."))
    server = redis = None
    # Every simulated person comes from 127.0.0.1: the limits per address (meant for one
    # abuser) would stop them all.
    unlimited = {
        f"DJANGO_LIMIT_PEOPLE_{kind}_PER_ADDRESS": "1000000"
        for kind in ("TABLES", "JOINS", "ACTIONS")
    }
    # Streams open at once: one a person, and a few reconnecting.
    unlimited["DJANGO_LIMIT_PEOPLE_STREAMS_PER_ADDRESS"] = str(args.tables * args.people + 50)
    try:
        if args.redis:
            redis, url = redis_server(folder)
            unlimited["REDIS_URL"] = url
        server, port, env = bench_http.serve(
            args.workers,
            folder / "db.sqlite3",
            asgi=True,
            extra_env=unlimited,
            prepared=args.prepared,
        )
        bus = "Redis pub/sub" if args.redis else "the database, polled"
        print(f"gunicorn: {args.workers} uvicorn workers on 127.0.0.1:{port}, SQLite; bus: {bus}")
        count = args.tables * args.people
        sessions = json.loads(shell(SETUP.replace("COUNT", str(count)), env))
        started = time.perf_counter()
        low, _, high = args.think.partition("-")
        think = (float(low), float(high or low))
        run = asyncio.run(
            play(port, sessions, args.tables, args.people, args.bots, args.seconds, think)
        )
        elapsed = time.perf_counter() - started
    finally:
        bench_http.stop(server, folder)
        if redis is not None:
            redis.terminate()
            redis.wait(5)
    times, lost = deliveries(run)
    plays = len(run.sent)
    bots = f" and {args.bots} computer players" if args.bots else ""
    print(
        f"{len(run.seated)} tables of {args.people} people{bots} played {plays} decisions in "
        f"{elapsed:.0f} s; {run.stats.requests} requests, their p95 "
        f"{percentile_ms(run.stats.latencies, 0.95):.0f} ms"
    )
    print(
        f"delivery of the table to the {len(times)} other connections: p99 "
        f"{percentile_ms(times, 0.99):.0f} ms, slowest {percentile_ms(times, 1.0):.0f} ms"
    )
    for problem, n in sorted(run.stats.problems.items()):
        print(f"  error: {problem}: {n}")
    print(
        f"multiplayer: tables={len(run.seated)} people={len(run.seated) * args.people} "
        f"plays={plays} delivery_p50_ms={percentile_ms(times, 0.5):.0f} "
        f"delivery_p95_ms={percentile_ms(times, 0.95):.0f} errors={run.stats.errors} lost={lost}"
    )


if __name__ == "__main__":
    main()
