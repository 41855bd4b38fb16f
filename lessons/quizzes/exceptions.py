"""Exceptions (Moodle's user and group overrides): a teacher gives one student, or a group of
students ticked on the roster, his own open, a later close, extra attempts and extra minutes
on a timed quiz, before or after they start. Every change is logged (:class:`ExceptionChange`:
who, when, what it became); attempts in progress get their new deadline at once.

The form reads dates in the teacher's time zone (the views activate it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db import transaction

from lessons.classes.models import Membership
from lessons.quizzes.forms import DateTimeInput
from lessons.quizzes.models import (
    MAX_ATTEMPTS,
    Assignment,
    AssignmentException,
    ExceptionChange,
)

#: The most extra minutes an exception gives an attempt (a school day).
MAX_EXTRA_MINUTES = 8 * 60
#: Changes listed on an assignment's exceptions page (the latest first).
LOG_SHOWN = 100
FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


class ExceptionForm(forms.Form):
    """One student's exception, or a group's (``members``: the roster to tick from). Every
    field empty (or 0): none, the assignment's terms (an exception taken back)."""

    opens = forms.DateTimeField(
        label="Opens for this student",
        required=False,
        widget=DateTimeInput(),
        input_formats=FORMATS,
        help_text="In your time zone, earlier or later than the assignment's; empty: its open.",
    )
    closes = forms.DateTimeField(
        label="A later close for this student",
        required=False,
        widget=DateTimeInput(),
        input_formats=FORMATS,
        help_text="In your time zone; leave empty to keep the assignment's close.",
    )
    extra_attempts = forms.IntegerField(
        label="Extra attempts",
        required=False,
        min_value=0,
        max_value=MAX_ATTEMPTS,
        help_text=f"0 to {MAX_ATTEMPTS}, beside the assignment's attempts.",
    )
    extra_minutes = forms.IntegerField(
        label="Extra time (minutes an attempt)",
        required=False,
        min_value=0,
        max_value=MAX_EXTRA_MINUTES,
        help_text=f"0 to {MAX_EXTRA_MINUTES}, added to the time limit of each attempt.",
    )

    def __init__(
        self,
        assignment: Assignment,
        *args: Any,
        instance: AssignmentException | None = None,
        members: Sequence[Membership] | None = None,
        **kwargs: Any,
    ) -> None:
        if instance is not None:
            kwargs.setdefault(
                "initial",
                {
                    "opens": instance.opens,
                    "closes": instance.closes,
                    "extra_attempts": instance.extra_attempts,
                    "extra_minutes": instance.extra_minutes,
                },
            )
        super().__init__(*args, label_suffix="", **kwargs)  # type: ignore[misc]
        self.assignment = assignment
        if not assignment.time_limit:
            del self.fields["extra_minutes"]
        if members is not None:
            for name in ("opens", "closes"):
                self.fields[name].label = self.fields[name].label.replace(  # type: ignore[union-attr]
                    "this student", "these students"
                )
            self.fields["students"] = forms.TypedMultipleChoiceField(
                label="Students",
                coerce=int,
                choices=[(m.student_id, member_label(m)) for m in members],
                widget=forms.CheckboxSelectMultiple,
                error_messages={"required": "Tick at least one student."},
            )
            self.order_fields(["students"])

    def clean_extra_attempts(self) -> int:
        value: int = self.cleaned_data.get("extra_attempts") or 0
        if value and self.assignment.attempts_allowed is None:
            raise forms.ValidationError("This assignment's attempts are unlimited already.")
        return value

    def clean_extra_minutes(self) -> int:
        return int(self.cleaned_data.get("extra_minutes") or 0)

    def clean_closes(self) -> Any:
        value = self.cleaned_data.get("closes")
        if value is not None and value <= self.assignment.closes:
            raise forms.ValidationError("A student's close is later than the assignment's.")
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens = data.get("opens")
        closes = data.get("closes") or self.assignment.closes
        if opens is not None and opens >= closes:
            self.add_error("opens", "A student's open is before his close.")
        return data

    def grants_nothing(self) -> bool:
        return not any(self.values().values())

    def values(self) -> dict[str, Any]:
        """The exception's fields as the form gives them."""
        data = self.cleaned_data
        return {
            "opens": data.get("opens"),
            "closes": data.get("closes"),
            "extra_attempts": data.get("extra_attempts") or 0,
            "extra_minutes": data.get("extra_minutes") or 0,
        }

    def students(self) -> list[int]:
        return list(self.cleaned_data.get("students", []))


def member_label(m: Membership) -> str:
    name = m.student.get_username()
    return f"{name} ({m.real_name})" if m.real_name else name


def apply(assignment: Assignment, students: list[int], form: ExceptionForm, teacher: Any) -> str:
    """Give ``students`` the exception of the (valid) ``form``, or take theirs back if it
    grants nothing; log each change; give their attempts in progress the new deadline.
    Returns what they have now, in words ("" for the assignment's terms)."""
    zone = assignment.time_zone()
    values = form.values()
    with transaction.atomic():
        if form.grants_nothing():
            AssignmentException.objects.filter(assignment=assignment, student__in=students).delete()
            what = ""
        else:
            exception = None
            for student in students:
                exception, _ = AssignmentException.objects.update_or_create(
                    assignment=assignment, student_id=student, defaults=values
                )
            assert exception is not None
            what = exception.words(zone)
        ExceptionChange.objects.bulk_create(
            ExceptionChange(assignment=assignment, student_id=s, teacher=teacher, what=what)
            for s in students
        )
        assignment.reset_deadlines(students)
    return what


@dataclass(frozen=True)
class Row:
    """A student of the roster on the exceptions page, with his exception in words."""

    membership: Membership
    words: str


def page_context(assignment: Assignment, form: ExceptionForm | None = None) -> dict[str, Any]:
    """The exceptions page: the roster (each with his exception), the form for a group, and
    the latest changes. A fixed number of queries."""
    zone = assignment.time_zone()
    members = list(
        Membership.objects.active()
        .filter(school_class=assignment.school_class_id)
        .select_related("student")
        .order_by("student__username")
    )
    own = {e.student_id: e for e in AssignmentException.objects.filter(assignment=assignment)}
    rows = [Row(m, own[m.student_id].words(zone) if m.student_id in own else "") for m in members]
    log = (
        ExceptionChange.objects.filter(assignment=assignment)
        .select_related("student", "teacher")
        .order_by("-when", "-pk")[:LOG_SHOWN]
    )
    return {
        "assignment": assignment,
        "rows": rows,
        "excepted": sum(bool(r.words) for r in rows),
        "form": form or ExceptionForm(assignment, members=members),
        "log": list(log),
        "log_shown": LOG_SHOWN,
    }


def student_context(assignment: Assignment, student: int) -> dict[str, Any]:
    """One student's exception in words and the form that sets it (a quiz only)."""
    if assignment.quiz_id is None:
        return {}
    exception = AssignmentException.objects.filter(assignment=assignment, student=student).first()
    return {
        "exception": exception.words(assignment.time_zone()) if exception else "",
        "exception_form": ExceptionForm(assignment, instance=exception),
    }
