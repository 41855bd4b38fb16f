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
``make pytest``, on SQLite's in-memory test database, leaves the folder out.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from pytest_django import DjangoDbBlocker

from lessons.models import Passage

# Each test runs in a transaction of its own, as usual; what the servers must see (the content,
# the accounts) is committed by the module's fixtures.
pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PASSWORD = "a long pass phrase 7"
#: The suite hashes passwords with MD5 (tests/conftest.py), which the servers' settings do not
#: accept: the accounts they check are hashed as theirs are.
SERVERS_HASHER = override_settings(
    PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
)
#: The hoffmann table's links to the passages stating its rules: key, then label.
PASSAGE_LINK = re.compile(r'href="/sources/hoffmann/#([\w-]+)">Hoffmann \(1909\), ([^<]+)</a>')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{process.args!r} stopped at start-up:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"{process.args!r} did not listen on {port} in 30 s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def database_url() -> str:
    """The test database, for processes other than this one."""
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "")
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{user}{password}@{host}{port}/{urllib.parse.quote(db['NAME'])}"


# -- a browser: a cookie jar and plain HTTP requests -------------------------------------------


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)


class _Forms(HTMLParser):
    """The forms of a page with what a browser would send: inputs (ticked boxes only), text
    areas, selected options; the submit buttons apart."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._textarea: str | None = None
        self._select: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(a.get("action", "")))
        elif not self.forms:
            return
        elif tag == "option" and self._select is not None and "selected" in a:
            self.forms[-1].fields.append((self._select, a.get("value", "")))
        elif "name" not in a:
            return
        elif tag == "input":
            kind = a.get("type", "text")
            if kind == "submit":
                self.forms[-1].buttons.append((a["name"], a.get("value", "")))
            elif kind not in ("checkbox", "radio") or "checked" in a:
                self.forms[-1].fields.append((a["name"], a.get("value", "on")))
        elif tag == "button" and a.get("type", "submit") == "submit":
            self.forms[-1].buttons.append((a["name"], a.get("value", "")))
        elif tag == "textarea":
            self._textarea, self._text = a["name"], []
        elif tag == "select":
            self._select = a["name"]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self._textarea is not None:
            text = "".join(self._text)
            # As in a browser, the newline just after <textarea> is not part of the value.
            self.forms[-1].fields.append((self._textarea, text.removeprefix("\n")))
            self._textarea = None
        elif tag == "select":
            self._select = None


def forms_of(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def location(self) -> str:
        return urllib.parse.urlsplit(self.headers.get("location", "")).path


class Browser:
    """One visitor: its cookies go with every request, to whichever server it is sent."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(
        self, port: int, method: str, path: str, form: list[tuple[str, str]] | None = None
    ) -> Response:
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method == "POST":
            body = urllib.parse.urlencode(form or []).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            client.request(method, path, body=body, headers=headers)
            raw = client.getresponse()
            text = raw.read().decode("utf-8", "replace")
            for name, value in raw.getheaders():
                if name.lower() == "set-cookie":
                    cookie = value.split(";", 1)[0]
                    key, _, val = cookie.partition("=")
                    self.cookies[key.strip()] = val.strip().strip('"')
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, text)
        finally:
            client.close()

    def get(self, port: int, path: str) -> Response:
        return self.request(port, "GET", path)

    def post(self, port: int, path: str, form: list[tuple[str, str]]) -> Response:
        """POST as the page's form does: the CSRF cookie and the form's hidden token."""
        return self.request(port, "POST", path, form)


def submit(browser: Browser, port: int, page: str, action: str, **changes: str) -> Response:
    """Submit the page's form to ``action`` (with its first button, if it has any), with
    ``changes`` to its fields. A form without an action posts to its page: pass the page's
    address."""
    form = next(f for f in forms_of(page) if (f.action or action).endswith(action))
    fields = [(k, changes.pop(k, v)) for k, v in form.fields]
    fields += list(changes.items())
    assert any(k == "csrfmiddlewaretoken" for k, _ in fields), "the form has no CSRF token"
    return browser.post(port, action, fields + form.buttons[:1])


