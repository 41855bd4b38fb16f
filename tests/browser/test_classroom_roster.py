"""A roster that loses nothing, in Chromium (issue 27, items 3 and 5): the owner of a class
adds a co-teacher by username and removes a student who took a quiz; the co-teacher opens the
class's results, where the student's attempt is still there, marked "left the class". With
JavaScript on only: the class and results pages are plain forms and links (no htmx, no script
of their own), the same without it.

The class, its quiz and the student's submitted attempt are made in the database first (issue
15's classroom path makes them through the pages); everything after is done in the browser."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Attempt
from tests.browser.test_classroom import _log_in, _log_out
from tests.quizzes.conftest import make_quiz, right_response

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase 7"


def _world() -> None:
    owner = User.objects.create_user("mrs_quadrille", password=PASSWORD)
    co = User.objects.create_user("mr_pam", password=PASSWORD)
    for user in (owner, co):
        Teacher.objects.create(user=user)
    school_class = SchoolClass.objects.create(teacher=owner, name="Loo on Fridays")
    student = User.objects.create_user("AdaLovelace", password=PASSWORD)
    Membership.objects.create(school_class=school_class, student=student, real_name="Ada Lovelace")
    now = timezone.now()
    assignment = Assignment.objects.create(
        school_class=school_class,
        quiz=make_quiz(owner, title="Whose trick is it?"),
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
    )
    attempt = Attempt.start(assignment, student)
    answer = attempt.answers.get(position=0)
    answer.record(answer.to_engine(), right_response(attempt, 0))
    attempt.submit()


def test_a_co_teacher_reads_the_work_of_a_student_who_left(js_page: Page) -> None:
    page = js_page  # plain forms and links: the same without JavaScript
    _world()
    _log_in(page, "mrs_quadrille", PASSWORD, "/classes/")
    page.get_by_role("link", name="Loo on Fridays").click()

    page.get_by_role("link", name="Co-teachers and handing over").click()
    page.get_by_label("The teacher's username").fill("mr_pam")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("mr_pam now teaches this class too.")).to_be_visible()

    page.get_by_role("link", name="Back to the class").click()
    page.get_by_role("link", name="AdaLovelace").click()
    page.get_by_role("link", name="Remove from the class").click()
    expect(page.get_by_text("marked “left the class”")).to_be_visible()
    page.get_by_role("button", name="Remove from the class").click()
    expect(page.get_by_text("AdaLovelace is no longer in the class.")).to_be_visible()
    _log_out(page)

    _log_in(page, "mr_pam", PASSWORD, "/classes/")
    page.get_by_role("link", name="Loo on Fridays").click()
    page.get_by_role("link", name="Assignments").click()
    page.get_by_role("link", name="Results of Whose trick is it?").click()
    row = page.get_by_role("row").filter(has_text="AdaLovelace")
    expect(row).to_contain_text("left the class")
    expect(row).to_contain_text("Ada Lovelace")
    expect(row).to_contain_text("33%")
