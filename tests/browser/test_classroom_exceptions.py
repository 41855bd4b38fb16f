"""Exceptions and the countdown in Chromium (issue 37): before anyone starts, the teacher gives
a group ticked on the roster its own open and extra time on a timed quiz; a student with
JavaScript sees the countdown, one without it the time left with each question; and the
countdown hands an attempt in at zero (a very short time left, by a student's own close)."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from lessons.quizzes.models import Assignment, AssignmentException, Attempt
from tests.browser import axe

from .classroom_world import classroom_assignment, log_in, new_page
from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

LONDON = ZoneInfo("Europe/London")
#: A username as long as a made one can be: the group's form must still fit a phone.
LONG_NAME = "dmitri_with_a_rather_long_username"


def _assignment(opens: timedelta, closes: timedelta) -> Assignment:
    """A 30-minute quiz for Form 5 (alice, bob, carol and a long username), open from
    ``opens`` to ``closes`` from now."""
    return classroom_assignment(
        "ms_wick",
        "Form 5",
        ("alice", "bob", "carol", LONG_NAME),
        title="Timed tricks",
        seed=7,
        opens=opens,
        closes=closes,
        time_limit=30,
        feedback="each",
    )


def test_a_group_exception_before_anyone_starts_with_extra_time(
    browser: Browser, live_server: LiveServer
) -> None:
    assignment = _assignment(opens=timedelta(days=1), closes=timedelta(days=2))

    # The teacher, before anyone starts (it opens tomorrow), ticks Alice and Bob.
    teacher = new_page(browser, live_server, javascript=True)
    log_in(teacher, "ms_wick", f"/quizzes/assignment/{assignment.pk}/results/")
    teacher.get_by_role("link", name="Exceptions for students or a group").click()
    axe.assert_nothing_serious(teacher, "the exceptions page")
    teacher.get_by_label("alice").check()
    teacher.get_by_label("bob").check()
    today = timezone.localtime(timezone.now() - timedelta(hours=1), LONDON)
    teacher.get_by_label("Opens for these students").fill(today.strftime("%Y-%m-%dT%H:%M"))
    teacher.get_by_label("Extra time (minutes an attempt)").fill("10")
    teacher.get_by_role("button", name="Save for the students ticked").click()
    expect(
        teacher.get_by_text(re.compile(r"^alice, bob: opens .*; \+10 min an attempt\."))
    ).to_be_visible()
    roster = teacher.get_by_role("table", name=re.compile("The roster and its exceptions"))
    expect(roster.get_by_role("row", name=re.compile(r"^carol none"))).to_be_visible()
    expect(teacher.locator(".exception-log li")).to_have_count(2)
    # On a phone the form fits, the long username wrapped (a fieldset is as wide as its
    # longest word unless told otherwise).
    teacher.set_viewport_size(PHONE)
    expect(teacher.get_by_label(LONG_NAME)).to_be_visible()
    assert teacher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    teacher.context.close()

    # Alice, on a phone with JavaScript: 40 minutes, and a countdown.
    alice = new_page(browser, live_server, javascript=True, viewport=PHONE)
    log_in(alice, "alice", assignment.get_absolute_url())
    expect(alice.get_by_text("40 minutes an attempt (with 10 extra for you)")).to_be_visible()
    alice.get_by_role("button", name="Start the quiz").click()
    timer = alice.get_by_role("timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"^(40:00|39:[0-5]\d)$"))
    expect(alice.locator("[data-time-left]")).to_be_hidden()  # the clock says it
    attempt = Attempt.objects.get(student__username="alice")
    assert attempt.deadline == attempt.started + timedelta(minutes=40)
    axe.assert_nothing_serious(alice, "a timed attempt with its countdown")
    alice.context.close()

    # Bob, JavaScript off: the time left in words, on each question's page.
    bob = new_page(browser, live_server, javascript=False)
    log_in(bob, "bob", assignment.get_absolute_url())
    bob.get_by_role("button", name="Start the quiz").click()
    # The deadline's date is said too when it falls tomorrow (a run after 23:20 in London).
    left = re.compile(
        r"(40|39) minutes left: answers are accepted until (\w+ \d+ \w+, )?\d\d:\d\d GMT"
    )
    expect(bob.get_by_text(left)).to_be_visible()
    expect(bob.locator("#countdown")).to_be_hidden()
    bob.locator(".answer-choice").first.click()
    bob.get_by_role("button", name="Answer").click()
    expect(bob.get_by_text(left)).to_be_visible()
    bob.context.close()

    # Carol was not ticked: the quiz is not open for her yet.
    carol = new_page(browser, live_server, javascript=False)
    log_in(carol, "carol", assignment.get_absolute_url())
    expect(carol.get_by_text("This assignment is not open yet")).to_be_visible()
    carol.context.close()


def test_the_countdown_hands_the_attempt_in_at_zero(
    browser: Browser, live_server: LiveServer
) -> None:
    """The assignment has closed; the teacher's exception gives Bob his own close a few
    seconds away: his attempt's time is that short, and the page hands it in at zero."""
    assignment = _assignment(opens=-timedelta(hours=2), closes=-timedelta(minutes=1))
    bob = new_page(browser, live_server, javascript=True)
    log_in(bob, "bob", assignment.get_absolute_url())
    expect(bob.get_by_text("This assignment has closed")).to_be_visible()
    exception = AssignmentException.objects.create(
        assignment=assignment,
        student=User.objects.get(username="bob"),
        closes=timezone.now() + timedelta(minutes=10),
    )
    bob.reload()
    bob.get_by_role("button", name="Start the quiz").click()
    expect(bob.get_by_role("timer")).to_be_visible()
    # His close brought to a few seconds away once his attempt is under way (not before: a
    # busy machine must not spend them loading his pages), as the teacher's form would.
    exception.closes = timezone.now() + timedelta(seconds=3)
    exception.save(update_fields=["closes"])
    assert assignment.reset_deadlines(exception.student) == 1
    bob.reload()
    expect(bob.get_by_role("timer")).to_be_visible()
    # No sleep: wait for the page the hand-in leads to.
    expect(bob.get_by_text("Your attempt is submitted.")).to_be_visible(timeout=60_000)
    expect(bob.get_by_text(re.compile("This attempt was submitted"))).to_be_visible()
    attempt = Attempt.objects.get(student__username="bob")
    assert attempt.submitted == attempt.deadline
    assert attempt.state == "submitted"
    bob.context.close()
