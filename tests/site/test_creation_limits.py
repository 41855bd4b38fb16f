"""Every POST that creates or stores rows is limited per account and per address, before
its view does any work, with the 429 page (issue 27); a list of students (which makes
accounts) is refused while the limits cannot be counted, everything else goes on."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import get_resolver, reverse

from lessons.classes.models import SchoolClass, Teacher
from loo_site.limits import CREATING

pytestmark = pytest.mark.django_db

LIMITS = settings.RATE_LIMITS


def _url_names(namespace: str) -> dict[str, int]:
    """The URL names of a namespace, with how many ids each takes."""
    resolver = get_resolver().namespace_dict[namespace][1]
    return {f"{namespace}:{p.name}": p.pattern.regex.groups for p in resolver.url_patterns}


def test_every_page_of_classes_and_quizzes_that_takes_a_post_is_limited() -> None:
    """A new page that stores rows must join the table: every other one refuses a POST."""
    names = _url_names("classes") | _url_names("quizzes") | _url_names("lessons")
    assert set(CREATING) <= set(names)
    client = _teacher("teach")
    for name, ids in names.items():
        if name in CREATING or name == "classes:join":  # joining: AttemptLimitMiddleware
            continue
        response = client.post(reverse(name, args=[1] * ids))
        assert response.status_code == 405, name


def _teacher(name: str, address: str = "192.0.2.40") -> Client:
    user = User.objects.create_user(name, password="pw")
    Teacher.objects.create(user=user)
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _refused(response: Any) -> bool:
    return response.status_code == 429 and int(response["Retry-After"]) > 0


@override_settings(RATE_LIMITS={**LIMITS, "classes-per-account": (3, 3600)})
def test_an_account_makes_so_many_classes_an_hour() -> None:
    client = _teacher("teach")
    for i in range(3):
        response = client.post(reverse("classes:create"), {"name": f"Form {i}"})
        assert response.status_code == 302
    response = client.post(reverse("classes:create"), {"name": "One more"})
    assert _refused(response)
    assert "Too many classes have been made or copied." in response.content.decode()
    assert SchoolClass.objects.count() == 3


@override_settings(RATE_LIMITS={**LIMITS, "classes-per-address": (2, 3600)})
def test_an_address_makes_so_many_classes_however_many_accounts_it_has() -> None:
    for i in range(2):
        assert _teacher(f"t{i}").post(reverse("classes:create"), {"name": "F"}).status_code == 302
    assert _refused(_teacher("t2").post(reverse("classes:create"), {"name": "F"}))
    assert (
        _teacher("t3", "192.0.2.41").post(reverse("classes:create"), {"name": "F"}).status_code
        == 302
    )


@override_settings(RATE_LIMITS={**LIMITS, "answers-per-account": (3, 60)})
def test_answers_are_capped_per_minute_before_any_work() -> None:
    """Counted before the view looks for the attempt: even answers to none count."""
    client = _teacher("someone")
    url = reverse("quizzes:attempt-answer", args=[999999, 1])
    assert [client.post(url, {}).status_code for _ in range(3)] == [404] * 3
    assert _refused(client.post(url, {}))
    assert _refused(client.post(reverse("quizzes:attempt-submit", args=[999999]), {}))
    assert client.get(reverse("quizzes:my-assignments")).status_code == 200  # reading goes on
    # An answer sent by htmx is told in a sentence the page's script shows.
    response = client.post(url, {}, headers={"HX-Request": "true"})
    assert _refused(response)
    assert (
        response.content.decode()
        == "Too many answers, too fast. Please wait 1 minute and try again."
    )


@override_settings(RATE_LIMITS={**LIMITS, "attempts-per-account": (2, 60)})
def test_starting_attempts_is_capped_per_minute() -> None:
    client = _teacher("someone")
    url = reverse("quizzes:attempt-start", args=[999999])
    assert [client.post(url).status_code for _ in range(2)] == [404] * 2
    assert _refused(client.post(url))


@override_settings(RATE_LIMITS={**LIMITS, "reports-per-account": (1, 3600)})
def test_problem_reports_are_limited() -> None:
    client = _teacher("someone")
    url = reverse("quizzes:report", args=[999999, 1])
    assert client.post(url, {"note": "x"}).status_code == 404
    assert _refused(client.post(url, {"note": "x"}))


def test_with_redis_down_a_list_of_students_is_refused_and_a_class_is_made() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    down = {
        "default": {
            "BACKEND": "games.caches.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    client = _teacher("teach")
    with override_settings(CACHES=down):
        assert client.post(reverse("classes:create"), {"name": "Form 1"}).status_code == 302
        school_class = SchoolClass.objects.get()
        response = client.post(
            reverse("classes:add-students", args=[school_class.pk]), {"names": "Ann Example"}
        )
        assert response.status_code == 503
        assert "Nothing has been made or changed." in response.content.decode()
    assert not school_class.memberships.exists()


@override_settings(RATE_LIMITS={**LIMITS, "classes-per-account": (1, 3600)})
def test_a_forged_post_counts_against_no_one() -> None:
    """Counted after the CSRF check: a page elsewhere cannot use up a teacher's limit."""
    user = User.objects.create_user("teach", password="pw")
    Teacher.objects.create(user=user)
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(user)
    assert forged.post(reverse("classes:create"), {"name": "F"}).status_code == 403
    client = Client()
    client.force_login(user)
    assert client.post(reverse("classes:create"), {"name": "F"}).status_code == 302
