"""Deep linking and grades back (issue 40), against the simulated platform: an instructor
places a quiz (its dates and attempts) from the platform's "add an activity"; a learner opens
it, takes it, and each submitted attempt sends the grade the quiz's rule gives to the line
item; a regrade sends again; a failed send is retried, then shown to the teacher."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from html import unescape
from io import StringIO
from typing import Any
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoDbBlocker

from lessons.course.models import Lesson
from lessons.lti import outbox
from lessons.lti.models import LtiAccount, LtiContext, Placement, ScoreOutbox
from lessons.quizzes.models import Assignment, Attempt
from tests.quizzes.conftest import make_quiz, right_response
from tests.worlds import built_once

from .conftest import World, launch
from .platform import INSTRUCTOR, Platform

pytestmark = pytest.mark.django_db

LONDON = ZoneInfo("Europe/London")


def form_time(when: Any) -> str:
    return timezone.localtime(when, LONDON).strftime("%Y-%m-%dT%H:%M")


def deep_link(client: Client, platform: Platform, fields: dict[str, str]) -> dict[str, Any]:
    """The instructor's "add an activity": the deep-linking launch, the page, the choice
    posted; the signed answer as the platform reads it."""
    response = launch(
        client,
        platform,
        sub="teacher-1",
        role=INSTRUCTOR,
        name="Grace Hopper",
        message="LtiDeepLinkingRequest",
    )
    assert response.status_code == 302 and "/lti/deep-link/" in response["Location"]
    page = client.get(response["Location"])
    assert page.status_code == 200
    answer = client.post(response["Location"], fields)
    assert answer.status_code == 200, answer.content.decode()[:3000]
    assert f"form-action 'self' {platform.url}" in answer["Content-Security-Policy"]
    html = answer.content.decode()
    action = re.search(r'<form method="post" action="([^"]+)" data-lti-autosubmit', html)
    token = re.search(r'name="JWT" value="([^"]+)"', html)
    assert action and token
    assert unescape(action.group(1)) == f"{platform.url}/deep-link-return"
    return platform.read_tool_jwt(unescape(token.group(1)), audience=platform.issuer)


@dataclass(frozen=True)
class Course:
    answer: dict[str, Any]
    placement: int
    assignment: int
    lineitem: str
    teacher: int


@pytest.fixture(scope="module")
def course(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    world: World,
    platform: Platform,
) -> Iterator[Course]:
    """The course opened by its instructor, who places a quiz of two attempts (the highest
    kept); the platform makes the line item the answer asked for, as platforms do."""

    def build() -> Course:
        client = Client()
        launch(client, platform, sub="teacher-1", role=INSTRUCTOR, name="Grace Hopper")
        teacher = LtiAccount.objects.get(subject="teacher-1").user
        quiz = make_quiz(teacher, title="Following suit")
        now = timezone.now()
        answer = deep_link(
            client,
            platform,
            {
                "kind": "assignment",
                "what": f"quiz:{quiz.pk}",
                "opens": form_time(now - timedelta(hours=1)),
                "closes": form_time(now + timedelta(days=7)),
                "attempts": "2",
                "grading": "highest",
                "feedback": "attempt",
            },
        )
        placement = Placement.objects.get()
        item = answer["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"][0]
        lineitem = f"{platform.url}/course-1/lineitems/placed-1"
        platform.lineitems[lineitem] = {**item["lineItem"], "id": lineitem}
        return Course(answer, placement.pk, placement.assignment_id or 0, lineitem, teacher.pk)

    yield from built_once(django_db_blocker, build)


def test_the_deep_linking_answer_places_the_quiz(course: Course, platform: Platform) -> None:
    answer = course.answer
    assert answer["iss"] == platform.client_id
    assert answer["https://purl.imsglobal.org/spec/lti/claim/message_type"] == (
        "LtiDeepLinkingResponse"
    )
    assert answer["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "platform-data-1"
    [item] = answer["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    placement = Placement.objects.get(pk=course.placement)
    assert item["type"] == "ltiResourceLink" and item["title"] == "Following suit"
    assert item["url"] == "http://testserver/lti/launch/"
    assert item["custom"] == {"lanterloo_placement": placement.token}
    assert item["lineItem"]["scoreMaximum"] == 100
    assignment = Assignment.objects.get(pk=course.assignment)
    assert assignment.attempts_allowed == 2 and assignment.grading == "highest"
    assert assignment.school_class == LtiContext.objects.get().school_class


def learner(
    platform: Platform, course: Course, sub: str = "learner-1", lineitem: str | None = None
) -> Client:
    """A learner's launch into the placed quiz: he lands on the assignment."""
    client = Client()
    token = Placement.objects.get(pk=course.placement).token
    response = launch(
        client,
        platform,
        sub=sub,
        name="Ada Lovelace",
        link="link-quiz",
        custom={"lanterloo_placement": token},
        lineitem=course.lineitem if lineitem is None else lineitem,
    )
    assert response["Location"] == reverse("quizzes:assignment", args=[course.assignment])
    return client


