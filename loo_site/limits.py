"""Limits on what costs a password hash or guesses a secret: logging in (the site's page and
the admin's), signing up, changing the password, deleting the account, joining a class by
its code. Counted in the shared cache (games.throttle) per client address and per target
(the name tried, the account), so that one password sprayed across many names is limited as
well as many passwords tried on one name. Only failures count where a success is the usual
case: thirty students logging in from one school address at the start of a lesson are not
held up, only many wrong passwords are. Signing up counts every attempt (each makes an
account, or costs the checks of a new password).

Over a limit, the request is answered at once with the 429 page (``Retry-After``), before any
password is hashed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.throttle import Limit, client_ip, hit, limit, retry_after, too_many

GUESSES = "There have been too many wrong passwords from your network."
NAME = "There have been too many wrong passwords for this name."
ACCOUNT = "There have been too many wrong passwords for this account."
SIGN_UPS = "Too many accounts have been made from your network."
JOINS = "There have been too many wrong join codes."


@cache
def _kinds() -> dict[str, str]:
    return {
        reverse("login"): "login",
        reverse("admin:login"): "login",
        reverse("sign-up"): "sign-up",
        reverse("password-change"): "password",
        reverse("delete-account"): "password",
        reverse("classes:join"): "join",
    }


def _counted(kind: str, request: HttpRequest) -> list[tuple[Limit, str, str]]:
    """The limits a POST of this kind counts against: (limit, who, what the page says)."""
    ip = f"ip:{client_ip(request)}"
    user = request.user
    account = f"user:{user.pk}" if user.is_authenticated else ""
    guesses = [
        (limit("guesses-per-address"), ip, GUESSES),
        (limit("guesses-per-address-minute"), ip, GUESSES),
    ]
    if kind == "login":
        name = str(request.POST.get("username", "")).strip().casefold()
        return [*guesses, (limit("guesses-per-name"), f"name:{name}", NAME)]
    if kind == "password":
        counted = guesses
        return counted + ([(limit("guesses-per-account"), account, ACCOUNT)] if account else [])
    if kind == "sign-up":
        return [(limit("sign-ups-per-address"), ip, SIGN_UPS)]
    counted = [(limit("joins-per-address"), ip, JOINS)]
    return counted + ([(limit("joins-per-account"), account, JOINS)] if account else [])


class AttemptLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = _kinds().get(request.path_info) if request.method == "POST" else None
        if kind is None:
            return self.get_response(request)
        counted = _counted(kind, request)
        for rule, who, what in counted:
            if wait := retry_after(rule, who):
                return too_many(request, wait, what)
        response = self.get_response(request)
        # A success redirects; a failure shows the form again (or the lockout page).
        if kind == "sign-up" or response.status_code != 302:
            for rule, who, _ in counted:
                hit(rule, who)
        return response
