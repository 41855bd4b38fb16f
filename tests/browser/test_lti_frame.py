"""A launch from a learning platform inside its iframe, and in a window of its own (issue
40): the simulated platform's course page frames the tool's login; the OIDC round trip, the
launch and every page after it run inside the frame (cookies SameSite=None and Partitioned,
frame-ancestors naming the platform); the learner takes the placed quiz to the end, and the
grade reaches the platform's line item, sent by the worker's background thread after the
commit. An instructor places a quiz from the frame ("add an activity"), by keyboard, at a
desktop's width and a phone's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.test import override_settings
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import SchoolClass, Teacher
from lessons.lti import outbox
from lessons.lti.models import Deployment, LtiAccount, LtiContext, Placement, Platform, ToolKey
from lessons.quizzes.models import Assignment
from tests.browser import axe
from tests.lti.platform import INSTRUCTOR
from tests.lti.platform import Platform as SimulatedPlatform
from tests.quizzes.conftest import make_quiz

SHOTS = "/tmp/lti-shots"


@pytest.fixture
def platform() -> Iterator[SimulatedPlatform]:
    simulated = SimulatedPlatform().start()
    yield simulated
    simulated.stop()
    assert not simulated.errors, simulated.errors


def placed_quiz(simulated: SimulatedPlatform) -> tuple[str, str]:
    """The platform registered; its course opened by an instructor, who placed a quiz of
    three questions (the placement's token and the line item the platform made for it)."""
    row = Platform.objects.create(name="Riverside Moodle", **simulated.registration())
    Deployment.objects.create(platform=row, deployment_id=simulated.deployment_id)
    simulated.tool_jwks = {"keys": [ToolKey.generate().jwk()]}
    from django.contrib.auth.models import User

    teacher = User.objects.create_user("GraceHopper")
    Teacher.objects.create(user=teacher)
    LtiAccount.objects.create(platform=row, issuer=row.issuer, subject="teacher-1", user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Course 1")
    deployment = Deployment.objects.get()
    context = LtiContext.objects.create(
        platform=row,
        deployment=deployment,
        context_id="course-1",
        title="Course 1",
        school_class=school_class,
    )
    quiz = make_quiz(teacher, title="Following suit")
    now = timezone.now()
    assignment = Assignment.objects.create(
        school_class=school_class,
        quiz=quiz,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
    )
    lineitem = f"{simulated.url}/course-1/lineitems/placed-1"
    simulated.lineitems[lineitem] = {"id": lineitem, "scoreMaximum": 100}
    placement = Placement.objects.create(
        context=context, kind=Placement.QUIZ, title=quiz.title, assignment=assignment
    )
    return placement.token, lineitem


def login_url(live_server: LiveServer, platform: SimulatedPlatform) -> str:
    """The platform's third-party login initiation, as its course page links it."""
    return f"{live_server.url}/lti/login/?" + urlencode(
        {
            "iss": platform.issuer,
            "login_hint": "hint-1",
            "target_link_uri": platform.tool_url,
            "client_id": platform.client_id,
            "lti_deployment_id": platform.deployment_id,
        }
    )


@pytest.mark.parametrize("where", ["frame", "window"])
def test_a_learner_takes_a_placed_quiz_from_the_platform(
    browser: Browser, live_server: LiveServer, platform: SimulatedPlatform, where: str
) -> None:
    """Inside the course page's iframe, or in a window of its own (the platform's "open in a
    new window"): the same launch, the same quiz, the grade sent."""
    token, lineitem = placed_quiz(platform)
    platform.tool_url = f"{live_server.url}/lti/launch/"
    platform.next_claims = {
        "sub": "learner-1",
        "name": "Ada Lovelace",
        "link": "link-quiz",
        "custom": {"lanterloo_placement": token},
        "lineitem": lineitem,
    }
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    with override_settings(LTI_SEND="thread"):
        login = login_url(live_server, platform)
        tool: Any = page
        if where == "frame":
            page.goto(f"{platform.url}/frame?src={quote(login)}")
            tool = page.frame_locator('iframe[name="tool"]')
        else:
            page.goto(login)
        expect(tool.get_by_role("heading", name="Following suit")).to_be_visible()
        page.screenshot(path=f"{SHOTS}/1-assignment-in-{where}.png")
        tool.get_by_role("button", name="Start the quiz").click()
        for number in (1, 2, 3):
            expect(tool.get_by_text(f"Question {number} of 3")).to_be_visible()
            tool.locator(".answer-choice").first.click()
            tool.get_by_role("button", name="Answer").click()
            expect(tool.get_by_text(f"Your answer to question {number} is saved.")).to_be_visible()
        page.screenshot(path=f"{SHOTS}/2-question-in-{where}.png")
        tool.get_by_role("link", name="Finish the attempt").click()
        tool.get_by_role("button", name="Submit the attempt").click()
        score = tool.locator(".attempt-score")
        expect(score).to_contain_text(re.compile(r"Your score: \d of 3 right"))
        right = int(re.search(r"(\d) of 3", score.inner_text()).group(1))  # type: ignore[union-attr]
        page.screenshot(path=f"{SHOTS}/3-submitted-in-{where}.png")
        sender = outbox.last_thread
        assert sender is not None
        sender.join()
    context.close()
    [(url, sent)] = platform.scores
    assert url == lineitem and sent["userId"] == "learner-1"
    assert sent["activityProgress"] == "Completed"
    assert sent["scoreGiven"] == pytest.approx(100 * right / 3, abs=1e-3)


@pytest.mark.parametrize("width", [1280, 375])
def test_an_instructor_places_a_quiz_from_the_platforms_frame(
    browser: Browser, live_server: LiveServer, platform: SimulatedPlatform, width: int
) -> None:
    """ "Add an activity": the deep-linking launch in the frame, the choice made by keyboard,
    the signed answer posted back to the platform (a cross-site form the page's CSP allows)."""
    placed_quiz(platform)
    platform.tool_url = f"{live_server.url}/lti/launch/"
    platform.next_claims = {
        "sub": "teacher-1",
        "role": INSTRUCTOR,
        "name": "Grace Hopper",
        "message": "LtiDeepLinkingRequest",
    }
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{platform.url}/frame?src={quote(login_url(live_server, platform))}")
    tool = page.frame_locator('iframe[name="tool"]')
    expect(tool.get_by_role("heading", name="Place Lanterloo in “Course 1”")).to_be_visible()
    page.screenshot(path=f"{SHOTS}/4-deep-link-{width}.png", full_page=True)
    frame = page.frame(name="tool")
    assert frame is not None
    axe.assert_nothing_serious(frame, "the deep-linking page")  # type: ignore[arg-type]
    tool.get_by_label("Assign", exact=True).focus()
    tool.get_by_label("Assign", exact=True).select_option(label="Following suit")
    tool.get_by_label("Attempts allowed").fill("2")
    tool.get_by_role("button", name="Place this in the course").press("Enter")
    expect(
        page.frame_locator('iframe[name="tool"]').get_by_role("heading", name="Activity added")
    ).to_be_visible()
    # The class's LTI page, in the same frame: the course, the class list, the grades.
    school_class = SchoolClass.objects.get()
    frame = page.frame(name="tool")
    assert frame is not None
    frame.goto(f"{live_server.url}/lti/class/{school_class.pk}/")
    expect(tool.get_by_role("heading", name="Course 1 in Riverside Moodle")).to_be_visible()
    axe.assert_nothing_serious(frame, "the class's LTI page")  # type: ignore[arg-type]
    page.screenshot(path=f"{SHOTS}/5-class-page-{width}.png", full_page=True)
    context.close()
    [answer] = platform.deep_link_answers
    [item] = answer["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["title"] == "Following suit" and item["lineItem"]["scoreMaximum"] == 100
    assert Assignment.objects.filter(attempts_allowed=2).count() == 1


def test_a_refused_launch_says_why_inside_the_frame(
    browser: Browser, live_server: LiveServer, platform: SimulatedPlatform
) -> None:
    """A launch from a deployment Lanterloo does not know: the refusal, with its reason, is
    shown inside the platform's page (framed for the platform the token names), and nobody
    is signed in."""
    placed_quiz(platform)
    platform.tool_url = f"{live_server.url}/lti/launch/"
    platform.next_claims = {
        "sub": "learner-1",
        "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-9",
    }
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(f"{platform.url}/frame?src={quote(login_url(live_server, platform))}")
    tool = page.frame_locator('iframe[name="tool"]')
    expect(tool.get_by_role("heading", name="This launch was refused")).to_be_visible()
    expect(tool.get_by_role("alert")).to_contain_text("deployment")
    page.screenshot(path=f"{SHOTS}/6-refused-375.png", full_page=True)
    context.close()
    assert not LtiAccount.objects.filter(subject="learner-1").exists()
