"""Who may see which class: the view helpers every page of classes (and of quizzes) goes
through. Anyone else's class is a 404, never a 403: its existence is not told."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from lessons.classes.models import SchoolClass


def classes_taught(user: Any) -> QuerySet[SchoolClass]:
    """The classes ``user`` teaches, archived ones included (none for anyone else)."""
    if not getattr(user, "is_authenticated", False):
        return SchoolClass.objects.none()
    return SchoolClass.objects.filter(teacher=user)


def classes_joined(user: Any) -> QuerySet[SchoolClass]:
    """The classes ``user`` is a student of, archived ones included."""
    if not getattr(user, "is_authenticated", False):
        return SchoolClass.objects.none()
    return SchoolClass.objects.filter(memberships__student=user)


def class_for_teacher(user: Any, pk: Any) -> SchoolClass:
    """The class ``pk`` if ``user`` teaches it; Http404 for anyone else (staff included)."""
    try:
        return classes_taught(user).get(pk=int(pk))
    except (SchoolClass.DoesNotExist, TypeError, ValueError):
        raise Http404("No such class.") from None


def class_for_student(user: Any, pk: Any) -> SchoolClass:
    """The class ``pk`` if ``user`` is one of its students; Http404 for anyone else."""
    try:
        return classes_joined(user).get(pk=int(pk))
    except (SchoolClass.DoesNotExist, TypeError, ValueError):
        raise Http404("No such class.") from None
