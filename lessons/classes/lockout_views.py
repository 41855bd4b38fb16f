"""A class's students locked out of logging in: the teacher sees who and unlocks them
(lessons.classes.lockouts says how a name is locked)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from lessons.classes import lockouts
from lessons.classes.access import class_for_teacher
from lessons.classes.models import Membership


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def show_lockouts(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the students of the class locked out of logging in now; POST: unlock one
    (``membership``) or all of them."""
    school_class = class_for_teacher(request.user, pk)
    members = list(
        Membership.objects.present()
        .filter(school_class=school_class)
        .select_related("student")
        .order_by("student__username")
    )
    if request.method == "POST":
        picked = request.POST.get("membership", "")
        chosen = [m for m in members if str(m.pk) == picked] if picked else members
        n = lockouts.unlock(chosen)
        if picked and chosen:
            name = chosen[0].student.get_username()
            text = f"{name} is unlocked: he can log in again." if n else f"{name} was not locked."
        else:
            text = f"Unlocked {n} student{'s' if n != 1 else ''}."
        messages.success(request, text)
        return redirect("classes:lockouts", school_class.pk)
    context = {"school_class": school_class, "locks": lockouts.locked(members)}
    return render(request, "classes/lockouts.html", context)
