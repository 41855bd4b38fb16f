"""Attempts in Chromium (issue 27): a student on a phone, JavaScript on, revises an answer
(feedback after the attempt), sees the submit summary and confirms; the teacher gives another
student an extra attempt and a later close, which that student's page (JavaScript off) then
shows."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Answer, Assignment, Attempt, Quiz
from tests.browser import axe

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password"


def _new_page(browser: Browser, live_server: LiveServer, *, javascript: bool, **extra) -> Page:
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server.url, **extra)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _log_in(page: Page, username: str, next_path: str) -> None:
    page.goto(f"/accounts/log-in/?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Logged in as", exact=True)).to_be_attached()


@pytest.fixture
def assignment() -> Assignment:
    teacher = User.objects.create_user("mr_quill", password=PASSWORD)
    Teacher.objects.create(user=teacher, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=teacher, name="Form 4")
    for name in ("alice", "bob"):
        student = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=school_class, student=student)
    quiz = Quiz.objects.create(teacher=teacher)
    quiz.save_version(
        title="Tricks",
        rules="hoffmann",
        game="three-card",
        topics=[],
        topics_from="any rule",
        kinds=["trick-winner"],
        count=2,
        same_for_all=True,
        seed=99,
    )
    now = timezone.now()
    return Assignment.objects.create(
        school_class=school_class,
        quiz=quiz,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=2),
        attempts_allowed=1,
        feedback="attempt",
    )


def test_a_revised_answer_the_submit_summary_and_an_extension(
    browser: Browser, live_server: LiveServer, assignment: Assignment
) -> None:
    # Alice, on a phone with JavaScript on, answers both questions, then changes the first.
    alice = _new_page(browser, live_server, javascript=True, viewport=PHONE)
    _log_in(alice, "alice", assignment.get_absolute_url())
    alice.get_by_role("button", name="Start the quiz").click()
    expect(alice.get_by_text("You can change your answers until you submit")).to_be_visible()
    for number in (1, 2):
        expect(alice.get_by_text(f"Question {number} of 2")).to_be_visible()
        alice.locator(".answer-choice").first.click()
        alice.get_by_role("button", name="Answer").click()
        expect(alice.get_by_text(f"Your answer to question {number} is saved.")).to_be_visible()
    alice.get_by_role("navigation", name="Questions").get_by_role("link").first.click()
    expect(alice.get_by_text("Your answer, saved:")).to_be_visible()
    expect(alice.locator(".answer-choice input").first).to_be_checked()
    alice.locator(".answer-choice").nth(1).click()
    alice.get_by_role("button", name="Answer").click()
    expect(alice.get_by_text("Your answer to question 1 is saved.")).to_be_visible()
    axe.assert_nothing_serious(alice, "the attempt page, every question answered")

    # The summary, then the confirmation.
    alice.get_by_role("link", name="Finish the attempt").click()
    expect(alice.get_by_text("You have answered 2 of 2 questions.")).to_be_visible()
    axe.assert_nothing_serious(alice, "the submit summary")
    alice.get_by_role("button", name="Submit the attempt").click()
    expect(alice.get_by_text(re.compile(r"Your score: \d of 2 right"))).to_be_visible()
    attempt = Attempt.objects.get(student__username="alice")
    first = Answer.objects.get(attempt=attempt, position=0)
    q = first.to_engine()
    assert first.response == [q.choices[1].id]  # the revision, not the first answer
    alice.context.close()

    # The teacher gives Bob an extra attempt and a later close.
    teacher = _new_page(browser, live_server, javascript=True)
    bob = User.objects.get(username="bob")
    _log_in(teacher, "mr_quill", f"/quizzes/assignment/{assignment.pk}/results/{bob.pk}/")
    teacher.get_by_label("Extra attempts").fill("1")
    later = timezone.localtime(assignment.closes + timedelta(days=3))
    teacher.get_by_label("A later close for this student").fill(later.strftime("%Y-%m-%dT%H:%M"))
    teacher.get_by_role("button", name="Save the exception").click()
    expect(teacher.get_by_text("bob: +1 attempt; extended to")).to_be_visible()
    teacher.context.close()

    # Bob, JavaScript off, sees it on his assignment's page.
    page = _new_page(browser, live_server, javascript=False)
    _log_in(page, "bob", assignment.get_absolute_url())
    expect(page.get_by_text("(extended for you)")).to_be_visible()
    expect(page.get_by_text("with 1 extra for you")).to_be_visible()
    expect(page.get_by_role("button", name="Start the quiz")).to_be_visible()
    page.context.close()
