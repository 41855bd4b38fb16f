"""Deep linking: from the platform's "add an activity", an instructor picks what to place (a
quiz with its dates and attempts, a lesson, the rule trainer on a rule set); Lanterloo makes
the :class:`Placement` (and, for a quiz or a lesson, the class's assignment) and answers the
platform with a signed ``LtiDeepLinkingResponse`` naming one ``ltiResourceLink``, whose
custom parameter ``lanterloo_placement`` brings the placement back at each launch. A quiz's
link asks the platform for a gradebook column (``lineItem``, out of 100).

The deep-linking request waits in the instructor's session (its settings: where to answer,
the ``data`` to echo) under a random key, used once.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from lessons.lti.models import LtiContext, Placement
from lessons.lti.tool import claim, registration_of

SESSION_KEY = "lti_deep_links"
#: Deep-linking requests one session keeps waiting at most (the oldest goes).
KEPT = 5


def remember(request: HttpRequest, context: LtiContext, body: dict[str, Any]) -> str:
    """Keep a checked deep-linking request in the session; its key."""
    waiting: dict[str, Any] = dict(request.session.get(SESSION_KEY, {}))
    while len(waiting) >= KEPT:
        waiting.pop(next(iter(waiting)))
    key = secrets.token_urlsafe(16)
    waiting[key] = {
        "context": context.pk,
        "deployment_id": str(claim(body, "deployment_id")),
        "settings": claim(body, "dl:deep_linking_settings") or {},
    }
    request.session[SESSION_KEY] = waiting
    return key


def waiting_request(request: HttpRequest, key: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = request.session.get(SESSION_KEY, {}).get(key)
    return found


def forget(request: HttpRequest, key: str) -> None:
    waiting = dict(request.session.get(SESSION_KEY, {}))
    waiting.pop(key, None)
    request.session[SESSION_KEY] = waiting


def answer(request: HttpRequest, waiting: dict[str, Any], placement: Placement) -> tuple[str, str]:
    """The signed deep-linking answer for ``placement``: (the platform's return URL, JWT)."""
    context = placement.context
    settings_claim = waiting["settings"]
    launch_url = request.build_absolute_uri(reverse("lti:launch"))
    resource = (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(placement.title)
        .set_custom_params({"lanterloo_placement": placement.token})
    )
    if placement.kind == Placement.QUIZ:
        resource.set_lineitem(
            LineItem()
            .set_label(placement.title[:100])
            .set_score_maximum(100)
            .set_resource_id(f"lanterloo-assignment-{placement.assignment_id}")
            .set_tag("lanterloo")
        )
    link = DeepLink(registration_of(context.platform), waiting["deployment_id"], settings_claim)
    return str(settings_claim.get("deep_link_return_url", "")), link.get_response_jwt([resource])
