"""A class taking a quiz at the same moment: serve Lanterloo as `make run` does and measure.

    .venv/bin/python bench/classroom.py [--students 40] [--questions 10] [--workers 2]

1. Starts gunicorn as ``bench/http.py`` does (DEBUG off, SQLite in a throwaway file, migrated
   and loaded with the site's content, two sync workers).
2. Makes a teacher, a class of ``--students`` students (each logged in: a session made for
   him), a quiz of ``--questions`` questions (a variant for each student) and its assignment.
3. Every student, at the same moment, opens the assignment, starts an attempt and answers
   each question as the page offers it (htmx, as the browser does), one every 1 to 3 seconds
   on a schedule fixed in advance (an open loop: a slow answer does not delay the next one),
   then submits.
4. Afterwards reads the database: an answer the server acknowledged ("saved") but not stored
   as given is *lost*.

An error is a failed connection, a status other than 200/302, or a refusal in the fragment.
The latencies are those of the answers. The last line is exactly
``classroom: students=N answers=N p50_ms=A p99_ms=B errors=E lost=L``.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import importlib.util
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# Keep this folder off the import path: bench/http.py would stand in for the standard library.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http
_spec.loader.exec_module(bench_http)

ROOT = bench_http.ROOT
PYTHON = bench_http.PYTHON

_CHOICE = re.compile(r'<input type="(checkbox|radio)" name="response" value="([^"]+)"')
_ANSWER_URL = re.compile(r'action="(/quizzes/attempt/\d+/q/(\d+)/answer/)"')
_ATTEMPT_URL = re.compile(r"^/quizzes/attempt/(\d+)/$")

#: Run in ``manage.py shell``: the class, its quiz and assignment; prints the assignment's pk
#: and each student's username and session key, as JSON.
SETUP = """
import json
from datetime import timedelta
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone
from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Quiz

teacher = User.objects.create_user("bench-teacher")
Teacher.objects.create(user=teacher)
school_class = SchoolClass.objects.create(teacher=teacher, name="Bench class")
quiz = Quiz.objects.create(teacher=teacher)
quiz.save_version(title="Bench quiz", rules="hoffmann", game="three-card", topics=[],
                  topics_from="any rule", kinds=[], count=QUESTIONS, same_for_all=False,
                  seed=20261123)
now = timezone.now()
assignment = Assignment.objects.create(
    school_class=school_class, quiz=quiz, opens=now - timedelta(minutes=1),
    closes=now + timedelta(hours=2), attempts_allowed=1, feedback="attempt")
students = []
for i in range(STUDENTS):
    user = User.objects.create_user(f"bench-student-{i:03d}")
    Membership.objects.create(school_class=school_class, student=user)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    students.append([user.username, session.session_key])
print(json.dumps({"assignment": assignment.pk, "students": students}))
"""

#: Run in ``manage.py shell``: every stored answer, as JSON [username, number, response].
STORED = """
import json
from lessons.quizzes.models import Answer
rows = Answer.objects.filter(answered__isnull=False).values_list(
    "attempt__student__username", "position", "response")
