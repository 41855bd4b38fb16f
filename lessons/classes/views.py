"""The class pages: a teacher's classes and rosters, a student's classes, joining by code.

Every class or student is found through :mod:`lessons.classes.access`: anyone else's is a 404
and nothing about it reaches the context."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lessons.classes import accounts, announcements, forms, work
from lessons.classes.access import (
    class_for_owner,
    class_for_student,
    class_for_teacher,
    classes_taught,
    membership_of,
    refuse_if_archived,
)
from lessons.classes.account_forms import RenameForm
from lessons.classes.account_views import new_slips, slips_page
from lessons.classes.hashers import one_time_hash
from lessons.classes.leaving import leave
from lessons.classes.middleware import STUDENT
from lessons.classes.models import (
    MAX_STUDENTS,
    ClassFull,
    CoTeacher,
    ManagedStudent,
    Membership,
    SchoolClass,
    UsernameKey,
    before_deleting,
    is_managed,
    is_teacher,
    new_password,
    username_key,
)
from lessons.classes.progress import course_lessons, marks_in_order, progress_of
from lessons.classes.table_views import listed
from lessons.classes.tables import forget
from loo_site import limits


def _post(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else None


def _teacher_class(request: HttpRequest, pk: int) -> SchoolClass:
    return class_for_teacher(request.user, pk, "teacher")


def _join_url(request: HttpRequest, school_class: SchoolClass) -> str:
    path = f"{reverse('classes:join')}?code={school_class.join_code}"
    return request.build_absolute_uri(path)


# -- lists ------------------------------------------------------------------------------------


@require_safe
def list_classes(request: HttpRequest) -> HttpResponse:
    """A teacher's classes (in use, or archived), a student's classes, and the way in."""
    archived_tab = request.GET.get("tab") == "archived"
    taught = classes_taught(request.user).annotate_size() if is_teacher(request.user) else None  # type: ignore[attr-defined]
    joined = left = None
    if request.user.is_authenticated:
        rows = list(
            Membership.objects.filter(student=request.user)
            .select_related("school_class__teacher")
            .order_by("school_class__name", "school_class__pk")
        )
        joined = [m.school_class for m in rows if m.left is None]
        left = _work_in([m.school_class for m in rows if m.left is not None], request.user)
    context = {
        "teaches": is_teacher(request.user),
        "managed": is_managed(request.user),
        "archived_tab": archived_tab,
        "taught": None
        if taught is None
        else (taught.archived() if archived_tab else taught.active()),
        "joined": joined,
        "left": left,
        "join_form": forms.JoinForm(request.user),
    }
    return render(request, "classes/list.html", context)


def _work_in(classes: list[SchoolClass], user: Any) -> list[tuple[SchoolClass, list[Any]]]:
    """The classes a student left, each with his attempts in it: his feedback stays his to
    read (through the related name: this app does not import the quizzes')."""
    if not classes:
        return []
    attempts = user.quiz_attempts.filter(assignment__school_class__in=classes).select_related(
        "assignment__quiz__current", "assignment__lesson"
    )
    by_class: dict[int, list[Any]] = {}
    for attempt in attempts.order_by("assignment__closes", "number"):
        by_class.setdefault(attempt.assignment.school_class_id, []).append(attempt)
    return [(c, by_class.get(c.pk, [])) for c in classes]


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
        "active": [r for r in rows if r["m"].archived is None and r["m"].left is None],
        "archived": [r for r in rows if r["m"].archived is not None and r["m"].left is None],
        "left": [r for r in rows if r["m"].left is not None],
        "lessons": lessons,
        "join_url": _join_url(request, school_class),
        "roster_form": forms.RosterActionForm(school_class, request.user),
        "max_students": MAX_STUDENTS,
        "owner": school_class.is_owner(request.user),
        "teachers": school_class.teachers(),
        "tables": listed(school_class, request.user),
        "notices": announcements.of_class(school_class),
        "announce_form": announcements.AnnouncementForm(),
    }
    return render(request, "classes/class_teacher.html", context)


