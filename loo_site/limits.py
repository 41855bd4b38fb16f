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

:class:`CreationLimitMiddleware` limits, with one table (:data:`CREATING`), every POST that
creates or stores a row a teacher or student wrote: per account and per address, counted
before the view does any work. While the shared cache is down these limits let requests
through (a lesson must not stop because Redis did), except those that make accounts (signing
up, a teacher's list of names): those are refused with a 503 page that says why, since an
outage must not open the way to making accounts without limit.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse

from games.throttle import (
    Limit,
    LimitsUnavailable,
    Taken,
    client_ip,
    give_back,
    hit,
    limit,
    retry_after,
    take,
    too_many,
)

GUESSES = "There have been too many wrong passwords from your network."
NAME = "There have been too many wrong passwords for this name."
ACCOUNT = "There have been too many wrong passwords for this account."
SIGN_UPS = "Too many accounts have been made (or tried) from your network."
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
    """The limits a POST of this kind counts against, other than logging in's: (limit, who,
    what the page says)."""
    ip = f"ip:{client_ip(request)}"
    user = request.user
    account = f"user:{user.pk}" if user.is_authenticated else ""
    guesses = [
        (limit("guesses-per-address"), ip, GUESSES),
        (limit("guesses-per-address-minute"), ip, GUESSES),
    ]
    if kind == "password":
        counted = guesses
        return counted + ([(limit("guesses-per-account"), account, ACCOUNT)] if account else [])
    counted = [(limit("joins-per-address"), ip, JOINS)]
    return counted + ([(limit("joins-per-account"), account, JOINS)] if account else [])


def _take_all(
    request: HttpRequest, counted: list[tuple[Limit, str]], what: str, *, accounts: bool = False
) -> list[Taken] | HttpResponse:
    """Count one event against each limit; over any of them, give back the others and answer
    with the 429 page. ``accounts``: the event makes accounts, and while the limits cannot be
    counted it is refused (the 503 page)."""
    taken: list[Taken] = []
    for rule, who in counted:
        try:
            took = take(rule, who, closed_when_down=accounts)
        except LimitsUnavailable:
            took = None
        if took is None or took.wait:
            for each in taken:
                give_back(each)
            return cannot_count(request) if took is None else too_many(request, took.wait, what)
        taken.append(took)
    return taken


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


# -- logging in --------------------------------------------------------------------------------
#
# A classroom logs in from one address, and some of its students mistype. A spray tries many
# names from one address and rarely gets one right. So a name's first wrong password from an
# address counts against the address's limits (20 a minute, 40 in ten minutes), and its
# later tries from there do not count again (axes allows five wrong ones per name and
# address): a classroom's typos are retried, and a retry with the right password always gets
# through. A right password gives back what that name's wrong ones counted: the address's
# count is the number of names that failed there and never got in, which a classroom does
# not pile up and a spray does.
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


def _pending(ip: str, name: str) -> str:
    return f"limit-pending:{_digest(ip, name)}"


def _log_in(
    request: HttpRequest, get_response: Callable[[HttpRequest], HttpResponse]
) -> HttpResponse:
    ip = client_ip(request)
    name = str(request.POST.get("username", "")).strip().casefold()
    me = _digest(name)
    device_id, known = _device(request)
    device = me in known
    request.lanterloo_known_device = device  # type: ignore[attr-defined]
    taken: list[Taken] = []
    if device:
        per_name = (limit("guesses-per-device"), f"device:{device_id}:{me}", NAME)
    else:
        per_name = (limit("guesses-per-name"), f"name:{name}", NAME)
    if wait := retry_after(per_name[0], per_name[1]):
        return too_many(request, wait, NAME)
    earlier: list[str] = shared_cache.get(_pending(f"ip:{ip}", name)) or []
    if not earlier:
        rules = ("guesses-per-address", "guesses-per-address-minute")
        took = _take_all(request, [(limit(rule), f"ip:{ip}") for rule in rules], GUESSES)
        if isinstance(took, HttpResponse):
            return took
        taken = took
    response = get_response(request)
    if response.status_code == 302:  # in
        for key in [*(t.key for t in taken), *earlier]:
            give_back(Taken(key, 0))
        if earlier:
            shared_cache.delete(_pending(f"ip:{ip}", name))
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
    hit(per_name[0], per_name[1])
    if taken:
        seconds = max(limit("guesses-per-address").seconds, 60)
        shared_cache.set(_pending(f"ip:{ip}", name), [t.key for t in taken], timeout=seconds)
    return response


def _sign_up(
    request: HttpRequest, get_response: Callable[[HttpRequest], HttpResponse]
) -> HttpResponse:
    """Made accounts count an hour; failed forms (a taken name, a weak password) a shorter
    window, so a class's worth of typos never blocks signing up for an hour. Both are counted
    before the form is checked, and each outcome gives the other's count back. While they
    cannot be counted, no account is made."""
    ip = f"ip:{client_ip(request)}"
    rules = ("sign-ups-per-address", "failed-sign-ups-per-address")
    taken = _take_all(request, [(limit(rule), ip) for rule in rules], SIGN_UPS, accounts=True)
    if isinstance(taken, HttpResponse):
        return taken
    response = get_response(request)
    made, failed = taken
    give_back(failed if response.status_code == 302 else made)
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
        counted = _counted(kind, request)
        for rule, who, what in counted:
            if wait := retry_after(rule, who):
                return too_many(request, wait, what)
        response = self.get_response(request)
        # A success redirects; a failure shows the form again.
        if response.status_code != 302:
            for rule, who, _ in counted:
                hit(rule, who)
        return response


# -- what creates or stores rows ------------------------------------------------------------


@dataclass(frozen=True)
class Creating:
    """A kind of POST that stores rows: its limits (RATE_LIMITS names) per account and per
    address, what the 429 page says, and whether it makes accounts (refused while the
    limits cannot be counted)."""

    per_account: str
    per_address: str
    what: str
    makes_accounts: bool = False


_CLASSES = Creating(
    "classes-per-account", "classes-per-address", "Too many classes have been made or copied."
)
_ROSTER = Creating(
    "roster-per-account", "roster-per-address", "Too many changes have been made to classes."
)
_QUIZZES = Creating(
    "quizzes-per-account", "quizzes-per-address", "Too many quizzes have been made or edited."
)
_ASSIGNMENTS = Creating(
    "assignments-per-account", "assignments-per-address", "Too many assignments have been set."
)
_ANSWERS = Creating("answers-per-account", "answers-per-address", "Too many answers, too fast.")

#: URL name → the limits a POST to it counts against. (Joining a class, logging in and
#: signing up are counted by AttemptLimitMiddleware.)
CREATING: dict[str, Creating] = {
    "classes:create": _CLASSES,
    "classes:copy": _CLASSES,
    "classes:edit": _ROSTER,
    "classes:student": _ROSTER,  # the teacher's notes
    "classes:code": _ROSTER,
    "classes:archive": _ROSTER,
    "classes:delete": _ROSTER,
    "classes:teachers": _ROSTER,  # co-teachers added, removed, the class handed over
    "classes:delete-student": _ROSTER,
    "classes:roster": _ROSTER,
    "classes:remove-student": _ROSTER,
    "classes:reset-password": _ROSTER,
    # A class's tables (lessons.classes.tables): opening them counts as tables for people do.
    "classes:open-tables": Creating(
        "class-tables-per-account", "people-tables-per-address", "Too many tables have been opened."
    ),
    "classes:table-seats": _ROSTER,
    "classes:start-tables": _ROSTER,
    "classes:take-away": _ROSTER,
    "classes:sit": _ROSTER,
    "classes:add-students": Creating(
        "student-lists-per-account",
        "student-lists-per-address",
        "Too many lists of students have been sent.",
        makes_accounts=True,
    ),
    "quizzes:quiz-new": _QUIZZES,
    "quizzes:quiz-edit": _QUIZZES,
    "quizzes:assign": _ASSIGNMENTS,
    "quizzes:assignment-edit": _ASSIGNMENTS,
    "quizzes:assignment-delete": _ASSIGNMENTS,
    "quizzes:regrade": _ASSIGNMENTS,
    "quizzes:exception": _ASSIGNMENTS,  # one student's extra attempts or later close
    "quizzes:report": Creating(
        "reports-per-account", "reports-per-address", "Too many problems have been reported."
    ),
    "quizzes:attempt-start": Creating(
        "attempts-per-account", "attempts-per-address", "Too many attempts have been started."
    ),
    "quizzes:attempt-answer": _ANSWERS,
    "quizzes:attempt-submit": _ANSWERS,
}


def cannot_count(request: HttpRequest) -> HttpResponse:
    """The answer while the limits on making accounts cannot be counted (the shared cache is
    down): HTTP 503, with when to try again."""
    response = render(request, "limits_down.html", status=503)
    response["Retry-After"] = "60"
    return response


class CreationLimitMiddleware:
    """Count every POST of :data:`CREATING` against its limits before its view runs (after
    the CSRF check, so a forged POST counts against no one's account)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponseBase | None:
        match = request.resolver_match
        creating = CREATING.get(match.view_name) if match and request.method == "POST" else None
        if creating is None:
            return None
        counted = [(limit(creating.per_address), f"ip:{client_ip(request)}")]
        if request.user.is_authenticated:
            counted.append((limit(creating.per_account), f"user:{request.user.pk}"))
        taken = _take_all(request, counted, creating.what, accounts=creating.makes_accounts)
        return taken if isinstance(taken, HttpResponse) else None
