"""Two app servers behind one address share everything a visitor can tell apart (issue 17).

Starts a real Redis server and two gunicorn servers (the project's WSGI application, DEBUG
off, one worker each) on free loopback ports, both on the test database, and talks to them
over plain HTTP as one browser would through a load balancer that sends each request to
either: a practice hand dealt on server 1 goes on on server 2 with the same session cookie;
a passage relabelled in the admin on server 1 shows on server 2's table at once (its rule
links are kept by the worker, under the content version in the shared cache); a login locked
on server 1 (django-axes) is locked on server 2. Each check runs with the shared cache in
Redis (``REDIS_URL``) and in the database (the default).

The servers must reach the test database from other processes, so this runs on PostgreSQL
only: ``make pytest-postgres`` (``scripts/with_postgres.sh .venv/bin/pytest tests/deploy``);
``make pytest``, on SQLite's in-memory test database, leaves the folder out. The content, the
static files and Redis are the folder's (tests/deploy/conftest.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoDbBlocker

from lessons.models import Passage
from loo_site import limits
from tests.deploy.servers import (
    PASSWORD,
    SERVERS_HASHER,
    Browser,
    deal,
    forms_of,
    log_in,
    server_env,
    started,
    submit,
    version_of,
)

# Each test runs in a transaction of its own, as usual; what the servers must see (the content,
# the accounts) is committed by the fixtures.
pytestmark = pytest.mark.django_db

#: The hoffmann table's links to the passages stating its rules: key, then label.
PASSAGE_LINK = re.compile(r'href="/sources/hoffmann/#([\w-]+)">Hoffmann \(1909\), ([^<]+)</a>')


# -- the servers --------------------------------------------------------------------------------


@dataclass
class Servers:
    one: int
    two: int
    cache: str


@pytest.fixture(scope="module", params=["redis", "database"])
def servers(
    request: pytest.FixtureRequest,
    site: None,
    static_files: None,
    logs: Path,
    django_db_blocker: DjangoDbBlocker,
) -> Iterator[Servers]:
    """Two gunicorn servers, one worker each, configured alike: DEBUG off, one secret key,
    the test database and the shared cache (Redis, or the database's cache table); and two
    players' accounts for them."""
    with django_db_blocker.unblock(), SERVERS_HASHER:
        User.objects.create_user(f"player-{request.param}", password=PASSWORD)
        User.objects.create_user(f"other-{request.param}", password=PASSWORD)
    # One key for both, as a deployment must have; fixed, so that a seed deals the same cards
    # in every run (the deal is keyed by it).
    env = server_env(DJANGO_SECRET_KEY="two-servers-test-key-" + "0123456789" * 5)
    if request.param == "redis":
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    with started(["loo_site.wsgi"], env, logs / f"gunicorn-{request.param}") as ports:
        yield Servers(ports[0], ports[1], request.param)


# -- the checks ---------------------------------------------------------------------------------


def test_a_practice_hand_dealt_on_one_server_goes_on_on_the_other(servers: Servers) -> None:
    player = Browser()
    table = deal(player, servers.one)
    on_one = player.get(servers.one, table)
    assert on_one.status == 200

    on_two = player.get(servers.two, table)

    assert on_two.status == 200
    assert version_of(on_two.text) == version_of(on_one.text)
    assert re.findall(r'aria-label="([^"]+)"', on_two.text) == re.findall(
        r'aria-label="([^"]+)"', on_one.text
    ), "server 2 shows other cards"
    # Server 2 takes the next decision (or deals the next hand, if the computer players have
    # ended this one), with the form and CSRF token it served…
    actions = {form.action for form in forms_of(on_two.text)}
    action = f"{table}act/" if f"{table}act/" in actions else f"{table}next/"
    response = submit(player, servers.two, on_two.text, action)
    assert response.status == 302, response.text[:2000]
    assert response.location == table
    # … and server 1 shows the hand moved on.
    after = player.get(servers.one, table)
    assert after.status == 200
    assert version_of(after.text) > version_of(on_one.text)
    # Without the session cookie the table is no one's: it really is the session that goes.
    stranger = Browser()
    assert stranger.get(servers.two, table).status == 404


def test_a_passage_relabelled_in_the_admin_on_one_server_shows_on_the_other_at_once(
    servers: Servers,
) -> None:
    player = Browser()
    table = deal(player, servers.one)
    before = player.get(servers.two, table).text  # server 2's worker now keeps the links
    found = PASSAGE_LINK.search(before)
    assert found, "the table links no passage of hoffmann"
    key, label = found.groups()
    passage = Passage.objects.get(source_id="hoffmann", key=key)
    assert passage.label == label
    new_label = f"{label} ({servers.cache} edit)"

    editor = Browser()
    login = editor.get(servers.one, "/admin/login/")
    response = submit(
        editor, servers.one, login.text, "/admin/login/", username="editor", password=PASSWORD
    )
    assert response.status == 302, response.text[:2000]
    change = f"/admin/lessons/passage/{passage.pk}/change/"
    page = editor.get(servers.one, change)
    assert page.status == 200
    response = submit(editor, servers.one, page.text, change, label=new_label)
    assert response.status == 302, response.text[:3000]
    passage.refresh_from_db()
    assert passage.label == new_label

    after = player.get(servers.two, table).text

    assert f'href="/sources/hoffmann/#{key}">Hoffmann (1909), {new_label}</a>' in after
    assert f"Hoffmann (1909), {label}</a>" not in after


def test_a_login_locked_on_one_server_is_locked_on_the_other(servers: Servers) -> None:
    name = f"player-{servers.cache}"
    visitor = Browser()
    for attempt in range(1, 6):
        response = log_in(visitor, servers.one, name, "wrong")
        assert response.status == (429 if attempt == 5 else 200), attempt

    response = log_in(visitor, servers.two, name, PASSWORD)

    assert response.status == 429
    assert "Too many failed logins" in response.text
    assert visitor.get(servers.two, "/accounts/").status == 302  # not logged in
    # The lock is that name's: another logs in on server 2 from the same address.
    response = log_in(visitor, servers.two, f"other-{servers.cache}", PASSWORD)
    assert response.status == 302, response.text[:2000]


def test_a_rate_limit_reached_through_one_server_holds_on_the_other(servers: Servers) -> None:
    """Wrong passwords under fresh names (no lock per name falls), all sent to server 1 till
    it refuses: server 2 refuses the next at once, for the count is the shared cache's (a
    count of its own would let it through). The limits count in windows of whole minutes
    (loo_site.limits): where a minute ended between server 1's refusal and server 2's answer,
    the count began again, and the check is made again in the new minute (it has all of it)."""
    visitor = Browser()
    per_minute = limits.limit("guesses-per-address-minute").count
    for check in range(3):
        # Twice the minute's count and one: a minute may end among them and count again.
        for attempt in range(2 * per_minute + 1):
            sent = time.time()
            name = f"sprayed-{servers.cache}-{check}-{attempt}"  # a name's first try counts
            response = log_in(visitor, servers.one, name, "123456")
            if response.status == 429:
                assert "Too many attempts" in response.text
                break
            assert response.status == 200
        else:
            raise AssertionError(f"{2 * per_minute + 1} wrong passwords from one address passed")
        response = log_in(visitor, servers.two, "someone", "x")
        if response.status == 429 or sent // 60 == time.time() // 60:
            break  # refused, or let through in the minute server 1 refused in
    else:
        raise AssertionError("a minute ended during each of three checks")
    assert response.status == 429 and "Too many attempts" in response.text
