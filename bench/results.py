"""The teacher's results pages over an attempt-heavy class: serve Lanterloo as `make run`
does and time each page.

    .venv/bin/python bench/results.py [--students 30] [--attempts 1131] [--questions 50]

1. Starts gunicorn as ``bench/http.py`` does (DEBUG off, SQLite in a throwaway file, migrated
   and loaded with the site's content), one sync worker.
2. Makes the class of ``bench/classroom.py`` (``--students`` students, a quiz of
   ``--questions`` questions, a variant for each student), then lets each student take it once
   and the first of them ``--attempts`` times ("unlimited attempts": issue 27 measured 1,131
   attempts, 56,550 answers, in a minute, after which the teacher's per-student page failed
   after 30 s); the teacher is logged in (a session made for him).
3. Reads each page four times (the results, the heavy student's answers, the gradebook, the
   class's and the student's mastery, both CSV files read to their end) and keeps the slowest
   of the last three (the first makes the questions again, which the worker then keeps).
4. Reads the results page ``--ratio-reads`` more times, each just after a fixed piece of
   Python work in this process (shuffling a pack ``WORKLOAD`` times), and prints the median of
   the page's time over the work's, and the median CPU time the worker spent on a read (its
   ``/proc/PID/schedstat``, where there is one): two figures that a busy machine moves far
   less than the milliseconds (compare them, not those, between runs on a machine shared with
   other work).

The line before the last is ``results page: ratio=R to a fixed workload of W ms, the worker's
CPU C ms a read (…)``; the last line is exactly
``results: answers=N results_ms=A student_ms=B gradebook_ms=C answers_csv_ms=D
gradebook_csv_ms=E mastery_ms=F student_mastery_ms=G slowest_ms=H`` (on one line).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Keep this folder off the import path: bench/http.py would stand in for the standard library.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]


def _load(name: str, file: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(file))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench_http = _load("bench_http", "http.py")
bench_classroom = _load("bench_classroom", "classroom.py")

#: Run in ``manage.py shell`` after classroom.py's SETUP (its class, quiz of a variant for
#: each student, assignment and students): unlimited attempts; each student takes the quiz,
#: one of them ATTEMPTS times; the teacher's session. Prints the URLs to read, the session key
#: and the answers stored, as JSON.
SETUP = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse
from lessons.classes.models import Membership
from lessons.quizzes.models import Answer, Assignment, Attempt

assignment = Assignment.objects.get(pk=ASSIGNMENT)
Assignment.objects.filter(pk=assignment.pk).update(attempts_allowed=None)
assignment.refresh_from_db()
school_class, teacher = assignment.school_class, assignment.school_class.teacher
members = list(Membership.objects.filter(school_class=school_class).select_related("student"))
for m in members:
    attempt = Attempt.start(assignment, m.student)
    for i, answer in enumerate(attempt.answers.all()):
        q = answer.to_engine()
        wrong = [c.id for c in q.choices if c.id not in q.answer][:1]
        answer.record(q, list(q.answer) if i % 3 else (wrong or list(q.answer)))
    attempt.submit()
heavy = members[0]
first = Attempt.objects.get(assignment=assignment, student=heavy.student)
answers = list(first.answers.all())
fields = ("kind", "rules", "game", "rule", "seed", "version", "position", "topic",
          "response", "correct", "answered")
for start in range(2, ATTEMPTS + 1, 200):
    numbers = range(start, min(start + 200, ATTEMPTS + 1))
    Attempt.objects.bulk_create(
        Attempt(assignment=assignment, student=heavy.student, version=first.version, number=n,
                started=first.started, deadline=first.deadline, submitted=first.submitted)
        for n in numbers)
    made = Attempt.objects.filter(student=heavy.student, number__in=numbers)
    Answer.objects.bulk_create(
        Answer(attempt=attempt, **{f: getattr(a, f) for f in fields})
        for attempt in made for a in answers)
session = SessionStore()
session[SESSION_KEY] = str(teacher.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = teacher.get_session_auth_hash()
session.create()
pages = {
    "results": reverse("quizzes:results", args=[assignment.pk]),
    "student": reverse("quizzes:student-results", args=[assignment.pk, heavy.student_id]),
    "gradebook": reverse("quizzes:gradebook", args=[school_class.pk]),
    "answers_csv": reverse("quizzes:answers-csv", args=[assignment.pk]),
    "gradebook_csv": reverse("quizzes:gradebook-csv", args=[school_class.pk]),
    "mastery": reverse("quizzes:mastery", args=[school_class.pk]),
    "student_mastery": reverse("quizzes:mastery-student", args=[school_class.pk, heavy.pk]),
}
print(json.dumps({"pages": pages, "session": session.session_key,
                  "answers": Answer.objects.count()}))
"""


