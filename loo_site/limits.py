"""The rate limits: one registry of every limit, one way to count against them, one answer.

A limit is a number of events in a fixed window of seconds, counted per *who*, in the cache
every worker and every machine share (games.caches). Each is declared once, at the foot of
this module, with :func:`declare`: its name, its count, its window, what it counts per
(:class:`Per`: the client's address, the account, the account or else the browser session,
a name tried at login, a browser), and what the 429 page says when it is reached.

**To add a limit:**

1. Declare it below: ``declare("widgets-per-account", 50, 3600, Per.ACCOUNT, "Too many
   widgets have been made.")``, with a sibling ``-per-address`` one (a script can make
   accounts; an address cannot be made so cheaply). Its count can then be set by a
   deployment as ``DJANGO_LIMIT_WIDGETS_PER_ACCOUNT`` (settings.LIMIT_COUNTS), and replaced
   with its window by a test: ``override_settings(RATE_LIMITS={**settings.RATE_LIMITS,
   "widgets-per-account": (2, 3600)})``.
2. Count it where the work starts, before anything is made or stored: for a POST of classes
   or quizzes, add the view's URL name to :data:`CREATING`; elsewhere
   ``if refused := limits.check(request, "widgets-per-account", "widgets-per-address"):
   return refused``. :func:`take` is the same but keeps what it counted, to
   :func:`give_back` if the work is refused after all; :func:`waiting` and :func:`failed`
   count only failures (wrong passwords, wrong codes).
3. Test it without waiting: the tests' ``limits_clock`` fixture (tests/conftest.py) stops
   :attr:`Registry.clock` at the start of an hour, where every window begins, and
   ``limits_clock.advance(seconds)`` moves it on to the next window.

:func:`take` counts and decides in one step, so that N requests at once let exactly the
limit's count through (counting first, then giving back a count over the limit). While the
cache is down a limit lets requests through (a lesson must not stop because Redis did),
except those declared ``makes_accounts``: those are refused with a 503 page
(:func:`cannot_count`), since an outage must not open the way to making accounts without
limit.

**The client** (:func:`client_address`): the address the nearest trusted proxy saw
(:func:`client_ip`: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES`` reverse proxies the entry
they added to ``X-Forwarded-For``, read from its right: whatever a client writes into that
header itself stands further left and is never read), with an IPv6 address taken as its
/64, since one household or server is given a whole /64 and would otherwise have 2**64
counts. An IPv4 address, and an IPv4-mapped IPv6 address (``::ffff:192.0.2.1``), is its
IPv4 address. django-axes locks a name at the same client.

**Passwords and codes** are counted by loo_site.attempts (its AttemptLimitMiddleware):
logging in, signing up, changing the password, deleting the account, joining a class.

**What creates or stores rows** (:class:`CreationLimitMiddleware`): every POST of
:data:`CREATING`, per account and per client, counted before the view does any work.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render

from games.caches import CacheUnavailable


class Per(Enum):
    """What a limit counts per."""

    #: The client (:func:`client_address`): an IPv4 address, an IPv6 /64.
    ADDRESS = "ip"
    #: The account; a request without one is not counted.
    ACCOUNT = "user"
    #: The account, else the browser session.
    PERSON = "person"
    #: A name tried at login (the caller says which).
    NAME = "name"
    #: A browser that has logged in to a name (the caller says which).
    DEVICE = "device"


@dataclass(frozen=True)
class Limit:
    """A limit: ``count`` events in a window of ``seconds``, per ``per``; ``what`` the 429
    page says; ``makes_accounts``: refused while it cannot be counted; ``at_once``: a cap on
    what is open at once (:func:`hold`)."""

    name: str
    count: int
    seconds: int
    per: Per
    what: str
    makes_accounts: bool = False
    #: Held at once, not counted in a window (:func:`hold`): ``count`` places, each kept
    #: ``seconds`` unless refreshed.
    at_once: bool = False


@dataclass(frozen=True)
class Taken:
    """One counted event: the window's key (for :func:`give_back`), the seconds to wait (0:
    within the limit), how many it counted, and how many the window had before it."""

    key: str
    wait: int = 0
    n: int = 1
    before: int = 0


@dataclass(frozen=True)
class Slot:
    """A place held of a limit :func:`hold` caps at once: its cache key ("": not counted, the
    cache being down), the holder's token in it, and for how many seconds it is held unless
    refreshed."""

    key: str
    token: str
    seconds: int


class LimitsUnavailable(Exception):
    """The shared cache is down and the limit must hold (it guards making accounts)."""


#: How many times :meth:`Registry.take` tries to count an event before it treats the cache
#: as down.
_TRIES = 10


class Registry:
    """Every limit by name, and the clock their windows are counted by (tests stop it and
    move it on: ``limits_clock`` in tests/conftest.py)."""

    def __init__(self) -> None:
        self.limits: dict[str, Limit] = {}
        self.clock: Callable[[], float] = time.time

    def declare(self, limit: Limit) -> Limit:
        if limit.name in self.limits:
            raise ValueError(f"The limit {limit.name!r} is declared twice.")
        self.limits[limit.name] = limit
        return limit

    def __getitem__(self, name: str) -> Limit:
        """The limit ``name`` with its count and window as the settings have them: replaced
        by ``RATE_LIMITS`` (tests), else its count by ``DJANGO_LIMIT_<NAME>``."""
        declared = self.limits[name]
        counts: dict[str, int] = settings.LIMIT_COUNTS
        if name in settings.RATE_LIMITS:
            count, seconds = settings.RATE_LIMITS[name]
            return replace(declared, count=int(count), seconds=int(seconds))
        if name in counts:
            return replace(declared, count=counts[name])
        return declared

    def check_counts(self, counts: dict[str, int]) -> None:
        """Refuse counts set for limits that are not declared (a misspelt variable)."""
        if unknown := sorted(set(counts) - set(self.limits)):
            names = ", ".join(f"DJANGO_LIMIT_{n.upper().replace('-', '_')}" for n in unknown)
            raise ImproperlyConfigured(f"{names}: no such limit (loo_site.limits).")

    def _key(self, limit: Limit, who: str) -> tuple[str, int]:
        """The cache key of ``who``'s count in the window now, and the seconds to its end."""
        now = self.clock()
        window = int(now // limit.seconds)
        digest = hashlib.sha256(who.encode()).hexdigest()[:32]
        return f"limit:{limit.name}:{digest}:{window}", int((window + 1) * limit.seconds - now) + 1

    def take(self, limit: Limit, who: str, n: int = 1) -> Taken:
        """Count ``n`` events of ``limit`` for ``who`` unless that goes over its count (then
        nothing is counted, and ``wait`` says for how long). With the cache down the events
        are allowed, or refused with :class:`LimitsUnavailable` if the limit
        ``makes_accounts``."""
        key, left = self._key(limit, who)
        try:
            for attempt in range(_TRIES):
                # Django's database cache answers an ``add`` it could not write (another
                # worker's insert, a busy database) with False, as if the key were there:
                # the incr then finds no key, and the pair is tried again after a moment.
                shared_cache.add(key, 0, timeout=left + 1)
                try:
                    count = int(shared_cache.incr(key, n))
                    break
                except CacheUnavailable:
                    raise
                except ValueError:  # not written, or expired between the two calls
                    time.sleep(0.002 * (attempt + 1))
            else:  # never counted: as with the cache down, never as a free pass
                raise CacheUnavailable("The count could not be written.")
        except CacheUnavailable:
            if limit.makes_accounts:
                raise LimitsUnavailable from None
            return Taken(key, 0, 0)
        if count > limit.count:
            give_back(Taken(key, left, n))
            return Taken(key, left, n, count - n)
        return Taken(key, 0, n, count - n)

    def hit(self, limit: Limit, who: str) -> None:
        """Count one event of ``limit`` for ``who``, whatever the count (a failure)."""
        key, left = self._key(limit, who)
        if shared_cache.add(key, 1, timeout=left + 1):
            return
        try:
            shared_cache.incr(key)
        except ValueError:  # expired between the two calls (or the cache is down)
            shared_cache.add(key, 1, timeout=left + 1)

    def retry_after(self, limit: Limit, who: str) -> int:
        """0 while ``who`` is under ``limit``'s count; else the seconds until its window
        ends."""
        key, left = self._key(limit, who)
        return left if int(shared_cache.get(key, 0)) >= limit.count else 0

    def hold(self, limit: Limit, who: str) -> Slot | None:
        """One of ``limit``'s ``count`` places for ``who``, taken for ``limit.seconds``
        (:class:`Slot`); None if every place is held. A place is a cache key added only if
        it is not there (``add`` is atomic in Redis and in the database's cache), so N
        holders at once take at most ``count`` places. While the cache cannot be written
        (down), the hold is let through uncounted (``Slot("")``)."""
        digest = hashlib.sha256(who.encode()).hexdigest()[:32]
        keys = [f"hold:{limit.name}:{digest}:{n}" for n in range(limit.count)]
        held = shared_cache.get_many(keys)
        token = secrets.token_hex(8)
        for key in keys:
            if key in held:
                continue
            if shared_cache.add(key, token, timeout=limit.seconds):
                return Slot(key, token, limit.seconds)
            if shared_cache.get(key) is None:
                return Slot("", token, limit.seconds)  # not written, nor held: the cache is down
        return None


#: The one registry.
LIMITS = Registry()


def declare(
    name: str,
    count: int,
    seconds: int,
    per: Per,
    what: str,
    *,
    makes_accounts: bool = False,
    at_once: bool = False,
) -> Limit:
    """Declare a limit (see the module's note). ``at_once``: ``count`` held at once, each
    place kept ``seconds`` unless refreshed (:func:`hold`)."""
    return LIMITS.declare(Limit(name, count, seconds, per, what, makes_accounts, at_once))


def limit(name: str) -> Limit:
    """The limit ``name``, with its count and window as the settings have them."""
    return LIMITS[name]


# -- who is counted -----------------------------------------------------------------------------


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


def client_address(request: HttpRequest) -> str:
    """The client the limits (and django-axes) count: the IPv4 address (an IPv4-mapped IPv6
    address is its IPv4 address), or the first address of the IPv6 address's /64."""
    raw = client_ip(request)
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Address(int(address) >> 64 << 64))
    return str(address)


