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

import itertools
import json
import secrets
import unicodedata
from functools import cache
from importlib.resources import files
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
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


#: Bidirectional marks that the confusables data writes around right-to-left characters.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _look_alikes() -> dict[str, tuple[str, ...]]:
    """Each character that looks like ASCII characters → those characters, letters first:
    Cyrillic ``а`` → ``a``, Greek ``Ο`` → ``O``, ``0``, Arabic-Indic ``١`` and Roman ``Ⅰ`` →
    ``I``, ``l``, ``1``, ``|`` (and ASCII ``I`` → the same). From Unicode's confusables, as
    confusable_homoglyphs ships them: characters that look alike form classes (those of one
    skeleton), and a character's look-alikes are the ASCII ones of its class. Only
    characters of other scripts are read so (:func:`_readings`): ``l`` and ``1`` may look
    alike in some fonts, but a name written in plain letters and digits is what its owner
    typed."""
    data = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text())
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c

    for char, glyphs in data.items():
        for glyph in glyphs:
            a, b = root(char.translate(_MARKS)), root(glyph["c"].translate(_MARKS))
            if a != b:
                parent[a] = b
    classes: dict[str, list[str]] = {}
    for c in list(parent):
        classes.setdefault(root(c), []).append(c)
    look: dict[str, tuple[str, ...]] = {}
    for members in classes.values():
        plain = [c for c in members if len(c) == 1 and c.isascii()]
        for c in members:
            if plain and len(c) == 1:
                look[c] = tuple(sorted(plain, key=lambda p: (not p.isalpha(), p)))
    return look


@cache
def _readings(char: str) -> tuple[str, ...]:
    """The ways a character of a username may be read, the first being the one its key
    keeps. An ASCII character: itself. Any other: a digit of another script, its value
    (``١`` → ``1``); its NFKC form if that is ASCII (fullwidth ``Ａ`` → ``A``, Roman ``Ⅱ`` →
    ``II``), each of its characters also read as their look-alikes; the ASCII characters it
    looks like (:func:`_look_alikes`); failing all these, its NFKC form."""
    if char.isascii():
        return (char,)
    look = _look_alikes()
    plain = unicodedata.normalize("NFKC", char)
    found: list[str] = []
    digit = unicodedata.digit(char, None)
    if digit is not None:
        found.append(str(digit))
    if plain and plain.isascii():
        options = [(c, *look.get(c, ())) for c in plain]
        found.extend("".join(p) for p in itertools.islice(itertools.product(*options), 64))
    found.extend(look.get(char, ()))
    if len(plain) == 1:
        found.extend(look.get(plain, ()))
    return tuple(dict.fromkeys(found)) or (plain,)


def _key(shown: str) -> str:
    return unicodedata.normalize("NFKC", shown.casefold())


def username_key(username: str) -> str:
    """What two usernames that look alike have in common: each character read as
    :func:`_readings` first reads it (another script's look-alikes as ASCII, digits of other
    scripts as ASCII digits), case folded, NFKC again (folding can undo it). ``Ada``,
    ``ADA``, ``Ａｄａ`` and ``Аda`` (a Cyrillic А) have the same key; so have ``bS1``,
    ``bS١`` and ``bSⅠ``."""
    return _key(read_as_ascii(username))


def read_as_ascii(text: str) -> str:
    """``text`` with each character as its key reads it (:func:`_readings`): look-alikes of
    other scripts and their digits as ASCII, anything else as it is."""
    return "".join(_readings(c)[0] for c in text)


#: At most this many keys are tried for one username (a name made of nothing but
#: ambiguous characters of other scripts has more): beyond them it counts as taken.
MAX_READINGS = 256


def username_keys(username: str) -> set[str] | None:
    """Every key a username may be read as (``bSⅠ``: those of ``bS1``, ``bSI``, ``bSl``,
    ``bS|``), or None if there are more than MAX_READINGS. An account's stored key is its
    first (:func:`username_key`); a new name looks taken if any of its keys is stored."""
    keys: set[str] = set()
    for shown in itertools.product(*(_readings(c) for c in username)):
        keys.add(_key("".join(shown)))
        if len(keys) > MAX_READINGS:
            return None
    return keys


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
    """Whether an account's name already looks like ``username`` (read any way it may be)."""
    keys = username_keys(username)
    return keys is None or UsernameKey.objects.filter(key__in=keys).exists()


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
        """Each class with ``size``, its students on the roster (not archived, not left)."""
        return self.annotate(
            size=models.Count(
                "memberships",
                filter=models.Q(memberships__archived__isnull=True, memberships__left__isnull=True),
            )
        )

    def taught_by(self, user: Any) -> SchoolClassQuerySet:
        """The classes ``user`` owns or co-teaches (a subquery, not a join: a class with
        several co-teachers is still one row, and counts annotated on it stay right)."""
        co_taught = CoTeacher.objects.filter(teacher=user).values("school_class")
        return self.filter(models.Q(teacher=user) | models.Q(pk__in=co_taught))


class SchoolClass(models.Model):
    """A teacher's class: a name, a description, a join code and a roster. ``teacher`` owns
    it; its co-teachers (:class:`CoTeacher`) do everything he does but delete it, change who
    co-teaches and hand it over."""

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

    def is_owner(self, user: Any) -> bool:
        return bool(getattr(user, "is_authenticated", False)) and self.teacher_id == user.pk

    def teachers(self) -> list[Any]:
        """The owner, then the co-teachers by name."""
        return [self.teacher, *(c.teacher for c in self.co_teachers.select_related("teacher"))]

    @property
    def can_join(self) -> bool:
        """Whether the join code lets students in now."""
        return self.joining_open and self.archived is None

    def room(self) -> int:
        """How many more students the class can take: those archived or gone do not count
        (their rows stay, with their results, but they are off the roster)."""
        return max(0, MAX_STUDENTS - self.memberships.active().count())

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
        """On the roster: neither archived nor gone from the class."""
        return self.filter(archived__isnull=True, left__isnull=True)

    def present(self) -> MembershipQuerySet:
        """Still in the class (archived ones included), not gone from it."""
        return self.filter(left__isnull=True)


