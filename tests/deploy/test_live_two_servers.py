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

The last test plays a whole hand at a table for three people, two of them on server 1 and
one on server 2, each following the table's real stream on his own server.

Like tests/deploy/test_two_servers.py, this needs a database other processes reach: it runs
in the PostgreSQL lane (``scripts/with_postgres.sh .venv/bin/pytest tests/deploy``).
"""

from __future__ import annotations

import os
import re
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoDbBlocker

from games.models import PeopleHand, PeopleTable, PracticeTable
from tests.deploy.servers import (
    PASSWORD,
    ROOT,
    SERVERS_HASHER,
    Browser,
    deal,
    forms_of,
    log_in,
    server_env,
    started,
    submit,
)
from tests.live.test_sse import Stream, bump, update

pytestmark = pytest.mark.django_db

PLAYS = 10


@dataclass
class Servers:
    one: int
    two: int
    bus: str


@pytest.fixture(scope="module", params=["redis", "database"])
def servers(
    request: pytest.FixtureRequest,
    site: None,
    static_files: None,
    logs: Path,
    django_db_blocker: DjangoDbBlocker,
) -> Iterator[Servers]:
    """Two ASGI servers, one uvicorn worker each, configured alike (as test_two_servers.py's)
    with the live test views."""
    env = server_env(
        DJANGO_SETTINGS_MODULE="tests.live.settings",
        DJANGO_SECRET_KEY="live-two-servers-test-key-" + "0123456789" * 5,
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


# -- people at one table, on two servers -------------------------------------------------------

_OVER = re.compile(r"Deal 1(?:, the single,)? is over")
_LEGAL_CARD = re.compile(r'name="card" value="(\w\w)" class="card-button"(?: autofocus)?>')


def _decision(page: str, table: str) -> list[tuple[str, str]]:
    """A decision as the page's buttons offer it: a legal card to play, or a declaration
    ("play" if offered): its form's fields and the button pressed."""
    for form in forms_of(page):
        if form.action != f"{table}act/":
            continue
        kind = dict(form.fields).get("kind")
        if kind == "play" and (cards := _LEGAL_CARD.findall(page)):
            return form.fields + [("card", cards[0])]
        if kind == "declare":
            choices = [value for name, value in form.buttons if name == "choice"]
            return form.fields + [("choice", "play" if "play" in choices else choices[0])]
    raise AssertionError("it is his turn, and the page offers no decision")


@pytest.fixture(scope="module")
def accounts(site: None, django_db_blocker: DjangoDbBlocker) -> None:
    """Three people's accounts for each bus, committed (outside a test's transaction) for
    the servers to see."""
    with django_db_blocker.unblock(), SERVERS_HASHER:
        for bus in ("redis", "database"):
            for name in ("ann", "ben", "cat"):
                User.objects.create_user(f"{bus}-{name}", password=PASSWORD)


def test_three_people_on_two_servers_play_a_whole_hand_and_each_sees_every_play(
    servers: Servers, accounts: None, django_db_blocker: DjangoDbBlocker
) -> None:
    """Ann (server 1) opens a table for three; Ben (server 2) and Cat (server 1) sit through
    its invitation; Ann starts it. Each keeps the table's stream open on his own server and
    makes his decisions there when his page says it is his turn: every decision reaches the
    other two streams, in order, within a second, until the hand is over for all three."""
    names = [f"{servers.bus}-{name}" for name in ("ann", "ben", "cat")]
    ports = [servers.one, servers.two, servers.one]
    people = [Browser() for _ in names]
    for browser, port, name in zip(people, ports, names, strict=True):
        assert log_in(browser, port, name, PASSWORD).status == 302
    ann, ben, cat = people
    opened = submit(
        ann,
        servers.one,
        ann.get(servers.one, "/play/people/new/").text,
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
    with django_db_blocker.unblock():
        code = PeopleTable.objects.get(pk=int(table.strip("/").split("/")[-1])).code
    for browser, port in ((ben, servers.two), (cat, servers.one)):
        invitation = browser.get(port, f"/play/people/join/{code}/")
        sat = submit(browser, port, invitation.text, f"/play/people/join/{code}/")
        assert (sat.status, sat.location) == (302, table), sat.text[:2000]
    waiting = ann.get(servers.one, table).text
    assert submit(ann, servers.one, waiting, f"{table}start/").status == 302
    version = _stored(django_db_blocker, code)
    streams = [
        Stream(port, f"{table}stream/?after={version}", {"Cookie": _cookies(browser)})
        for browser, port in zip(people, ports, strict=True)
    ]
    heard: list[list[int]] = [[] for _ in people]
    decisions = 0
    try:
        for stream in streams:
            assert stream.response.status == 200
            assert stream.event()[0] == "retry: 2000"
        for _ in range(40):
            pages = [b.get(p, table).text for b, p in zip(people, ports, strict=True)]
            if all(_OVER.search(page) for page in pages):
                break
            turn = [i for i, page in enumerate(pages) if "Your turn" in page]
            assert len(turn) == 1, turn
            i = turn[0]
            answer = people[i].post(ports[i], f"{table}act/", _decision(pages[i], table))
            sent = time.monotonic()
            assert (answer.status, answer.location) == (302, table), answer.text[:2000]
            decisions += 1
            stored = _stored(django_db_blocker, code)
            for n, stream in enumerate(streams):
                while not heard[n] or heard[n][-1] < stored:
                    event = stream.next_update()  # the table, rendered: its id its version
                    heard[n].append(int(event.split("\n", 1)[0].removeprefix("id: ")))
                assert time.monotonic() - sent < 1.0, (servers.bus, n, decisions)
        else:
            raise AssertionError("the hand did not end in 40 decisions")
    finally:
        for stream in streams:
            stream.close()
    assert decisions >= 3
    for versions in heard:  # each stream heard the versions in order, never one twice
        assert versions == sorted(set(versions)), versions
    with django_db_blocker.unblock():
        assert PeopleHand.objects.filter(table__code=code, number=1).exists()


def _stored(django_db_blocker: DjangoDbBlocker, code: str) -> int:
    """The table's version as the servers stored it (committed: read through the test's
    connection, PostgreSQL's read committed)."""
    with django_db_blocker.unblock():
        return PeopleTable.objects.get(code=code).version


def _cookies(browser: Browser) -> str:
    return "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
