"""Passwords and codes: the limits on logging in (the site's page and the admin's), signing
up, changing the password, deleting the account and joining a class by its code
(:class:`AttemptLimitMiddleware`), counted in the registry of :mod:`loo_site.limits`.

Counted per client and per target (the name tried, the account), so that one password
sprayed across many names is limited as well as many passwords tried on one name. Only
failures count where a success is the usual case: thirty students logging in from one school
address at the start of a lesson are not held up, only many wrong passwords are. Signing up
counts every attempt (each makes an account, or costs the checks of a new password). Over a
limit, the request is answered at once, before any password is hashed.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from loo_site.limits import Taken, client_address, failed, give_back, limit, take, waiting


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


#: The limits a POST of each kind counts its failures against, other than logging in's.
_FAILURES = {
    "password": ("guesses-per-address", "guesses-per-address-minute", "guesses-per-account"),
    "join": ("joins-per-address", "joins-per-account"),
}


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


# A classroom logs in from one address, and some of its students mistype. Wrong passwords
# are counted per account: axes locks a name at an address after five, the name is limited
# to twenty from anywhere, and a teacher sees and unlocks his students' names
# (lessons.classes.lockouts). The address's own count is only a far looser backstop against
# a spray, which tries many names from one address and rarely gets one right: a name's first
# wrong password from an address counts against it (60 a minute, 150 in ten minutes), its
# later tries from there do not count again, and a right password gives back what that
# name's wrong ones counted. The address's count is thus the number of names that failed
# there and never got in: two classes of thirty behind one school address, every student
# mistyping at once, all get in at their next try, while a spray is stopped.
#
# A browser that has logged in to a name carries a signed cookie that says so (OWASP's
# "device cookie"): for it, neither axes' lock of the name at the address nor the name's
# limit from everywhere applies, only its own five wrong passwords per quarter hour. A
# classmate who guesses the teacher's (or a friend's) password from the same school address
# locks the name for his own browser and everyone else's there, but not for the browser the
# teacher used before; and no one from elsewhere locks the name for it.

DEVICE_COOKIE = "lanterloo_device"
DEVICE_SALT = "loo_site.limits.device"
DEVICE_NAMES = 8
DEVICE_SECONDS = 400 * 24 * 3600


def _device(request: HttpRequest) -> tuple[str, list[str]]:
    """This browser's id and the names (digests) it has logged in to, from its signed cookie;
    a new id and none without one. (The id stays while the names change, so that logging in
    to another name does not start its count of guesses again.)"""
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=DEVICE_SALT) or ""
    device, _, names = value.partition(":")
    if not device:
        return secrets.token_urlsafe(12), []
    return device, names.split(",") if names else []


def known_device(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """axes' whitelist (AXES_WHITELIST_CALLABLE): a login from a browser that has logged in
    to this name before is counted by AttemptLimitMiddleware per browser, not locked by axes
    per address."""
    return bool(getattr(request, "lanterloo_known_device", False))


def _pending(client: str, name: str) -> str:
    return f"limit-pending:{_digest(f'ip:{client}', name)}"


def _log_in(
    request: HttpRequest, get_response: Callable[[HttpRequest], HttpResponse]
) -> HttpResponse:
    name = str(request.POST.get("username", "")).strip().casefold()
    pending = _pending(client_address(request), name)
    me = _digest(name)
    device_id, known = _device(request)
    device = me in known
    request.lanterloo_known_device = device  # type: ignore[attr-defined]
    per_name, who = (
        ("guesses-per-device", f"{device_id}:{me}") if device else ("guesses-per-name", name)
    )
    if refused := waiting(request, per_name, who=who):
        return refused
    earlier: list[str] = shared_cache.get(pending) or []
    taken: list[Taken] = []
    if not earlier:
        took = take(request, "guesses-per-address", "guesses-per-address-minute")
        if isinstance(took, HttpResponse):
            return took
        taken = took
    response = get_response(request)
    if response.status_code == 302:  # in
        give_back(*taken, *(Taken(key) for key in earlier))
        if earlier:
            shared_cache.delete(pending)
        names = [me, *(n for n in known if n != me)][:DEVICE_NAMES]
        response.set_signed_cookie(
            DEVICE_COOKIE,
            f"{device_id}:{','.join(names)}",
            salt=DEVICE_SALT,
            max_age=DEVICE_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response
    if getattr(request, "lanterloo_removed_from_class", False):
        # The right password of an account its teacher removed: no guess (LogInView said so).
        give_back(*taken)
        return response
    failed(request, per_name, who=who)
    if taken:
        seconds = max(limit("guesses-per-address").seconds, 60)
        shared_cache.set(pending, [t.key for t in taken], timeout=seconds)
    return response


def _sign_up(
    request: HttpRequest, get_response: Callable[[HttpRequest], HttpResponse]
) -> HttpResponse:
    """Made accounts count an hour; failed forms (a taken name, a weak password) a shorter
    window, so a class's worth of typos never blocks signing up for an hour. Both are counted
    before the form is checked, and each outcome gives the other's count back. While they
    cannot be counted, no account is made."""
    taken = take(request, "sign-ups-per-address", "failed-sign-ups-per-address")
    if isinstance(taken, HttpResponse):
        return taken
    response = get_response(request)
    made, refused = taken
    give_back(refused if response.status_code == 302 else made)
    return response


class AttemptLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = _kinds().get(request.path_info) if request.method == "POST" else None
        if kind is None:
            return self.get_response(request)
        if kind == "login":
            return _log_in(request, self.get_response)
        if kind == "sign-up":
            return _sign_up(request, self.get_response)
        if refused := waiting(request, *_FAILURES[kind]):
            return refused
        response = self.get_response(request)
        # A success redirects; a failure shows the form again.
        if response.status_code != 302:
            failed(request, *_FAILURES[kind])
        return response
