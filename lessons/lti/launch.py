"""What a checked launch does (:class:`~lessons.lti.tool.Launch` has checked it): in one
transaction, the login's state is used up (a second launch with it is refused as a replay),
the person's account is found or made (no usable password), an instructor becomes a teacher
and the course a class he owns (or co-teaches), a learner joins it, the resource link is
bound to its placement; then the browser is signed in and sent to the activity.

A launch refused at any step changes nothing: the transaction is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from pylti1p3.roles import StudentRole, TeacherRole, TeachingAssistantRole

from lessons.classes.forms import username_from
from lessons.classes.models import (
    ClassFull,
    CoTeacher,
    Membership,
    SchoolClass,
    Teacher,
    looks_taken,
)
from lessons.lti.models import Deployment, LoginState, LtiAccount, LtiContext, Placement, Platform
from lessons.lti.tool import LaunchRefused, claim

INSTRUCTOR, LEARNER = "instructor", "learner"

NO_CONTEXT = (
    "Lanterloo works inside a course: this launch names none. Place Lanterloo in a course "
    "and open it from there."
)
NOT_OPENED = (
    "Your teacher has not opened Lanterloo in this course yet: ask him to open the activity "
    "once, then try again."
)
ROLE = "Lanterloo takes instructors and learners; the platform gave you neither role."
REPLAY = "This launch was used already (a replay, or a page sent twice): open the activity again."
ELSEWHERE = (
    "This activity was placed in another course. Place it again in this one (“Add an "
    "activity”, then Lanterloo)."
)


def role_of(body: dict[str, Any]) -> str:
    """Instructor (an instructor, administrator or teaching assistant of the course) or
    learner; :class:`LaunchRefused` for anyone else (a mentor, a guest)."""
    if TeacherRole(body).check() or TeachingAssistantRole(body).check():
        return INSTRUCTOR
    if StudentRole(body).check():
        return LEARNER
    raise LaunchRefused(ROLE)


def display_name(body: dict[str, Any]) -> str:
    """The person's name as the platform gives it (name, or given and family names)."""
    name = str(body.get("name") or "").strip()
    if not name:
        name = " ".join(str(body.get(k) or "").strip() for k in ("given_name", "family_name"))
    return name.strip()[:150]


@dataclass
class Launched:
    """A launch acted on: whom to sign in, the class, and where to send him."""

    user: Any
    school_class: SchoolClass
    role: str
    url: str


def use_login(login: LoginState | None) -> None:
    """Mark the launch's login used, once: a second launch with it (a replay, even one
    racing this one) finds it used and is refused."""
    if login is None or not LoginState.objects.filter(pk=login.pk, used__isnull=True).update(
        used=timezone.now()
    ):
        raise LaunchRefused(REPLAY)


def existing_account(platform: Platform, body: dict[str, Any]) -> Any:
    found = (
        LtiAccount.objects.filter(issuer=platform.issuer, subject=str(body.get("sub")))
        .select_related("user")
        .first()
    )
    return found.user if found else None


def account_for(platform: Platform, body: dict[str, Any]) -> Any:
    """The account linked to (issuer, subject), made at the first launch: a username from
    the platform's name for him (``AdaLovelace2`` if taken), no usable password."""
    user = existing_account(platform, body)
    if user is not None:
        return user
    name = display_name(body)
    base = username_from(name) if name else "Learner"
    users = get_user_model()
    for n in range(1, 1000):
        username = base if n == 1 else f"{base}{n}"
        if looks_taken(username):
            continue
        try:
            with transaction.atomic():
                user = users(username=username, first_name=name[:150])
                user.set_unusable_password()
                user.save()
                LtiAccount.objects.create(
                    platform=platform,
                    issuer=platform.issuer,
                    subject=str(body["sub"]),
                    user=user,
                )
                return user
        except IntegrityError:
            if existing_account(platform, body) is not None:  # made by a launch beside it
                return existing_account(platform, body)
    raise LaunchRefused("No username could be made for this account.")


def context_for(
    platform: Platform, deployment: Deployment, body: dict[str, Any], user: Any, role: str
) -> LtiContext:
    """The course's class: made for its first instructor (who owns it), co-taught by the
    instructors after him, joined by each learner (one who had left is back)."""
    context = claim(body, "context") or {}
    context_id = str(context.get("id") or "")
    if not context_id:
        raise LaunchRefused(NO_CONTEXT)
    title = str(context.get("title") or context.get("label") or "A course")[:100]
    found = (
        LtiContext.objects.filter(platform=platform, context_id=context_id)
        .select_related("school_class")
        .first()
    )
    if found is None:
        if role != INSTRUCTOR:
            raise LaunchRefused(NOT_OPENED)
        school_class = SchoolClass.objects.create(
            teacher=user, name=title, joining_open=False, description=""
        )
        found = LtiContext.objects.create(
            platform=platform,
            deployment=deployment,
            context_id=context_id,
            title=title,
            school_class=school_class,
        )
    school_class = found.school_class
    if role == INSTRUCTOR:
        Teacher.objects.get_or_create(user=user)
        if school_class.teacher_id != user.pk:
            CoTeacher.objects.get_or_create(school_class=school_class, teacher=user)
    else:
        join(school_class, user, display_name(body))
    note_services(found, body)
    return found


