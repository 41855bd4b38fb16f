"""Every free text a teacher or student types is capped (issue 27): a long text at 20,000
characters, a short one at 2,000; a longer one is refused with an error that says how long it
may be, and nothing is stored."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.classes.models import Membership, SchoolClass, Teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher() -> User:
    user = User.objects.create_user("teach", password="pw")
    Teacher.objects.create(user=user)
    return user


@pytest.fixture
def client(teacher: User) -> Client:
    client = Client()
    client.force_login(teacher)
    return client


def _says_at_most(response: Any, count: int) -> bool:
    """The form again, saying how long the text may be (Django's words)."""
    return (
        response.status_code == 200 and f"at most {count} characters" in response.content.decode()
    )


def test_a_class_description_is_at_most_twenty_thousand_characters(client: Client) -> None:
    response = client.post(reverse("classes:create"), {"name": "F", "description": "x" * 20_001})
    assert _says_at_most(response, 20_000)
    assert not SchoolClass.objects.exists()
    response = client.post(reverse("classes:create"), {"name": "F", "description": "x" * 20_000})
    assert response.status_code == 302


def test_a_students_notes_are_at_most_two_thousand_characters(
    client: Client, teacher: User
) -> None:
    school_class = SchoolClass.objects.create(teacher=teacher, name="F")
    student = User.objects.create_user("pupil", password="pw")
    member = Membership.objects.create(school_class=school_class, student=student)
    url = reverse("classes:student", args=[school_class.pk, member.pk])
    response = client.post(url, {"real_name": "Ann", "notes": "x" * 2_001})
    assert _says_at_most(response, 2_000)
    member.refresh_from_db()
    assert member.notes == ""


def test_a_list_of_names_is_at_most_twenty_thousand_characters(
    client: Client, teacher: User
) -> None:
    school_class = SchoolClass.objects.create(teacher=teacher, name="F")
    names = "\n".join(["Ann Example"] * 2_000)
    url = reverse("classes:add-students", args=[school_class.pk])
    token = re.search(r'name="token" value="([^"]+)"', client.get(url).content.decode())
    assert token
    response = client.post(url, {"names": names, "token": token[1]})
    assert _says_at_most(response, 20_000)
    assert not school_class.memberships.exists()