def take(client: Client, course: Course, right: int) -> Attempt:
    """One attempt: ``right`` questions answered right, the others left; submitted (the
    commit's callbacks run, as after a real request)."""
    client.post(reverse("quizzes:attempt-start", args=[course.assignment]))
    attempt = Attempt.objects.filter(assignment=course.assignment).latest("number")
    for position in range(right):
        url = reverse("quizzes:attempt-answer", args=[attempt.pk, position + 1])
        client.post(url, {"response": right_response(attempt, position)})
    client.post(reverse("quizzes:attempt-submit", args=[attempt.pk]))
    return attempt


@pytest.fixture
def sending(django_capture_on_commit_callbacks: Any) -> Iterator[Any]:
    """Grades sent inline after each commit (the suite's default is "off")."""
    with override_settings(LTI_SEND="inline"):
        yield django_capture_on_commit_callbacks


def test_each_submitted_attempt_sends_the_grade_the_quiz_keeps(
    course: Course, platform: Platform, sending: Any
) -> None:
    client = learner(platform, course)
    placement = Placement.objects.get(pk=course.placement)
    assert placement.resource_link_id == "link-quiz" and placement.lineitem_url == course.lineitem
    sent_before = len(platform.scores)
    with sending(execute=True):
        take(client, course, right=1)
    with sending(execute=True):
        take(client, course, right=0)  # the highest (1 of 3) is kept
    scores = platform.scores[sent_before:]
    assert [url for url, _ in scores] == [course.lineitem, course.lineitem]
    first, second = (s for _, s in scores)
    assert first["scoreGiven"] == pytest.approx(100 / 3, abs=1e-3)
    assert first["scoreMaximum"] == 100 and first["userId"] == "learner-1"
    assert first["activityProgress"] == "Submitted" and first["gradingProgress"] == "FullyGraded"
    assert second["scoreGiven"] == pytest.approx(100 / 3, abs=1e-3)
    assert second["activityProgress"] == "Completed"  # no attempt left
    assert second["timestamp"] >= first["timestamp"]
    row = ScoreOutbox.objects.get()
    assert row.sent is not None and row.state == "sent"


def test_a_regrade_sends_again(course: Course, platform: Platform, sending: Any) -> None:
    client = learner(platform, course, sub="learner-2")
    with sending(execute=True):
        take(client, course, right=3)
    Assignment.objects.filter(pk=course.assignment).update(grading="average")
    teacher = Client()
    teacher.force_login(User.objects.get(pk=course.teacher))
    before = len(platform.scores)
    with sending(execute=True):
        response = teacher.post(reverse("quizzes:regrade", args=[course.assignment]))
    assert response.status_code == 302
    [(_, score)] = platform.scores[before:]
    assert score["userId"] == "learner-2" and score["scoreGiven"] == pytest.approx(100)


