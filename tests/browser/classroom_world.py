"""One builder for the classroom browser tests' worlds: a teacher (his time zone London), his
class of students, a quiz of short "who takes the trick" questions the same for all, its
assignment; and each person's page (a browser context of its own, JavaScript on or off, a
phone or a desk) logged in through the log-in form."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Quiz

#: Everyone's password in these worlds.
PASSWORD = "a long enough password"


def classroom_assignment(
    teacher: str,
    class_name: str,
    students: Iterable[str],
    *,
    title: str,
    seed: int,
    opens: timedelta,
    closes: timedelta,
    **terms: Any,
) -> Assignment:
    """``teacher``'s class ``class_name`` of ``students`` (each a username, the password
    :data:`PASSWORD`), assigned a quiz ``title`` of two "who takes the trick" questions (Hoffmann,
    three-card, the same for all, from ``seed``), open from ``opens`` to ``closes`` from now,
    one attempt unless ``terms`` (the assignment's other fields) say otherwise."""
    user = User.objects.create_user(teacher, password=PASSWORD)
    Teacher.objects.create(user=user, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=user, name=class_name)
    for name in students:
        student = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=school_class, student=student)
    quiz = Quiz.objects.create(teacher=user)
    quiz.save_version(
        title=title,
        rules="hoffmann",
        game="three-card",
        topics=[],
        topics_from="any rule",
        kinds=["trick-winner"],
        count=2,
        same_for_all=True,
        seed=seed,
    )
    now = timezone.now()
    return Assignment.objects.create(
        school_class=school_class,
        quiz=quiz,
        opens=now + opens,
        closes=now + closes,
        **{"attempts_allowed": 1, **terms},
    )


def new_page(browser: Browser, live_server: LiveServer, *, javascript: bool, **extra: Any) -> Page:
    """A page in a browser context of its own (``extra``: the context's options, a
    viewport)."""
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server.url, **extra)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def log_in(page: Page, username: str, next_path: str) -> None:
    """Log ``username`` in through the form, on to ``next_path``."""
    page.goto(f"/accounts/log-in/?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Logged in as", exact=True)).to_be_attached()