class Membership(models.Model):
    """A student in a class. ``real_name`` and ``notes`` are for the class's teacher only.

    A student removed from the class keeps his row, with ``left`` set: off the roster and
    unable to start work, but his attempts stay in every teacher view ("left the class") and
    he can still read his own feedback. Joining again, or the teacher bringing him back,
    clears it (one row per class and student, always)."""

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
    #: When the student was removed from the class (or his account deleted): kept with his
    #: results, off the roster, no new work; None while he is in it.
    left = models.DateTimeField(null=True, blank=True)

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


class CoTeacher(models.Model):
    """A teacher who teaches a class beside its owner: he sees and does all the owner does,
    but delete the class, change its co-teachers or hand it over."""

    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="co_teachers"
    )
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes_co_taught"
    )
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["teacher__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["school_class", "teacher"], name="one_co_teacher_row_per_class"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.teacher} co-teaches {self.school_class}"


# -- deleting an account without losing its results --------------------------------------------


def keep_results(user: Any, *, real_names: bool) -> Any:
    """Before ``user`` is deleted: his quiz attempts, and his rows in the classes he took them
    in, go to a placeholder account (inactive, no password, named "a deleted account (…)"),
    so that no teacher's results change. ``real_names``: keep what his teachers wrote of him
    (a teacher deleting an account he made); else the real names and notes go with the
    account. Returns the placeholder, or None if there was nothing to keep."""
    attempts = user.quiz_attempts.all()
    if not attempts.exists():
        return None
    placeholder = get_user_model()(
        username=f"{DELETED_ACCOUNT} ({secrets.token_hex(3)})", is_active=False
    )
    placeholder.set_unusable_password()
    placeholder.save()
    rows = Membership.objects.filter(
        student=user, school_class__in=attempts.values("assignment__school_class")
    )
    rows.filter(left__isnull=True).update(left=timezone.now())
    rows.update(student=placeholder, **({} if real_names else {"real_name": "", "notes": ""}))
    attempts.update(student=placeholder)
    return placeholder


def before_deleting(user: Any, *, by_teacher: bool = False) -> None:
    """What deleting an account must do first (inside its transaction): keep its results
    (:func:`keep_results`; the real names its teachers wrote stay only when a teacher deletes
    it), and hand each class it owns to its longest-standing co-teacher, so that a class
    others teach does not vanish with one of them."""
    keep_results(user, real_names=by_teacher)
    for school_class in SchoolClass.objects.filter(teacher=user):
        heir = school_class.co_teachers.order_by("added", "pk").first()
        if heir is not None:
            heir.delete()
            SchoolClass.objects.filter(pk=school_class.pk).update(teacher=heir.teacher_id)


#: How a deleted account's results are named (a space: no account can sign up so named).
DELETED_ACCOUNT = "a deleted account"


# -- a class's tables (issue 29) ---------------------------------------------------------------


class ClassTable(models.Model):
    """A table for people (``games.PeopleTable``) that a teacher opened for his class: members
    only, its students invited, the teacher its host who watches and does not sit. ``number``
    names it within the class ("Table 2"); ``students_choose``: any student of the class may
    sit there, else the teacher seats them (``lessons.classes.tables``)."""

    school_class = models.ForeignKey(SchoolClass, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.PeopleTable", on_delete=models.CASCADE, related_name="class_table"
    )
    number = models.PositiveSmallIntegerField()
    students_choose = models.BooleanField(default=False)

    class Meta:
        ordering = ["school_class", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["school_class", "number"], name="one_table_number_per_class"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.school_class}"


# -- announcements (issue 37) -------------------------------------------------------------------

#: The longest announcement: a short notice, not a newsletter.
ANNOUNCEMENT_LENGTH = 500


class AnnouncementQuerySet(models.QuerySet["Announcement"]):
    def unread_by(self, student: Any) -> AnnouncementQuerySet:
        """The announcements of the classes ``student`` is in (not left) that he has not
        marked read, newest first."""
        present = Membership.objects.filter(student=student, left__isnull=True)
        return self.filter(school_class__in=present.values("school_class")).exclude(
            reads__student=student
        )


class Announcement(models.Model):
    """A short notice a teacher of a class posts to it: plain text (escaped when shown, never
    read as markup), shown to the class's students on its page and, until each has read it,
    in his header (:class:`AnnouncementRead`)."""

    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="announcements"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(max_length=ANNOUNCEMENT_LENGTH)
    posted = models.DateTimeField(auto_now_add=True)

    objects = AnnouncementQuerySet.as_manager()

    class Meta:
        ordering = ["-posted", "-pk"]

    def __str__(self) -> str:
        return f"Announcement to {self.school_class}: {self.text[:40]}"


class AnnouncementRead(models.Model):
    """A student marked an announcement read: it leaves his header."""

    announcement = models.ForeignKey(Announcement, on_delete=models.CASCADE, related_name="reads")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    read = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["announcement", "student"], name="one_read_per_announcement_and_student"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.student} read {self.announcement_id}"
