"""The two lanes of `make test`: each test runs once, on SQLite or on PostgreSQL, and the two
lanes run at once, one a core.

Both lanes collect the whole suite and split it the same way, from what is committed:
- a test whose result can differ by database runs in **both** lanes (:func:`runs_on_both`):
  marked ``both_databases``, in a transaction of its own (``django_db(transaction=True)``: the
  concurrency tests, ``at_once``, locking), or pinning a number of queries;
- a file that needs PostgreSQL (:data:`POSTGRES_ONLY`) runs in the PostgreSQL lane;
- every other test file goes whole to one lane (its module fixtures are built once), and
  the files that share an expensive session fixture (:data:`SHARED_FIXTURES`) go together;
  the longest first to the lane with less work so far, by the seconds each file took when last
  measured (``tests/durations.json``, written by ``make test-durations``; a file not measured
  yet counts :data:`GUESS` seconds a test).

``--lane=all`` (the default) runs every test selected, on whichever database DATABASE_URL
names: a single test, a folder. ``--lane-full`` (``make test-full``) runs every test that
uses the database in both lanes (the PostgreSQL-only files in the PostgreSQL lane alone),
and splits the others as ``make test`` does.
``--lane-record=FILE`` writes the seconds each file took in this run, for
``scripts/durations.py`` to merge into ``tests/durations.json``; ``{lane}`` in FILE is the
lane's name (the two lanes run at once, and each must write a file of its own).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import pytest

LANES = ("sqlite", "postgres")
DURATIONS = Path(__file__).with_name("durations.json")

# Files that need PostgreSQL, or run best on it:
# - tests/deploy: two servers sharing one database (an in-memory SQLite cannot be shared);
# - tests/browser: a live server's threads on SQLite's in-memory test database lock whole
#   tables (a write refused with "database table is locked"), which a person's browser never
#   meets on the site's SQLite file (which waits for its lock). A browser module whose
#   requests all run on the live server's own threads (which share the test's connection:
#   no stream, no thread of its own) may say so (``pytest.mark.any_database``): it is
#   balanced into either lane like any other file.
POSTGRES_ONLY = ("tests/deploy/", "tests/browser/")

# The seconds a test not measured yet is counted for (a browser test's a page or two).
GUESS = {"tests/browser/": 3.0, "tests/deploy/": 5.0, "": 0.15}

# Session fixtures that cost seconds to build (the site's crawl, tests/crawl.py): the files that
# use one go to the same lane together, which builds it once.
SHARED_FIXTURES = ("site_crawl", "site_pages")

# Fixtures whose result depends on the database's own behaviour.
BACKEND_FIXTURES = {"django_assert_num_queries", "django_assert_max_num_queries"}


def addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lanes", "the two lanes of make test (tests/lanes.py)")
    group.addoption(
        "--lane",
        choices=(*LANES, "all"),
        default="all",
        help="run this lane's share of the tests selected (default: all of them)",
    )
    group.addoption(
        "--lane-full",
        action="store_true",
        help="with --lane: every test that uses the database runs in both lanes",
    )
    group.addoption(
        "--lane-record",
        metavar="FILE",
        default=None,
        help="write the seconds each test file took in this run to FILE (JSON)",
    )


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def runs_on_both(item: pytest.Item) -> bool:
    """Whether the test's result can differ between SQLite and PostgreSQL."""
    if item.get_closest_marker("both_databases"):
        return True
    marker = item.get_closest_marker("django_db")
    if marker and marker.kwargs.get("transaction") and "live_server" not in _fixtures(item):
        return True
    return bool(BACKEND_FIXTURES & _fixtures(item))


def uses_database(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("django_db")) or bool(
        {"django_db_setup", "db", "transactional_db", "live_server"} & _fixtures(item)
    )


def postgres_only(item: pytest.Item) -> bool:
    """Whether the test's file runs in the PostgreSQL lane alone (:data:`POSTGRES_ONLY`)."""
    return module_of(item.nodeid).startswith(POSTGRES_ONLY) and not item.get_closest_marker(
        "any_database"
    )


def _fixtures(item: pytest.Item) -> set[str]:
    return set(getattr(item, "fixturenames", ()))


def _guess(module: str) -> float:
    return next(seconds for prefix, seconds in GUESS.items() if module.startswith(prefix))


