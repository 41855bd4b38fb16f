"""What the deploy tests share (tests/deploy/conftest.py holds their fixtures): app servers
started in other processes on free loopback ports, and a browser that talks to them over plain
HTTP (a cookie jar, the forms of a page)."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PASSWORD = "a long pass phrase 7"
#: The suite hashes passwords with MD5 (tests/conftest.py), which the servers' settings do not
#: accept: the accounts they check are hashed as theirs are.
SERVERS_HASHER = override_settings(
    PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
)


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


# -- the servers -----------------------------------------------------------------------------------


def server_env(**settings: str) -> dict[str, str]:
    """The environment of servers configured alike, as a deployment has them: DEBUG off, plain
    HTTP on the loopback interface (as `make run`), the test database; ``settings`` added (a
    secret key, REDIS_URL, ...). None of this process's own DJANGO_ settings, nor its Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url(),
    )
    env.update(settings)
    return env


#: The gunicorn settings `make run` and a deployment use (worker limits and time-outs).
CONFIG = ROOT / "gunicorn.conf.py"


def start_gunicorn(
    app: list[str], env: dict[str, str], log: Path, workers: int = 1
) -> tuple[subprocess.Popen[bytes], int]:
    """A gunicorn server of ``app`` (the application and any worker options) with the site's
    gunicorn.conf.py and ``workers`` workers, on a free loopback port: its process and port,
    once it listens. Its log, and the site's, go to ``log``."""
    port = free_port()
    # The site's own log (Django's, to standard error) goes to the same file as gunicorn's.
    with log.open("ab") as output:
        process = subprocess.Popen(
            [str(BIN / "gunicorn"), "--config", str(CONFIG), *app]
            + ["--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
            + ["--error-logfile", str(log)],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, process, log)
    except BaseException:
        stop(process)
        raise
    return process, port


def workers_of(master: subprocess.Popen[bytes]) -> set[int]:
    """The process ids of a gunicorn master's workers (its children), as Linux lists them."""
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text()
    return {int(pid) for pid in children.split()}


@contextlib.contextmanager
def started(app: list[str], env: dict[str, str], log_stem: Path) -> Iterator[list[int]]:
    """Two gunicorn servers of ``app`` (the application and any worker options), one worker
    each, on free loopback ports, with ``env``; their ports once each answers its health
    check. The live test's ASGI servers are started by it too."""
    processes, ports = [], []
    try:
        for n in (1, 2):
            process, port = start_gunicorn(app, env, Path(f"{log_stem}-{n}.log"))
            processes.append(process)
            ports.append(port)
        for port in ports:
            assert Browser().get(port, "/healthz/").text == "ok"
        yield ports
    finally:
        for process in processes:
            stop(process)


@contextlib.contextmanager
def redis_server(folder: Path, name: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis server of its own, in memory only, on a free loopback port: its URL and its
    process (a test that stops it with SIGSTOP has it to itself)."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(server).exists():
        pytest.fail("redis-server is missing: `make system-packages` installs it (as root).")
    port = free_port()
    log = folder / f"{name}.log"
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        + ["--dir", str(folder), "--logfile", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    log.touch()
    try:
        wait_for_port(port, process, log)
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.send_signal(signal.SIGCONT)  # a stopped server cannot end
        stop(process)


# -- a practice table --------------------------------------------------------------------------


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
