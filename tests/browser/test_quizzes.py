"""Quizzes in Chromium: a teacher builds a quiz and assigns it to his class; a student takes it
(with JavaScript on, feedback after each answer; off, after the attempt); the teacher sees the
results and downloads the answers as CSV; axe-core on every page of it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Attempt, Quiz
from tests.browser import axe

from .classroom_world import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

VERDICT = re.compile(r"Right\.|Not quite\.")


@pytest.fixture
def school_class() -> SchoolClass:
    teacher = User.objects.create_user("mr_quill", password=PASSWORD)
    Teacher.objects.create(user=teacher, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=teacher, name="Form 4")
    for name in ("alice", "bob"):
        student = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=school_class, student=student)
    return school_class


def _log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()


def _javascript(request: pytest.FixtureRequest) -> bool:
    return "no-js" not in request.node.callspec.id


def test_a_teacher_assigns_a_quiz_a_student_takes_it_the_teacher_reads_the_results(
    page: Page, school_class: SchoolClass, request: pytest.FixtureRequest
) -> None:
    js = _javascript(request)
    feedback = "each" if js else "attempt"
    # The teacher builds a quiz and previews it.
    log_in(page, "mr_quill", "/quizzes/new/")
    page.get_by_label("Title").fill("Who takes the trick?")
    page.get_by_label("Rule set").select_option("hoffmann")
    page.get_by_label("Game").select_option("three-card")
    page.get_by_label("Who takes the trick").check()
    page.get_by_label("Number of the engine's questions").fill("2")
    page.get_by_label("The same for every student").check()
    page.get_by_role("button", name="Save the quiz").click()
    expect(page.get_by_role("heading", name="A sample of its questions")).to_be_visible()
    expect(page.get_by_text("The answer:").first).to_be_visible()
    quiz = Quiz.objects.get()

    # ... and assigns it to his class.
    page.goto(f"/quizzes/class/{school_class.pk}/")
    page.get_by_label("Assign", exact=True).select_option(f"quiz:{quiz.pk}")
    page.get_by_label("Show the answers").select_option(feedback)
    page.get_by_role("button", name="Assign", exact=True).click()
    expect(page.get_by_text("Assigned “Who takes the trick?” to Form 4.")).to_be_visible()
    _log_out(page)

    # A student takes it.
    log_in(page, "alice", "/quizzes/mine/")
    page.get_by_role("link", name="Who takes the trick?").click()
    page.get_by_role("button", name="Start the quiz").click()
    for number in (1, 2):
        expect(page.get_by_text(f"Question {number} of 2")).to_be_visible()
        if js:
            page.evaluate("() => { window.stayed = true }")
        page.locator(".answer-choice").first.click()
        page.get_by_role("button", name="Answer").click()
        if feedback == "each":
            expect(page.locator(".verdict")).to_contain_text(VERDICT)
            if number == 1:
                page.get_by_role("link", name="Next question").click()
        else:
            expect(page.get_by_text(f"Your answer to question {number} is saved.")).to_be_visible()
            expect(page.locator(".verdict")).to_have_count(0)
        if js:
            assert page.evaluate("() => window.stayed") is True  # swapped, not reloaded
    page.get_by_role("link", name="Finish the attempt").click()
    page.get_by_role("button", name="Submit the attempt").click()
    expect(page.get_by_text(re.compile(r"Your score: \d of 2 right"))).to_be_visible()
    expect(page.locator(".verdict")).to_have_count(2)  # the answers, now the attempt is over
    _log_out(page)

    # The teacher reads the results and downloads the answers.
    assignment = Assignment.objects.get()
    log_in(page, "mr_quill", f"/quizzes/assignment/{assignment.pk}/results/")
    row = page.get_by_role("row", name=re.compile("alice"))
    expect(row).to_contain_text("submitted")
    expect(page.get_by_role("row", name=re.compile("bob"))).to_contain_text("not started")
    expect(page.locator("svg[role=img]").first).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="every answer").click()
    path = download.value.path()
    assert path is not None
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\nalice,") == 2


def _assigned(school_class: SchoolClass) -> Assignment:
    quiz = Quiz.objects.create(teacher=school_class.teacher)
    quiz.save_version(
        title="Tricks",
        rules="hoffmann",
        game="three-card",
        topics=[],
        topics_from="any rule",
        kinds=["trick-winner", "legal-cards"],
        count=2,
        same_for_all=True,
        seed=99,
    )
    now = timezone.now()
    return Assignment.objects.create(
        school_class=school_class,
        quiz=quiz,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
        attempts_allowed=2,
    )


def test_a_question_fits_a_phone(js_phone_page: Page, school_class: SchoolClass) -> None:
    # JavaScript on only: the question's width as the server renders it, before any answer
    # (which is where JavaScript changes things, tried above); no script changes the layout.
    phone_page = js_phone_page
    assignment = _assigned(school_class)
    attempt = Attempt.start(assignment, User.objects.get(username="alice"))
    log_in(phone_page, "alice", attempt.get_absolute_url())
    expect(phone_page.get_by_role("button", name="Answer")).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375


def test_axe_finds_nothing_serious_on_the_quiz_pages(
    js_page: Page, school_class: SchoolClass
) -> None:
    assignment = _assigned(school_class)
    quiz = assignment.quiz
    alice = User.objects.get(username="alice")
    done = Attempt.start(assignment, alice)
    answer = done.answers.get(position=0)
    q = answer.to_engine()
    answer.record(q, [q.choices[0].id])
    done.submit()
    current = Attempt.start(assignment, alice)

    log_in(js_page, "alice", "/quizzes/mine/")
    for path in [
        "/quizzes/mine/",
        assignment.get_absolute_url(),
        current.get_absolute_url(),
        done.get_absolute_url(),
    ]:
        js_page.goto(path)
        assert not axe.serious(js_page), path
    _log_out(js_page)
    log_in(js_page, "mr_quill", "/quizzes/")
    for path in [
        "/quizzes/",
        "/quizzes/new/",
        quiz.get_absolute_url(),
        f"/quizzes/{quiz.pk}/edit/",
        f"/quizzes/class/{school_class.pk}/",
        f"/quizzes/class/{school_class.pk}/gradebook/",
        f"/quizzes/assignment/{assignment.pk}/results/",
        f"/quizzes/assignment/{assignment.pk}/edit/",
        f"/quizzes/assignment/{assignment.pk}/results/{alice.pk}/",
    ]:
        js_page.goto(path)
        assert not axe.serious(js_page), path
