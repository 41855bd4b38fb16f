"""A course's class list from its platform (Names and Role Provisioning Services).

The teacher's **Sync the class list** first reads the course's members from the platform
(network, outside any transaction), then in one transaction: each active learner is on the
roster (his account made if he has never launched: no usable password), each active
instructor teaches the class, and each student who came from this platform and is no longer
an active learner of the course is marked as having left (his results are kept, as for any
student removed). Students who joined otherwise are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from lessons.classes.models import CoTeacher, Membership, Teacher
from lessons.lti.launch import INSTRUCTOR, LEARNER, account_for, join, role_of
from lessons.lti.models import LtiAccount, LtiContext
from lessons.lti.tool import LaunchRefused, http, registration_of


class NoRoster(Exception):
    """The platform offers no class list for this course."""


def fetch_members(context: LtiContext) -> list[dict[str, Any]]:
    """The course's members as the platform lists them (every page). Network."""
    if not context.memberships_url:
        raise NoRoster("The platform offers no class list for this course (NRPS is off).")
    connector = ServiceConnector(registration_of(context.platform), http())
    service = NamesRolesProvisioningService(
        connector, {"context_memberships_url": context.memberships_url}
    )
    members: list[Any] = service.get_members()
    return members


@dataclass
class Synced:
    joined: int = 0
    teaching: int = 0
    left: int = 0


def _role(member: dict[str, Any]) -> str | None:
    try:
        return role_of({"https://purl.imsglobal.org/spec/lti/claim/roles": member.get("roles")})
    except LaunchRefused:
        return None


def apply_members(context: LtiContext, members: list[dict[str, Any]]) -> Synced:
    """Bring the class's roster in line with ``members`` (see the module's note)."""
    done = Synced()
    platform = context.platform
    school_class = context.school_class
    with transaction.atomic():
        learners: set[int] = set()
        for member in members:
            if str(member.get("status", "Active")) != "Active" or not member.get("user_id"):
                continue
            role = _role(member)
            if role is None:
                continue
            body = {**member, "sub": str(member["user_id"])}
            user = account_for(platform, body)
            if role == INSTRUCTOR:
                Teacher.objects.get_or_create(user=user)
                if school_class.teacher_id != user.pk:
                    _, made = CoTeacher.objects.get_or_create(
                        school_class=school_class, teacher=user
                    )
                    done.teaching += made
            elif role == LEARNER:
                learners.add(user.pk)
                present = Membership.objects.filter(
                    school_class=school_class, student=user, left__isnull=True
                ).exists()
                if not present:
                    join(school_class, user, str(member.get("name") or "")[:150])
                    done.joined += 1
        from_platform = LtiAccount.objects.filter(platform=platform).values("user")
        gone = (
            Membership.objects.filter(
                school_class=school_class, left__isnull=True, student__in=from_platform
            )
            .exclude(student__in=learners)
            .exclude(student=school_class.teacher_id)
        )
        done.left = gone.update(left=timezone.now())
        LtiContext.objects.filter(pk=context.pk).update(synced=timezone.now())
    return done


def sync(context: LtiContext) -> Synced:
    """Fetch, then apply. Raises :class:`NoRoster` or the library's errors."""
    return apply_members(context, fetch_members(context))
