"""The whole classroom path in Chromium, through the pages only (issue 15's proof).

A teacher signs up, says "I teach", makes a class, adds two students in bulk and reads their
usernames and one-time passwords off the printable page, builds a quiz (feedback after each
answer) and assigns it to the class. One student takes it with JavaScript on, the other with
JavaScript off, each seeing the feedback the setting allows. The teacher reads the results,
opens a student's attempt and downloads the answers and the gradebook as CSV. axe-core finds
nothing serious or critical on the class page, the quiz builder, the attempt page (asked and
graded) and the results page.

Nothing is set up behind the browser's back: the database is only read, to know the right
answer of a question a student is asked (what a person would know from the rules, and no
page shows before the answer is given)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.quizzes.models import Answer, Assignment
from tests.browser import axe

pytestmark = pytest.mark.django_db(transaction=True)

TEACHER = "mrs_quadrille"
TEACHER_PASSWORD = "a long pass phrase 7"
CLASS = "Loo on Fridays"
QUIZ = "Whose trick is it?"
QUESTIONS = 3
STUDENTS = {"AdaLovelace": "Ada Lovelace", "CharlesBabbage": "Charles Babbage"}


def _new_page(browser: Browser, live_server: LiveServer, *, javascript: bool) -> Page:
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _log_in(page: Page, username: str, password: str, next_path: str) -> None:
    page.goto(f"/accounts/log-in/?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Logged in as", exact=True)).to_be_attached()


def _log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def _choose_a_password_if_asked(page: Page, given: str) -> None:
    """A student whose account the teacher made may be sent to the password form first (the
    one-time password is his teacher's): he chooses his own, as a person would."""
    if not page.get_by_text("Choose your own password first").count():
        return
    # Not asked for the one-time password again (issue 37); then his class's page opens.
    expect(page.locator("#id_old_password")).to_have_count(0)
    page.locator("#id_new_password1").fill("my very own phrase 12")
    page.locator("#id_new_password2").fill("my very own phrase 12")
    page.get_by_role("button", name="Choose this password").click()
    expect(page.get_by_text("Your password is chosen")).to_be_visible()


def _choose(page: Page, student: str, number: int, *, right: bool) -> None:
    """Tick the right answer to question ``number`` (or a wrong one), known from the question
    stored on the server, never from the page."""
    stored = Answer.objects.get(
        attempt__student__username=student, attempt__number=1, position=number - 1
    )
    q = stored.to_engine()
    assert not q.multiple  # "Who takes the trick": one answer
    wanted = [c.id for c in q.choices if (c.id in q.answer) == right][0]
    choice = page.locator("label.answer-choice").filter(
        has=page.locator(f'input[name="response"][value="{wanted}"]')
    )
    choice.click()
    page.get_by_role("button", name="Answer").click()


def _teacher_makes_the_class(page: Page) -> dict[str, str]:
    """Sign up, teach, make the class and its students: their one-time passwords by username."""
    page.goto("/accounts/sign-up/")
    page.get_by_label("Username").fill(TEACHER)
    page.locator("#id_password1").fill(TEACHER_PASSWORD)
    page.locator("#id_password2").fill(TEACHER_PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Logged in as", exact=True)).to_be_attached()

    page.get_by_role("link", name="Account").click()
    page.get_by_label("I teach").check()
    page.get_by_label("My time zone").select_option("Europe/Paris")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("You teach: you can make classes.")).to_be_visible()

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Classes").click()
    page.get_by_role("link", name="Make a class").click()
    page.get_by_label("Name").fill(CLASS)
    page.get_by_label("Description").fill("Pam, be civil.")
    page.get_by_role("button", name="Make the class").click()
    expect(page.get_by_role("heading", name=CLASS, level=1)).to_be_visible()

    page.get_by_role("link", name="Add students").click()
    page.get_by_label("Your students' names, one a line").fill("\n".join(STUDENTS.values()))
    page.get_by_role("button", name="Make the accounts").click()
    expect(page.get_by_text("Shown once.")).to_be_visible()
    rows = page.locator("table.passwords tbody tr")
    expect(rows).to_have_count(2)
    made = {}
    for i in range(2):
        cells = rows.nth(i).locator("td")
        assert STUDENTS[cells.nth(1).inner_text()] == cells.nth(0).inner_text()
        made[cells.nth(1).inner_text()] = cells.nth(2).inner_text()
    assert set(made) == set(STUDENTS)

    page.get_by_role("link", name="Back to the class").click()
    for username in STUDENTS:
        roster = page.locator("table.roster")
        expect(roster.get_by_role("link", name=username, exact=True)).to_be_visible()
    axe.assert_nothing_serious(page, "the class page")
    return made


def _teacher_builds_and_assigns(page: Page) -> None:
    page.get_by_role("link", name="Assignments", exact=True).click()
    page.get_by_role("link", name="make a new quiz").click()
    expect(page.get_by_role("heading", name="Make a quiz")).to_be_visible()
    axe.assert_nothing_serious(page, "the quiz builder")
    page.get_by_label("Title").fill(QUIZ)
    page.get_by_label("Rule set").select_option("hoffmann")
    page.get_by_label("Game").select_option("three-card")
    page.get_by_label("Who takes the trick").check()
    page.get_by_label("Number of the engine's questions").fill(str(QUESTIONS))
    page.get_by_label("The same for every student").check()
    page.get_by_role("button", name="Save the quiz").click()
    expect(page.get_by_role("heading", name="A sample of its questions")).to_be_visible()
    expect(page.get_by_text("The answer:")).to_have_count(QUESTIONS)

    page.get_by_role("link", name=CLASS).click()
    page.get_by_label("Assign", exact=True).select_option(label=QUIZ)
    page.get_by_label("Show the answers").select_option(label="After each answer")
    page.get_by_role("button", name="Assign", exact=True).click()
    expect(page.get_by_text(f"Assigned “{QUIZ}” to {CLASS}.")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile(re.escape(QUIZ)))).to_be_visible()
    _log_out(page)