def load_durations(path: Path = DURATIONS) -> dict[str, dict[str, float]]:
    """``{file: {"seconds": s, "tests": n}}`` as last measured; empty if never measured."""
    if not path.is_file():
        return {}
    data: dict[str, dict[str, float]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def split(items: Iterable[pytest.Item], durations: dict[str, dict[str, float]]) -> dict[str, str]:
    """The lane of each test file (a test that :func:`runs_on_both` runs in both, whatever
    its file's lane). The same items and the same durations give the same split in both
    lanes."""
    per_test: dict[str, float] = {}
    counts: dict[str, int] = defaultdict(int)
    both_cost: dict[str, int] = defaultdict(int)
    unit_of: dict[str, str] = {}
    pg_only: set[str] = set()
    for item in items:
        module = module_of(item.nodeid)
        counts[module] += 1
        if postgres_only(item):
            pg_only.add(module)
            continue
        if runs_on_both(item):
            both_cost[module] += 1
        shared = next((f for f in SHARED_FIXTURES if f in _fixtures(item)), None)
        if shared:
            unit_of[module] = f"fixture:{shared}"
        unit_of.setdefault(module, module)
    for module in counts:
        known = durations.get(module)
        if known and known.get("tests"):
            per_test[module] = known["seconds"] / known["tests"]
        else:
            per_test[module] = _guess(module)
    load = dict.fromkeys(LANES, 0.0)
    shared_cost = sum(per_test[m] * n for m, n in both_cost.items())
    for lane in LANES:
        load[lane] += shared_cost
    units: dict[str, float] = defaultdict(float)
    lane_of: dict[str, str] = {}
    for module, count in counts.items():
        cost = per_test[module] * (count - both_cost[module])
        if module in pg_only:
            lane_of[module] = "postgres"
            load["postgres"] += cost
        else:
            units[unit_of[module]] += cost
    # Longest first, each to the lane with less work so far (ties: SQLite, whose lane has no
    # cluster to start); then by name, so that both lanes agree.
    lane_of_unit: dict[str, str] = {}
    for unit, cost in sorted(units.items(), key=lambda pair: (-pair[1], pair[0])):
        lane = min(LANES, key=lambda name: (load[name], LANES.index(name)))
        lane_of_unit[unit] = lane
        load[lane] += cost
    for module in counts:
        if module not in lane_of:
            lane_of[module] = lane_of_unit[unit_of[module]]
    return lane_of


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    lane = config.getoption("--lane")
    if lane == "all":
        return
    full = config.getoption("--lane-full")
    lane_of = split(items, load_durations())
    keep, drop = [], []
    for item in items:
        module = module_of(item.nodeid)
        # A PostgreSQL-only file's tests run there alone, on both databases' or not.
        mine = lane_of[module] == lane or (runs_on_both(item) and not postgres_only(item))
        if full and uses_database(item) and not postgres_only(item):
            mine = True
        (keep if mine else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def commits(item: pytest.Item) -> bool:
    """Whether the test commits to the test database: a live server, a transaction of its own,
    or a file that sets up servers of its own on it (tests/browser, tests/deploy)."""
    marker = item.get_closest_marker("django_db")
    return (
        bool(marker and marker.kwargs.get("transaction"))
        or bool({"live_server", "transactional_db"} & _fixtures(item))
        or module_of(item.nodeid).startswith(POSTGRES_ONLY)
    )


def order(items: list[pytest.Item]) -> None:
    """The tests in a rolled-back transaction first (they all see the content committed once
    for the session), then those that commit (each flushed after it), then those without a
    database; in the order they had within each group (a file's tests stay together). This is
    pytest-django's own order, but for the files whose module or package fixtures commit
    (the browser tests' shared database, the deploy tests' servers), which it takes for tests
    in a transaction: one of them run early emptied the database under the tests after it."""

    def group(item: pytest.Item) -> int:
        if commits(item):
            return 1
        return 0 if uses_database(item) else 2

    items.sort(key=group)


class Recorder:
    """Adds up each test file's seconds (set-up, call and tear-down) in this run."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.seconds: dict[str, float] = defaultdict(float)
        self.tests: dict[str, set[str]] = defaultdict(set)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        module = module_of(report.nodeid)
        self.seconds[module] += report.duration
        self.tests[module].add(report.nodeid)

    def pytest_sessionfinish(self) -> None:
        data = {
            module: {"seconds": round(seconds, 2), "tests": len(self.tests[module])}
            for module, seconds in sorted(self.seconds.items())
        }
        self.path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def configure(config: pytest.Config) -> None:
    path = config.getoption("--lane-record")
    if path:
        lane = config.getoption("--lane")
        config.pluginmanager.register(Recorder(path.format(lane=lane)), "lane-recorder")