def join(school_class: SchoolClass, user: Any, real_name: str) -> None:
    """The learner on the class's roster (back on it if he had left)."""
    member = Membership.objects.filter(school_class=school_class, student=user).first()
    if member is not None and member.left is None:
        return
    try:
        school_class.hold_room(1)
    except ClassFull as full:
        raise LaunchRefused(str(full)) from None
    if member is None:
        Membership.objects.create(school_class=school_class, student=user, real_name=real_name)
    else:
        Membership.objects.filter(pk=member.pk).update(left=None)


def note_services(context: LtiContext, body: dict[str, Any]) -> None:
    """Keep the course's NRPS and AGS endpoints as the latest launch gives them."""
    nrps = claim(body, "nrps:namesroleservice") or {}
    ags = claim(body, "ags:endpoint") or {}
    fields = {
        "memberships_url": str(nrps.get("context_memberships_url") or "")[:500],
        "lineitems_url": str(ags.get("lineitems") or "")[:500],
        "ags_scopes": list(ags.get("scope") or []),
    }
    if any(getattr(context, k) != v for k, v in fields.items()):
        LtiContext.objects.filter(pk=context.pk).update(**fields)
        for k, v in fields.items():
            setattr(context, k, v)


def placement_for(context: LtiContext, body: dict[str, Any]) -> Placement | None:
    """The placement the resource link opens: by the token deep linking put in its custom
    parameters (bound to the link at its first launch), or by the link itself; None for a
    link Lanterloo did not place (it opens the class)."""
    link_id = str((claim(body, "resource_link") or {}).get("id") or "")
    token = str((claim(body, "custom") or {}).get("lanterloo_placement") or "")
    placement = None
    if token:
        placement = Placement.objects.filter(token=token).select_related("context").first()
        if placement is not None and placement.context_id != context.pk:
            raise LaunchRefused(ELSEWHERE)
    if placement is None and link_id:
        placement = Placement.objects.filter(context=context, resource_link_id=link_id).first()
    if placement is None:
        return None
    lineitem = str((claim(body, "ags:endpoint") or {}).get("lineitem") or "")[:500]
    changes: dict[str, str] = {}
    if link_id and not placement.resource_link_id:
        changes["resource_link_id"] = link_id
    if placement.kind == Placement.QUIZ and lineitem and lineitem != placement.lineitem_url:
        changes["lineitem_url"] = lineitem
    if changes:
        Placement.objects.filter(pk=placement.pk).update(**changes)
        for k, v in changes.items():
            setattr(placement, k, v)
    return placement


def url_of(placement: Placement | None, school_class: SchoolClass, role: str) -> str:
    """Where a launch goes: the placed activity (a quiz's assignment for a learner, its
    results for an instructor), else the class's page."""
    if placement is None:
        return school_class.get_absolute_url()
    if placement.kind == Placement.QUIZ and placement.assignment_id:
        name = "quizzes:results" if role == INSTRUCTOR else "quizzes:assignment"
        return reverse(name, args=[placement.assignment_id])
    if placement.kind == Placement.LESSON and placement.lesson is not None:
        return placement.lesson.get_absolute_url()
    if placement.kind == Placement.TRAINER:
        return f"{reverse('trainer:choose')}?{urlencode({'rules': placement.rules})}"
    return school_class.get_absolute_url()


def deployment_of(platform: Platform, body: dict[str, Any]) -> Deployment:
    found = Deployment.objects.filter(
        platform=platform, deployment_id=str(claim(body, "deployment_id") or "")
    ).first()
    if found is None:  # checked by the launch already; kept as the last word
        raise LaunchRefused("This deployment is not registered with Lanterloo.")
    return found


def act_on(
    platform: Platform, login: LoginState | None, body: dict[str, Any], *, deep_link: bool
) -> tuple[Launched, LtiContext]:
    """Do what a checked launch asks, in one transaction (see the module's note)."""
    role = role_of(body)
    if deep_link and role != INSTRUCTOR:
        raise LaunchRefused("Only a course's instructors place activities.")
    with transaction.atomic():
        use_login(login)
        deployment = deployment_of(platform, body)
        user = account_for(platform, body)
        context = context_for(platform, deployment, body, user, role)
        placement = None if deep_link else placement_for(context, body)
        url = url_of(placement, context.school_class, role)
    return Launched(user, context.school_class, role, url), context
