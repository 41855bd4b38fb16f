"""The forms of the class pages: every POST goes through one of these."""

from __future__ import annotations

import contextlib
import re
import secrets
import zoneinfo
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii
from confusable_homoglyphs import categories  # type: ignore[import-untyped]
from django import forms
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import MAX_PLAYERS, MIN_PLAYERS
from games.people.forms import NewPeopleTableForm
from lessons.classes import tables
from lessons.classes.models import (
    MAX_STUDENTS,
    Membership,
    SchoolClass,
    UsernameKey,
    is_managed,
    read_as_ascii,
    username_key,
)
from loo_site import limits

TIME_ZONES = sorted(zoneinfo.available_timezones())

#: A username the teacher writes himself: plain letters, digits, ``_ . -``.
USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,29}$")

STALE = "This form is out of date (the page changed since it was shown): nothing was changed."


class TeachForm(forms.Form):
    """The account page's "I teach", with the time zone the quizzes show dates in."""

    teaches = forms.BooleanField(label="I teach", required=False)
    time_zone = forms.ChoiceField(
        label="My time zone",
        choices=[(z, z.replace("_", " ")) for z in TIME_ZONES],
        initial="Europe/London",
        help_text="Dates of the work you set are shown in it.",
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if is_managed(self.user):
            raise forms.ValidationError(
                "An account a teacher made for a student cannot teach. Nothing was changed."
            )
        if not data.get("teaches"):
            taught = SchoolClass.objects.taught_by(self.user).count()
            if taught:
                raise forms.ValidationError(
                    f"You still teach {taught} class{'es' if taught != 1 else ''}: delete "
                    "them, hand them over or step down first. Nothing was changed."
                )
        return data


class ClassForm(forms.ModelForm):
    class Meta:
        model = SchoolClass
        fields = ["name", "description"]
        help_texts = {"description": "Your students see it on the class's page."}


def clean_code(value: str) -> str:
    """A join code as typed: case, spaces and dashes do not matter."""
    return re.sub(r"[\s-]", "", value).upper()


class JoinForm(forms.Form):
    """Join a class by its code (as an account, or while signing up)."""

    code = forms.CharField(label="The class's join code", max_length=40)
    real_name = forms.CharField(
        label="Your real name (optional)",
        max_length=150,
        required=False,
        help_text="Only your teacher sees it; your classmates see your username.",
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        self.user = user
        self.school_class: SchoolClass | None = None
        super().__init__(*args, **kwargs)

    def clean_code(self) -> str:
        code = clean_code(self.cleaned_data["code"])
        found = SchoolClass.objects.filter(join_code=code).select_related("teacher").first()
        if found is None:
            raise forms.ValidationError(
                "No class has this code. Check it with your teacher.", code="unknown"
            )
        if not found.can_join:
            raise forms.ValidationError(
                "This class is not taking new students just now: ask your teacher.",
                code="closed",
            )
        user = self.user
        if getattr(user, "is_authenticated", False):
            if SchoolClass.objects.taught_by(user).filter(pk=found.pk).exists():
                raise forms.ValidationError("You teach this class.", code="teacher")
            if found.memberships.present().filter(student=user).exists():
                raise forms.ValidationError("You are in this class already.", code="member")
        if found.room() <= 0:
            raise forms.ValidationError(
                f"This class is full ({MAX_STUDENTS} students): ask your teacher.", code="full"
            )
        self.school_class = found
        return code

    def join(self, user: Any) -> Membership:
        """The membership made, or the one of a student who had left brought back (his work
        in the class is his again); :class:`ClassFull` if the class filled up since the form
        was checked (nothing is then written)."""
        assert self.school_class is not None
        real_name = self.cleaned_data.get("real_name", "")
        with transaction.atomic():
            self.school_class.hold_room(1)
            membership, made = Membership.objects.get_or_create(
                school_class=self.school_class, student=user, defaults={"real_name": real_name}
            )
            if not made:
                membership.left = membership.archived = None
                membership.real_name = real_name or membership.real_name
                membership.save(update_fields=["left", "archived", "real_name"])
            return membership


# -- making student accounts ------------------------------------------------------------------


@dataclass
class NewStudent:
    real_name: str
    username: str
    password: str = ""


def username_from(real_name: str) -> str:
    """A username made from a real name: its words in Latin letters, capitalised and run
    together, at most 20 characters; ``Student`` if nothing is left. Accents go (``Ève
    d'Arcy`` → ``EveDArcy``); other scripts are transliterated (``Анна Иванова`` →
    ``AnnaIvanova``, ``Γιώργος`` → ``Giorgos``). A word that mixes Latin with another script
    is a look-alike (``Аda``, its А Cyrillic): its look-alikes are read as the ASCII they
    look like first, so it is ``Ada``, as the key of the name reads it."""
    words = []
    for word in real_name.split():
        scripts = {_script(c) for c in word if c.isalpha()}
        if "LATIN" in scripts and len(scripts) > 1:
            word = read_as_ascii(word)
        words.append("".join(c if c.isascii() else _transliterated(c) for c in word))
    plain = re.findall(r"[A-Za-z0-9]+", " ".join(words))
    return "".join(w[:1].upper() + w[1:] for w in plain)[:20] or "Student"


def _script(char: str) -> str:
    try:
        return str(categories.alias(char))
    except Exception:  # a character the script table lacks
        return "UNKNOWN"


def _transliterated(char: str) -> str:
    """A letter or digit of a name in Latin letters and digits only (anyascii writes a soft
    sign as an apostrophe, which is no part of a word); nothing for anything else (an emoji
    would become its name)."""
    return re.sub(r"[^A-Za-z0-9]", "", anyascii(char)) if char.isalnum() else ""


#: How long one teacher's list may be in the making before he may send another (a worker
#: killed midway leaves the lock behind: it goes by itself).
MAKING_SECONDS = 60

BUSY = (
    "A list of yours is being made just now: wait until its page of passwords has come, "
    "then send this one again. No account was made from it."
)

#: Account creation fails closed: without the shared cache, no limit can be counted.
NO_CACHE = (
    "Accounts cannot be made just now (the site is under repair): try again in a few minutes."
)


def _making_key(teacher: Any) -> str:
    return f"classes:making-accounts:{teacher.pk}"


def start_making(teacher: Any) -> str | None:
    """Take the teacher's lock before any work on a list of names: None if this list may be
    made now, else why not (another of his lists is being made, or the cache is down). One
    list at a time per teacher, so two forms sent at once never both run."""
    try:
        taken = cache.add(_making_key(teacher), 1, timeout=MAKING_SECONDS)
    except Exception:  # the cache's own errors (Redis, or its database table) are not ours
        return NO_CACHE
    return None if taken else BUSY


def stop_making(teacher: Any) -> None:
    with contextlib.suppress(Exception):  # else the lock goes by itself after MAKING_SECONDS
        cache.delete(_making_key(teacher))


class AddStudentsForm(forms.Form):
    """A list of real names, one a line, each optionally followed by ``= username``."""

    names = forms.CharField(
        label="Your students' names, one a line",
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20_000,  # a hundred long names, with chosen usernames
        help_text=(
            "A username is made from each name; to choose it yourself, write it after an equals "
            "sign: “Ada Lovelace = ada1815”. Only you see the real names."
        ),
    )
    token = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, school_class: SchoolClass, teacher: Any, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        self.teacher = teacher
        self.students: list[NewStudent] = []
        #: The accounts this form counted against the teacher's limit (given back if they
        #: are not made).
        self.reserved: limits.Taken | None = None
        super().__init__(*args, **kwargs)

    def clean_names(self) -> list[NewStudent]:
        lines = [line.strip() for line in self.cleaned_data["names"].splitlines()]
        wanted: list[tuple[int, str, str]] = []
        errors: list[str] = []
        for number, line in enumerate(lines, 1):
            if not line:
                continue
            name, _, chosen = (part.strip() for part in line.partition("="))
            if len(name) > 150:
                errors.append(f"Line {number}: the name is longer than 150 characters.")
            elif chosen and not USERNAME_RE.fullmatch(chosen):
                errors.append(
                    f"Line {number}: “{chosen}” cannot be a username: 2 to 30 letters, digits, "
                    "“_”, “.” or “-”, starting with a letter or digit."
                )
            wanted.append((number, name or chosen, chosen))
        if not wanted:
            raise forms.ValidationError("Write at least one name.")
        room = self.school_class.room()
        if len(wanted) > room:
            errors.append(
                f"A class has at most {MAX_STUDENTS} students: this one has room for {room} "
                f"more, and the list has {len(wanted)}."
            )
        if errors:
            raise forms.ValidationError(errors)
        self._reserve(len(wanted))
        try:
            return self._usernames(wanted)
        except forms.ValidationError:
            self.give_back()
            raise

    def _reserve(self, n: int) -> None:
        """Count the accounts asked for against the teacher's limit (``accounts-per-teacher``)
        before any is made (and before the usernames are worked out): a refused list does no
        work."""
        rule = limits.limit("accounts-per-teacher")
        try:
            taken = limits.LIMITS.take(rule, limits.account(self.teacher), n)
        except Exception as error:  # the cache is down: account creation fails closed
            raise forms.ValidationError(NO_CACHE) from error
        if taken.wait:
            raise forms.ValidationError(
                f"You can make at most {rule.count} student accounts an hour, and have "
                f"made {taken.before} this hour: try again later, or with fewer names."
            )
        self.reserved = taken

    def give_back(self) -> None:
        """The accounts reserved were not made: they do not count."""
        if self.reserved:
            with contextlib.suppress(Exception):  # the cache's own errors: nothing to give
                limits.give_back(self.reserved)
            self.reserved = None

    def _usernames(self, wanted: list[tuple[int, str, str]]) -> list[NewStudent]:
        errors: list[str] = []
        taken = set(UsernameKey.objects.values_list("key", flat=True))
        students: list[NewStudent] = []
        for number, name, chosen in wanted:
            if chosen:
                if username_key(chosen) in taken:
                    errors.append(
                        f"Line {number}: the username “{chosen}” is taken, or looks too like "
                        "one that is (capitals and look-alike letters count as the same)."
                    )
                    continue
                username = chosen
            else:
                base = username_from(name)
                username, n = base, 1
                while username_key(username) in taken:
                    n += 1
                    username = f"{base}{n}"
            taken.add(username_key(username))
            students.append(NewStudent(real_name=name, username=username))
        if errors:
            raise forms.ValidationError(errors)
        return students


# -- a class's roster -------------------------------------------------------------------------


class StudentForm(forms.ModelForm):
    """The teacher's own words about a student: real name and notes."""

    class Meta:
        model = Membership
        fields = ["real_name", "notes"]
        labels = {"notes": "Private notes"}
        help_texts = {"real_name": "Only you see it.", "notes": "Only you see them."}


class RosterActionForm(forms.Form):
    """The roster's checkboxes and what to do with the students ticked."""

    ACTIONS = [
        ("slips", "Print login slips (and give new passwords)"),
        ("move", "Move to another class"),
        ("archive", "Archive"),
        ("restore", "Bring back (from the archive, or after leaving)"),
        ("remove", "Remove from the class"),
    ]
    action = forms.ChoiceField(label="With the students ticked", choices=ACTIONS)
    students = forms.ModelMultipleChoiceField(
        label="Students", queryset=Membership.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    target = forms.ModelChoiceField(
        label="Move them to", queryset=SchoolClass.objects.none(), required=False
    )

    def __init__(self, school_class: SchoolClass, teacher: Any, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        super().__init__(*args, **kwargs)
        students: QuerySet[Membership] = school_class.memberships.select_related("student")
        self.fields["students"].queryset = students  # type: ignore[attr-defined]
        self.fields["students"].error_messages["invalid_choice"] = STALE
        self.fields["students"].error_messages["required"] = "Tick at least one student."
        others = SchoolClass.objects.active().taught_by(teacher)
        self.fields["target"].queryset = others.exclude(pk=school_class.pk)  # type: ignore[attr-defined]
        self.fields["target"].error_messages["invalid_choice"] = STALE

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") == "move" and "students" in data:
            target: SchoolClass | None = data.get("target")
            if target is None:
                raise forms.ValidationError("Choose the class to move them to.")
            moving = [m.student_id for m in data["students"]]
            arriving = len(moving) - target.memberships.active().filter(student__in=moving).count()
            if arriving > target.room():
                raise forms.ValidationError(
                    f"“{target}” has room for {target.room()} more students "
                    f"(at most {MAX_STUDENTS}): nothing was moved."
                )
        return data


class CoTeacherForm(forms.Form):
    """The owner adds a co-teacher by his username: an account that has said "I teach"."""

    action = forms.CharField(widget=forms.HiddenInput, initial="add")
    username = forms.CharField(label="The teacher's username", max_length=150)

    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        name = data.get("username", "").strip()
        if not name:
            return data
        found = (
            get_user_model()
            .objects.filter(username__iexact=name, teacher__isnull=False, is_active=True)
            .first()
        )
        if found is None:
            raise forms.ValidationError(
                f"No teacher has the username “{name}”: he must have an account and have said "
                "“I teach” on his account page. Nobody was added.",
                code="unknown",
            )
        if (
            found.pk == self.school_class.teacher_id
            or self.school_class.co_teachers.filter(teacher=found).exists()
        ):
            raise forms.ValidationError(f"{found.get_username()} teaches this class already.")
        if self.school_class.memberships.filter(student=found).exists():
            raise forms.ValidationError(
                f"{found.get_username()} is a student of this class: a student cannot teach it."
            )
        data["teacher"] = found
        return data


class CodeForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("open", "Open joining"), ("close", "Close joining"), ("new", "New code")]
    )


class CopyForm(forms.Form):
    name = forms.CharField(label="The new class's name", max_length=100)
    with_students = forms.BooleanField(
        label="With the same students (those not archived)", required=False
    )


class TypeToConfirm(forms.Form):
    """A deletion confirmed by typing the name of what goes (``what``: "the class's name")."""

    confirm = forms.CharField(max_length=150)

    def __init__(self, expected: str, what: str, *args: Any, **kwargs: Any) -> None:
        self.expected, self.what = expected, what
        super().__init__(*args, **kwargs)
        self.fields["confirm"].label = f"Type {what} to confirm"

    def clean_confirm(self) -> str:
        typed: str = self.cleaned_data["confirm"]
        if typed.strip() != self.expected.strip():
            raise forms.ValidationError(
                f"That is not {self.what}. Nothing has been deleted.", code="mismatch"
            )
        return typed


class DeleteClassForm(TypeToConfirm):
    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        super().__init__(school_class.name, "the class's name", *args, **kwargs)


class DeleteStudentForm(TypeToConfirm):
    """A teacher deletes an account a teacher made: typing its username confirms."""

    def __init__(self, student: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(student.get_username(), "the student's username", *args, **kwargs)


# -- one-time form tokens ---------------------------------------------------------------------

_TOKENS = "classes:form-tokens"


def issue_token(request: HttpRequest) -> str:
    """A token for one POST of a form that must not be sent twice (a reload of the page
    that made accounts would make them again)."""
    token = secrets.token_urlsafe(16)
    tokens = request.session.get(_TOKENS, [])[-9:]
    request.session[_TOKENS] = [*tokens, token]
    return token


def spend_token(request: HttpRequest, token: str) -> bool:
    """Use a token up: False if it was never issued here or was used already."""
    tokens = request.session.get(_TOKENS, [])
    if token not in tokens:
        return False
    tokens.remove(token)
    request.session[_TOKENS] = tokens
    return True


class ClassTablesForm(NewPeopleTableForm):
    """Tables for a class: as a table for people (game, rule set, seats, computer players,
    mode, time for each decision), how many, and how the students sit. The limits are the
    class's: at most ``tables.MAX_OPEN_TABLES`` open at once, and when the teacher seats
    them, every student on the roster not yet at one of its tables seated."""

    players = forms.IntegerField(
        min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=5, label="Seats at each table"
    )
    tables = forms.IntegerField(
        min_value=1, max_value=tables.MAX_OPEN_TABLES, initial=1, label="How many tables"
    )
    seating = forms.ChoiceField(
        choices=[
            ("seat", "I seat them: the students are dealt round the tables, evenly"),
            ("choose", "They choose: any student of the class sits at any of its tables"),
        ],
        initial="seat",
        widget=forms.RadioSelect,
        label="How the students sit",
    )

    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.school_class = school_class

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        count, seats = data.get("tables"), data.get("players")
        if count is None:
            return data
        open_now = tables.open_count(self.school_class)
        if open_now + count > tables.MAX_OPEN_TABLES:
            self.add_error(
                "tables", tables.TOO_MANY_TABLES.format(limit=tables.MAX_OPEN_TABLES, open=open_now)
            )
        if data.get("seating") == "seat" and seats is not None:
            n = len(tables.unseated(self.school_class))
            if n == 0:
                self.add_error("seating", tables.NO_STUDENTS)
            elif n > count * seats:
                text = tables.TOO_MANY_STUDENTS.format(
                    students=n, tables=count, s="s" if count != 1 else "", seats=seats
                )
                self.add_error("tables", text)
            elif count > n:
                self.add_error("tables", tables.MORE_TABLES_THAN_STUDENTS.format(students=n))
        return data

    def settings(self) -> dict[str, Any]:
        """What ``games.people.open_table`` is given."""
        data = self.cleaned_data
        return {
            "game": data["game"],
            "rules": data["rules"],
            "players": data["players"],
            "opponents": data["opponents"],
            "seconds_per_move": data["seconds_per_move"],
            "laws": data["mode"] == "laws",
        }


class SeatsForm(forms.Form):
    """Who sits in each seat of a class's table before it starts: a student of the class, or
    nobody (a computer player, or a student who chooses it)."""

    def __init__(self, table: Any, roster: list[Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = {u.pk: u for u in roster}
        choices = [("", "Nobody: a computer player")] + [(u.pk, u.get_username()) for u in roster]
        for seat in table.seats.all():
            self.fields[f"seat_{seat.number}"] = forms.TypedChoiceField(
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
                initial=seat.user_id,
                label=f"Seat {seat.number + 1}",
            )

    def wanted(self) -> dict[int, Any]:
        """Seat number → the student chosen for it, or None."""
        return {
            int(name.removeprefix("seat_")): self.roster.get(pk) if pk is not None else None
            for name, pk in self.cleaned_data.items()
        }
