"""The request this site's views get, as the type checker sees it: Django's, with the
``request.htmx`` that django-htmx's HtmxMiddleware sets on every request (``loo_site.settings``
installs it). Views that answer htmx requests take an :class:`HtmxHttpRequest`."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind ``@login_required``: its user has logged in."""

    user: User