def account(user: Any) -> str:
    """Who an account's count is kept for."""
    return f"user:{user.pk}"


def _who(request: HttpRequest, limit: Limit, who: str | None) -> str | None:
    """Who ``request`` is counted as for ``limit`` (None: not counted)."""
    if limit.per in (Per.NAME, Per.DEVICE):
        if who is None:
            raise ValueError(f"The limit {limit.name!r} counts per {limit.per.name}: say who.")
        return f"{limit.per.value}:{who}"
    if limit.per is Per.ADDRESS:
        return f"ip:{client_address(request)}"
    if request.user.is_authenticated:
        return account(request.user)
    if limit.per is Per.PERSON:
        return f"session:{request.session.session_key}"
    return None


# -- counting -----------------------------------------------------------------------------------


def take(
    request: HttpRequest, *names: str, what: str | None = None, who: str | None = None
) -> list[Taken] | HttpResponse:
    """Count one event of ``request`` against each limit named, before any work: what was
    counted (for :func:`give_back` should the work be refused after all), or, over any of
    them, nothing counted and the answer to give: the 429 page, saying ``what`` or else the
    limit's own sentence (the 503 page if a limit that ``makes_accounts`` cannot be
    counted). ``who``: the name or browser a NAME or DEVICE limit counts."""
    taken: list[Taken] = []
    for name in names:
        rule = limit(name)
        counted = _who(request, rule, who)
        if counted is None:
            continue
        try:
            took: Taken | None = LIMITS.take(rule, counted)
        except LimitsUnavailable:
            took = None
        if took is None or took.wait:
            give_back(*taken)
            if took is None:
                return cannot_count(request)
            return too_many(request, took.wait, what or rule.what)
        taken.append(took)
    return taken


