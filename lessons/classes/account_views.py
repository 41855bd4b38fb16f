"""Login slips, new passwords and renaming: the pages a teacher uses after making his
students' accounts (issue 37). What a slip may show, and why a password is printed only
when it is made, is in :mod:`lessons.classes.accounts`."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST, require_safe

from lessons.classes import accounts
from lessons.classes.access import class_for_teacher, membership_of, refuse_if_archived
from lessons.classes.account_forms import PickForm, RenameForm
from lessons.classes.accounts import Slip
from lessons.classes.forms import NewStudent
from lessons.classes.models import ClassFull, Membership, SchoolClass


@dataclass(frozen=True)
class SlipsPage:
    """The page of slips: ``passwords``, whether they carry passwords just made (shown once);
    ``reset``, whether those replace older ones; ``login_url``, the address each slip gives;
    ``pick``, the form that chooses whose slips (None on a page of passwords)."""

    school_class: SchoolClass
    slips: list[Slip]
    login_url: str
    passwords: bool
    reset: bool
    pick: PickForm | None = None
    #: On the page without passwords: how many of the slips' accounts a reset would change.
    resettable: int = 0


def new_slips(students: list[NewStudent]) -> list[Slip]:
    """The slips of accounts just made, with their passwords."""
    return [
        Slip(s.real_name or s.username, s.username, s.password, made=True, waiting=True)
        for s in students
    ]


def slips_page(
    request: HttpRequest, school_class: SchoolClass, slips: list[Slip], *, reset: bool = False
) -> HttpResponse:
    """The printable page of slips with passwords just made: shown once, never cached."""
    page = SlipsPage(school_class, slips, _login_url(request), passwords=True, reset=reset)
    response = render(request, "classes/slips.html", {"page": page})
    add_never_cache_headers(response)
    return response


def _login_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("login"))


@login_required
@require_safe
def show_slips(request: HttpRequest, pk: int) -> HttpResponse:
    """The slips of the students chosen (``?student=``, the roster's "Print login slips"),
    or of everyone on the roster: no password on them (none is kept), a button to give them
    new ones."""
    school_class = class_for_teacher(request.user, pk, "teacher")
    pick = PickForm(school_class, request.GET)
    chosen = pick.chosen() if pick.is_valid() else []
    slips = accounts.slips_for(chosen)
    page = SlipsPage(
        school_class,
        slips,
        _login_url(request),
        passwords=False,
        reset=False,
        pick=pick,
        resettable=sum(s.made for s in slips),
    )
    return render(request, "classes/slips.html", {"page": page, "chosen": chosen})


@login_required
@require_POST
def new_passwords(request: HttpRequest, pk: int) -> HttpResponseBase:
    """New one-time passwords for the students ticked (accounts a teacher made), printed at
    once on their new slips; their old passwords stop working."""
    school_class = class_for_teacher(request.user, pk, "teacher")
    if refused := refuse_if_archived(request, school_class):
        return refused
    pick = PickForm(school_class, request.POST, required=True)
    if not pick.is_valid():
        for error in pick.errors.get("student", []):
            messages.error(request, str(error))
        return redirect("classes:slips", school_class.pk)
    chosen = [m for m in pick.chosen() if accounts.can_reset(m)]
    if not chosen:
        messages.error(request, "None of them is an account a teacher made: nothing changed.")
        return redirect("classes:slips", school_class.pk)
    passwords = accounts.give_new_passwords(chosen)
    return slips_page(request, school_class, accounts.slips_for(chosen, passwords), reset=True)


@login_required
@require_POST
def reset_password(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """Give one student account the teacher made a new one-time password, shown once on its
    slip. A student who had left is brought back (his old password no longer works)."""
    school_class = class_for_teacher(request.user, pk, "teacher")
    member = membership_of(school_class, membership)
    if refused := refuse_if_archived(request, school_class):
        return refused
    if not accounts.can_reset(member):
        messages.error(
            request, "The student made this account himself: only he can change its password."
        )
        return redirect("classes:student", school_class.pk, member.pk)
    if member.left is not None:
        try:
            accounts.bring_back(Membership.objects.filter(pk=member.pk), school_class)
        except ClassFull as full:
            messages.error(request, f"{full} The password was not changed.")
            return redirect("classes:student", school_class.pk, member.pk)
    passwords = accounts.give_new_passwords([member])
    return slips_page(request, school_class, accounts.slips_for([member], passwords), reset=True)


@login_required
@require_POST
def rename_student(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """Give an account a teacher made another username (two "Olivia Smith"s told apart)."""
    school_class = class_for_teacher(request.user, pk, "teacher")
    member = membership_of(school_class, membership)
    if refused := refuse_if_archived(request, school_class):
        return refused
    back = redirect("classes:student", school_class.pk, member.pk)
    if not accounts.may_manage(request.user, member):
        messages.error(
            request,
            "You can rename only an account a teacher made, when you made it or teach every "
            "class it is in.",
        )
        return back
    form = RenameForm(request.POST)
    old = member.student.get_username()
    if not form.is_valid():
        for error in form.errors.get("username", []):
            messages.error(request, str(error))
        return back
    try:
        accounts.rename(member, form.cleaned_data["username"])
    except (accounts.NameRefused, IntegrityError) as refused_name:
        text = str(refused_name) if isinstance(refused_name, accounts.NameRefused) else ""
        messages.error(request, text or "Someone took this username just now: try another.")
        return back
    messages.success(
        request,
        f"{old} is now {member.student.get_username()}: the student logs in with the new "
        "username (his password is unchanged).",
    )
    return back
