"""Site-wide pages that belong to neither app: the start page, the health check, and the
pages of an account (sign up, log in, log out, delete)."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm, UserCreationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from games.http import AuthenticatedHttpRequest
from games.models import PracticeHand, PracticeTable
from lessons.classes.forms import JoinForm, TeachForm
from lessons.classes.lockouts import REMOVED, removed_from_class
from lessons.classes.middleware import first_class_url, password_chosen
from lessons.classes.models import (
    ClassFull,
    Membership,
    SchoolClass,
    Teacher,
    before_deleting,
    is_managed,
    looks_taken,
)
from lessons.course.learning import give_progress_to
from lessons.trainer.models import AskedQuestion, RuleReview
from loo_site.health import not_ready


@require_safe
def show_start_page(request: HttpRequest) -> HttpResponse:
    """The home page; for a learner with rules due for review, the button that reviews them."""
    due = RuleReview.objects.for_request(request).due().count()
    return render(request, "home.html", {"due": due})


@require_safe
def check_health(request: HttpRequest) -> HttpResponse:
    """Answer a load balancer's probe of liveness: no database, no template, no session."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
@never_cache
def check_readiness(request: HttpRequest) -> HttpResponse:
    """Answer a load balancer's probe of readiness: 200 while the database (and Redis, when it
    is the shared cache) answer, else 503 with the reason in a line of plain text. No
    template, no session; never kept by a cache."""
    reason = not_ready()
    if reason is None:
        return HttpResponse("ready", content_type="text/plain")
    return HttpResponse(f"not ready: {reason}", status=503, content_type="text/plain")


# -- accounts -------------------------------------------------------------------------------


def _next_url(request: HttpRequest) -> str:
    """Where to go after logging in or signing up: ``next`` if it is a page of this site."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return ""


def _bring_along(user: Any, session_key: str | None) -> None:
    """What a browser session did without an account comes to the account it logs in to:
    its practice tables, the trainer's questions (and so the record they make) and its
    progress in the lessons."""
    PracticeTable.objects.give_to(user, session_key)
    AskedQuestion.objects.give_to(user, session_key)
    RuleReview.objects.give_to(user, session_key)
    give_progress_to(user, session_key)


class SignUpForm(UserCreationForm):
    """Django's sign-up form; a name that looks like one already taken (by case, or by a
    letter of another script that looks the same) is refused too."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        typed = str(self.data.get("username", "")).strip()  # before Django's NFKC: Ⅰ, not I
        if username and (looks_taken(username) or looks_taken(typed)):
            raise forms.ValidationError(
                "A name that looks the same is taken (capitals, and letters of other scripts "
                "that look alike, count as the same): choose another.",
                code="look_alike",
            )
        return username


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; a student's one-time password (a teacher made his account)
    is one no more. Right after logging in with it he is not asked for it again, and goes
    on to his class's page (issue 37)."""

    def _first_time(self) -> bool:
        return bool(self.request.session.get("one-time-password"))

    def get_form_class(self) -> Any:
        return SetPasswordForm if self._first_time() else super().get_form_class()

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "first_time": self._first_time()}

    def form_valid(self, form: Any) -> HttpResponse:
        first_time = self._first_time()
        response = super().form_valid(form)
        password_chosen(self.request.user)
        self.request.session.pop("one-time-password", None)
        if first_time:
            messages.success(self.request, "Your password is chosen: use it from now on.")
            return redirect(first_class_url(self.request.user))
        return response


class LogInForm(AuthenticationForm):
    """Django's login form; a student whose teacher removed his account from its last class
    is told so when he gives his (disabled) password, before any login is tried: it is no
    wrong password, and counts towards no lock (loo_site.limits reads the request's mark)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username and password and removed_from_class(username, password):
            self.request.lanterloo_removed_from_class = True  # type: ignore[union-attr]
            raise forms.ValidationError(REMOVED, code="removed_from_class")
        return super().clean()


class LogInView(auth_views.LoginView):
    """Django's login page; the practice tables and trainer questions of this browser session
    come along."""

    form_class = LogInForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        session_key = self.request.session.session_key  # logging in replaces it
        response = super().form_valid(form)
        _bring_along(self.request.user, session_key)
        return response


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request: HttpRequest) -> HttpResponseBase:
    """Make an account and log in with it; what this session did comes along. With a class's
    join code (``?code=``, from the join page) the new account joins that class too."""
    if request.user.is_authenticated:
        return redirect(_next_url(request) or settings.LOGIN_REDIRECT_URL)
    data = request.POST if request.method == "POST" else None
    form = SignUpForm(data)
    code = request.POST.get("code") or request.GET.get("code") or ""
    join = JoinForm(None, data, initial={"code": code}) if code else None
    if form.is_valid() and (join is None or join.is_valid()):
        session_key = request.session.session_key
        try:
            with transaction.atomic():
                user = form.save()
                membership = join.join(user) if join else None
        except ClassFull as full:  # filled up since the form was checked: no account made
            assert join is not None
            join.add_error("code", str(full))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            _bring_along(user, session_key)
            if membership:
                return redirect(membership.school_class)
            return redirect(_next_url(request) or settings.LOGIN_REDIRECT_URL)
    context: dict[str, Any] = {"form": form, "join": join, "next": _next_url(request)}
    return render(request, "registration/sign_up.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def show_account(request: AuthenticatedHttpRequest) -> HttpResponseBase:
    """The account page: "I teach" (and the teacher's time zone), the password, deleting."""
    user = request.user
    teacher = Teacher.objects.filter(user=user).first()
    initial: dict[str, Any] = {"teaches": teacher is not None}
    if teacher:
        initial["time_zone"] = teacher.time_zone
    form = TeachForm(user, request.POST if request.method == "POST" else None, initial=initial)
    if form.is_valid():
        if form.cleaned_data["teaches"]:
            Teacher.objects.update_or_create(
                user=user, defaults={"time_zone": form.cleaned_data["time_zone"]}
            )
            messages.success(request, "You teach: you can make classes.")
        elif teacher:
            teacher.delete()
            messages.success(request, "You no longer teach.")
        return redirect("account")
    context: dict[str, Any] = {"form": form, "teacher": teacher, "managed": is_managed(user)}
    return render(request, "registration/account.html", context)


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password: a borrowed, logged-in browser is not enough."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: AbstractBaseUser, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your password. Nothing has been deleted.", code="password_incorrect"
            )
        return password


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete_account(request: HttpRequest) -> HttpResponseBase:
    """Delete the account, its practice tables and its finished hands, the classes it
    teaches (with their rosters; the students' own accounts stay) and its places in classes,
    then log out."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    if is_managed(user):
        # A teacher made it: it is his (or another teacher of its classes') to delete.
        return render(request, "registration/delete_account.html", {"managed": True})
    form = DeleteAccountForm(user, request.POST if request.method == "POST" else None)
    if form.is_valid():
        with transaction.atomic():
            before_deleting(user)  # its quiz results stay with its teachers, anonymous
            user.delete()  # its tables and their hands go with it (on_delete=CASCADE)
        logout(request)
        return redirect("account-deleted")
    tables = PracticeTable.objects.filter(owner=user)
    context: dict[str, Any] = {
        "form": form,
        "tables": tables.count(),
        "hands": PracticeHand.objects.filter(table__in=tables).count(),
        "classes_taught": SchoolClass.objects.filter(teacher=user).count(),
        "classes_joined": Membership.objects.filter(student=user, left__isnull=True).count(),
    }
    return render(request, "registration/delete_account.html", context)


@require_safe
def show_account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account_deleted.html")
