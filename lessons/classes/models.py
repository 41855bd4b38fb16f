"""Teachers, classes and students (issue 15).

Anyone with an account may say "I teach" (a :class:`Teacher` row); a teacher makes classes
(:class:`SchoolClass`), each with a join code and a roster of students (:class:`Membership`).
A student is an ordinary account that joined by the code, or one the teacher made for him
(a :class:`ManagedStudent`: no e-mail, a one-time password, and no classes of his own).
A student's real name is in his membership, seen by the class's teacher only; classmates see
usernames.

The quizzes, assignments and results that teachers give classes are in ``lessons.quizzes``.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from functools import cache
from importlib.resources import files
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

#: Join codes: letters and digits that cannot be mistaken for one another.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8

#: The most students a class may have.
MAX_STUDENTS = 100


class ClassFull(Exception):
    """Adding these students would take a class past MAX_STUDENTS."""


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_password() -> str:
    """A one-time password for a student account a teacher made: three groups of four
    letters and digits that cannot be mistaken for one another (about 60 bits)."""
    alphabet = CODE_ALPHABET.lower()
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3))


@cache
def _look_alikes() -> dict[str, str]:
    """Each character of another script (or a symbol) that looks like an ASCII character →
    that character (the first in code order if several): Cyrillic ``а`` → ``a``, Greek
    ``Ο`` → ``O``. From Unicode's confusables, as confusable_homoglyphs ships them. ASCII
    characters are left alone: ``l`` and ``1`` may look alike in some fonts, but a name
    written in plain letters and digits is what its owner typed."""
    data = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text())
    look: dict[str, str] = {}
    for char, glyphs in data.items():
        plain = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii()]
        if len(char) == 1 and not char.isascii() and plain:
            look[char] = min(plain)
    return look


def username_key(username: str) -> str:
    """What two usernames that look alike have in common: NFKC, each character of another
    script that looks like an ASCII one written as it (:func:`_look_alikes`), case folded,
    NFKC again (folding can undo it). ``Ada``, ``ADA``, ``Ａｄａ`` and ``Аda`` (a Cyrillic
    А) have the same key."""
    look = _look_alikes()
    plain = unicodedata.normalize("NFKC", username)
    shown = "".join(look.get(c, c) for c in plain)
    return unicodedata.normalize("NFKC", shown.casefold())


def is_teacher(user: object) -> bool:
    """Whether ``user`` has said "I teach" (a managed student never can)."""
    return bool(getattr(user, "is_authenticated", False)) and hasattr(user, "teacher")


def is_managed(user: object) -> bool:
    """Whether ``user`` is a student account a teacher made."""
    return bool(getattr(user, "is_authenticated", False)) and hasattr(user, "managed")


class UsernameKey(models.Model):
    """Every account's :func:`username_key`, kept beside it (written whenever an account is
    saved: :func:`keep_username_key`), so that a new name is checked against all the others
    with one query."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=300, db_index=True)

    def __str__(self) -> str:
        return self.key


def keep_username_key(sender: object, instance: Any, update_fields: Any = None, **_: Any) -> None:
    """After an account is saved (signed up, made for a class, in the admin, renamed): its key."""
    if update_fields is not None and "username" not in update_fields:
        return  # a login's last_login, a new password: the name is as it was
    UsernameKey.objects.update_or_create(
        user=instance, defaults={"key": username_key(instance.get_username())}
    )


def looks_taken(username: str) -> bool:
    """Whether an account's name already looks like ``username``."""
    return UsernameKey.objects.filter(key=username_key(username)).exists()


class Teacher(models.Model):
    """An account that teaches: it may make classes."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="teacher"
    )
    since = models.DateTimeField(auto_now_add=True)
    #: Dates of the teacher's assignments are shown in this time zone (an IANA name).
    time_zone = models.CharField(max_length=64, default="Europe/London")

    def __str__(self) -> str:
        return f"Teacher {self.user}"


class ManagedStudent(models.Model):
    """A student account a teacher made: it cannot make classes or change its username."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="managed"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="students_made",
    )
    created = models.DateTimeField(auto_now_add=True)
    #: The password is the one-time password the teacher was shown (at creation or a reset):
    #: the student must choose his own before going on (lessons.classes.middleware).
    one_time_password = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"Managed student {self.user}"


class SchoolClassQuerySet(models.QuerySet["SchoolClass"]):
    def active(self) -> SchoolClassQuerySet:
        return self.filter(archived__isnull=True)

    def archived(self) -> SchoolClassQuerySet:
        return self.filter(archived__isnull=False)

    def annotate_size(self) -> SchoolClassQuerySet:
        """Each class with ``size``, its students not archived."""
        return self.annotate(
            size=models.Count("memberships", filter=models.Q(memberships__archived__isnull=True))
        )


class SchoolClass(models.Model):
    """A teacher's class: a name, a description, a join code and a roster."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes_taught"
    )
    name = models.CharField(max_length=100)
    # Free text is capped (a long text 20,000 characters, a short one 2,000, as Lichess's
    # classes are): one account must not be able to store megabytes a minute.
    description = models.TextField(blank=True, max_length=20_000)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    joining_open = models.BooleanField(default=True)
    #: When the class was archived (read-only, results kept); None while it is in use.
    archived = models.DateTimeField(null=True, blank=True)
    copied_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies"
    )
    created = models.DateTimeField(auto_now_add=True)
    students = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="classes_joined"
    )

    objects = SchoolClassQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = "class"
        verbose_name_plural = "classes"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("classes:class", args=[self.pk])

    @property
    def is_archived(self) -> bool:
        return self.archived is not None

    @property
    def can_join(self) -> bool:
        """Whether the join code lets students in now."""
        return self.joining_open and self.archived is None

    def room(self) -> int:
        """How many more students the class can take (archived students count too)."""
        return max(0, MAX_STUDENTS - self.memberships.count())

    def hold_room(self, arriving: int) -> None:
        """Inside a transaction about to add ``arriving`` students: lock the class's row, so
        that others adding students wait for this transaction, then check that they fit (a
        form checked it before, but two students may have joined in between). Raises
        :class:`ClassFull` when they do not."""
        list(SchoolClass.objects.select_for_update().filter(pk=self.pk).values_list("pk"))
        room = self.room()
        if arriving > room:
            raise ClassFull(
                f"“{self}” is full ({MAX_STUDENTS} students at most)"
                + (f": it has room for {room} more." if room else ": ask the teacher.")
            )

    def archive(self) -> None:
        self.archived = timezone.now()
        self.save(update_fields=["archived"])

    def restore(self) -> None:
        self.archived = None
        self.save(update_fields=["archived"])

    def new_code(self) -> None:
        self.join_code = new_join_code()
        self.save(update_fields=["join_code"])


class MembershipQuerySet(models.QuerySet["Membership"]):
    def active(self) -> MembershipQuerySet:
        return self.filter(archived__isnull=True)


class Membership(models.Model):
    """A student in a class. ``real_name`` and ``notes`` are for the class's teacher only."""

    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="memberships"
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    real_name = models.CharField(max_length=150, blank=True)
    notes = models.TextField(blank=True, max_length=2_000)
    joined = models.DateTimeField(auto_now_add=True)
    #: When the teacher archived the student: kept with his results, off the roster.
    archived = models.DateTimeField(null=True, blank=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["student__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["school_class", "student"], name="one_membership_per_class_and_student"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.student} in {self.school_class}"