def _student_takes_it(
    page: Page, username: str, password: str, rights: list[bool], *, js: bool
) -> None:
    """Log in, find the quiz through the class, answer (right or wrong as ``rights`` says),
    see each verdict at once, submit, and see the score and the answers."""
    _log_in(page, username, password, "/classes/")
    _choose_a_password_if_asked(page, password)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Classes").click()
    page.get_by_role("link", name=CLASS).click()
    expect(page.get_by_text(f"Taught by {TEACHER}")).to_be_visible()
    page.get_by_role("link", name="Your assignments and results").click()
    expect(page.get_by_role("row", name=re.compile(re.escape(QUIZ)))).to_contain_text("not started")
    page.get_by_role("link", name=QUIZ).click()
    expect(page.get_by_text("After each answer")).to_be_visible()
    page.get_by_role("button", name="Start the quiz").click()
    for number, right in enumerate(rights, start=1):
        expect(page.get_by_text(f"Question {number} of {QUESTIONS}")).to_be_visible()
        expect(page.locator(".verdict")).to_have_count(0)
        if js:
            if number == 1:
                axe.assert_nothing_serious(page, "the attempt page, a question asked")
            page.evaluate("() => { window.stayed = true }")
        _choose(page, username, number, right=right)
        verdict = page.locator(".verdict")
        expect(verdict).to_contain_text("Right." if right else "Not quite.")
        expect(verdict).to_contain_text("The answer:")
        if js:
            assert page.evaluate("() => window.stayed") is True  # swapped in, not reloaded
            if number == 1:
                axe.assert_nothing_serious(page, "the attempt page, an answer graded")
        if number < QUESTIONS:
            page.get_by_role("link", name="Next question").click()
        else:
            expect(page.get_by_role("link", name="Next question")).to_have_count(0)
    page.get_by_role("link", name="Finish the attempt").click()
    page.get_by_role("button", name="Submit the attempt").click()
    score = f"Your score: {sum(rights)} of {QUESTIONS} right"
    expect(page.get_by_text(score)).to_be_visible()
    expect(page.locator(".verdict")).to_have_count(QUESTIONS)
    _log_out(page)