def test_a_failed_send_is_retried_then_shown_to_the_teacher(
    course: Course, platform: Platform, sending: Any
) -> None:
    client = learner(platform, course, sub="learner-3")
    platform.failing_scores = 1
    before = len(platform.scores)
    with sending(execute=True):
        take(client, course, right=2)
    row = ScoreOutbox.objects.get()
    assert row.sent is None and row.tries == 1 and row.error == "The platform answered 500."
    assert outbox.send_due() == (0, 0)  # not due again yet
    later = timezone.now() + outbox.wait_after(1) + timedelta(seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert outbox.send_due() == (1, 0)
    [(_, score)] = platform.scores[before:]
    assert score["scoreGiven"] == pytest.approx(200 / 3, abs=1e-3)

    # Down for good: given up after the last try, and the teacher's page says so.
    platform.failing_scores = ScoreOutbox.MAX_TRIES
    with sending(execute=True):
        take(client, course, right=3)
    when = timezone.now()
    for tries in range(1, ScoreOutbox.MAX_TRIES):
        when += outbox.wait_after(tries) + timedelta(seconds=1)
        with mock.patch("django.utils.timezone.now", return_value=when):
            assert outbox.send_due() == (0, 1)
    row.refresh_from_db()
    assert row.failed is not None and row.tries == ScoreOutbox.MAX_TRIES
    teacher = Client()
    teacher.force_login(User.objects.get(pk=course.teacher))
    school_class = LtiContext.objects.get().school_class
    page = teacher.get(reverse("lti:class", args=[school_class.pk])).content.decode()
    assert "1 grade could not be sent" in page and "The platform answered 500." in page
    class_page = teacher.get(school_class.get_absolute_url()).content.decode()
    assert "1 grade could not be sent to its gradebook" in class_page
    platform.failing_scores = 0
    with sending(execute=True):
        teacher.post(reverse("lti:send-again", args=[school_class.pk]))
    row.refresh_from_db()
    assert row.sent is not None and row.score == pytest.approx(100)


def test_without_a_line_item_claim_the_tool_finds_or_makes_the_column(
    course: Course, platform: Platform, sending: Any
) -> None:
    """The launch names no line item: the tool looks for its column in the course's line
    items (by its resource id: the one the platform made from the deep-linking answer), and
    makes one when there is none."""
    client = learner(platform, course, sub="learner-4", lineitem="")
    Placement.objects.filter(pk=course.placement).update(lineitem_url="")
    before = len(platform.scores)
    with sending(execute=True):
        take(client, course, right=1)
    assert Placement.objects.get(pk=course.placement).lineitem_url == course.lineitem
    kept = platform.lineitems.pop(course.lineitem)
    try:
        Placement.objects.filter(pk=course.placement).update(lineitem_url="")
        with sending(execute=True):
            take(client, course, right=3)
        made = Placement.objects.get(pk=course.placement).lineitem_url
        assert made and made != course.lineitem
        item = platform.lineitems.pop(made)
        assert item["resourceId"] == f"lanterloo-assignment-{course.assignment}"
        assert item["scoreMaximum"] == 100 and item["label"] == "Following suit"
    finally:
        platform.lineitems[course.lineitem] = kept
    [(first, _), (second, score)] = platform.scores[before:]
    assert first == course.lineitem and second == made
    assert score["scoreGiven"] == pytest.approx(100)


def test_grades_wait_for_the_close_when_scores_are_shown_only_then(
    course: Course, platform: Platform, sending: Any
) -> None:
    Assignment.objects.filter(pk=course.assignment).update(feedback="closed")
    client = learner(platform, course, sub="learner-5")
    before = len(platform.scores)
    with sending(execute=True):
        take(client, course, right=1)
    row = ScoreOutbox.objects.get()
    closes = Assignment.objects.get(pk=course.assignment).closes
    assert row.next_try == closes and platform.scores[before:] == []
    with mock.patch("django.utils.timezone.now", return_value=closes + timedelta(seconds=1)):
        assert outbox.send_due() == (1, 0)
    assert len(platform.scores) == before + 1


def test_an_attempt_its_close_ended_is_sent_by_the_command(
    course: Course, platform: Platform
) -> None:
    client = learner(platform, course, sub="learner-6")
    client.post(reverse("quizzes:attempt-start", args=[course.assignment]))
    attempt = Attempt.objects.get(assignment=course.assignment)
    url = reverse("quizzes:attempt-answer", args=[attempt.pk, 1])
    client.post(url, {"response": right_response(attempt, 0)})
    before = len(platform.scores)
    call_command("send_lti_scores", stdout=StringIO())
    assert platform.scores[before:] == []  # still open
    after = attempt.deadline + timedelta(seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=after):
        call_command("send_lti_scores", stdout=StringIO())
        call_command("send_lti_scores", stdout=StringIO())  # once only
    [(_, score)] = platform.scores[before:]
    assert score["userId"] == "learner-6"
    assert score["scoreGiven"] == pytest.approx(100 / 3, abs=1e-3)


def test_a_lesson_and_the_trainer_can_be_placed(course: Course, platform: Platform) -> None:
    client = Client()
    lesson = Lesson.objects.order_by("pk").first()
    assert lesson is not None
    answer = deep_link(
        client,
        platform,
        {
            "kind": "assignment",
            "what": f"lesson:{lesson.slug}",
            "opens": form_time(timezone.now()),
            "closes": form_time(timezone.now() + timedelta(days=2)),
            "attempts": "1",
            "grading": "highest",
            "feedback": "attempt",
        },
    )
    [item] = answer["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert "lineItem" not in item and item["title"] == f"Lesson: {lesson.title}"
    opened = launch(Client(), platform, sub="learner-7", link="link-lesson", custom=item["custom"])
    assert opened["Location"] == lesson.get_absolute_url()

    answer = deep_link(client, platform, {"kind": "trainer", "rules": "hoffmann"})
    [item] = answer["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["title"].startswith("Rule trainer: ")
    opened = launch(Client(), platform, sub="learner-7", link="link-trainer", custom=item["custom"])
    assert opened["Location"] == reverse("trainer:choose") + "?rules=hoffmann"


def test_a_deep_linking_choice_is_used_once(course: Course, platform: Platform) -> None:
    client = Client()
    response = launch(
        client, platform, sub="teacher-1", role=INSTRUCTOR, message="LtiDeepLinkingRequest"
    )
    client.post(response["Location"], {"kind": "trainer", "rules": "hoffmann"})
    again = client.post(response["Location"], {"kind": "trainer", "rules": "hoffmann"})
    assert again.status_code == 404
    assert Placement.objects.filter(kind=Placement.TRAINER).count() == 1
