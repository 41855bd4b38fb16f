"""A teacher's and a student's own pages (classes, quizzes, the account) send
``Cache-Control: no-store`` (issue 27): a shared school computer's browser must not show the
next person a roster or an attempt from its cache. Public pages stay cacheable."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from lessons.classes.models import Membership, SchoolClass, Teacher

pytestmark = pytest.mark.django_db


def _private_urls(school_class: SchoolClass, membership: Membership) -> list[str]:
    """Every page under /classes/, /quizzes/ and /lti/ (the class and student ids are real ones;
    other ids name nothing, and the refusal must not be kept either), and the account's."""
    urls = [reverse(name) for name in ("account", "password-change", "delete-account")]
    for namespace in ("classes", "quizzes", "lti"):
        for pattern in get_resolver().namespace_dict[namespace][1].url_patterns:
            assert isinstance(pattern, URLPattern)
            names = list(pattern.pattern.regex.groupindex)
            values = {"pk": school_class.pk, "membership": membership.pk}
            args = [values.get(name, 1) for name in names]
            urls.append(reverse(f"{namespace}:{pattern.name}", args=args))
    return urls


def _no_store(response: object) -> bool:
    return "no-store" in response.get("Cache-Control", "")  # type: ignore[attr-defined]


def test_every_private_page_is_not_stored() -> None:
    teacher = User.objects.create_user("teach", password="pw")
    Teacher.objects.create(user=teacher)
    school_class = SchoolClass.objects.create(teacher=teacher, name="Form 3")
    student = User.objects.create_user("pupil", password="pw")
    membership = Membership.objects.create(school_class=school_class, student=student)
    urls = _private_urls(school_class, membership)
    assert len(urls) > 30
    for user in (teacher, student):
        client = Client()
        client.force_login(user)
        statuses = []
        for url in urls:
            response = client.get(url)
            statuses.append(response.status_code)
            assert _no_store(response), (user, url, response.status_code)
        assert statuses.count(200) >= 5
    # A POST's answer (a form shown again, a refusal) too.
    client = Client()
    client.force_login(teacher)
    assert _no_store(client.post(reverse("classes:create"), {"name": ""}))


def test_the_account_pages_are_not_stored_for_anyone() -> None:
    assert _no_store(Client().get(reverse("login")))
    assert _no_store(Client().get(reverse("sign-up")))


def test_public_pages_are_not_marked() -> None:
    assert not _no_store(Client().get(reverse("home")))
    assert not _no_store(Client().get(reverse("lessons:rule-list")))
