"""Site-wide pages that belong to neither app: the start page, the health check, and the
pages of an account (sign up, log in, log out, delete)."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_safe

from games.models import PracticeHand, PracticeTable
from lessons.course.learning import give_progress_to
from lessons.trainer.models import AskedQuestion


@require_safe
def show_start_page(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_safe
def check_health(request: HttpRequest) -> HttpResponse:
    """Answer a load balancer's probe: no database, no template, no session."""
    return HttpResponse("ok", content_type="text/plain")


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
    give_progress_to(user, session_key)


class LogInView(auth_views.LoginView):
    """Django's login page; the practice tables and trainer questions of this browser session
    come along."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        session_key = self.request.session.session_key  # logging in replaces it
        response = super().form_valid(form)
        _bring_along(self.request.user, session_key)
        return response


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request: HttpRequest) -> HttpResponseBase:
    """Make an account and log in with it; what this session did comes along."""
    if request.user.is_authenticated:
        return redirect(_next_url(request) or settings.LOGIN_REDIRECT_URL)
    form = UserCreationForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        session_key = request.session.session_key
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        _bring_along(user, session_key)
        return redirect(_next_url(request) or settings.LOGIN_REDIRECT_URL)
    context: dict[str, Any] = {"form": form, "next": _next_url(request)}
    return render(request, "registration/sign_up.html", context)


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
    """Delete the account, its practice tables and its finished hands, then log out."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    form = DeleteAccountForm(user, request.POST if request.method == "POST" else None)
    if form.is_valid():
        with transaction.atomic():
            user.delete()  # its tables and their hands go with it (on_delete=CASCADE)
        logout(request)
        return redirect("account-deleted")
    tables = PracticeTable.objects.filter(owner=user)
    context: dict[str, Any] = {
        "form": form,
        "tables": tables.count(),
        "hands": PracticeHand.objects.filter(table__in=tables).count(),
    }
    return render(request, "registration/delete_account.html", context)


@require_safe
def show_account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account_deleted.html")
