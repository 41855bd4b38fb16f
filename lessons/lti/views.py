"""The tool's endpoints (docs/lti.md): the JWKS, the OIDC login, the launch, the deep-linking
page, and a class's LTI page for its teachers (class list sync, grades sent).

The login and the launch are cross-site requests from the platform: no CSRF token can come
with them, so they are exempt from Django's check, and the OIDC state takes its place (a
random value the login set in a cookie of this browser and sent to the platform; the launch
must bring both back, with the nonce the login stored, used once: :mod:`lessons.lti.tool`).
Every page after the launch is an ordinary page, with CSRF checked as everywhere.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import requests
from django.contrib import messages
from django.contrib.auth import login as sign_in
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from pylti1p3.exception import LtiException

from games.http import AuthenticatedHttpRequest
from lessons.classes.access import class_for_teacher
from lessons.lti import deeplinking, outbox, roster
from lessons.lti.forms import TrainerForm
from lessons.lti.launch import act_on, existing_account
from lessons.lti.middleware import SESSION_KEY
from lessons.lti.models import LtiContext, Placement, Platform, ScoreOutbox, ToolKey, origin_of
from lessons.lti.tool import Launch, LaunchRefused, platform_named_by, start_login
from lessons.quizzes.forms import AssignmentForm
from lessons.quizzes.models import Quiz
from lessons.quizzes.zones import teacher_zone
from loo_site import limits


def refused(
    request: HttpRequest, reason: str, status: int = 403, platform: Platform | None = None
) -> HttpResponse:
    """The page of a login or launch refused: what failed, and that nothing was changed;
    inside the frame of the platform that sent it, when it is a registered one."""
    response = render(request, "lti/refused.html", {"reason": reason}, status=status)
    if platform is not None:
        response._csp_replace = {"frame-ancestors": platform.origins()}  # type: ignore[attr-defined]
        response.xframe_options_exempt = True
    return response


@require_safe
def show_jwks(request: HttpRequest) -> JsonResponse:
    """The tool's public keys (every active one), for platforms to check what it signs."""
    ToolKey.signing()
    keys = [key.jwk() for key in ToolKey.objects.active()]
    response = JsonResponse({"keys": keys})
    response["Cache-Control"] = "public, max-age=300"
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
def start_oidc_login(request: HttpRequest) -> HttpResponse:
    """The platform's third-party login initiation: send the browser to its auth URL with
    a fresh state (also set in a cookie) and nonce."""
    if over := limits.check(request, "lti-launches-per-address"):
        return over
    try:
        url, cookies = start_login(request, request.build_absolute_uri(reverse("lti:launch")))
    except LaunchRefused as error:
        return refused(request, str(error), status=400)
    response = redirect(url)
    cookies.write(response)
    return response