def _show_class_to_student(request: HttpRequest, school_class: SchoolClass) -> HttpResponse:
    """The class as a student sees it: its announcements (those he has not read marked),
    his assignments in it, its tables and his classmates by username."""
    classmates = (
        school_class.memberships.active()
        .select_related("student")
        .values_list("student__username", flat=True)
    )
    notices = announcements.for_student(school_class, request.user)
    context = {
        "school_class": school_class,
        "notices": notices,
        "unread_upto": max((a.pk for a, read in notices if not read), default=0),
        "work": work.of(request.user, school_class),
        "classmates": list(classmates),
        "tables": listed(school_class, request.user),
        "on_roster": school_class.memberships.active().filter(student_id=request.user.pk).exists(),
    }
    return render(request, "classes/class_student.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit_class(request: HttpRequest, pk: int) -> HttpResponseBase:
    school_class = _teacher_class(request, pk)
    if refused := refuse_if_archived(request, school_class):
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
    if refused := refuse_if_archived(request, school_class):
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
                teacher=request.user,  # type: ignore[misc]  # a co-teacher's copy is his own
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
    """Only the owner deletes a class (a co-teacher gets a 404, as anyone else)."""
    school_class = class_for_owner(request.user, pk)
    form = forms.DeleteClassForm(school_class, _post(request))
    if form.is_valid():
        name = school_class.name
        with transaction.atomic():
            # Its teacher-made students left in no class lose the password he knows (9b).
            leave(school_class.memberships.all())
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
    if refused := refuse_if_archived(request, school_class):
        return refused
    form = forms.AddStudentsForm(school_class, request.user, _post(request))
    if request.method == "POST":
        if not forms.spend_token(request, request.POST.get("token", "")):
            messages.error(
                request,
                "This list was sent already, or the form is out of date: no account was made. "
                "Here is a fresh form.",
            )
            form = forms.AddStudentsForm(school_class, request.user)
        elif busy := forms.start_making(request.user):
            messages.error(request, busy)
            names = {"names": request.POST.get("names", "")}
            form = forms.AddStudentsForm(school_class, request.user, initial=names)
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
        "per_hour": limits.limit("accounts-per-teacher").count,
    }
    return render(request, "classes/add_students.html", context)


def _add_students(
    request: HttpRequest, school_class: SchoolClass, form: forms.AddStudentsForm
) -> HttpResponse | None:
    """The printable page of the accounts made from a valid list; None (with the form's
    errors) if none was made."""
    try:
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
            return slips_page(request, school_class, new_slips(students))
    except Exception:
        # Nothing was made (a database that stayed locked, say): nothing counts against his
        # hour, or the list sent again would be refused as too many.
        form.give_back()
        raise
    form.give_back()
    return None


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
    member = membership_of(school_class, membership)
    if request.method == "POST" and (refused := refuse_if_archived(request, school_class)):
        return refused
    form = forms.StudentForm(_post(request), instance=member)
    if form.is_valid():
        form.save()
        messages.success(request, f"Saved what you wrote about {member.student.username}.")
        return redirect("classes:student", school_class.pk, member.pk)
    return _student_page(request, school_class, member, form)


