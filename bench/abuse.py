"""Failed logins as a lever: serve Lanterloo as `make run` does and measure a reading page.

    .venv/bin/python bench/abuse.py [--seconds 20] [--attackers 4] [--workers 2] [--reads N]

1. Starts gunicorn as ``bench/http.py`` does (DEBUG off, the production password hasher,
   SQLite in a throwaway file, migrated and loaded with the site's content, two workers).
2. Quiet: one reader requests a rule page (``/rules/follow-suit/``) again and again for
   ``--seconds``; its median latency is the baseline.
3. Attacked: the same reader for the same time, while ``--attackers`` clients post failed
   logins as fast as they can, each under a fresh name (so that no lock per name ever
   falls): without a limit every one costs a full password hash, and the reader waits
   behind them. The limit per address (``loo_site.limits``) answers them with 429 before
   any hash once it is reached.

An error is a reader's request that fails or is not answered 200 (the attackers' 429s are
what the limit is for). The last line is exactly
``abuse: quiet_p50_ms=A attacked_p50_ms=B ratio=R errors=E``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import re
import sys
import tempfile
import time
from pathlib import Path

# Keep this folder off the import path: bench/http.py would stand in for the standard library.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http
_spec.loader.exec_module(bench_http)

PAGE = "/rules/follow-suit/"
#: Seconds a request may take before it counts as failed (gunicorn's own worker timeout).
TIMEOUT = 30
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


async def read(
    port: int, stats: bench_http.Stats, deadline: float, reads: int | None = None
) -> None:
    """One reader, one request after another (``reads`` of them, if given)."""
    browser = bench_http.Browser(port, stats, record=True)
    made = 0
    while time.perf_counter() < deadline and (reads is None or made < reads):
        made += 1
        try:
            status, _, _ = await asyncio.wait_for(browser.request("GET", PAGE), TIMEOUT)
        except (OSError, TimeoutError):
            stats.fail("connection or timeout")
            continue
        if status != 200:
            stats.fail(f"status {status}")


async def attack(
    port: int, deadline: float, number: int, counts: dict[int, int], done: asyncio.Event
) -> None:
    """Failed logins under fresh names, as fast as the server answers, until the deadline or
    the reader is ``done`` (at least one)."""
    browser = bench_http.Browser(port, bench_http.Stats(), record=False)
    _, _, page = await asyncio.wait_for(browser.request("GET", "/accounts/log-in/"), TIMEOUT)
    match = _CSRF.search(page)
    token = match.group(1) if match else ""
    tried = 0
    while not tried or (time.perf_counter() < deadline and not done.is_set()):
        tried += 1
        form = [
            ("csrfmiddlewaretoken", token),
            ("username", f"sprayed-{number}-{tried}"),
            ("password", "123456"),
        ]
        try:
            status, _, _ = await asyncio.wait_for(
                browser.request("POST", "/accounts/log-in/", form), TIMEOUT
            )
        except (OSError, TimeoutError):
            counts[0] = counts.get(0, 0) + 1  # no answer
            continue
        counts[status] = counts.get(status, 0) + 1


async def phase(
    port: int, seconds: float, attackers: int, reads: int | None = None
) -> tuple[bench_http.Stats, dict]:
    """The reader for ``seconds`` (or for ``reads`` requests, however long they take), with
    ``attackers`` at work while he reads."""
    stats = bench_http.Stats()
    counts: dict[int, int] = {}
    deadline = time.perf_counter() + seconds if reads is None else float("inf")
    done = asyncio.Event()

    async def reader() -> None:
        await read(port, stats, deadline, reads)
        done.set()

    tasks = [reader()]
    tasks += [attack(port, deadline, n, counts, done) for n in range(attackers)]
    await asyncio.gather(*tasks)
    return stats, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--reads",
        type=int,
        default=None,
        help="the reader makes this many reads in each phase, however long they take, in place "
        "of --seconds: what is done then does not depend on the machine's speed (the smoke "
        "test's way)",
    )
    bench_http.add_prepared_option(parser)
    args = parser.parse_args()
    if not bench_http.GUNICORN.exists():
        raise SystemExit(f"{bench_http.GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-abuse."))
    server = None
    try:
        server, port, _ = bench_http.serve(
            args.workers, folder / "db.sqlite3", prepared=args.prepared
        )
        print(f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, DEBUG off, SQLite")
        asyncio.run(phase(port, 2, 0, None if args.reads is None else 5))  # warm up the workers
        quiet, _ = asyncio.run(phase(port, args.seconds, 0, args.reads))
        attacked, counts = asyncio.run(phase(port, args.seconds, args.attackers, args.reads))
    finally:
        bench_http.stop(server, folder)
    quiet_p50 = bench_http.percentile_ms(quiet, 0.5)
    attacked_p50 = bench_http.percentile_ms(attacked, 0.5)
    answers = ", ".join(f"{n} × {status}" for status, n in sorted(counts.items()))
    for name, stats in (("quiet", quiet), ("attacked", attacked)):
        p99 = bench_http.percentile_ms(stats, 0.99)
        print(f"{name}: {stats.requests} reads of {PAGE}, p99 {p99:.0f} ms")
    print(f"failed logins by {args.attackers} attackers: {answers or 'none'}")
    for what, n in sorted({**quiet.problems, **attacked.problems}.items()):
        print(f"  error: {what}: {n}")
    print(
        f"abuse: quiet_p50_ms={quiet_p50:.0f} attacked_p50_ms={attacked_p50:.0f} "
        f"ratio={attacked_p50 / max(quiet_p50, 1e-9):.2f} errors={quiet.errors + attacked.errors}"
    )


if __name__ == "__main__":
    main()