print(json.dumps([[u, p + 1, r] for u, p, r in rows]))
"""


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    acknowledged: list[tuple[str, int, list[str]]] = field(default_factory=list)
    errors: int = 0
    problems: dict[str, int] = field(default_factory=dict)

    def fail(self, what: str) -> None:
        self.errors += 1
        self.problems[what] = self.problems.get(what, 0) + 1


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


def pick(page: str, rng: random.Random) -> tuple[str, int, list[str]] | None:
    """The answer URL, the question's number and a response among the page's choices."""
    found = _ANSWER_URL.search(page)
    choices = _CHOICE.findall(page)
    if found is None or not choices:
        return None
    values = [html.unescape(v) for _, v in choices]
    if choices[0][0] == "checkbox":
        response = rng.sample(values, rng.randint(1, len(values)))
    else:
        response = [rng.choice(values)]
    return found.group(1), int(found.group(2)), response


async def take(
    port: int,
    username: str,
    session: str,
    assignment: int,
    questions: int,
    start: float,
    results: Results,
    seed: int,
) -> None:
    rng = random.Random(seed)
    stats = bench_http.Stats()
    browser = bench_http.Browser(port, stats, record=True)
    browser.cookies["sessionid"] = session
    try:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        await browser.request("GET", f"/quizzes/assignment/{assignment}/")
        status, headers, _ = await browser.request(
            "POST", f"/quizzes/assignment/{assignment}/start/"
        )
        location = headers.get("location", "")
        if status != 302 or not _ATTEMPT_URL.match(location):
            results.fail("no attempt started")
            return
        _, _, page = await browser.request("GET", location)
        due = time.perf_counter()
        for _ in range(questions):
            due += rng.uniform(1.0, 3.0)  # the schedule is fixed: an open loop
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            chosen = pick(page, rng)
            if chosen is None:
                results.fail("no question offered")
                return
            url, number, response = chosen
            before = len(stats.latencies)
            status, _, page = await browser.request(
                "POST", url, [("response", r) for r in response], htmx=True
            )
            results.latencies.extend(stats.latencies[before:])
            if status == 200 and f"Your answer to question {number} is saved" in page:
                results.acknowledged.append((username, number, sorted(response)))
            elif status == 200 and "alert--error" in page:
                results.fail("answer refused")
        await browser.request("POST", location + "submit/")
    except (OSError, ValueError, IndexError) as error:
        results.fail(f"{type(error).__name__}: {error}"[:80])
    for what, n in stats.problems.items():
        results.problems[what] = results.problems.get(what, 0) + n
        results.errors += n


async def classroom(
    port: int, assignment: int, students: list[list[str]], questions: int
) -> Results:
    results = Results()
    start = time.perf_counter() + 0.5
    await asyncio.gather(
        *(
            take(port, name, key, assignment, questions, start, results, seed=i)
            for i, (name, key) in enumerate(students)
        )
    )
    return results


def percentile_ms(latencies: list[float], fraction: float) -> float:
    ordered = sorted(latencies) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not bench_http.GUNICORN.exists():
        raise SystemExit(f"{bench_http.GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-classroom."))
    server = None
    try:
        server, port, env = bench_http.serve(args.workers, folder / "db.sqlite3")
        print(f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, DEBUG off, SQLite")
        setup = SETUP.replace("QUESTIONS", str(args.questions)).replace(
            "STUDENTS", str(args.students)
        )
        made = json.loads(shell(setup, env))
        started = time.perf_counter()
        results = asyncio.run(classroom(port, made["assignment"], made["students"], args.questions))
        elapsed = time.perf_counter() - started
        stored = {(u, n): sorted(r) for u, n, r in json.loads(shell(STORED, env))}
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(folder, ignore_errors=True)
    lost = sum(1 for u, n, r in results.acknowledged if stored.get((u, n)) != r)
    answers = len(results.acknowledged)
    print(f"{args.students} students, {args.questions} questions each, in {elapsed:.1f} s")
    print(f"answers stored: {len(stored)}; acknowledged: {answers}")
    spread = ", ".join(
        f"p{round(f * 100)} {percentile_ms(results.latencies, f):.0f} ms" for f in (0.9, 0.95)
    )
    print(f"answer latency: {spread}, slowest {percentile_ms(results.latencies, 1.0):.0f} ms")
    for what, n in sorted(results.problems.items()):
        print(f"  error: {what}: {n}")
    print(
        f"classroom: students={args.students} answers={answers} "
        f"p50_ms={percentile_ms(results.latencies, 0.5):.0f} "
        f"p99_ms={percentile_ms(results.latencies, 0.99):.0f} "
        f"errors={results.errors} lost={lost}"
    )


if __name__ == "__main__":
    main()
