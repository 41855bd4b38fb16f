"""The class pages: a teacher's classes and rosters, a student's classes, joining by code.

Every class or student is found through :mod:`lessons.classes.access`: anyone else's is a 404
and nothing about it reaches the context."""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lessons.classes import forms
from lessons.classes.access import class_for_student, class_for_teacher, classes_taught
from lessons.classes.hashers import one_time_hash
from lessons.classes.models import (
    MAX_STUDENTS,
    ClassFull,
    ManagedStudent,
    Membership,
    SchoolClass,
    UsernameKey,
    is_managed,
    is_teacher,
    new_password,
    username_key,
)
from lessons.classes.progress import course_lessons, marks_in_order, progress_of

ARCHIVED = "This class is archived, so it cannot be changed: bring it back first."


def _post(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else None


def _teacher_class(request: HttpRequest, pk: int) -> SchoolClass:
    return class_for_teacher(request.user, pk)


def _membership(school_class: SchoolClass, membership: int) -> Membership:
    """A student of a class its teacher is looking at; a 404 for any other."""
    return get_object_or_404(
        school_class.memberships.select_related("student", "student__managed"), pk=membership
    )


def _refuse_if_archived(request: HttpRequest, school_class: SchoolClass) -> HttpResponse | None:
    if school_class.is_archived:
        messages.error(request, ARCHIVED)
        return redirect(school_class)
    return None


def _join_url(request: HttpRequest, school_class: SchoolClass) -> str:
    path = f"{reverse('classes:join')}?code={school_class.join_code}"
    return request.build_absolute_uri(path)


# -- lists ------------------------------------------------------------------------------------


@require_safe
def list_classes(request: HttpRequest) -> HttpResponse:
    """A teacher's classes (in use, or archived), a student's classes, and the way in."""
    archived_tab = request.GET.get("tab") == "archived"
    taught = classes_taught(request.user).annotate_size() if is_teacher(request.user) else None  # type: ignore[attr-defined]
    joined = None
    if request.user.is_authenticated:
        joined = SchoolClass.objects.filter(memberships__student=request.user).select_related(
            "teacher"
        )
    context = {
        "teaches": is_teacher(request.user),
        "managed": is_managed(request.user),
        "archived_tab": archived_tab,
        "taught": None
        if taught is None
        else (taught.archived() if archived_tab else taught.active()),
        "joined": joined,
        "join_form": forms.JoinForm(request.user),
    }
    return render(request, "classes/list.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_class(request: HttpRequest) -> HttpResponseBase:
    if not is_teacher(request.user):
        messages.info(request, "To make a class, first say “I teach” on your account page.")
        return redirect("account")
    form = forms.ClassForm(_post(request))
    if form.is_valid():
        school_class = form.save(commit=False)
        school_class.teacher = request.user
        school_class.save()
        messages.success(request, f"The class “{school_class}” is made. Add your students.")
        return redirect(school_class)
    return render(request, "classes/class_form.html", {"form": form, "school_class": None})


# -- one class --------------------------------------------------------------------------------


@login_required
@require_safe
def show_class(request: HttpRequest, pk: int) -> HttpResponse:
    """The teacher's page of his class, or a student's page of a class he is in."""
    try:
        school_class = _teacher_class(request, pk)
    except Http404:
        return _show_class_to_student(request, class_for_student(request.user, pk))
    roster = list(school_class.memberships.select_related("student", "student__managed"))
    progress = progress_of(m.student_id for m in roster)
    lessons = course_lessons()
    rows: list[dict[str, Any]] = []
    for membership in roster:
        mine = progress.get(membership.student_id)
        last = [t for t in (membership.student.last_login, mine and mine.last_step) if t]
        rows.append(
            {
                "m": membership,
                "progress": mine,
                "marks": marks_in_order(mine, lessons),
                "last": max(last) if last else None,
            }
        )
    context = {
        "school_class": school_class,
        "active": [r for r in rows if r["m"].archived is None],
        "archived": [r for r in rows if r["m"].archived is not None],
        "lessons": lessons,
        "join_url": _join_url(request, school_class),
        "roster_form": forms.RosterActionForm(school_class),
        "max_students": MAX_STUDENTS,
    }
    return render(request, "classes/class_teacher.html", context)


def _show_class_to_student(request: HttpRequest, school_class: SchoolClass) -> HttpResponse:
    classmates = (
        school_class.memberships.active()
        .select_related("student")
        .values_list("student__username", flat=True)
    )
    context = {"school_class": school_class, "classmates": list(classmates)}
    return render(request, "classes/class_student.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit_class(request: HttpRequest, pk: int) -> HttpResponseBase:
    school_class = _teacher_class(request, pk)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    form = forms.ClassForm(_post(request), instance=school_class)
    if form.is_valid():
        form.save()
        messages.success(request, "Saved.")
        return redirect(school_class)
    return render(request, "classes/class_form.html", {"form": form, "school_class": school_class})


@login_required
@require_POST
def change_code(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Open or close joining by code, or give the class a new code (the old one stops)."""
    school_class = _teacher_class(request, pk)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    form = forms.CodeForm(request.POST)
    if not form.is_valid():
        messages.error(request, forms.STALE)
    elif form.cleaned_data["action"] == "new":
        school_class.new_code()
        messages.success(request, "The class has a new join code; the old one no longer works.")
    else:
        school_class.joining_open = form.cleaned_data["action"] == "open"
        school_class.save(update_fields=["joining_open"])
        messages.success(
            request,
            "Students can join with the code."
            if school_class.joining_open
            else "Joining is closed: the code lets nobody in.",
        )
    return redirect(school_class)


@login_required
@require_POST
def archive_class(request: HttpRequest, pk: int) -> HttpResponseBase:
    school_class = _teacher_class(request, pk)
    action = request.POST.get("action")
    if action == "archive" and not school_class.is_archived:
        school_class.archive()
        messages.success(
            request, f"“{school_class}” is archived: kept with its results, and read-only."
        )
    elif action == "restore" and school_class.is_archived:
        school_class.restore()
        messages.success(request, f"“{school_class}” is back in use.")
    else:
        messages.error(request, forms.STALE)
    return redirect(school_class)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def copy_class(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A new class like this one (name, description and, if wished, its students), with a
    code of its own: next year's class."""
    school_class = _teacher_class(request, pk)
    form = forms.CopyForm(_post(request), initial={"name": f"{school_class.name} (next year)"})
    if form.is_valid():
        with transaction.atomic():
            copy = SchoolClass.objects.create(
                teacher=school_class.teacher,
                name=form.cleaned_data["name"],
                description=school_class.description,
                copied_from=school_class,
            )
            if form.cleaned_data["with_students"]:
                Membership.objects.bulk_create(
                    Membership(
                        school_class=copy,
                        student_id=m.student_id,
                        real_name=m.real_name,
                        notes=m.notes,
                    )
                    for m in school_class.memberships.active()
                )
        messages.success(request, f"“{copy}” is made from “{school_class}”.")
        return redirect(copy)
    return render(request, "classes/copy.html", {"form": form, "school_class": school_class})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete_class(request: HttpRequest, pk: int) -> HttpResponseBase:
    school_class = _teacher_class(request, pk)
    form = forms.DeleteClassForm(school_class, _post(request))
    if form.is_valid():
        name = school_class.name
        school_class.delete()
        messages.success(request, f"The class “{name}” is deleted.")
        return redirect("classes:list")
    context = {
        "form": form,
        "school_class": school_class,
        "students": school_class.memberships.count(),
    }
    return render(request, "classes/delete.html", context)


# -- students ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def add_students(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Make student accounts from a list of names. The passwords are shown once, in the
    answer to this POST (a printable page), and never stored in plain text.

    Before any work, the teacher's lock (one list of his at a time) and his hourly count
    (the names asked for, given back if nothing is made): two lists sent at once, or a list
    past the limit, cost the site nothing."""
    school_class = _teacher_class(request, pk)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    hour = int(time.time() // 3600)
    form = forms.AddStudentsForm(school_class, request.user, hour, _post(request))
    if request.method == "POST":
        if not forms.spend_token(request, request.POST.get("token", "")):
            messages.error(
                request,
                "This list was sent already, or the form is out of date: no account was made. "
                "Here is a fresh form.",
            )
            form = forms.AddStudentsForm(school_class, request.user, hour)
        elif busy := forms.start_making(request.user):
            messages.error(request, busy)
            names = {"names": request.POST.get("names", "")}
            form = forms.AddStudentsForm(school_class, request.user, hour, initial=names)
        else:
            try:
                if made := _add_students(request, school_class, form):
                    return made
            finally:
                forms.stop_making(request.user)
    form.initial["token"] = forms.issue_token(request)
    if form.is_bound:
        form.data = form.data.copy()  # type: ignore[attr-defined]
        form.data["token"] = form.initial["token"]  # type: ignore[index]
    context = {
        "form": form,
        "school_class": school_class,
        "room": school_class.room(),
        "per_hour": forms.ACCOUNTS_PER_HOUR,
    }
    return render(request, "classes/add_students.html", context)


def _add_students(
    request: HttpRequest, school_class: SchoolClass, form: forms.AddStudentsForm
) -> HttpResponse | None:
    """The printable page of the accounts made from a valid list; None (with the form's
    errors) if none was made."""
    if not form.is_valid():
        return None
    students: list[forms.NewStudent] = form.cleaned_data["names"]
    try:
        _make_students(school_class, request.user, students)
    except IntegrityError:
        form.add_error(None, "Someone took one of these usernames just now: try again.")
    except ClassFull as full:
        form.add_error(None, f"{full} Nobody was added.")
    else:
        return _passwords_page(request, school_class, students)
    form.give_back()
    return None


def _passwords_page(
    request: HttpRequest, school_class: SchoolClass, students: list[forms.NewStudent], **extra: Any
) -> HttpResponse:
    context = {"school_class": school_class, "students": students, **extra}
    response = render(request, "classes/new_students.html", context)
    add_never_cache_headers(response)
    return response


def _make_students(
    school_class: SchoolClass, teacher: Any, students: list[forms.NewStudent]
) -> None:
    """Make the accounts: every password hashed first, outside any transaction (SQLite holds
    its write lock from BEGIN to COMMIT, and a student's answer would wait behind it), then
    one short transaction of bulk writes. ``bulk_create`` sends no ``post_save``, so the
    usernames' keys (:func:`keep_username_key`) are written here too."""
    user_model = get_user_model()
    users = []
    for new in students:
        new.password = new_password()
        users.append(user_model(username=new.username, password=one_time_hash(new.password)))
    keys = [username_key(new.username) for new in students]
    with transaction.atomic():
        school_class.hold_room(len(students))
        user_model.objects.bulk_create(users)
        ManagedStudent.objects.bulk_create(
            ManagedStudent(user=user, created_by=teacher) for user in users
        )
        Membership.objects.bulk_create(
            Membership(school_class=school_class, student=user, real_name=new.real_name)
            for user, new in zip(users, students, strict=True)
        )
        UsernameKey.objects.bulk_create(
            UsernameKey(user=user, key=key) for user, key in zip(users, keys, strict=True)
        )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def show_student(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """A student of the class, as his teacher sees him: real name, notes, lessons."""
    school_class = _teacher_class(request, pk)
    member = _membership(school_class, membership)
    if request.method == "POST" and (refused := _refuse_if_archived(request, school_class)):
        return refused
    form = forms.StudentForm(_post(request), instance=member)
    lessons = course_lessons()
    progress = progress_of([member.student_id]).get(member.student_id)
    if form.is_valid():
        form.save()
        messages.success(request, f"Saved what you wrote about {member.student.username}.")
        return redirect("classes:student", school_class.pk, member.pk)
    context = {
        "school_class": school_class,
        "m": member,
        "form": form,
        "lessons": list(zip(lessons, marks_in_order(progress, lessons), strict=True)),
        "progress": progress,
        "can_reset": _can_reset(request, member),
    }
    return render(request, "classes/student.html", context)


def _can_reset(request: HttpRequest, member: Membership) -> bool:
    managed = getattr(member.student, "managed", None)
    return managed is not None and managed.created_by_id == request.user.pk


@login_required
@require_POST
def reset_password(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """Give a student account the teacher made a new one-time password, shown once."""
    school_class = _teacher_class(request, pk)
    member = _membership(school_class, membership)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    if not _can_reset(request, member):
        messages.error(
            request, "Only the teacher who made a student's account can reset its password."
        )
        return redirect("classes:student", school_class.pk, member.pk)
    password = new_password()
    member.student.password = one_time_hash(password)  # hashed before the transaction
    with transaction.atomic():
        member.student.save(update_fields=["password"])
        ManagedStudent.objects.filter(user=member.student).update(one_time_password=True)
    student = forms.NewStudent(member.real_name, member.student.username, password)
    return _passwords_page(request, school_class, [student], reset=True)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def remove_student(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    school_class = _teacher_class(request, pk)
    member = _membership(school_class, membership)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    if request.method == "POST":
        member.delete()
        messages.success(request, f"{member.student.username} is no longer in the class.")
        return redirect(school_class)
    return render(request, "classes/remove.html", {"school_class": school_class, "m": member})


@login_required
@require_POST
def act_on_roster(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The roster's bulk actions: move, archive, bring back or remove the students ticked."""
    school_class = _teacher_class(request, pk)
    if refused := _refuse_if_archived(request, school_class):
        return refused
    form = forms.RosterActionForm(school_class, request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)  # type: ignore[arg-type]
        return redirect(school_class)
    chosen = form.cleaned_data["students"]
    picked = Membership.objects.filter(pk__in=[m.pk for m in chosen])
    action = form.cleaned_data["action"]
    n = len(chosen)
    try:
        text = _act_on_roster(action, picked, n, form.cleaned_data.get("target"))
    except ClassFull as full:
        messages.error(request, f"{full} Nobody was moved.")
        return redirect(school_class)
    messages.success(request, text)
    return redirect(school_class)


def _act_on_roster(action: str, picked: Any, n: int, target: SchoolClass | None) -> str:
    """Do a roster action in one transaction; what to tell the teacher."""
    with transaction.atomic():
        if action == "move":
            assert target is not None
            there = set(target.memberships.values_list("student_id", flat=True))
            target.hold_room(picked.exclude(student__in=there).count())
            picked.exclude(student__in=there).update(school_class=target)
            picked.filter(student__in=there).delete()
            text = f"Moved {n} student{'s' if n != 1 else ''} to “{target}”."
        elif action == "archive":
            picked.filter(archived__isnull=True).update(archived=timezone.now())
            text = f"Archived {n} student{'s' if n != 1 else ''}."
        elif action == "restore":
            picked.update(archived=None)
            text = f"Brought back {n} student{'s' if n != 1 else ''}."
        else:
            picked.delete()
            text = f"Removed {n} student{'s' if n != 1 else ''} from the class."
    return text


# -- joining ----------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def join_class(request: HttpRequest) -> HttpResponseBase:
    """Join a class by its code. Someone not logged in is offered to sign up (a name and a
    password) or log in, and comes back here with the code."""
    code = forms.clean_code(request.GET.get("code", ""))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={reverse('classes:join')}")
        form = forms.JoinForm(request.user, request.POST)
        if form.is_valid():
            try:
                membership = form.join(request.user)
            except ClassFull as full:
                form.add_error("code", str(full))
            else:
                messages.success(request, f"You are in the class “{membership.school_class}”.")
                return redirect(membership.school_class)
    else:
        form = forms.JoinForm(request.user, initial={"code": code})
    return render(request, "classes/join.html", {"form": form, "code": code})
