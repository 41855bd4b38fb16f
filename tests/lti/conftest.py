"""The LTI tests' world: one simulated platform per module (tests/lti/platform.py) on the
loopback, registered with the tool (a Platform row, its deployment, the tool's key), and the
helpers that walk a browser through a login and a launch with Django's test client."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from pytest_django import DjangoDbBlocker

from lessons.lti.models import Deployment, Platform, ToolKey
from tests.worlds import built_once

from .platform import Platform as SimulatedPlatform


@pytest.fixture(scope="module")
def platform() -> Iterator[SimulatedPlatform]:
    """The simulated platform, started once for the module; its server is shut down and its
    thread joined at the end, and any error its handlers met fails the module's teardown."""
    simulated = SimulatedPlatform().start()
    try:
        yield simulated
    finally:
        simulated.stop()
    assert not simulated.errors, simulated.errors


@pytest.fixture(autouse=True)
def _platform_errors_fail_the_test(platform: SimulatedPlatform) -> Iterator[None]:
    before = len(platform.errors)
    yield
    assert platform.errors[before:] == []


def register(simulated: SimulatedPlatform, name: str = "Riverside Moodle") -> Platform:
    row = Platform.objects.create(name=name, **simulated.registration())
    Deployment.objects.create(platform=row, deployment_id=simulated.deployment_id)
    return row


@dataclass(frozen=True)
class World:
    platform: int
    key: int


@pytest.fixture(scope="module")
def world(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker, platform: SimulatedPlatform
) -> Iterator[World]:
    def build() -> World:
        row = register(platform)
        key = ToolKey.generate()
        platform.tool_jwks = {"keys": [key.jwk()]}
        return World(row.pk, key.pk)

    yield from built_once(django_db_blocker, build)


@dataclass
class Login:
    state: str
    nonce: str
    redirect_uri: str


def login(client: Client, simulated: SimulatedPlatform, **params: str) -> Login:
    """The platform's login initiation, as the browser sends it; the tool's redirect read."""
    data = {
        "iss": simulated.issuer,
        "login_hint": "hint-1",
        "target_link_uri": "http://testserver/lti/launch/",
        "client_id": simulated.client_id,
        "lti_deployment_id": simulated.deployment_id,
        **params,
    }
    response = client.post("/lti/login/", data)
    assert response.status_code == 302, response.content
    query = parse_qs(urlsplit(response["Location"]).query)
    return Login(query["state"][0], query["nonce"][0], query["redirect_uri"][0])


def launch(
    client: Client,
    simulated: SimulatedPlatform,
    *,
    sub: str,
    key: Any = None,
    state: str | None = None,
    **claims: Any,
) -> Any:
    """A whole launch: the login, the platform's signed id_token, the POST back."""
    started = login(client, simulated)
    token = simulated.sign(simulated.claims(started.nonce, sub=sub, **claims), key=key)
    return client.post(
        "/lti/launch/", {"id_token": token, "state": state or started.state}, follow=False
    )
