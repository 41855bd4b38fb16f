"""Registration, JWKS, OIDC login and the resource-link launch (issue 40), against the
simulated platform: a learner's and an instructor's first launch, a second launch (the same
account), the course as a class, the frame and cookie headers of a launched session, and
every refusal (each changes nothing)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings

from lessons.classes.models import CoTeacher, Membership, SchoolClass, Teacher
from lessons.lti.launch import ELSEWHERE, NOT_OPENED
from lessons.lti.models import LoginState, LtiAccount, LtiContext, Placement

from .conftest import World, launch, login, register
from .platform import INSTRUCTOR, MENTOR, Platform, new_key

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    return {
        "users": User.objects.count(),
        "classes": SchoolClass.objects.count(),
        "accounts": LtiAccount.objects.count(),
        "members": Membership.objects.count(),
        "logins used": LoginState.objects.filter(used__isnull=False).count(),
    }


def test_the_jwks_publishes_the_tool_key(world: World, client: Client) -> None:
    keys = client.get("/lti/jwks.json").json()["keys"]
    assert [k["kid"] for k in keys] and all(k["kty"] == "RSA" and "d" not in k for k in keys)
    assert all(k["alg"] == "RS256" and k["use"] == "sig" for k in keys)


def test_the_login_sends_the_browser_to_the_platform_with_a_state_cookie(
    world: World, platform: Platform, client: Client
) -> None:
    started = login(client, platform)
    assert started.redirect_uri == "http://testserver/lti/launch/"
    row = LoginState.objects.get(state=started.state)
    assert row.nonce == started.nonce and row.used is None
    cookie = client.cookies[f"lti1p3-{started.state}"]
    assert cookie.value == started.state
    header = cookie.output()
    assert "SameSite=None; Partitioned" in header and "Secure" in header and "HttpOnly" in header


def test_an_unknown_platform_cannot_start_a_login(world: World, client: Client) -> None:
    response = client.post(
        "/lti/login/", {"iss": "https://elsewhere.example", "login_hint": "x", "client_id": "y"}
    )
    assert response.status_code == 400
    assert LoginState.objects.count() == 0


def instructor_launch(client: Client, platform: Platform, **claims: Any) -> Any:
    return launch(client, platform, sub="teacher-1", role=INSTRUCTOR, name="Grace Hopper", **claims)


def test_an_instructors_first_launch_makes_a_teacher_and_the_course_a_class(
    world: World, platform: Platform, client: Client
) -> None:
    response = instructor_launch(client, platform)
    assert response.status_code == 302
    user = LtiAccount.objects.get(subject="teacher-1", issuer=platform.issuer).user
    assert user.username == "GraceHopper" and not user.has_usable_password()
    assert Teacher.objects.filter(user=user).exists()
    context = LtiContext.objects.get(context_id="course-1")
    assert context.school_class.teacher == user and context.school_class.name == "Course course-1"
    assert context.memberships_url.endswith("/course-1/memberships")
    assert response["Location"] == context.school_class.get_absolute_url()
    assert client.get(response["Location"]).status_code == 200  # signed in


def test_a_learners_first_launch_joins_the_class_and_a_second_is_the_same_account(
    world: World, platform: Platform, client: Client
) -> None:
    instructor_launch(Client(), platform)
    first = launch(client, platform, sub="learner-1", name="Ada Lovelace")
    assert first.status_code == 302
    account = LtiAccount.objects.get(subject="learner-1")
    member = Membership.objects.get(student=account.user)
    assert member.real_name == "Ada Lovelace" and member.left is None
    assert not account.user.has_usable_password()
    assert not Teacher.objects.filter(user=account.user).exists()
    before = counts()
    again = launch(Client(), platform, sub="learner-1", name="Ada Lovelace")
    assert again.status_code == 302
    assert counts() == {**before, "logins used": before["logins used"] + 1}


def test_a_second_instructor_co_teaches(world: World, platform: Platform) -> None:
    instructor_launch(Client(), platform)
    launch(Client(), platform, sub="teacher-2", role=INSTRUCTOR, name="Alan Turing")
    second = LtiAccount.objects.get(subject="teacher-2").user
    school_class = LtiContext.objects.get(context_id="course-1").school_class
    assert CoTeacher.objects.filter(school_class=school_class, teacher=second).exists()


def test_a_learner_before_any_instructor_is_told_to_wait(
    world: World, platform: Platform, client: Client
) -> None:
    before = counts()
    response = launch(client, platform, sub="learner-9", context="course-new")
    assert response.status_code == 403
    assert NOT_OPENED in response.content.decode()
    assert counts() == before


def test_a_launched_session_may_be_framed_by_its_platform_only(
    world: World, platform: Platform, client: Client
) -> None:
    response = instructor_launch(client, platform)
    for name in ("sessionid", "csrftoken"):
        header = response.cookies[name].output()
        assert "SameSite=None; Partitioned" in header and "Secure" in header
    page = client.get(response["Location"])
    assert f"frame-ancestors {platform.url}" in page["Content-Security-Policy"]
    assert "X-Frame-Options" not in page
    elsewhere = Client().get("/")
    assert "frame-ancestors 'none'" in elsewhere["Content-Security-Policy"]
    assert elsewhere["X-Frame-Options"] == "DENY"


# -- refusals: each a 4xx page, and nothing changed ------------------------------------------------


def refused(response: Any, before: dict[str, int], words: str) -> None:
    assert response.status_code == 403
    assert words in response.content.decode()
    assert counts() == before
    assert "_auth_user_id" not in response.wsgi_request.session


@pytest.fixture
def opened(world: World, platform: Platform) -> dict[str, int]:
    """The course opened by its instructor; the counts after."""
    instructor_launch(Client(), platform)
    return counts()


def test_a_bad_signature_is_refused(opened: dict[str, int], platform: Platform) -> None:
    response = launch(Client(), platform, sub="learner-2", key=new_key("platform-key-1"))
    refused(response, opened, "Signature verification failed")


def test_a_wrong_audience_is_refused(opened: dict[str, int], platform: Platform) -> None:
    response = launch(Client(), platform, sub="learner-2", aud="another-tool")
    refused(response, opened, "Registration not found")


def test_an_audience_of_several_needs_azp(opened: dict[str, int], platform: Platform) -> None:
    response = launch(Client(), platform, sub="learner-2", aud=[platform.client_id, "other"])
    refused(response, opened, "authorized party")


def test_an_expired_token_is_refused(opened: dict[str, int], platform: Platform) -> None:
    past = int(time.time()) - 3600
    response = launch(Client(), platform, sub="learner-2", iat=past - 60, exp=past)
    refused(response, opened, "expired")


def test_an_unknown_deployment_is_refused(opened: dict[str, int], platform: Platform) -> None:
    claims = {"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-9"}
    response = launch(Client(), platform, sub="learner-2", **claims)
    refused(response, opened, "deployment")


def test_a_replayed_launch_is_refused(opened: dict[str, int], platform: Platform) -> None:
    client = Client()
    started = login(client, platform)
    token = platform.sign(platform.claims(started.nonce, sub="learner-3"))
    first = client.post("/lti/launch/", {"id_token": token, "state": started.state})
    assert first.status_code == 302
    after = counts()
    replayer = Client()  # the whole request again: its body and the state cookie
    replayer.cookies[f"lti1p3-{started.state}"] = started.state
    again = replayer.post("/lti/launch/", {"id_token": token, "state": started.state})
    refused(again, after, "replay")


def test_a_nonce_not_from_the_login_is_refused(opened: dict[str, int], platform: Platform) -> None:
    client = Client()
    started = login(client, platform)
    token = platform.sign(platform.claims("a-nonce-of-my-own", sub="learner-4"))
    response = client.post("/lti/launch/", {"id_token": token, "state": started.state})
    refused(response, opened, "nonce")


def test_a_launch_without_the_browsers_state_cookie_is_refused(
    opened: dict[str, int], platform: Platform
) -> None:
    started = login(Client(), platform)
    token = platform.sign(platform.claims(started.nonce, sub="learner-5"))
    response = Client().post("/lti/launch/", {"id_token": token, "state": started.state})
    refused(response, opened, "did not bring back the cookie")
    assert f"frame-ancestors {platform.url}" in response["Content-Security-Policy"]


def test_a_mentor_is_refused(opened: dict[str, int], platform: Platform) -> None:
    response = launch(Client(), platform, sub="mentor-1", role=MENTOR)
    refused(response, opened, "neither role")


def test_a_learners_role_cannot_deep_link(opened: dict[str, int], platform: Platform) -> None:
    response = launch(Client(), platform, sub="learner-6", message="LtiDeepLinkingRequest")
    refused(response, opened, "instructors place activities")


def test_another_platform_never_reaches_this_ones_classes(
    opened: dict[str, int], platform: Platform
) -> None:
    """A second platform with the same course id gets a class of its own; an activity placed
    in the first platform's course cannot be opened from the second's."""
    other = Platform(client_id="other-client").start()
    try:
        register(other, name="Hillside Canvas")
        mine = LtiContext.objects.get(platform__issuer=platform.issuer, context_id="course-1")
        placement = Placement.objects.create(
            context=mine, kind=Placement.TRAINER, title="Trainer", rules="hoffmann"
        )
        theirs = launch(Client(), other, sub="teacher-1", role=INSTRUCTOR)
        assert theirs.status_code == 302
        their_class = LtiContext.objects.get(platform__issuer=other.issuer).school_class
        assert their_class != mine.school_class
        # The same subject at another issuer is another person.
        assert LtiAccount.objects.filter(subject="teacher-1").count() == 2
        before = counts()
        response = launch(
            Client(),
            other,
            sub="learner-7",
            custom={"lanterloo_placement": placement.token},
        )
        refused(response, before, ELSEWHERE[:40])
        assert not Membership.objects.filter(school_class=mine.school_class).exists()
    finally:
        other.stop()
    assert not other.errors


def test_launches_that_make_accounts_are_limited_like_sign_ups(
    opened: dict[str, int], platform: Platform
) -> None:
    # Two accounts an hour: the instructor's (opened) and one more.
    limited = {**settings.RATE_LIMITS, "lti-accounts-per-address": (2, 3600)}
    with override_settings(RATE_LIMITS=limited):
        assert launch(Client(), platform, sub="learner-10").status_code == 302
        before = counts()
        response = launch(Client(), platform, sub="learner-11")
        assert response.status_code == 429
        assert counts() == {**before, "logins used": before["logins used"]}
        assert not LtiAccount.objects.filter(subject="learner-11").exists()
        # Someone who has an account already is not counted.
        assert launch(Client(), platform, sub="learner-10").status_code == 302