def check(request: HttpRequest, *names: str, what: str | None = None) -> HttpResponse | None:
    """:func:`take`, for work that is never refused after it is counted: the answer to give
    instead of doing the work, else None (counted)."""
    taken = take(request, *names, what=what)
    return taken if isinstance(taken, HttpResponse) else None


def give_back(*taken: Taken) -> None:
    """Uncount events :func:`take` counted (if their window has not ended)."""
    for each in taken:
        # The window may have ended (or the cache be down): then there is nothing to give.
        with contextlib.suppress(ValueError):
            if each.n:
                shared_cache.decr(each.key, each.n)


def waiting(request: HttpRequest, *names: str, who: str | None = None) -> HttpResponse | None:
    """For limits that count failures (:func:`failed`), before the attempt: the 429 page if
    ``request`` has reached any of them, else None (nothing counted)."""
    for name in names:
        rule = limit(name)
        counted = _who(request, rule, who)
        if counted is not None and (wait := LIMITS.retry_after(rule, counted)):
            return too_many(request, wait, rule.what)
    return None


def failed(request: HttpRequest, *names: str, who: str | None = None) -> None:
    """Count a failed attempt of ``request`` against each limit named."""
    for name in names:
        rule = limit(name)
        counted = _who(request, rule, who)
        if counted is not None:
            LIMITS.hit(rule, counted)