def read(port: int, path: str, session: str) -> float:
    """Seconds to read the page to its end (a CSV streams: its last byte counts)."""
    # Imported here, once this folder (whose http.py would stand in for it) is off the path.
    import http.client

    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", path, headers={"Cookie": f"sessionid={session}"})
    response = connection.getresponse()
    response.read()
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{path}: HTTP {response.status}")
    return time.perf_counter() - started


#: Shuffles of a pack in the fixed workload the results page is compared with (about as long as
#: the page on the two-core development machine).
WORKLOAD = 10_000


def workload() -> float:
    """Seconds of a fixed piece of Python work: the machine's speed at this moment."""
    rng = random.Random(37)
    pack = list(range(52))
    started = time.perf_counter()
    for _ in range(WORKLOAD):
        rng.shuffle(pack)
    return time.perf_counter() - started


def worker_of(server: subprocess.Popen[bytes]) -> int | None:
    """The pid of gunicorn's one worker (a child of ``server``), if /proc says."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == server.pid:
            return int(stat.parent.name)
    return None


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time ``pid`` has run, to the nanosecond (None without /proc's schedstat)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--attempts", type=int, default=1131)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--ratio-reads", type=int, default=9)
    bench_http.add_prepared_option(parser)
    args = parser.parse_args()
    if not bench_http.GUNICORN.exists():
        raise SystemExit(f"{bench_http.GUNICORN} is missing: run `make venv` first")
    folder = Path(tempfile.mkdtemp(prefix="lanterloo-results."))
    server = None
    timings: dict[str, float] = {}
    try:
        server, port, env = bench_http.serve(1, folder / "db.sqlite3", prepared=args.prepared)
        print(f"gunicorn: 1 sync worker on 127.0.0.1:{port}, DEBUG off, SQLite")
        classroom = (
            bench_classroom.SETUP.replace("QUESTIONS", str(args.questions))
            .replace("STUDENTS", str(args.students))
            .replace("LISTS", "0")  # no teacher making accounts here
        )
        assignment = json.loads(bench_classroom.shell(classroom, env))["assignment"]
        setup = SETUP.replace("ASSIGNMENT", str(assignment)).replace("ATTEMPTS", str(args.attempts))
        made = json.loads(bench_classroom.shell(setup, env))
        print(
            f"{args.students} students and one of {args.attempts} attempts: "
            f"{made['answers']} answers stored"
        )
        for name, path in made["pages"].items():
            cold = read(port, path, made["session"])
            timings[name] = max(read(port, path, made["session"]) for _ in range(3))
            print(f"  {name}: {timings[name] * 1000:.0f} ms, the first {cold * 1000:.0f} ms")
        paired, cpu = [], []
        worker = worker_of(server)
        for _ in range(args.ratio_reads):
            work = workload()
            before = cpu_seconds(worker)
            paired.append((read(port, made["pages"]["results"], made["session"]), work))
            after = cpu_seconds(worker)
            if before is not None and after is not None:
                cpu.append(after - before)
        ratio = statistics.median(page / work for page, work in paired)
        work_ms = statistics.median(work for _, work in paired) * 1000
        cpu_ms = f"{statistics.median(cpu) * 1000:.0f}" if cpu else "unknown"
    finally:
        bench_http.stop(server, folder)
    figures = " ".join(f"{name}_ms={seconds * 1000:.0f}" for name, seconds in timings.items())
    slowest = max(timings.values()) * 1000
    print(
        f"results page: ratio={ratio:.2f} to a fixed workload of {work_ms:.0f} ms, the "
        f"worker's CPU {cpu_ms} ms a read (medians of {args.ratio_reads} reads, each after "
        "the workload)"
    )
    print(f"results: answers={made['answers']} {figures} slowest_ms={slowest:.0f}")


if __name__ == "__main__":
    main()
