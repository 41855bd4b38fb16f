"""A student whose account a teacher made logs in with a one-time password: until he has chosen
his own, every page but the password form (and logging out) leads him to it."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse

from lessons.classes.models import ManagedStudent, Membership

#: Where a student with a one-time password may go.
OPEN_TO_HIM = ("password-change", "password-changed", "logout")

SAY = "Choose your own password first: the one your teacher gave you works only once."


class OneTimePasswordMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.open = tuple(reverse(name) for name in OPEN_TO_HIM)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and request.session.get("one-time-password")
            and not request.path.startswith(self.open)
            and not request.path.startswith(("/static/", "/healthz/"))
        ):
            if ManagedStudent.objects.filter(user=user, one_time_password=True).exists():
                messages.info(request, SAY)
                return redirect("password-change")
            request.session.pop("one-time-password", None)
        return self.get_response(request)


def note_one_time_password(
    sender: object, request: HttpRequest, user: object, **kwargs: object
) -> None:
    """At login, remember in the session whether the password was a one-time one (so that the
    middleware asks the database only then)."""
    if ManagedStudent.objects.filter(user=user, one_time_password=True).exists():  # type: ignore[misc]
        request.session["one-time-password"] = True


#: The session's note that its account is a student of a class: the header then shows him
#: "Assignments" and his unread announcements (templatetags/classes_header.py), and nobody
#: else's page pays a query for them.
STUDENT = "classes:student"


def note_student(sender: object, request: HttpRequest, user: object, **kwargs: object) -> None:
    """At login, note in the session whether the account is in a class (joining one notes it
    too)."""
    request.session[STUDENT] = Membership.objects.filter(student=user, left__isnull=True).exists()  # type: ignore[misc]


def first_class_url(user: object) -> str:
    """Where a student goes once he has chosen his password: the page of the class he joined
    last (its assignments and announcements are there), else his list of classes."""
    row = (
        Membership.objects.filter(student=user, left__isnull=True)  # type: ignore[misc]
        .order_by("-joined", "-pk")
        .first()
    )
    return row.school_class.get_absolute_url() if row else reverse("classes:list")


def password_chosen(user: object) -> None:
    ManagedStudent.objects.filter(user=user).update(one_time_password=False)  # type: ignore[misc]


__all__ = [
    "STUDENT",
    "OneTimePasswordMiddleware",
    "first_class_url",
    "note_one_time_password",
    "note_student",
    "password_chosen",
]