def name_waits(names: list[str]) -> dict[str, int]:
    """Of these login names (casefolded), those that wrong passwords from anywhere have
    locked ("guesses-per-name"), with the seconds each must still wait. One cache read."""
    rule = limit("guesses-per-name")
    keys = {LIMITS._key(rule, f"{Per.NAME.value}:{name}"): name for name in names}
    try:
        counts = shared_cache.get_many([key for key, _left in keys])
    except CacheUnavailable:
        return {}
    return {
        name: left for (key, left), name in keys.items() if int(counts.get(key, 0)) >= rule.count
    }


def clear_name(name: str) -> None:
    """Forget the wrong passwords counted for the login name (casefolded) from anywhere (a
    teacher unlocks his student: lessons.classes.lockouts)."""
    key, _left = LIMITS._key(limit("guesses-per-name"), f"{Per.NAME.value}:{name}")
    with contextlib.suppress(CacheUnavailable):
        shared_cache.delete(key)


# -- what is open at once -----------------------------------------------------------------------


@dataclass
class Held:
    """The places one open thing (a live stream) holds, one a limit: :meth:`refresh` them
    while it is open (more often than their limits' seconds), :meth:`release` them when it
    ends. A holder that dies without releasing (a killed worker) loses its places when they
    are not refreshed: after their seconds."""

    slots: list[Slot]

    def refresh(self) -> bool:
        """Hold each place again for its seconds; False if one was lost meanwhile (expired,
        the cache emptied) and taken by another holder since: the holder should end."""
        for slot in self.slots:
            if not slot.key or shared_cache.touch(slot.key, slot.seconds):
                continue
            # Expired (a long pause, a restarted cache): taken again if it is still free.
            taken = not shared_cache.add(slot.key, slot.token, timeout=slot.seconds)
            if taken and shared_cache.get(slot.key) not in (None, slot.token):
                return False
        return True

    def release(self) -> None:
        """Give the places back (only those still this holder's)."""
        for slot in self.slots:
            if slot.key and shared_cache.get(slot.key) == slot.token:
                shared_cache.delete(slot.key)


def hold(request: HttpRequest, *names: str, what: str | None = None) -> Held | HttpResponse:
    """Take a place of each limit named (declared ``at_once``) for ``request``, before the
    open thing is opened: the places held (:class:`Held`), or, if any limit's places are all
    held, none kept and the 429 page, saying ``what`` or else the limit's sentence and that
    closing another lets this one open."""
    held = Held([])
    for name in names:
        rule = limit(name)
        if not rule.at_once:
            raise ValueError(f"The limit {name!r} is not declared at_once.")
        counted = _who(request, rule, None)
        if counted is None:
            continue
        slot = LIMITS.hold(rule, counted)
        if slot is None:
            held.release()
            return too_many(request, rule.seconds, what or rule.what, at_once=True)
        held.slots.append(slot)
    return held


# -- the answers --------------------------------------------------------------------------------


