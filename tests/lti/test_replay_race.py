"""The same launch posted twice at the same moment (a replay racing the real one, or a
double submit): the login's state is used once, so exactly one launch signs in and acts; the
other is refused as a replay and changes nothing. Each on a thread of its own, with its own
database connection."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from lessons.classes.models import Membership
from lessons.lti.models import LoginState, LtiAccount, ToolKey
from tests.concurrency import at_once

from .conftest import launch, login, register
from .platform import INSTRUCTOR, Platform


@pytest.mark.django_db(transaction=True)
def test_a_launch_posted_twice_at_once_acts_once(platform: Platform) -> None:
    register(platform)
    platform.tool_jwks = {"keys": [ToolKey.generate().jwk()]}
    launch(Client(), platform, sub="teacher-1", role=INSTRUCTOR)
    started = login(Client(), platform)
    token = platform.sign(platform.claims(started.nonce, sub="learner-1"))

    def post() -> int:
        client = Client()
        client.cookies[f"lti1p3-{started.state}"] = started.state
        response = client.post("/lti/launch/", {"id_token": token, "state": started.state})
        return response.status_code

    statuses = at_once(post, post)
    if connection.vendor == "postgresql":
        assert sorted(statuses) == [302, 403]
    else:
        # SQLite's in-memory test database refuses a thread's write at once where the site's
        # file would wait: the launch that acted may then fail after its commit (signing in),
        # and at_once's second try is refused as a replay. It still acted once (below).
        assert 403 in statuses and set(statuses) <= {302, 403}
    assert LtiAccount.objects.filter(subject="learner-1").count() == 1
    assert Membership.objects.filter(student__lti_accounts__subject="learner-1").count() == 1
    assert LoginState.objects.get(state=started.state).used is not None
