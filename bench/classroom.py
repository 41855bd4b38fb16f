"""A class taking a quiz at the same moment: serve Lanterloo as `make run` does and measure.

    .venv/bin/python bench/classroom.py [--students 40] [--questions 10] [--workers 2]
                                        [--accounts 100] [--lists 4]

1. Starts gunicorn as ``bench/http.py`` does (DEBUG off, SQLite in a throwaway file, migrated
   and loaded with the site's content, two sync workers).
2. Makes a teacher, a class of ``--students`` students (each logged in: a session made for
   him), a quiz of ``--questions`` questions (a variant for each student) and its assignment.
3. Every student, at the same moment, opens the assignment, starts an attempt and answers
   each question as the page offers it (htmx, as the browser does), one every 1 to 3 seconds
   on a schedule fixed in advance (an open loop: a slow answer does not delay the next one),
   then submits.
4. Meanwhile ``--lists`` other teachers of the school, each logged in by a session as the
   students are, open the page that adds students to a class of theirs and send a list of
   ``--accounts`` names, one after another, spread over the time the class answers (issue
   27: making accounts must hold nobody up); the answers under way at some moment of a
   list are the *during_accounts* ones.
5. Afterwards reads the database: an answer the server acknowledged ("saved") but not stored
   as given is *lost*.

An error is a failed connection, a status other than 200/302, a refusal in the fragment, or
a list of names that did not come back with a password for each. The latencies are those of
the answers; ``accounts_ms`` is the slowest list's request. The last line is exactly
``classroom: students=N answers=N p50_ms=A p99_ms=B during_accounts_p99_ms=C accounts_ms=D
errors=E lost=L``.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import importlib.util
import json
import random
import re
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

_CHOICE = re.compile(r'<input type="(checkbox|radio)" name="response" value="([^"]+)"')
_ANSWER_URL = re.compile(r'action="(/quizzes/attempt/\d+/q/(\d+)/answer/)"')
_ATTEMPT_URL = re.compile(r"^/quizzes/attempt/(\d+)/$")
_TOKEN = re.compile(r'name="token" value="([^"]+)"')

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

def logged_in(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key

teacher = User.objects.create_user("bench-teacher")
Teacher.objects.create(user=teacher)
school_class = SchoolClass.objects.create(teacher=teacher, name="Bench class")
makers = []
for i in range(LISTS):  # teachers of the same school, each making a class of accounts
    maker = User.objects.create_user(f"bench-maker-{i}")
    Teacher.objects.create(user=maker)
    made_class = SchoolClass.objects.create(teacher=maker, name="Bench class, new accounts")
    makers.append([logged_in(maker), made_class.pk])
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
    students.append([user.username, logged_in(user)])
print(json.dumps({"assignment": assignment.pk, "students": students, "makers": makers}))
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
    #: Each answer's (sent, answered) times, to find those under way while accounts were made.
    spans: list[tuple[float, float]] = field(default_factory=list)
    #: When the teacher's list of names was sent and answered.
    #: Each list of names's (sent, answered) times.
    accounts: list[tuple[float, float]] = field(default_factory=list)
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
            sent = time.perf_counter()
            status, _, page = await browser.request(
                "POST", url, [("response", r) for r in response], htmx=True
            )
            results.spans.append((sent, time.perf_counter()))
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


async def make_accounts(
    port: int, session: str, new_class: int, accounts: int, start: float, results: Results
) -> None:
    """The teacher sends a list of ``accounts`` names, as his browser does (the form's
    one-time token from the page first), while his students answer."""
    stats = bench_http.Stats()
    browser = bench_http.Browser(port, stats, record=True)
    browser.cookies["sessionid"] = session
    url = f"/classes/{new_class}/add-students/"
    try:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        _, _, page = await browser.request("GET", url)
        found = _TOKEN.search(page)
        if found is None:
            results.fail("no form to add students")
            return
        # Names of this class's own (two lists of the same names sent at once would race
        # for the same usernames: the second is then refused, as a teacher's would be).
        names = "\n".join(f"Pupil {i:03d} of class {new_class}" for i in range(accounts))
        sent = time.perf_counter()
        status, _, page = await browser.request(
            "POST", url, [("names", names), ("token", html.unescape(found.group(1)))]
        )
        results.accounts.append((sent, time.perf_counter()))
        # Each password is on the page twice: in its list and on its student's slip.
        passwords = set(re.findall(r'<code class="password">([^<]+)</code>', page))
        if status != 200 or len(passwords) != accounts:
            results.fail("the list of names made no page of passwords")
    except (OSError, ValueError, IndexError) as error:
        results.fail(f"teacher: {type(error).__name__}: {error}"[:80])
    for what, n in stats.problems.items():
        results.problems[what] = results.problems.get(what, 0) + n
        results.errors += n


async def classroom(
    port: int, made: dict[str, Any], questions: int, accounts: int, seconds: float
) -> Results:
    results = Results()
    start = time.perf_counter() + 0.5
    students = made["students"]
    # The lists are sent one after another, spread over the time the class answers (from
    # a few seconds in, once every student has started), so that each meets answers under way.
    makers = made["makers"] if accounts else []
    teacher = [
        make_accounts(port, session, pk, accounts, start + 4 + i * seconds / len(makers), results)
        for i, (session, pk) in enumerate(makers)
    ]
    await asyncio.gather(
        *(
            take(port, name, key, made["assignment"], questions, start, results, seed=i)
            for i, (name, key) in enumerate(students)
        ),
        *teacher,
    )
    return results


def during(results: Results) -> list[float]:
    """The latencies of the answers under way at some moment of a teacher's list."""
    return [
        done - sent
        for sent, done in results.spans
        if any(sent < ended and done > begun for begun, ended in results.accounts)
    ]