def too_many(
    request: HttpRequest, seconds: int, what: str, *, at_once: bool = False
) -> HttpResponse:
    """The answer to a request over a limit: a page that says what, and when to try again
    (HTTP 429, with ``Retry-After``); to htmx, that sentence alone, for the page's script to
    show where it shows a request's error. ``at_once``: a cap on what is open at once, which
    closing one of them lifts."""
    minutes = max(1, -(-seconds // 60))
    if at_once:
        what = f"{what} Close one of them (a page in another tab or on another device)."
    if request.headers.get("HX-Request"):
        # htmx swaps nothing on a 429: the page's script shows this sentence instead.
        sentence = f"{what} Please wait {minutes} minute{'s' if minutes > 1 else ''} and try again."
        if at_once:
            sentence = what  # the page says what it does meanwhile (play.js: a live stream)
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


def cannot_count(request: HttpRequest) -> HttpResponse:
    """The answer while the limits on making accounts cannot be counted (the shared cache is
    down): HTTP 503, with when to try again."""
    response = render(request, "limits_down.html", status=503)
    response["Retry-After"] = "60"
    return response


# -- what creates or stores rows ------------------------------------------------------------


@dataclass(frozen=True)
class Creating:
    """A kind of POST that stores rows: the limits it counts against (the client's first),
    and what the 429 page says if not their own sentence."""

    limits: tuple[str, ...]
    what: str | None = None


_CLASSES = Creating(("classes-per-address", "classes-per-account"))
_ROSTER = Creating(("roster-per-address", "roster-per-account"))
_QUIZZES = Creating(("quizzes-per-address", "quizzes-per-account"))
_ASSIGNMENTS = Creating(("assignments-per-address", "assignments-per-account"))
_ANSWERS = Creating(("answers-per-address", "answers-per-account"))

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
    "classes:lockouts": _ROSTER,  # a teacher unlocks his students
    "classes:remove-student": _ROSTER,
    "classes:reset-password": _ROSTER,
    # A class's tables (lessons.classes.tables): opening them counts as tables for people do.
    "classes:open-tables": Creating(
        ("people-tables-per-address", "class-tables-per-account"),
        "Too many tables have been opened.",
    ),
    "classes:table-seats": _ROSTER,
    "classes:start-tables": _ROSTER,
    "classes:take-away": _ROSTER,
    "classes:sit": _ROSTER,
    "classes:add-students": Creating(("student-lists-per-address", "student-lists-per-account")),
    # Issue 37: new passwords in bulk cost a hash each, as a list does; renaming, a roster's
    # change; announcements their own count, and a student marking them read a roster's.
    "classes:new-passwords": Creating(("student-lists-per-address", "student-lists-per-account")),
    "classes:rename-student": _ROSTER,
    "classes:announce": Creating(("announcements-per-address", "announcements-per-account")),
    "classes:announcement-remove": _ROSTER,
    "classes:announcements-read": _ROSTER,
    "quizzes:quiz-new": _QUIZZES,
    "quizzes:quiz-edit": _QUIZZES,
    "quizzes:own-save": Creating(("own-questions-per-address", "own-questions-per-account")),
    "quizzes:own-delete": Creating(("own-questions-per-address", "own-questions-per-account")),
    "quizzes:assign": _ASSIGNMENTS,
    "quizzes:assignment-edit": _ASSIGNMENTS,
    "quizzes:assignment-delete": _ASSIGNMENTS,
    "quizzes:regrade": _ASSIGNMENTS,
    "quizzes:exception": _ASSIGNMENTS,  # one student's exception
    "quizzes:exceptions": _ASSIGNMENTS,  # a group's exceptions
    "quizzes:report": Creating(("reports-per-address", "reports-per-account")),
    "quizzes:attempt-start": Creating(("attempts-per-address", "attempts-per-account")),
    # Issue 39: a reader's report of an error in a passage (no account needed).
    "lessons:report-error": Creating(("corrections-per-address", "corrections-per-account")),
    "quizzes:attempt-answer": _ANSWERS,
    "quizzes:attempt-submit": _ANSWERS,
}


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
        return check(request, *creating.limits, what=creating.what)


# -- the limits ---------------------------------------------------------------------------------
#
# Far above what a teacher, a student or a player does in earnest, far below what a script
# does; per address as well as per account, for a school's classes share one address.

GUESSES = "There have been too many wrong passwords from your network."
NAME = (
    "There have been too many wrong passwords for this name. If you are in a class, your "
    "teacher can unlock it."
)
SIGN_UPS = "Too many accounts have been made (or tried) from your network."
JOINS = "There have been too many wrong join codes."

# Wrong passwords (logging in, changing the password, deleting the account): from one client,
# in ten minutes and (a burst of hashes holds up every page) in one; for one name from
# everywhere (a guess spread over many addresses), except from a browser that has logged in
# to it before (its own count); for one account.
declare("guesses-per-address", 150, 600, Per.ADDRESS, GUESSES)
declare("guesses-per-address-minute", 60, 60, Per.ADDRESS, GUESSES)
declare("guesses-per-name", 20, 900, Per.NAME, NAME)
declare("guesses-per-device", 5, 900, Per.DEVICE, NAME)
declare(
    "guesses-per-account",
    5,
    900,
    Per.ACCOUNT,
    "There have been too many wrong passwords for this account.",
)
# Accounts made; and forms refused (a taken name, a weak password), in a shorter window.
declare("sign-ups-per-address", 60, 3600, Per.ADDRESS, SIGN_UPS, makes_accounts=True)
declare("failed-sign-ups-per-address", 30, 600, Per.ADDRESS, SIGN_UPS, makes_accounts=True)
# Wrong codes for joining a class.
declare("joins-per-address", 40, 600, Per.ADDRESS, JOINS)
declare("joins-per-account", 10, 600, Per.ACCOUNT, JOINS)

# Questions made (lessons.trainer: a drill, its next question, a lesson's step).
declare(
    "drills-per-address",
    300,
    600,
    Per.ADDRESS,
    "Too many questions have been asked from your network.",
)
# Practice tables dealt (games.practice.service.reserve_table).
TABLES = "Too many practice tables have been dealt."
declare("tables-per-session", 30, 600, Per.PERSON, TABLES)
declare("tables-per-address", 200, 600, Per.ADDRESS, TABLES)
# The coach's answers and reviews computed (games.practice.coaching: a cached one is free), each
# 0.1 to 1 s of a worker: a learner asks at most once a decision.
COACH = "The coach has been asked too many times lately."
declare("coach-per-session", 60, 600, Per.PERSON, COACH)
declare("coach-per-address", 600, 600, Per.ADDRESS, COACH)

# Tables for people (games.people.views): opening and joining tables, decisions (a person
# plays well under 2 a second); the live connections open at once (games.people.live: one a
# page; a teacher watches each of his class's tables; a school shares an address), each
# place held a minute unless its stream's heartbeat holds it again.
PEOPLE_TABLES = "Too many tables for people have been opened."
declare("people-tables-per-account", 30, 3600, Per.ACCOUNT, PEOPLE_TABLES)
declare("people-tables-per-address", 300, 3600, Per.ADDRESS, PEOPLE_TABLES)
declare("people-joins-per-account", 60, 600, Per.ACCOUNT, "Too many tries at joining tables.")
declare("people-joins-per-address", 600, 600, Per.ADDRESS, "Too many tries at joining tables.")
declare("people-actions-per-account", 120, 60, Per.ACCOUNT, "Too many decisions, too fast.")
declare("people-actions-per-address", 3000, 60, Per.ADDRESS, "Too many decisions, too fast.")
# The fixed phrases said at a table (a few a minute is plenty between friends).
PHRASES = "Too many phrases said, too fast: wait a minute."
declare("people-phrases-per-account", 6, 60, Per.ACCOUNT, PHRASES)
declare("people-phrases-per-address", 600, 60, Per.ADDRESS, PHRASES)
# Wrong table codes (typed, or in an invitation's link), counted before the look-up: six of 32
# signs can be guessed by a script, not by a classroom's typos.
CODES = "There have been too many wrong table codes."
declare("people-codes-per-account", 10, 600, Per.ACCOUNT, CODES)
declare("people-codes-per-address", 60, 600, Per.ADDRESS, CODES)
STREAMS = "Too many live pages of tables are open."
declare("people-streams-per-account", 24, 60, Per.ACCOUNT, STREAMS, at_once=True)
declare("people-streams-per-address", 300, 60, Per.ADDRESS, STREAMS, at_once=True)

# Classes (CREATING): made or copied; their rosters and tables changed; their tables opened.
CLASSES = "Too many classes have been made or copied."
declare("classes-per-account", 30, 3600, Per.ACCOUNT, CLASSES)
declare("classes-per-address", 100, 3600, Per.ADDRESS, CLASSES)
ROSTER = "Too many changes have been made to classes."
declare("roster-per-account", 300, 3600, Per.ACCOUNT, ROSTER)
declare("roster-per-address", 1000, 3600, Per.ADDRESS, ROSTER)
declare("class-tables-per-account", 20, 3600, Per.ACCOUNT, "Too many tables have been opened.")
NOTICES = "Too many announcements have been posted."
declare("announcements-per-account", 20, 3600, Per.ACCOUNT, NOTICES)
declare("announcements-per-address", 100, 3600, Per.ADDRESS, NOTICES)
# A teacher's lists of students' names (each makes accounts), and the accounts they make
# (lessons.classes.forms: counted per name on the list).
LISTS = "Too many lists of students have been sent."
declare("student-lists-per-account", 20, 3600, Per.ACCOUNT, LISTS, makes_accounts=True)
declare("student-lists-per-address", 60, 3600, Per.ADDRESS, LISTS, makes_accounts=True)
declare(
    "accounts-per-teacher",
    150,
    3600,
    Per.ACCOUNT,
    "Too many student accounts have been made.",
    makes_accounts=True,
)

# Quizzes (CREATING): made or edited; assignments set; problems reported; attempts started
# and answered (a cap per minute no student reaches in earnest).
QUIZZES = "Too many quizzes have been made or edited."
declare("quizzes-per-account", 100, 3600, Per.ACCOUNT, QUIZZES)
declare("quizzes-per-address", 300, 3600, Per.ADDRESS, QUIZZES)
QUESTIONS = "Too many questions of your own have been saved."
declare("own-questions-per-account", 100, 3600, Per.ACCOUNT, QUESTIONS)
declare("own-questions-per-address", 300, 3600, Per.ADDRESS, QUESTIONS)
ASSIGNMENTS = "Too many assignments have been set."
declare("assignments-per-account", 100, 3600, Per.ACCOUNT, ASSIGNMENTS)
declare("assignments-per-address", 300, 3600, Per.ADDRESS, ASSIGNMENTS)
REPORTS = "Too many problems have been reported."
declare("reports-per-account", 20, 3600, Per.ACCOUNT, REPORTS)
declare("reports-per-address", 200, 3600, Per.ADDRESS, REPORTS)
CORRECTIONS = "Too many errors have been reported from here lately: thank you, and try later."
declare("corrections-per-address", 20, 3600, Per.ADDRESS, CORRECTIONS)
declare("corrections-per-account", 20, 3600, Per.ACCOUNT, CORRECTIONS)
ATTEMPTS = "Too many attempts have been started."
# Launches from learning platforms (lessons.lti): each, per address; the accounts they make,
# per address and per platform, like sign-ups (a school's classroom shares an address).
LAUNCHES = "Too many launches from learning platforms have come from your network."
declare("lti-launches-per-address", 600, 600, Per.ADDRESS, LAUNCHES)
LTI_ACCOUNTS = "Too many accounts have been made by launches: try again later."
declare("lti-accounts-per-address", 300, 3600, Per.ADDRESS, LTI_ACCOUNTS, makes_accounts=True)
declare("lti-accounts-per-platform", 3000, 3600, Per.NAME, LTI_ACCOUNTS, makes_accounts=True)
declare("lti-syncs-per-account", 20, 3600, Per.ACCOUNT, "Too many class list syncs.")
declare("attempts-per-account", 10, 60, Per.ACCOUNT, ATTEMPTS)
declare("attempts-per-address", 200, 60, Per.ADDRESS, ATTEMPTS)
ANSWERS = "Too many answers, too fast."
declare("answers-per-account", 60, 60, Per.ACCOUNT, ANSWERS)
declare("answers-per-address", 2000, 60, Per.ADDRESS, ANSWERS)

# A deployment's DJANGO_LIMIT_<NAME> must name one of these: checked as the site starts (its
# middleware, and every check of manage.py, import this module).
LIMITS.check_counts(settings.LIMIT_COUNTS)
