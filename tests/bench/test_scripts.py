"""The benchmark scripts run and end with the line their issue fixes (figures not judged:
a timing is never asserted).

The five that serve the site do so from one database, migrated and loaded with the content once
for the session, with the static files collected beside it (``bench/http.py --prepare``): each
serves from a copy of it (``--prepared``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.profile import thorough

ROOT = Path(__file__).resolve().parents[2]

#: The scripts that serve the site (a database prepared, a server, clients) or make every kind
#: of question: about 70 seconds of a lane together, so they run under ``make test-full``
#: (``LOO_TEST_PROFILE=thorough``); ``make test`` runs the engine's and the coach's, which
#: import the engine alone. What they time is tested by the suite itself (the trainer's pools,
#: the classroom, the live tables, the limits).
serving = pytest.mark.skipif(
    not thorough(), reason="a benchmark that serves the site: make test-full runs it"
)


@pytest.fixture(scope="session")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A folder the serving scripts take as ``--prepared``: made once for the session."""
    folder = tmp_path_factory.mktemp("bench-prepared")
    _run("bench/http.py", "--prepare", str(folder))
    assert (folder / "db.sqlite3").is_file() and (folder / "static").is_dir()
    return str(folder)


def _run(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()


def test_the_engine_benchmark_prints_its_figures() -> None:
    lines = _run("bench/engine.py", "--hands", "20", "--bot-hands", "2")

    assert re.fullmatch(
        r"engine: hands_per_second=\d+ hand_to_shuffle_ratio=[\d.]+ bot_decision_ms=[\d.]+ "
        r"bot_pool_share=[\d.]+",
        lines[-1],
    ), lines[-1]
    # The bytecode counts are counts, not timings: a whole hand is more work than its shuffle.
    counts = [
        re.fullmatch(r"Python bytecodes: (\d+) a hand, (\d+) a shuffle.*", line) for line in lines
    ]
    found = [m for m in counts if m]
    assert len(found) == 1, lines
    hand, shuffle = map(int, found[0].groups())
    assert hand > shuffle > 0


@serving
def test_the_http_benchmark_plays_hands_without_errors(prepared: str) -> None:
    # A fixed amount of play (one table of two hands a client), not a time: what is checked
    # does not depend on how loaded the machine is.
    lines = _run("bench/http.py", "--clients", "2", "--tables", "1", "--prepared", prepared)

    found = re.fullmatch(
        r"http: play_rps=(\d+) bare_rps=(\d+) ratio=[\d.]+ p99_ms=\d+ errors=(\d+)", lines[-1]
    )
    assert found, lines[-1]
    assert int(found[3]) == 0, "\n".join(lines)
    # Each of the two clients finished its table's two hands, and made ten bare requests.
    played = re.search(r"^play: (\d+) requests, (\d+) hands finished", "\n".join(lines), re.M)
    bare = re.search(r"^bare /healthz/: (\d+) requests", "\n".join(lines), re.M)
    assert played and bare, lines
    assert int(played[2]) == 2 * 2 and int(played[1]) > 2 * 2
    assert int(bare[1]) == 2 * 10


@serving
def test_the_questions_benchmark_times_every_kind() -> None:
    from games.loo.questions import KINDS

    lines = _run(
        "bench/questions.py",
        *("--count", "1", "--judgement-count", "1", "--unprepared", "1", "--places", "1"),
        "--no-warm-up",
    )

    found = re.fullmatch(
        r"questions: kinds=(\d+) slowest_kind=([a-z-]+) slowest_p95_ms=\d+ "
        r"unprepared_p95_ms=\d+ baseline_ms=[\d.]+ ratio=[\d.]+ over_300ms=(\d+) "
        r"p50_p95_ms=((?:[a-z-]+:\d+/\d+,?)+)",
        lines[-1],
    )
    assert found, lines[-1]
    assert int(found[1]) == len(KINDS) and found[2] in KINDS
    assert sorted(k.split(":")[0] for k in found[4].split(",")) == sorted(KINDS)
    # Every kind through the trainer's path, with its pool and without.
    timed = [line.split(":")[0].strip() for line in lines if " p95 " in line]
    assert sorted(timed) == sorted([*KINDS, *(f"{k} with no pool" for k in KINDS)])
    # The pools were filled first: each drill's questions came from one.
    assert all("from a pool" in line for line in lines if line.split(":")[0].strip() in KINDS)


@serving
def test_the_classroom_benchmark_takes_a_quiz_without_errors_or_lost_answers(
    prepared: str,
) -> None:
    lines = _run(
        "bench/classroom.py",
        "--prepared",
        prepared,
        "--students",
        "3",
        "--questions",
        "2",
        "--accounts",
        "5",
        "--lists",
        "2",
    )

    found = re.fullmatch(
        r"classroom: students=3 answers=(\d+) p50_ms=\d+ p99_ms=\d+ "
        r"during_accounts_p99_ms=\d+ accounts_ms=\d+ errors=(\d+) lost=(\d+)",
        lines[-1],
    )
    assert found, lines[-1]
    answers, errors, lost = map(int, found.groups())
    assert (answers, errors, lost) == (6, 0, 0), "\n".join(lines)
    assert any(line.startswith("2 lists of 5 accounts, the slowest made in ") for line in lines)


@serving
def test_the_results_benchmark_reads_every_page_over_a_class(prepared: str) -> None:
    lines = _run(
        "bench/results.py",
        *("--students", "3", "--attempts", "3", "--questions", "3", "--prepared", prepared),
    )

    found = re.fullmatch(
        r"results: answers=(\d+) results_ms=\d+ student_ms=\d+ gradebook_ms=\d+ "
        r"answers_csv_ms=\d+ gradebook_csv_ms=\d+ mastery_ms=\d+ student_mastery_ms=\d+ "
        r"slowest_ms=\d+",
        lines[-1],
    )
    assert found, lines[-1]
    # Each student once, the first of them three times in all: five attempts of three answers.
    assert int(found.group(1)) == 15, "\n".join(lines)


@serving
def test_the_abuse_benchmark_reads_while_logins_fail(prepared: str) -> None:
    # A fixed number of reads, not a time: what is checked does not depend on the machine.
    lines = _run("bench/abuse.py", "--reads", "20", "--attackers", "2", "--prepared", prepared)

    found = re.fullmatch(
        r"abuse: quiet_p50_ms=(\d+) attacked_p50_ms=(\d+) ratio=[\d.]+ errors=(\d+)", lines[-1]
    )
    assert found, lines[-1]
    assert int(found[3]) == 0, "\n".join(lines)
    assert [line.split(",")[0] for line in lines if " reads of " in line] == [
        "quiet: 20 reads of /rules/follow-suit/",
        "attacked: 20 reads of /rules/follow-suit/",
    ], lines
    # The attackers' logins were answered: refused (200, the form again) or limited (429).
    attempts = next(line for line in lines if line.startswith("failed logins by 2 attackers"))
    assert re.search(r"\d+ × (200|429)", attempts), attempts


def test_the_coach_benchmark_plays_the_expert_and_the_sensible_player_on_the_same_hands() -> None:
    lines = _run(
        "bench/coach.py",
        "--decisions",
        "2",
        "--samples",
        "6",
        "--hands",
        "8",
        "--tables",
        "1",
        "--jobs",
        "1",
        "--expert-samples",
        "4",
    )

    found = re.fullmatch(
        r"coach: advise_median_ms=\d+ advise_p95_ms=\d+ expert_decision_median_ms=\d+ "
        r"expert_share=([\d.]+) sensible_share=([\d.]+) expert_ratio=[\d.]+ "
        r"expert_ci_low=[\d.]+ expert_ci_high=[\d.]+ net_gain=[-+][\d.]+ hands=(\d+)",
        lines[-1],
    )
    assert found, lines[-1]
    # Four hands of each game, played by each; a share is a share.
    assert int(found[3]) == 8, "\n".join(lines)
    assert all(0 <= float(found[i]) <= 1 for i in (1, 2)), lines[-1]
    assert any(re.match(r"expert: [1-9]\d* decisions weighed", line) for line in lines), lines


@serving
def test_the_multiplayer_benchmark_plays_at_tables_of_people_and_loses_nothing(
    prepared: str,
) -> None:
    # Two people and a computer player at each table: the people's plays, and the tables
    # each person's stream brings, with a computer player between them.
    lines = _run(
        "bench/multiplayer.py",
        "--prepared",
        prepared,
        "--tables",
        "2",
        "--people",
        "2",
        "--bots",
        "1",
        "--seconds",
        "5",
        "--think",
        "0.3-1",
    )

    found = re.fullmatch(
        r"multiplayer: tables=2 people=4 plays=(\d+) delivery_p50_ms=\d+ delivery_p95_ms=\d+ "
        r"errors=(\d+) lost=(\d+)",
        lines[-1],
    )
    assert found, "\n".join(lines)
    plays, errors, lost = map(int, found.groups())
    # A play is a decision the server took; lost counts its arrivals missing at the other
    # person of its table. Five seconds make several plays at each table.
    assert plays >= 4 and (errors, lost) == (0, 0), "\n".join(lines)
