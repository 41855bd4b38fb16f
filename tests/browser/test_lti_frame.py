"""A launch from a learning platform inside its iframe (issue 40): the simulated platform's
course page frames the tool's login; the OIDC round trip, the launch and every page after it
run inside the frame (cookies SameSite=None, frame-ancestors naming the platform); the learner
takes the placed quiz to the end, and the grade reaches the platform's line item, sent by the
worker's background thread after the commit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
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
        platform=row, deployment=deployment, context_id="course-1", school_class=school_class
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


def test_a_learner_takes_a_placed_quiz_inside_the_platforms_frame(
    browser: Browser, live_server: LiveServer, platform: SimulatedPlatform
) -> None:
    token, lineitem = placed_quiz(platform)
    platform.tool_url = f"{live_server.url}/lti/launch/"
    platform.next_claims = {
        "sub": "learner-1",
        "name": "Ada Lovelace",
        "link": "link-quiz",
        "custom": {"lanterloo_placement": token},
        "lineitem": lineitem,
    }
    login = f"{live_server.url}/lti/login/?" + urlencode(
        {
            "iss": platform.issuer,
            "login_hint": "hint-1",
            "target_link_uri": platform.tool_url,
            "client_id": platform.client_id,
            "lti_deployment_id": platform.deployment_id,
        }
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    with override_settings(LTI_SEND="thread"):
        page.goto(f"{platform.url}/frame?src={quote(login)}")
        tool = page.frame_locator('iframe[name="tool"]')
        expect(tool.get_by_role("heading", name="Following suit")).to_be_visible()
        page.screenshot(path=f"{SHOTS}/1-assignment-in-frame.png")
        tool.get_by_role("button", name="Start the quiz").click()
        for number in (1, 2, 3):
            expect(tool.get_by_text(f"Question {number} of 3")).to_be_visible()
            tool.locator(".answer-choice").first.click()
            tool.get_by_role("button", name="Answer").click()
            expect(tool.get_by_text(f"Your answer to question {number} is saved.")).to_be_visible()
        page.screenshot(path=f"{SHOTS}/2-question-in-frame.png")
        tool.get_by_role("link", name="Finish the attempt").click()
        tool.get_by_role("button", name="Submit the attempt").click()
        score = tool.locator(".attempt-score")
        expect(score).to_contain_text(re.compile(r"Your score: \d of 3 right"))
        right = int(re.search(r"(\d) of 3", score.inner_text()).group(1))  # type: ignore[union-attr]
        page.screenshot(path=f"{SHOTS}/3-submitted-in-frame.png")
        sender = outbox.last_thread
        assert sender is not None
        sender.join()
    context.close()
    [(url, sent)] = platform.scores
    assert url == lineitem and sent["userId"] == "learner-1"
    assert sent["activityProgress"] == "Completed"
    assert sent["scoreGiven"] == pytest.approx(100 * right / 3, abs=1e-3)
