"""The accounts a teacher made for his students, after they are made (issue 37): login slips,
new one-time passwords for many at once, and renaming one.

**What a slip may show.** A one-time password is shown once, in the answer to the request that
made it (the accounts made, or a reset), and kept nowhere readable: the database has only its
hash (:mod:`lessons.classes.hashers`), and the student's first login replaces it. So a slip
printed later shows the username, the class, the site's address and how to log in, and for the
password either the student's own (he chose it) or a line for the teacher to write it on;
new passwords come only from a reset, which prints them on new slips at once. Keeping the
passwords readable until their first use (encrypted in the database, say) would let anyone who
reads a copy of the database log in to every account not yet used: a cheap hash of a random
password gives him nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from lessons.classes.access import classes_taught
from lessons.classes.hashers import one_time_hash
from lessons.classes.models import (
    ManagedStudent,
    Membership,
    SchoolClass,
    looks_taken,
    new_password,
    username_key,
    username_keys,
)


def can_reset(member: Membership) -> bool:
    """Any teacher of the class (owner or co-teacher) may give a new password to an account a
    teacher made, whoever made it; a student's own account looks after its own."""
    return hasattr(member.student, "managed")


def may_manage(teacher: Any, member: Membership) -> bool:
    """A teacher may delete or rename an account a teacher made if he made it, or if he
    teaches every class it is (or was) in: never an account its owner made, nor one another
    teacher's class still has (its teacher would find a name he does not know)."""
    managed = getattr(member.student, "managed", None)
    if managed is None:
        return False
    if managed.created_by_id == teacher.pk:
        return True
    mine = classes_taught(teacher).values("pk")
    return not member.student.memberships.exclude(school_class__in=mine).exists()


def bring_back(picked: Any, school_class: SchoolClass) -> int:
    """Put these students of ``school_class`` back on its roster (from the archive, or after
    they left), if they fit; how many of them are teacher-made accounts left without a
    password (they left their last class). Raises :class:`ClassFull`."""
    with transaction.atomic():
        school_class.hold_room(picked.exclude(archived__isnull=True, left__isnull=True).count())
        picked.update(archived=None, left=None)
        return sum(
            not m.student.has_usable_password()
            for m in picked.filter(student__managed__isnull=False).select_related("student")
        )


def give_new_passwords(members: Iterable[Membership]) -> dict[int, str]:
    """New one-time passwords for these students' accounts (those a teacher made; the others
    are left as they are): account id → its password, to be shown once. Every password is
    hashed first, outside any transaction (hashers.one_time_hash), then one short transaction
    writes them all. The old passwords stop working, and so do the sessions logged in with
    them (Django checks a session against its account's password hash)."""
    user_model = get_user_model()
    users = [m.student for m in members if can_reset(m)]
    passwords: dict[int, str] = {}
    for user in users:
        passwords[user.pk] = new_password()
        user.password = one_time_hash(passwords[user.pk])
    with transaction.atomic():
        user_model.objects.bulk_update(users, ["password"])
        ManagedStudent.objects.filter(user__in=users).update(one_time_password=True)
    return passwords


class NameRefused(ValueError):
    """Why a username cannot be given (the sentence to show)."""


def rename(member: Membership, username: str) -> None:
    """Give the student's account another username (it logs in with it from now on). Refused
    (:class:`NameRefused`) when another account's name looks like it: capitals and
    look-alike letters count as the same, as for every name."""
    student = member.student
    old = username_key(student.get_username())
    if username_keys(username) is None or looks_taken_by_another(username, old):
        raise NameRefused(
            f"The username “{username}” is taken, or looks too like one that is (capitals "
            "and look-alike letters count as the same)."
        )
    student.username = username
    with transaction.atomic():  # a name taken at the same moment fails alone
        student.save(update_fields=["username"])  # its key follows (keep_username_key)


def looks_taken_by_another(username: str, own_key: str) -> bool:
    """Whether a name that looks like ``username`` is taken, the account's own key aside
    (renaming ``adalovelace`` to ``AdaLovelace`` is no clash)."""
    if username_key(username) == own_key:
        return False
    return looks_taken(username)


@dataclass(frozen=True)
class Slip:
    """One student's login slip: his real name (as his teacher wrote it, else his username),
    his username, and the one-time password when it was just made ("" otherwise).
    ``made``: a teacher made the account; ``waiting``: its one-time password is still the
    one to use (none chosen yet)."""

    name: str
    username: str
    password: str
    made: bool
    waiting: bool


def slips_for(members: Iterable[Membership], passwords: dict[int, str] | None = None) -> list[Slip]:
    """The slips of these students, in the order given; ``passwords``: those just made, by
    account id (the only time they can be printed)."""
    passwords = passwords or {}
    slips = []
    for m in members:
        managed = getattr(m.student, "managed", None)
        slips.append(
            Slip(
                name=m.real_name or m.student.get_username(),
                username=m.student.get_username(),
                password=passwords.get(m.student_id, ""),
                made=managed is not None,
                waiting=managed is not None and managed.one_time_password,
            )
        )
    return slips
