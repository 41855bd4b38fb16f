"""The forms of the class pages: every POST goes through one of these."""

from __future__ import annotations

import re
import secrets
import unicodedata
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from lessons.classes.models import (
    MAX_STUDENTS,
    Membership,
    SchoolClass,
    UsernameKey,
    is_managed,
    username_key,
)

#: How many student accounts one teacher may make in an hour (counted in Django's cache).
ACCOUNTS_PER_HOUR = 150

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
            taught = SchoolClass.objects.filter(teacher=self.user).count()
            if taught:
                raise forms.ValidationError(
                    f"You still teach {taught} class{'es' if taught != 1 else ''}: delete "
                    "them first. Nothing was changed."
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
            if found.teacher_id == user.pk:
                raise forms.ValidationError("You teach this class.", code="teacher")
            if found.memberships.filter(student=user).exists():
                raise forms.ValidationError("You are in this class already.", code="member")
        if found.room() <= 0:
            raise forms.ValidationError(
                f"This class is full ({MAX_STUDENTS} students): ask your teacher.", code="full"
            )
        self.school_class = found
        return code

    def join(self, user: Any) -> Membership:
        """The membership made; :class:`ClassFull` if the class filled up since the form
        was checked (nothing is then written)."""
        assert self.school_class is not None
        with transaction.atomic():
            self.school_class.hold_room(1)
            return Membership.objects.create(
                school_class=self.school_class,
                student=user,
                real_name=self.cleaned_data.get("real_name", ""),
            )


# -- making student accounts ------------------------------------------------------------------


@dataclass
class NewStudent:
    real_name: str
    username: str
    password: str = ""


def username_from(real_name: str) -> str:
    """A username made from a real name: its words without accents, capitalised and run
    together (``Ève d'Arcy`` → ``EveDArcy``), at most 20 characters; ``Student`` if nothing
    is left."""
    plain = unicodedata.normalize("NFKD", real_name).encode("ascii", "ignore").decode()
    words = re.findall(r"[A-Za-z0-9]+", plain)
    return "".join(w[:1].upper() + w[1:] for w in words)[:20] or "Student"


def _rate_key(teacher: Any, hour: int) -> str:
    return f"classes:accounts-made:{teacher.pk}:{hour}"


def accounts_made_this_hour(teacher: Any, hour: int) -> int:
    return int(cache.get(_rate_key(teacher, hour), 0))


def count_accounts_made(teacher: Any, hour: int, n: int) -> None:
    key = _rate_key(teacher, hour)
    cache.add(key, 0, timeout=2 * 3600)
    cache.incr(key, n)


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

    def __init__(
        self, school_class: SchoolClass, teacher: Any, hour: int, *args: Any, **kwargs: Any
    ) -> None:
        self.school_class = school_class
        self.teacher = teacher
        self.hour = hour
        self.students: list[NewStudent] = []
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
        made = accounts_made_this_hour(self.teacher, self.hour)
        if made + len(wanted) > ACCOUNTS_PER_HOUR:
            errors.append(
                f"You can make at most {ACCOUNTS_PER_HOUR} student accounts an hour, and have "
                f"made {made} this hour: try again later, or with fewer names."
            )
        if errors:
            raise forms.ValidationError(errors)
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
        ("move", "Move to another class"),
        ("archive", "Archive"),
        ("restore", "Bring back from the archive"),
        ("remove", "Remove from the class"),
    ]
    action = forms.ChoiceField(label="With the students ticked", choices=ACTIONS)
    students = forms.ModelMultipleChoiceField(
        label="Students", queryset=Membership.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    target = forms.ModelChoiceField(
        label="Move them to", queryset=SchoolClass.objects.none(), required=False
    )

    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        super().__init__(*args, **kwargs)
        students: QuerySet[Membership] = school_class.memberships.select_related("student")
        self.fields["students"].queryset = students  # type: ignore[attr-defined]
        self.fields["students"].error_messages["invalid_choice"] = STALE
        self.fields["students"].error_messages["required"] = "Tick at least one student."
        others = SchoolClass.objects.active().filter(teacher=school_class.teacher_id)
        self.fields["target"].queryset = others.exclude(pk=school_class.pk)  # type: ignore[attr-defined]
        self.fields["target"].error_messages["invalid_choice"] = STALE

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") == "move" and "students" in data:
            target: SchoolClass | None = data.get("target")
            if target is None:
                raise forms.ValidationError("Choose the class to move them to.")
            moving = [m.student_id for m in data["students"]]
            arriving = len(moving) - target.memberships.filter(student__in=moving).count()
            if arriving > target.room():
                raise forms.ValidationError(
                    f"“{target}” has room for {target.room()} more students "
                    f"(at most {MAX_STUDENTS}): nothing was moved."
                )
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


class DeleteClassForm(forms.Form):
    confirm = forms.CharField(label="Type the class's name to confirm", max_length=100)

    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        self.school_class = school_class
        super().__init__(*args, **kwargs)

    def clean_confirm(self) -> str:
        typed: str = self.cleaned_data["confirm"]
        if typed.strip() != self.school_class.name.strip():
            raise forms.ValidationError(
                "That is not the class's name. Nothing has been deleted.", code="mismatch"
            )
        return typed


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
