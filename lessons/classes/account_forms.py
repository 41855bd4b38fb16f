"""The forms of the slips, the new passwords and renaming (lessons.classes.account_views)."""

from __future__ import annotations

from typing import Any

from django import forms

from lessons.classes.forms import STALE, USERNAME_RE
from lessons.classes.models import Membership, SchoolClass


class PickForm(forms.Form):
    """Some students of a class (still in it: on the roster or archived). For the slips
    (``?student=`` in the address; none ticked: everyone on the roster) and for new
    passwords (at least one)."""

    student = forms.ModelMultipleChoiceField(
        label="Students",
        queryset=Membership.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(
        self, school_class: SchoolClass, *args: Any, required: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["student"]
        field.queryset = school_class.memberships.present().select_related(  # type: ignore[attr-defined]
            "student", "student__managed"
        )
        field.required = required
        field.error_messages["invalid_choice"] = STALE
        field.error_messages["required"] = "Tick at least one student."
        self.school_class = school_class

    def chosen(self) -> list[Membership]:
        """The students ticked, or everyone on the roster when none is; by username."""
        picked = list(self.cleaned_data.get("student") or [])
        if not picked:
            field = self.fields["student"]
            picked = list(field.queryset.filter(archived__isnull=True))  # type: ignore[attr-defined]
        return sorted(picked, key=lambda m: m.student.get_username().casefold())


class RenameForm(forms.Form):
    """A new username for an account a teacher made."""

    username = forms.CharField(
        label="New username",
        max_length=30,
        help_text=(
            "2 to 30 letters, digits, “_”, “.” or “-”. The student logs in with it from now "
            "on: tell him, or print him a new slip."
        ),
    )

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"].strip()
        if not USERNAME_RE.fullmatch(name):
            raise forms.ValidationError(
                f"“{name}” cannot be a username: 2 to 30 letters, digits, “_”, “.” or “-”, "
                "starting with a letter or digit."
            )
        return name