def _rows(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # a byte-order mark, for spreadsheets
    return list(csv.DictReader(io.StringIO(data[3:].decode())))


def _download(page: Page, link: str) -> list[dict[str, str]]:
    with page.expect_download() as download:
        page.get_by_role("link", name=link).click()
    path = download.value.path()
    assert path is not None
    return _rows(path.read_bytes())


def test_a_teacher_sets_a_quiz_two_students_take_it_the_teacher_reads_the_results(
    browser: Browser, live_server: LiveServer
) -> None:
    teacher = _new_page(browser, live_server, javascript=True)
    made = _teacher_makes_the_class(teacher)
    _teacher_builds_and_assigns(teacher)

    # Ada with JavaScript on (one answer wrong), Charles with it off (all right).
    ada = _new_page(browser, live_server, javascript=True)
    _student_takes_it(ada, "AdaLovelace", made["AdaLovelace"], [True, False, True], js=True)
    charles = _new_page(browser, live_server, javascript=False)
    _student_takes_it(
        charles, "CharlesBabbage", made["CharlesBabbage"], [True, True, True], js=False
    )
    charles.context.close()

    # The teacher reads the results.
    _log_in(teacher, TEACHER, TEACHER_PASSWORD, "/classes/")
    teacher.get_by_role("link", name=CLASS).click()
    teacher.get_by_role("link", name="Assignments", exact=True).click()
    teacher.get_by_role("link", name=f"Results of {QUIZ}").click()
    expect(teacher.get_by_role("heading", name=f"Results: {QUIZ}")).to_be_visible()
    students = teacher.get_by_role("table", name="Students")
    for username, grade in (("AdaLovelace", "67%"), ("CharlesBabbage", "100%")):
        row = students.get_by_role("row", name=re.compile(username))
        expect(row).to_contain_text(STUDENTS[username])
        expect(row.locator("td").nth(0)).to_have_text("submitted")
        expect(row.locator("td").nth(1)).to_have_text(grade)
        expect(row.locator("td").nth(2)).to_have_text("1")
    # Question 2, the same for both, is one question as asked: one of two right.
    expect(
        teacher.get_by_text("Asked 2 times: 1 right, 1 wrong, 0 left blank (50% right).")
    ).to_be_visible()
    expect(teacher.locator("svg[role=img]").first).to_be_visible()
    axe.assert_nothing_serious(teacher, "the results page")

    answers = _download(teacher, "every answer")
    assignment = Assignment.objects.get()
    stored = Answer.objects.filter(attempt__assignment=assignment)
    assert len(answers) == stored.count() == 2 * QUESTIONS  # one row per answer
    assert [(r["student"], r["question"]) for r in answers] == [
        (username, str(n)) for username in sorted(STUDENTS) for n in range(1, QUESTIONS + 1)
    ]
    assert [r["correct"] for r in answers] == ["yes", "no", "yes", "yes", "yes", "yes"]
    assert all(r["attempt"] == "1" and r["kind"] == "trick-winner" for r in answers)
    assert all(r["response"] and r["time"] for r in answers)

    teacher.get_by_role("link", name="Answers of AdaLovelace").click()
    expect(teacher.get_by_role("heading", name="Attempt 1: 2 of 3 right")).to_be_visible()
    expect(teacher.locator(".verdict")).to_have_count(QUESTIONS)
    expect(teacher.locator(".verdict--wrong")).to_have_count(1)

    teacher.get_by_role("link", name=f"Results: {QUIZ}").click()
    teacher.get_by_role("link", name="Assignments", exact=True).click()
    teacher.get_by_role("link", name="The gradebook").click()
    book = _download(teacher, "Download the gradebook (CSV)")
    # A number in the grade column (titled with the day it opened), the state beside it.
    (grade,) = [h for h in book[0] if h.startswith(f"{QUIZ} (") and h.endswith(" grade")]
    status = grade.removesuffix(" grade") + " status"
    assert sorted((r["student"], r["name"], r[grade], r[status]) for r in book) == [
        ("AdaLovelace", "Ada Lovelace", "67", "submitted"),
        ("CharlesBabbage", "Charles Babbage", "100", "submitted"),
    ]

    ada.context.close()
    teacher.context.close()
