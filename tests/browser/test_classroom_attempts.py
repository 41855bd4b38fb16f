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
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from lessons.quizzes.models import Answer, Assignment, Attempt
from tests.browser import axe

from .classroom_world import classroom_assignment, log_in, new_page
from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def assignment() -> Assignment:
    return classroom_assignment(
        "mr_quill",
        "Form 4",
        ("alice", "bob"),
        title="Tricks",
        seed=99,
        opens=-timedelta(hours=1),
        closes=timedelta(days=2),
        feedback="attempt",
    )


def test_a_revised_answer_the_submit_summary_and_an_extension(
    browser: Browser, live_server: LiveServer, assignment: Assignment
) -> None:
    # Alice, on a phone with JavaScript on, answers both questions, then changes the first.
    alice = new_page(browser, live_server, javascript=True, viewport=PHONE)
    log_in(alice, "alice", assignment.get_absolute_url())
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
    teacher = new_page(browser, live_server, javascript=True)
    bob = User.objects.get(username="bob")
    log_in(teacher, "mr_quill", f"/quizzes/assignment/{assignment.pk}/results/{bob.pk}/")
    teacher.get_by_label("Extra attempts").fill("1")
    later = timezone.localtime(assignment.closes + timedelta(days=3))
    teacher.get_by_label("A later close for this student").fill(later.strftime("%Y-%m-%dT%H:%M"))
    teacher.get_by_role("button", name="Save the exception").click()
    expect(teacher.get_by_text("bob: +1 attempt; extended to")).to_be_visible()
    teacher.context.close()

    # Bob, JavaScript off, sees it on his assignment's page.
    page = new_page(browser, live_server, javascript=False)
    log_in(page, "bob", assignment.get_absolute_url())
    expect(page.get_by_text("(extended for you)")).to_be_visible()
    expect(page.get_by_text("with 1 extra for you")).to_be_visible()
    expect(page.get_by_role("button", name="Start the quiz")).to_be_visible()
    page.context.close()
