"""Pages of a session an LTI launch started may be shown inside that platform's frame.

After a launch the session holds ``lti`` (:func:`lessons.lti.views.launch`): the origins of
the platform that launched it. For that session only, each response lets those origins frame
it (``Content-Security-Policy: frame-ancestors`` names them, instead of ``'none'``; no
``X-Frame-Options``), and the session and CSRF cookies it sets are ``SameSite=None; Secure``,
so that the browser sends them inside the platform's cross-site frame. Every other page and
session keeps the site's rule: never framed, cookies ``SameSite=Lax``.

Placed before SessionMiddleware: its response is handled after the session's and CSRF's
cookies are set, and before CSPMiddleware writes the policy.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from lessons.lti.tool import cross_site

SESSION_KEY = "lti"


def framing_origins(request: HttpRequest) -> list[str]:
    """The origins the session's launch allows to frame it ([] for every other session: one
    without a cookie is not even read)."""
    session = getattr(request, "session", None)
    if session is None:
        return []
    if settings.SESSION_COOKIE_NAME not in request.COOKIES and not session.modified:
        return []  # no session, and none begun by this request (a launch's): nothing to read
    found = session.get(SESSION_KEY) or {}
    return [str(o) for o in found.get("origins", [])]


class LtiFrameMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        origins = framing_origins(request)
        if origins:
            replace = dict(getattr(response, "_csp_replace", None) or {})
            replace["frame-ancestors"] = origins
            response._csp_replace = replace  # type: ignore[attr-defined]
            if "X-Frame-Options" in response:
                del response["X-Frame-Options"]
            for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
                if name in response.cookies:
                    cross_site(response, name)
        return response
