"""Response headers that neither Django nor a small library sets."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers


class CrossOriginResourcePolicyMiddleware:
    """Set `Cross-Origin-Resource-Policy` to settings.CROSS_ORIGIN_RESOURCE_POLICY on every
    response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault(
            "Cross-Origin-Resource-Policy", settings.CROSS_ORIGIN_RESOURCE_POLICY
        )
        return response


#: Where a logged-in user's own pages are: his classes and quizzes, his answers and results,
#: his account.
PRIVATE_PREFIXES = ("/classes/", "/quizzes/", "/accounts/", "/lti/")


class PrivatePageMiddleware:
    """``Cache-Control: no-store`` (Django's never-cache headers) on every private page: a
    teacher's roster or results, a student's attempt, an account's page. A shared school
    computer's browser (or a proxy) must not keep them to show the next person by Back or
    from its cache. Account pages are private whoever asks (the login form carries a CSRF
    token and a name typed)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        path = request.path_info
        if path.startswith(PRIVATE_PREFIXES) and (
            path.startswith("/accounts/") or request.user.is_authenticated
        ):
            add_never_cache_headers(response)
        return response
