"""Who may see which class: the view helpers every page of classes (and of quizzes) goes
through. Anyone else's class is a 404, never a 403: its existence is not told.

A class is taught by its owner and its co-teachers alike: every teacher page finds the class
through :func:`classes_taught`. What only the owner may do (delete the class, change its
co-teachers, hand it over) goes through :func:`class_for_owner`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from lessons.classes.models import Membership, SchoolClass

ARCHIVED = "This class is archived, so it cannot be changed: bring it back first."


def classes_taught(user: Any) -> QuerySet[SchoolClass]:
    """The classes ``user`` owns or co-teaches, archived ones included (none for anyone
    else)."""
    if not getattr(user, "is_authenticated", False):
        return SchoolClass.objects.none()
    return SchoolClass.objects.taught_by(user)


def classes_joined(user: Any) -> QuerySet[SchoolClass]:
    """The classes ``user`` is a student of, archived ones included; not those he left."""
    if not getattr(user, "is_authenticated", False):
        return SchoolClass.objects.none()
    return SchoolClass.objects.filter(memberships__student=user, memberships__left__isnull=True)


def _one(classes: QuerySet[SchoolClass], pk: Any) -> SchoolClass:
    try:
        return classes.get(pk=int(pk))
    except (SchoolClass.DoesNotExist, TypeError, ValueError):
        raise Http404("No such class.") from None


def class_for_teacher(user: Any, pk: Any, *related: str) -> SchoolClass:
    """The class ``pk`` if ``user`` teaches it (owner or co-teacher); Http404 for anyone else
    (staff included). ``related``: relations to read with it (``select_related``)."""
    return _one(classes_taught(user).select_related(*related), pk)


def class_for_owner(user: Any, pk: Any) -> SchoolClass:
    """The class ``pk`` if ``user`` owns it; Http404 for anyone else, co-teachers included."""
    if not getattr(user, "is_authenticated", False):
        raise Http404("No such class.")
    return _one(SchoolClass.objects.filter(teacher=user), pk)


def class_for_student(user: Any, pk: Any) -> SchoolClass:
    """The class ``pk`` if ``user`` is one of its students; Http404 for anyone else."""
    return _one(classes_joined(user), pk)


def membership_of(school_class: SchoolClass, membership: Any) -> Membership:
    """A student of a class its teacher is looking at; a 404 for any other."""
    return get_object_or_404(
        school_class.memberships.select_related("student", "student__managed"), pk=membership
    )


def refuse_if_archived(request: HttpRequest, school_class: SchoolClass) -> HttpResponse | None:
    """The answer to a change asked of an archived class (it is read-only); None otherwise."""
    if school_class.is_archived:
        messages.error(request, ARCHIVED)
        return redirect(school_class)
    return None
