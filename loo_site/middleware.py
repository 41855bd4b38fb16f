"""A response header that neither Django nor a small library sets."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


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