def _student_page(
    request: HttpRequest,
    school_class: SchoolClass,
    member: Membership,
    form: forms.StudentForm,
    delete_form: forms.DeleteStudentForm | None = None,
) -> HttpResponse:
    lessons = course_lessons()
    progress = progress_of([member.student_id]).get(member.student_id)
    context = {
        "school_class": school_class,
        "m": member,
        "form": form,
        "lessons": list(zip(lessons, marks_in_order(progress, lessons), strict=True)),
        "progress": progress,
        "can_reset": accounts.can_reset(member),
        "can_delete": accounts.may_manage(request.user, member),
        "delete_form": delete_form or forms.DeleteStudentForm(member.student),
        "rename_form": RenameForm(initial={"username": member.student.get_username()}),
    }
    return render(request, "classes/student.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def remove_student(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """Take a student off the roster: his row and his work stay (marked "left the class")."""
    school_class = _teacher_class(request, pk)
    member = membership_of(school_class, membership)
    if refused := refuse_if_archived(request, school_class):
        return refused
    if request.method == "POST":
        if leave(Membership.objects.filter(pk=member.pk)):
            messages.success(request, _left_text(member.student.get_username()))
        else:
            messages.info(request, f"{member.student.get_username()} had left the class already.")
        return redirect(school_class)
    return render(request, "classes/remove.html", {"school_class": school_class, "m": member})


def _left_text(who: str) -> str:
    return (
        f"{who} is no longer in the class. The work done in it stays in your results, "
        "marked “left the class”."
    )


@login_required
@require_POST
def delete_student(request: HttpRequest, pk: int, membership: int) -> HttpResponseBase:
    """Delete an account a teacher made (typing its username confirms). Its results stay in
    every class, under "a deleted account", with the real names its teachers wrote."""
    school_class = _teacher_class(request, pk)
    member = membership_of(school_class, membership)
    if refused := refuse_if_archived(request, school_class):
        return refused
    if not accounts.may_manage(request.user, member):
        messages.error(
            request,
            "You can delete only an account a teacher made, when you made it or teach every "
            "class it is in.",
        )
        return redirect("classes:student", school_class.pk, member.pk)
    form = forms.DeleteStudentForm(member.student, request.POST)
    if form.is_valid():
        name = member.student.get_username()
        with transaction.atomic():
            before_deleting(member.student, by_teacher=True)
            member.student.delete()
        messages.success(request, f"The account {name} is deleted; its results are kept.")
        return redirect(school_class)
    return _student_page(request, school_class, member, forms.StudentForm(instance=member), form)


@login_required
@require_POST
def act_on_roster(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The roster's bulk actions: move, archive, bring back or remove the students ticked."""
    school_class = _teacher_class(request, pk)
    if refused := refuse_if_archived(request, school_class):
        return refused
    form = forms.RosterActionForm(school_class, request.user, request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)  # type: ignore[arg-type]
        return redirect(school_class)
    chosen = form.cleaned_data["students"]
    action = form.cleaned_data["action"]
    if action == "slips":  # a page to print, changing nothing
        query = "&".join(f"student={m.pk}" for m in chosen)
        return redirect(f"{reverse('classes:slips', args=[school_class.pk])}?{query}")
    picked = Membership.objects.filter(pk__in=[m.pk for m in chosen])
    n = len(chosen)
    try:
        text = _act_on_roster(action, picked, n, school_class, form.cleaned_data.get("target"))
    except ClassFull as full:
        messages.error(request, f"{full} Nobody was moved.")
        return redirect(school_class)
    messages.success(request, text)
    return redirect(school_class)


def _act_on_roster(
    action: str, picked: Any, n: int, school_class: SchoolClass, target: SchoolClass | None
) -> str:
    """Do a roster action in one transaction; what to tell the teacher. No action deletes a
    row: a student moved or removed leaves his class with his work in its results."""
    s = "s" if n != 1 else ""
    with transaction.atomic():
        if action == "move":
            assert target is not None
            _move(picked, target)
            text = f"Moved {n} student{s} to “{target}”; their work stays in this class's results."
        elif action == "archive":
            picked.filter(archived__isnull=True).update(archived=timezone.now())
            text = f"Archived {n} student{s}."
        elif action == "restore":
            locked = accounts.bring_back(picked, school_class)
            text = f"Brought back {n} student{s}."
            if locked:
                text += (
                    f" {locked} of them, made by a teacher, cannot log in: give each a new "
                    "password on the student's page."
                )
        else:
            leave(picked)
            text = (
                f"Removed {n} student{s} from the class. Their work stays in your results, "
                "marked “left the class”."
            )
    return text


def _move(picked: Any, target: SchoolClass) -> None:
    """Students leave their class (their rows stay, with its results) and join ``target``:
    as new rows, or their old ones there brought back."""
    target.hold_room(
        picked.exclude(student__in=target.memberships.active().values("student")).count()
    )
    for m in picked.select_related("student"):
        row, made = Membership.objects.get_or_create(
            school_class=target,
            student=m.student,
            defaults={"real_name": m.real_name, "notes": m.notes},
        )
        if not made:
            Membership.objects.filter(pk=row.pk).update(archived=None, left=None)
    forget(picked.filter(left__isnull=True).values_list("school_class_id", "student_id"))
    picked.filter(left__isnull=True).update(left=timezone.now())


# -- co-teachers ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def show_teachers(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Who teaches the class. Its owner adds a co-teacher by username (an account that said
    "I teach"), removes one, or hands the class over to one (and becomes a co-teacher); a
    co-teacher sees the list, and may only step down himself."""
    school_class = _teacher_class(request, pk)
    owner = school_class.is_owner(request.user)
    add_form = forms.CoTeacherForm(school_class, _post(request) if owner else None)
    if request.method == "POST":
        action = request.POST.get("action")
        if not owner and action != "step-down":
            raise Http404("No such class.")  # only the owner changes who teaches
        if action == "add":
            if add_form.is_valid():
                CoTeacher.objects.create(
                    school_class=school_class, teacher=add_form.cleaned_data["teacher"]
                )
                messages.success(
                    request, f"{add_form.cleaned_data['username']} now teaches this class too."
                )
                return redirect("classes:teachers", school_class.pk)
        else:
            return _change_teachers(request, school_class, action)
    context = {
        "school_class": school_class,
        "owner": owner,
        "co_teachers": school_class.co_teachers.select_related("teacher"),
        "add_form": add_form,
    }
    return render(request, "classes/teachers.html", context)


def _change_teachers(
    request: HttpRequest, school_class: SchoolClass, action: str | None
) -> HttpResponseBase:
    """Remove a co-teacher, hand the class over to one, or step down (a co-teacher)."""
    if action == "step-down":
        CoTeacher.objects.filter(school_class=school_class, teacher_id=request.user.pk).delete()
        messages.success(request, f"You no longer teach “{school_class}”.")
        return redirect("classes:list")
    row = school_class.co_teachers.filter(pk=request.POST.get("co_teacher") or 0)
    found = row.select_related("teacher").first() if action in ("remove", "hand-over") else None
    if found is None:
        messages.error(request, forms.STALE)
    elif action == "hand-over" and request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that you hand the class over.")
    elif action == "remove":
        found.delete()
        messages.success(request, f"{found.teacher.get_username()} no longer teaches this class.")
    else:
        with transaction.atomic():
            found.delete()
            CoTeacher.objects.create(school_class=school_class, teacher=school_class.teacher)
            SchoolClass.objects.filter(pk=school_class.pk).update(teacher=found.teacher)
        messages.success(
            request,
            f"{found.teacher.get_username()} owns “{school_class}” now; you teach it as a "
            "co-teacher.",
        )
        return redirect(school_class)
    return redirect("classes:teachers", school_class.pk)


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
                request.session[STUDENT] = True  # the header's Assignments link
                messages.success(request, f"You are in the class “{membership.school_class}”.")
                return redirect(membership.school_class)
    else:
        form = forms.JoinForm(request.user, initial={"code": code})
    return render(request, "classes/join.html", {"form": form, "code": code})
