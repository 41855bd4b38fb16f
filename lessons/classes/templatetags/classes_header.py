"""The header's links for a student of a class (issue 37): "Assignments" among the sections,
and his unread announcements beside his name, linked to the class of the newest. Only a
session noted as a student's (lessons.classes.middleware.STUDENT, at login or on joining)
shows them, and only the announcements ask the database (one query)."""

from __future__ import annotations

from typing import Any

from django import template

from lessons.classes.middleware import STUDENT
from lessons.classes.models import Announcement

register = template.Library()


def _student(context: template.Context) -> Any:
    """The logged-in student the page is for, or None."""
    request = context.get("request")
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is None or session is None or not user.is_authenticated:
        return None
    return user if session.get(STUDENT) else None


@register.inclusion_tag("classes/_header_assignments.html", takes_context=True)
def student_assignments(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return {
        "student": _student(context) is not None,
        "here": match.view_name if match else "",
    }


@register.inclusion_tag("classes/_header_notices.html", takes_context=True)
def student_notices(context: template.Context) -> dict[str, Any]:
    student = _student(context)
    if student is None:
        return {"unread": 0}
    unread = list(
        Announcement.objects.unread_by(student)
        .order_by("-posted", "-pk")
        .values_list("school_class_id", flat=True)[:100]
    )
    return {"unread": len(unread), "newest_class": unread[0] if unread else None}
