"""Rate limits, counted in Django's cache, which every worker and every machine share.

A limit is a number of events in a fixed window of seconds, counted for one *who*: a client
address, an account name, a user, a browser session. :func:`hit` counts one event and
:func:`retry_after` says whether the count is reached (and for how many seconds more). The
limits are settings (``RATE_LIMITS``: name → (count, seconds)), so tests and deployments can
change them.

:func:`take` counts and decides in one step, so that N requests at once let exactly the limit's
count through (counting first, then refusing a count over the limit); :func:`give_back`
returns a count (a login that turned out right). The cache's ``incr`` is atomic for that
(games.caches). While the cache is down a limit lets requests through, except where the
caller says it must not (making accounts): :class:`LimitsUnavailable`.

The client address is :func:`client_ip`: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES``
reverse proxies the address the nearest of them saw, read from the right of
``X-Forwarded-For``: whatever a client writes into that header itself stands further left
and is never read. (games is the lowest Django layer: the site's account pages and the
classes use these too.)
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.caches import CacheUnavailable


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int


def limit(name: str) -> Limit:
    """The limit ``name`` as the settings give it."""
    count, seconds = settings.RATE_LIMITS[name]
    return Limit(name, int(count), int(seconds))


def client_ip(request: HttpRequest) -> str:
    """The client's address, as the nearest trusted proxy saw it (see the module's note)."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0))
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        if part.strip()
    ]
    if len(forwarded) < proxies:
        return remote  # it did not come through every proxy: trust only the connection
    candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def _key(rule: Limit, who: str, now: float) -> tuple[str, int]:
    window = int(now // rule.seconds)
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]
    return f"limit:{rule.name}:{digest}:{window}", int((window + 1) * rule.seconds - now) + 1


def hit(rule: Limit, who: str) -> None:
    """Count one event of ``rule`` for ``who``."""
    key, left = _key(rule, who, time.time())
    if cache.add(key, 1, timeout=left + 1):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=left + 1)


#: How many times :func:`take` tries to count an event before it treats the cache as down.
_TRIES = 10


class LimitsUnavailable(Exception):
    """The shared cache is down and the limit must hold (it guards making accounts)."""


@dataclass(frozen=True)
class Taken:
    """One counted event: the window's key (for :func:`give_back`) and the seconds to wait
    (0: within the limit)."""

    key: str
    wait: int


def take(rule: Limit, who: str, *, closed_when_down: bool = False) -> Taken:
    """Count one event of ``rule`` for ``who`` unless that goes over the count (then the
    event is not counted, and ``wait`` says for how long). With the cache down the event is
    allowed, or refused with :class:`LimitsUnavailable` if ``closed_when_down``."""
    key, left = _key(rule, who, time.time())
    try:
        for attempt in range(_TRIES):
            # Django's database cache answers an ``add`` it could not write (another
            # worker's insert, a busy database) with False, as if the key were there: the
            # incr then finds no key, and the pair is tried again after a moment.
            cache.add(key, 0, timeout=left + 1)
            try:
                count = int(cache.incr(key))
                break
            except CacheUnavailable:
                raise
            except ValueError:  # not written, or expired between the two calls
                time.sleep(0.002 * (attempt + 1))
        else:  # never counted: as with the cache down, never as a free pass
            raise CacheUnavailable("The count could not be written.")
    except CacheUnavailable:
        if closed_when_down:
            raise LimitsUnavailable from None
        return Taken(key, 0)
    if count > rule.count:
        give_back(Taken(key, left))
        return Taken(key, left)
    return Taken(key, 0)


def give_back(taken: Taken) -> None:
    """Uncount an event :func:`take` counted (if its window has not ended)."""
    # The window may have ended (or the cache be down): then there is nothing to give back.
    with contextlib.suppress(ValueError):
        cache.decr(taken.key)


def take_all(counted: list[tuple[Limit, str]]) -> tuple[list[Taken], int]:
    """Count one event against each of these limits (with the cache down, each allows it):
    what was counted, for :func:`give_back` should the work be refused after all, and 0; or,
    over any of them, nothing counted and the seconds to wait."""
    taken: list[Taken] = []
    for rule, who in counted:
        took = take(rule, who)
        if took.wait:
            for each in taken:
                give_back(each)
            return [], took.wait
        taken.append(took)
    return taken, 0


def per_person(request: HttpRequest, person: str, address: str) -> list[tuple[Limit, str]]:
    """The limits ``person`` (counted for the account, else the browser session) and
    ``address`` (for the client's address), for :func:`take_all`."""
    who = (
        f"user:{request.user.pk}"
        if request.user.is_authenticated
        else f"session:{request.session.session_key}"
    )
    return [(limit(person), who), (limit(address), f"ip:{client_ip(request)}")]


def retry_after(rule: Limit, who: str) -> int:
    """0 while ``who`` is under ``rule``'s count; else the seconds until its window ends."""
    key, left = _key(rule, who, time.time())
    return left if int(cache.get(key, 0)) >= rule.count else 0


def too_many(request: HttpRequest, seconds: int, what: str) -> HttpResponse:
    """The answer to a request over a limit: a page that says what, and when to try again
    (HTTP 429, with ``Retry-After``); to htmx, that sentence alone, for the page's script to
    show where it shows a request's error."""
    minutes = max(1, -(-seconds // 60))
    if request.headers.get("HX-Request"):
        # htmx swaps nothing on a 429: the page's script shows this sentence instead.
        sentence = f"{what} Please wait {minutes} minute{'s' if minutes > 1 else ''} and try again."
        response = HttpResponse(sentence, status=429, content_type="text/plain; charset=utf-8")
    else:
        response = render(
            request,
            "429.html",
            {"what": what, "minutes": minutes, "seconds": seconds},
            status=429,
        )
    response["Retry-After"] = str(seconds)
    return response
