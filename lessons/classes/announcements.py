"""Announcements (issue 37): a teacher posts a short notice to his class; its students see it
on the class's page, and in their header until each marks it read; a teacher of the class
removes it. Plain text: Django's templates escape it, and it is never read as markup."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from lessons.classes.access import class_for_student, class_for_teacher, refuse_if_archived
from lessons.classes.models import (
    ANNOUNCEMENT_LENGTH,
    Announcement,
    AnnouncementRead,
    SchoolClass,
)

#: How many announcements a class's page lists (the newest).
SHOWN = 10


class AnnouncementForm(forms.ModelForm):
    class Meta:
        model = Announcement
        fields = ["text"]
        labels = {"text": "A short notice to the class"}
        help_texts = {
            "text": f"Plain text, at most {ANNOUNCEMENT_LENGTH} characters. Your students see "
            "it on the class's page, and in their header until they have read it."
        }
        widgets = {"text": forms.Textarea(attrs={"rows": 3, "maxlength": ANNOUNCEMENT_LENGTH})}


def of_class(school_class: SchoolClass) -> QuerySet[Announcement]:
    """The class's latest announcements, newest first."""
    return school_class.announcements.select_related("author")[:SHOWN]


def for_student(school_class: SchoolClass, student: Any) -> list[tuple[Announcement, bool]]:
    """The class's latest announcements, each with whether ``student`` has read it."""
    shown = list(of_class(school_class))
    read = set(
        AnnouncementRead.objects.filter(announcement__in=shown, student=student).values_list(
            "announcement_id", flat=True
        )
    )
    return [(a, a.pk in read) for a in shown]


def _back(school_class: SchoolClass) -> HttpResponseBase:
    return redirect(f"{school_class.get_absolute_url()}#announcements")


@login_required
@require_POST
def post(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A teacher of the class posts an announcement to it."""
    school_class = class_for_teacher(request.user, pk)
    if refused := refuse_if_archived(request, school_class):
        return refused
    form = AnnouncementForm(request.POST)
    if form.is_valid():
        Announcement.objects.create(
            school_class=school_class,
            author=request.user,  # type: ignore[misc]  # login_required: an account
            text=form.cleaned_data["text"],
        )
        messages.success(request, "Announced: your students see it on the class's page.")
    else:
        for error in form.errors.get("text", []):
            messages.error(request, f"Nothing was announced: {error}")
    return _back(school_class)


@login_required
@require_POST
def remove(request: HttpRequest, pk: int, announcement: int) -> HttpResponseBase:
    """A teacher of the class removes one of its announcements (whoever posted it)."""
    school_class = class_for_teacher(request.user, pk)
    found = get_object_or_404(school_class.announcements, pk=announcement)
    found.delete()
    messages.success(request, "The announcement is removed.")
    return _back(school_class)


@login_required
@require_POST
def mark_read(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A student marks the class's announcements read (those he has seen on its page: every
    one up to ``upto``): they leave his header."""
    school_class = class_for_student(request.user, pk)
    try:
        upto = int(request.POST.get("upto", ""))
    except ValueError:
        upto = 0
    unread = Announcement.objects.unread_by(request.user).filter(
        school_class=school_class, pk__lte=upto
    )
    AnnouncementRead.objects.bulk_create(
        [AnnouncementRead(announcement=a, student=request.user) for a in unread],  # type: ignore[misc]
        ignore_conflicts=True,
    )
    return _back(school_class)