@csrf_exempt
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    """The platform's launch (its id_token and our state, posted by the browser): checked,
    then acted on (:func:`lessons.lti.launch.act_on`); the browser signed in and sent on."""
    if over := limits.check(request, "lti-launches-per-address"):
        return over
    message = Launch(request)
    try:
        body = message.checked()
    except LaunchRefused as error:
        return refused(
            request, str(error), platform=message.conf.platform or platform_named_by(request)
        )
    platform = message.platform()
    taken: Any = []
    if existing_account(platform, body) is None:
        taken = limits.take(
            request, "lti-accounts-per-address", "lti-accounts-per-platform", who=platform.issuer
        )
        if isinstance(taken, HttpResponse):
            return taken
    deep_link = message.is_deep_link_launch()
    try:
        launched, context = act_on(platform, message.login, body, deep_link=deep_link)
    except LaunchRefused as error:
        limits.give_back(*taken)
        return refused(request, str(error), platform=platform)
    sign_in(request, launched.user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[SESSION_KEY] = {"platform": platform.pk, "origins": platform.origins()}
    get_token(request)  # the CSRF cookie, SameSite=None in this session (middleware)
    if deep_link:
        key = deeplinking.remember(request, context, body)
        return redirect("lti:deep-link", key)
    return redirect(launched.url)


# -- deep linking ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def pick_activity(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """What the instructor places in the course: a quiz or a lesson (an assignment of the
    course's class, with its dates and attempts), or the trainer on a rule set."""
    waiting = deeplinking.waiting_request(request, key)
    if waiting is None:
        return refused(
            request, "This choice has expired or was made already: add the activity again.", 404
        )
    context = (
        LtiContext.objects.select_related("school_class", "platform")
        .filter(pk=waiting["context"])
        .first()
    )
    if context is None:
        return refused(request, "This course's class is gone: add the activity again.", 404)
    school_class = class_for_teacher(request.user, context.school_class_id)
    zone = teacher_zone(request.user)
    quizzes = list(Quiz.objects.filter(teacher=request.user).select_related("current"))
    now = timezone.localtime(timezone=zone).replace(second=0, microsecond=0)
    assign = AssignmentForm(
        quizzes, initial={"opens": now, "closes": now + timedelta(days=7), "attempts": 1}
    )
    trainer = TrainerForm()
    placement = None
    if request.method == "POST" and request.POST.get("kind") == "trainer":
        trainer = TrainerForm(request.POST)
        if trainer.is_valid():
            placement = Placement.objects.create(
                context=context,
                kind=Placement.TRAINER,
                title=trainer.title(),
                rules=trainer.cleaned_data["rules"],
            )
    elif request.method == "POST":
        with timezone.override(zone):
            assign = AssignmentForm(quizzes, request.POST)
            valid = assign.is_valid()
        if valid:
            assignment = assign.save(commit=False)
            assignment.school_class = school_class
            assignment.save()
            placement = Placement.objects.create(
                context=context,
                kind=Placement.QUIZ if assignment.quiz_id else Placement.LESSON,
                title=assignment.title[:200],
                assignment=assignment,
                lesson=assignment.lesson,
            )
    if placement is not None:
        return_url, jwt = deeplinking.answer(request, waiting, placement)
        deeplinking.forget(request, key)
        response = render(
            request, "lti/deep_link_return.html", {"return_url": return_url, "jwt": jwt}
        )
        response._csp_update = {"form-action": [origin_of(return_url)]}  # type: ignore[attr-defined]
        return response
    with timezone.override(zone):
        return render(
            request,
            "lti/deep_link.html",
            {"form": assign, "trainer": trainer, "context": context, "zone": str(zone)},
        )


# -- a class's LTI page ---------------------------------------------------------------------------


def _context_for_teacher(request: AuthenticatedHttpRequest, pk: int) -> LtiContext:
    school_class = class_for_teacher(request.user, pk)
    found = LtiContext.objects.filter(school_class=school_class).select_related("platform").first()
    if found is None:
        raise Http404("This class was not made by a learning platform.")
    return found


@login_required
@require_safe
def show_class(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The course behind the class, its class list's last sync, and each placed activity's
    grades: sent, waiting or failed (with why)."""
    context = _context_for_teacher(request, pk)
    placements = list(
        context.placements.select_related("assignment", "lesson").order_by("created", "pk")
    )
    rows = (
        ScoreOutbox.objects.filter(placement__context=context)
        .select_related("student", "placement")
        .order_by("placement", "student__username")
    )
    grades: dict[int, list[ScoreOutbox]] = {}
    for row in rows:
        grades.setdefault(row.placement_id, []).append(row)
    shown = [(p, grades.get(p.pk, [])) for p in placements]
    failed = sum(r.failed is not None for rs in grades.values() for r in rs)
    return render(
        request,
        "lti/class.html",
        {
            "context": context,
            "school_class": context.school_class,
            "shown": shown,
            "failed": failed,
        },
    )


@login_required
@require_POST
def sync_class_list(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Read the course's members from the platform, then bring the roster in line."""
    context = _context_for_teacher(request, pk)
    if over := limits.check(request, "lti-syncs-per-account"):
        return over
    try:
        done = roster.sync(context)
    except roster.NoRoster as error:
        messages.error(request, str(error))
    except (LtiException, LaunchRefused, requests.RequestException) as error:
        messages.error(request, f"The platform's class list could not be read: {error}"[:300])
    else:
        messages.success(
            request,
            f"Class list synced: {done.joined} joined, {done.left} marked as left, "
            f"{done.teaching} new co-teachers.",
        )
    return redirect("lti:class", pk)


@login_required
@require_POST
def send_grades_again(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    context = _context_for_teacher(request, pk)
    count = outbox.send_again(context.placements.all())
    messages.success(request, f"{count} grades will be sent again.")
    return redirect("lti:class", pk)