def log_in(browser: Browser, port: int, username: str, password: str) -> Response:
    """Open the log-in page on the server at ``port`` and submit its form."""
    page = browser.get(port, "/accounts/log-in/")
    return submit(
        browser, port, page.text, "/accounts/log-in/", username=username, password=password
    )


# -- the servers --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
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


@pytest.fixture(scope="module")
def static_files() -> None:
    """DEBUG off serves the collected, hashed static files: collect them as a deploy does."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


@pytest.fixture(scope="module")
def logs() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-deploy-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def redis_url(logs: Path) -> Iterator[str]:
    """A Redis server of its own, in memory only, on a free loopback port."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(server).exists():
        pytest.fail("redis-server is missing: `make system-packages` installs it (as root).")
    port = free_port()
    log = logs / "redis.log"
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        + ["--dir", str(logs), "--logfile", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    log.touch()
    wait_for_port(port, process, log)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


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
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_DEBUG="0",
        # One key for both, as a deployment must have; fixed, so that a seed deals the same
        # cards in every run (the deal is keyed by it).
        DJANGO_SECRET_KEY="two-servers-test-key-" + "0123456789" * 5,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        # Plain HTTP on the loopback interface, as `make run`.
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url(),
    )
    if request.param == "redis":
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    with started(["loo_site.wsgi"], env, logs / f"gunicorn-{request.param}") as ports:
        yield Servers(ports[0], ports[1], request.param)


# -- the checks ---------------------------------------------------------------------------------


def deal(browser: Browser, port: int) -> str:
    """Deal a practice table on ``port`` through the chooser's form; its address."""
    chooser = browser.get(port, "/play/")
    assert chooser.status == 200
    assert "csrftoken" in browser.cookies
    response = submit(
        browser,
        port,
        chooser.text,
        "/play/new/",
        game="three-card",
        rules="hoffmann",
        players="4",
        opponents="beginner",
        mode="learning",
        seed="1",
    )
    assert response.status == 302, response.text[:2000]
    assert re.fullmatch(r"/play/\d+/", response.location), response.location
    return response.location


def version_of(page: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "the table has no form"
    return int(found.group(1))


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
    count of its own would let it through).

    The servers count by their own clock, in windows that begin on the minute: should a
    minute begin while the test runs, server 2 may have started a new count, and the whole
    is tried again (at once: the next minute is ahead)."""
    for again in range(3):
        visitor = Browser()
        minute = time.time() // 60
        for attempt in range(60):
            name = f"sprayed-{servers.cache}-{again}-{attempt}"
            response = log_in(visitor, servers.one, name, "123456")
            if response.status == 429:
                assert "Too many attempts" in response.text
                break
            assert response.status == 200
        else:
            raise AssertionError("sixty wrong passwords from one address were never limited")
        response = log_in(visitor, servers.two, "someone", "x")
        if time.time() // 60 == minute:
            break
    assert response.status == 429 and "Too many attempts" in response.text


@contextlib.contextmanager
def started(app: list[str], env: dict[str, str], log_stem: Path) -> Iterator[list[int]]:
    """Two gunicorn servers of ``app`` (the application and any worker options), one worker
    each, on free loopback ports, with ``env``; their ports once each answers its health
    check. The live test's ASGI servers are started by it too."""
    processes, ports = [], []
    try:
        for n in (1, 2):
            port = free_port()
            log = Path(f"{log_stem}-{n}.log")
            process = subprocess.Popen(
                [str(BIN / "gunicorn"), *app, "--bind", f"127.0.0.1:{port}"]
                + ["--workers", "1", "--error-logfile", str(log)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
            processes.append(process)
            log.touch()
            wait_for_port(port, process, log)
            ports.append(port)
        for port in ports:
            assert Browser().get(port, "/healthz/").text == "ok"
        yield ports
    finally:
        for process in processes:
            stop(process)
