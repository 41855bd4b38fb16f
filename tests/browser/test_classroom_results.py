"""The results a teacher acts on, on a 375 px phone (issue 27, items 12 to 15): the students'
state and grade without sideways scrolling, chart text at a readable size, the options each
question's answers chose with the most common wrong answer named, and a student's mastery page
reached from the results; axe-core finds nothing serious or critical.

The gradebook's grades fit the phone too, whatever the length of a username (issue 37).

The class and its answers are made behind the browser's back (the classroom path of
test_classroom.py takes them through the pages); the teacher's side is read through the
pages only."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Attempt, Quiz
from lessons.trainer.presenting import shown
from tests.browser import axe

pytestmark = pytest.mark.django_db(transaction=True)

TEACHER, PASSWORD = "mrs_quadrille", "a long pass phrase 7"
#: A quiz of two "why not?" questions, the same for everyone (its options are rules).
QUIZ = dict(
    title="Why not?", rules="hoffmann", game="three-card", kinds=["why-not"], count=2, seed=99
)
CLOSES = datetime(2100, 1, 1, tzinfo=UTC)
STUDENTS = {"AdaLovelace": "Ada Lovelace", "Bea": "Beatrice Byron-Featherstonehaugh", "Cy": ""}
#: A student who has not started, whose username is as long as one can be made.
LONG_NAME = "dmitri_with_a_rather_long_username"


def _no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def _class_with_answers() -> tuple[Assignment, str]:
    """A class of three whose quiz's question 1 two students answer with the same wrong
    option; that option's wording."""
    teacher = User.objects.create_user(TEACHER, password=PASSWORD)
    Teacher.objects.create(user=teacher, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=teacher, name="Loo on Fridays")
    quiz = Quiz.objects.create(teacher=teacher)
    quiz.save_version(**QUIZ)
    assignment = Assignment.objects.create(
        school_class=school_class, quiz=quiz, opens=timezone.now(), closes=CLOSES
    )
    wrong_wording = ""
    for i, (username, real_name) in enumerate(STUDENTS.items()):
        student = User.objects.create_user(username, password="pw")
        Membership.objects.create(school_class=school_class, student=student, real_name=real_name)
        attempt = Attempt.start(assignment, student)
        for answer in attempt.answers.all():
            q = answer.to_engine()
            wrong = [c for c in shown(q).choices if c.id not in q.answer][0]
            answer.record(q, list(q.answer) if i == 0 else [wrong.id])
            if answer.position == 0:
                wrong_wording = wrong.text
        attempt.submit()
    student = User.objects.create_user(LONG_NAME, password="pw")
    Membership.objects.create(school_class=school_class, student=student)
    return assignment, wrong_wording


def test_a_teacher_reads_the_results_and_a_students_mastery_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    assignment, wrong = _class_with_answers()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/log-in/")
    page.get_by_label("Username").fill(TEACHER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Logged in as", exact=True)).to_be_attached()

    page.goto(f"/quizzes/assignment/{assignment.pk}/results/")
    expect(page.get_by_role("heading", name="Results: Why not?")).to_be_visible()
    _no_sideways_scroll(page)
    students = page.get_by_role("table", name="Students")
    row = students.get_by_role("row", name="Bea")
    # State and grade on screen, inside the phone's width.
    for cell, shows in ((row.locator("td").nth(0), "submitted"), (row.locator("td").nth(1), "0%")):
        expect(cell).to_have_text(shows)
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375
    # Chart text drawn at 12 px or more (a chart scaled down to fit shrinks it).
    size = page.evaluate(
        """() => { const svg = document.querySelector('.chart svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return scale * parseFloat(getComputedStyle(svg.querySelector('text')).fontSize); }"""
    )
    assert size >= 12
    # Each question as asked: its options, and the wrong answer two of three gave, named.
    options = page.get_by_role("table", name=re.compile(r": the options \(3 answers\)")).first
    expect(options.get_by_role("row", name=wrong).first).to_contain_text("wrong")
    expect(page.get_by_text(f"{wrong}: 2 times").first).to_be_visible()
    axe.assert_nothing_serious(page, "the results page on a phone")

    row.get_by_role("link", name="Mastery of Bea").click()
    expect(page.get_by_role("heading", name="Mastery: Bea")).to_be_visible()
    table = page.get_by_role("table", name="Right answers by rule")
    expect(table.get_by_role("row").nth(1)).to_contain_text("0%")
    _no_sideways_scroll(page)
    axe.assert_nothing_serious(page, "a student's mastery page on a phone")

    # The gradebook: a long username wraps, and Bea's grade is on the phone's screen.
    page.goto(f"/quizzes/class/{assignment.school_class_id}/gradebook/")
    book = page.get_by_role("table", name="Grades kept, by student and assignment")
    grade = book.get_by_role("row", name=re.compile("^Bea ")).locator("td").first
    expect(grade).to_have_text("0%")
    box = grade.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 375
    _no_sideways_scroll(page)
    context.close()