def percentile_ms(latencies: list[float], fraction: float) -> float:
    ordered = sorted(latencies) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--accounts", type=int, default=100, help="names each teacher sends meanwhile (0: none)"
    )
    parser.add_argument(
        "--lists", type=int, default=4, help="teachers who each send a list meanwhile"
    )
    bench_http.add_prepared_option(parser)
    args = parser.parse_args()
    if not bench_http.GUNICORN.exists():
        raise SystemExit(f"{bench_http.GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-classroom."))
    server = None
    try:
        server, port, env = bench_http.serve(
            args.workers, folder / "db.sqlite3", prepared=args.prepared
        )
        print(f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, DEBUG off, SQLite")
        setup = (
            SETUP.replace("QUESTIONS", str(args.questions))
            .replace("STUDENTS", str(args.students))
            .replace("LISTS", str(args.lists if args.accounts else 0))
        )
        made = json.loads(shell(setup, env))
        started = time.perf_counter()
        # The class answers for about two seconds a question.
        seconds = 2.0 * args.questions - 4
        results = asyncio.run(classroom(port, made, args.questions, args.accounts, seconds))
        elapsed = time.perf_counter() - started
        stored = {(u, n): sorted(r) for u, n, r in json.loads(shell(STORED, env))}
    finally:
        bench_http.stop(server, folder)
    lost = sum(1 for u, n, r in results.acknowledged if stored.get((u, n)) != r)
    answers = len(results.acknowledged)
    print(f"{args.students} students, {args.questions} questions each, in {elapsed:.1f} s")
    print(f"answers stored: {len(stored)}; acknowledged: {answers}")
    spread = ", ".join(
        f"p{round(f * 100)} {percentile_ms(results.latencies, f):.0f} ms" for f in (0.9, 0.95)
    )
    print(f"answer latency: {spread}, slowest {percentile_ms(results.latencies, 1.0):.0f} ms")
    meanwhile = during(results)
    accounts_ms = max(((e - b) * 1000 for b, e in results.accounts), default=0.0)
    if results.accounts:
        print(
            f"{len(results.accounts)} lists of {args.accounts} accounts, the slowest made in "
            f"{accounts_ms:.0f} ms, while {len(meanwhile)} answers were under way "
            f"(slowest {percentile_ms(meanwhile, 1.0):.0f} ms)"
        )
    for what, n in sorted(results.problems.items()):
        print(f"  error: {what}: {n}")
    print(
        f"classroom: students={args.students} answers={answers} "
        f"p50_ms={percentile_ms(results.latencies, 0.5):.0f} "
        f"p99_ms={percentile_ms(results.latencies, 0.99):.0f} "
        f"during_accounts_p99_ms={percentile_ms(meanwhile, 0.99):.0f} "
        f"accounts_ms={accounts_ms:.0f} "
        f"errors={results.errors} lost={lost}"
    )


if __name__ == "__main__":
    main()
