"""Students locked out of logging in, and students removed from their classes.

**Locked.** Wrong passwords lock a name (loo_site.limits: django-axes after five at one
address, the "guesses-per-name" limit after twenty from anywhere). A class behind one school
address is not locked as a whole (the address's own count is a far looser backstop), but a
student who mistypes five times is, for a quarter of an hour. His teacher sees which of his
students are locked (:func:`locked`) and may unlock them (:func:`unlock`): both counts of
their names are forgotten.

**Removed.** A teacher-made account left in no class cannot log in (lessons.classes.leaving):
its password is disabled, not thrown away (:func:`disable_password`), so that a student who
gives it is told that his teacher removed his account from the class
(:func:`removed_from_class`), not that his password is wrong; such a login is no wrong
password, and counts towards no lock. A teacher's new password brings him back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX, check_password
from django.db.models import Max
from django.db.models.functions import Lower
from django.utils import timezone

from lessons.classes.models import ManagedStudent, Membership
from loo_site import limits

REMOVED = (
    "Your teacher has removed your account from the class, so it cannot log in for now. "
    "Your work is kept: ask your teacher to bring you back (he gives you a new password)."
)

#: The longest stored password that can still be kept disabled (the field holds 128).
_ROOM = 127


def disable_password(user: Any) -> None:
    """Make ``user``'s password unusable but keep its hash behind the unusable prefix (Django
    refuses any password for it), so that :func:`removed_from_class` can still recognise the
    right one. The caller saves ``user``."""
    if user.has_usable_password() and len(user.password) <= _ROOM:
        user.password = UNUSABLE_PASSWORD_PREFIX + user.password
    else:
        user.set_unusable_password()


def removed_from_class(username: str, password: str) -> bool:
    """Whether ``username`` is a teacher-made account removed from every class it was in and
    ``password`` its (disabled) password."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None or not user.password.startswith(UNUSABLE_PASSWORD_PREFIX):
        return False
    if not ManagedStudent.objects.filter(user=user).exists():
        return False
    mine = Membership.objects.filter(student=user)
    if mine.present().exists() or not mine.filter(left__isnull=False).exists():
        return False
    return check_password(password, user.password[len(UNUSABLE_PASSWORD_PREFIX) :])


@dataclass(frozen=True)
class Lock:
    """A student locked out of logging in: how, and until when (in minutes from now)."""

    membership: Membership
    minutes: int
    where: str


def locked(memberships: list[Membership]) -> list[Lock]:
    """Which of these students are locked out of logging in now. Two queries and one read of
    the cache, whatever their number."""
    by_name = {m.student.get_username().casefold(): m for m in memberships}
    if not by_name:
        return []
    now = timezone.now()
    cooloff = settings.AXES_COOLOFF_TIME
    cool = cooloff if isinstance(cooloff, timedelta) else timedelta(hours=cooloff)
    since = now - cool
    axes = dict(
        AccessAttempt.objects.annotate(name=Lower("username"))
        .filter(
            name__in=list(by_name),
            failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
            attempt_time__gte=since,
        )
        .values("name")
        .annotate(last=Max("attempt_time"))
        .values_list("name", "last")
    )
    waits = limits.name_waits(list(by_name))
    found = []
    for name, m in by_name.items():
        seconds = 0
        where = []
        if name in axes:
            seconds = int((axes[name] + cool - now).total_seconds())
            where.append("from one address")
        if name in waits:
            seconds = max(seconds, waits[name])
            where.append("from anywhere")
        if where:
            found.append(Lock(m, max(1, -(-seconds // 60)), " and ".join(where)))
    return sorted(found, key=lambda lock: lock.membership.student.get_username().casefold())


def unlock(memberships: list[Membership]) -> int:
    """Forget the wrong passwords counted for these students' names; how many were locked."""
    was = len(locked(memberships))
    names = [m.student.get_username().casefold() for m in memberships]
    AccessAttempt.objects.annotate(name=Lower("username")).filter(name__in=names).delete()
    for name in names:
        limits.clear_name(name)
    return was
