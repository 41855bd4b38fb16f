"""The class list from the platform (Names and Role Provisioning Services, issue 40): the
teacher syncs; learners of the course join (accounts made for those who never launched), who
left the course is marked as left with his results kept, students who joined otherwise are
left alone, and only the class's teachers may sync."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from lessons.classes.models import Membership, Teacher
from lessons.lti.models import LtiAccount, LtiContext
from tests.worlds import built_once

from .conftest import World, launch
from .platform import INSTRUCTOR, LEARNER, Platform

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Course:
    school_class: int
    teacher: int
    walk_in: int


@pytest.fixture(scope="module")
def course(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker, world: World, platform: Platform
) -> Iterator[Course]:
    """The course opened by its instructor; Ada and Bob launched once; a student who joined
    the class by other means."""

    def build() -> Course:
        launch(Client(), platform, sub="teacher-1", role=INSTRUCTOR, name="Grace Hopper")
        launch(Client(), platform, sub="learner-1", name="Ada Lovelace")
        launch(Client(), platform, sub="learner-2", name="Bob Babbage")
        context = LtiContext.objects.get()
        walk_in = User.objects.create_user("WalkIn")
        Membership.objects.create(school_class=context.school_class, student=walk_in)
        teacher = LtiAccount.objects.get(subject="teacher-1").user
        return Course(context.school_class_id, teacher.pk, walk_in.pk)

    yield from built_once(django_db_blocker, build)


def member(user_id: str, name: str, role: str = LEARNER, status: str = "Active") -> dict:
    return {"user_id": user_id, "name": name, "roles": [role], "status": status}


def sync(course: Course) -> str:
    teacher = Client()
    teacher.force_login(User.objects.get(pk=course.teacher))
    response = teacher.post(reverse("lti:sync", args=[course.school_class]), follow=True)
    assert response.status_code == 200
    return response.content.decode()


def on_roster(course: Course) -> set[str]:
    return set(
        Membership.objects.filter(school_class=course.school_class, left__isnull=True).values_list(
            "student__username", flat=True
        )
    )


def test_a_sync_brings_the_roster_in_line_with_the_course(
    course: Course, platform: Platform
) -> None:
    platform.members = [
        member("teacher-1", "Grace Hopper", INSTRUCTOR),
        member("teacher-2", "Alan Turing", INSTRUCTOR),
        member("learner-1", "Ada Lovelace"),
        member("learner-2", "Bob Babbage", status="Inactive"),
        member("learner-3", "Cy Young"),
    ]
    assert on_roster(course) == {"AdaLovelace", "BobBabbage", "WalkIn"}
    page = sync(course)
    assert "Class list synced: 1 joined, 1 marked as left, 1 new co-teachers." in page
    assert on_roster(course) == {"AdaLovelace", "CyYoung", "WalkIn"}
    bob = Membership.objects.get(student__username="BobBabbage")
    assert bob.left is not None  # kept, with his results, off the roster
    cy = LtiAccount.objects.get(subject="learner-3").user
    assert not cy.has_usable_password()
    assert Teacher.objects.filter(user__lti_accounts__subject="teacher-2").exists()
    # A second sync changes nothing; a learner who comes back by launching is back.
    assert "1 joined" not in sync(course) and on_roster(course) == {
        "AdaLovelace",
        "CyYoung",
        "WalkIn",
    }
    launch(Client(), platform, sub="learner-2", name="Bob Babbage")
    assert "BobBabbage" in on_roster(course)


def test_only_the_class_teachers_sync(course: Course, platform: Platform) -> None:
    stranger = User.objects.create_user("stranger")
    Teacher.objects.create(user=stranger)
    client = Client()
    client.force_login(stranger)
    response = client.post(reverse("lti:sync", args=[course.school_class]))
    assert response.status_code == 404
    ada = Client()
    ada.force_login(LtiAccount.objects.get(subject="learner-1").user)
    assert ada.post(reverse("lti:sync", args=[course.school_class])).status_code == 404
