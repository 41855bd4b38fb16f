"""Logins a classroom can live with (issue 37): wrong passwords count per account, the
address's count is a far looser backstop (an IPv6 /64 one client); a teacher sees which of his
students are locked out and unlocks them; a student whose teacher removed his account from the
class is told so, not that his password is wrong, and his tries lock nothing."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lessons.classes.leaving import leave
from lessons.classes.lockouts import REMOVED
from lessons.classes.models import ManagedStudent, Membership
from loo_site.limits import limit

from .conftest import PASSWORD, World

pytestmark = pytest.mark.django_db

SCHOOL = "192.0.2.50"


def _log_in(name: str, password: str, address: str = SCHOOL) -> Any:
    return Client(REMOTE_ADDR=address).post(
        reverse("login"), {"username": name, "password": password}
    )


def _class_of(world: World, n: int) -> list[User]:
    """``n`` students on class 1's roster."""
    pupils = []
    for i in range(n):
        user = User.objects.create_user(f"pupil{i}", password=PASSWORD)
        Membership.objects.create(school_class=world.class1, student=user)
        pupils.append(user)
    return pupils


def _lockouts(world: World, who: User | None = None) -> Any:
    client = Client()
    client.force_login(who or world.teacher)
    return client, reverse("classes:lockouts", args=[world.class1.pk])


# -- thirty students behind one address ------------------------------------------------------


def test_thirty_students_behind_one_address_each_mistyping_once_all_get_in(world) -> None:
    """The whole class mistypes at once, then every one logs in: no one waits."""
    pupils = _class_of(world, 30)
    assert [_log_in(p.username, "mistyped").status_code for p in pupils] == [200] * 30
    assert [_log_in(p.username, PASSWORD).status_code for p in pupils] == [302] * 30


def test_thirty_students_in_one_ipv6_64_are_one_address_and_all_get_in(world) -> None:
    pupils = _class_of(world, 30)
    addresses = [f"2001:db8:5:7::{i + 1:x}" for i in range(30)]
    for pupil, address in zip(pupils, addresses, strict=True):
        assert _log_in(pupil.username, "mistyped", address).status_code == 200
    for pupil, address in zip(pupils, addresses, strict=True):
        assert _log_in(pupil.username, PASSWORD, address).status_code == 302


def test_the_address_is_still_a_backstop_against_a_spray_across_a_64(world) -> None:
    """Names that failed and never got in, from one /64, up to the address's count a minute;
    the next is refused before any password is checked, the right one too."""
    count = limit("guesses-per-address-minute").count
    for i in range(count):
        address = f"2001:db8:5:9::{i + 1:x}"
        assert _log_in(f"nobody{i}", "123456", address).status_code == 200
    assert _log_in("student", PASSWORD, "2001:db8:5:9::ffff").status_code == 429
    assert _log_in("student", PASSWORD, "2001:db8:5:a::1").status_code == 302  # another /64


# -- locked students, and their teacher unlocking them ---------------------------------------


def test_the_teacher_sees_a_locked_student_and_unlocks_him(world) -> None:
    pupil = _class_of(world, 2)[0]
    assert [_log_in(pupil.username, "wrong").status_code for _ in range(5)] == [200] * 4 + [429]
    assert _log_in(pupil.username, PASSWORD).status_code == 429  # axes: the name at the address
    assert _log_in("pupil1", PASSWORD).status_code == 302  # his classmate is not held up

    client, url = _lockouts(world)
    page = client.get(url).content.decode()
    assert "pupil0" in page and "pupil1" not in page
    assert "from one address, for 15 more minutes" in page

    response = client.post(url, {"membership": Membership.objects.get(student=pupil).pk})
    assert response.status_code == 302
    assert "pupil0 is unlocked" in client.get(url).content.decode()
    assert "No student of this class is locked out now." in client.get(url).content.decode()
    assert _log_in(pupil.username, PASSWORD).status_code == 302


def test_a_name_locked_from_anywhere_is_unlocked_too(world) -> None:
    """Twenty wrong passwords for his name from twenty addresses: locked from everywhere."""
    for i in range(limit("guesses-per-name").count):
        _log_in("student", "guess", f"198.51.100.{i + 1}")
    assert _log_in("student", PASSWORD, "203.0.113.9").status_code == 429
    client, url = _lockouts(world)
    assert "from anywhere" in client.get(url).content.decode()
    client.post(url)  # every student listed
    assert _log_in("student", PASSWORD, "203.0.113.9").status_code == 302


def test_a_co_teacher_unlocks_but_another_teacher_gets_a_404(world) -> None:
    for _ in range(5):
        _log_in("student", "wrong")
    client, url = _lockouts(world, world.teacher2)
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert _log_in("student", PASSWORD).status_code == 429  # still locked
    client, url = _lockouts(world, world.co_teacher)
    assert "student" in client.get(url).content.decode()
    client.post(url)
    assert _log_in("student", PASSWORD).status_code == 302


# -- a student removed from the class ----------------------------------------------------------


def _made_and_removed(world: World) -> User:
    kid = User.objects.create_user("kid", password=PASSWORD)
    ManagedStudent.objects.create(user=kid, created_by=world.teacher, one_time_password=False)
    Membership.objects.create(school_class=world.class1, student=kid)
    leave(Membership.objects.filter(student=kid))
    kid.refresh_from_db()
    return kid


def test_a_removed_student_is_told_his_teacher_removed_him(world) -> None:
    kid = _made_and_removed(world)
    assert not kid.has_usable_password()
    for _ in range(12):  # more than any lock allows
        response = _log_in("kid", PASSWORD)
        assert response.status_code == 200
        page = response.content.decode().replace("&#x27;", "'")
        assert REMOVED in page
        assert "Please enter a correct username and password" not in page
    assert not AccessAttempt.objects.filter(username="kid").exists()
    # A wrong password is a wrong password, as for anyone.
    wrong = _log_in("kid", "not-his").content.decode()
    assert REMOVED not in wrong.replace("&#x27;", "'")
    assert "Please enter a correct username and password" in wrong


def test_a_removed_student_given_a_new_password_logs_in(world) -> None:
    kid = _made_and_removed(world)
    teacher = Client()
    teacher.force_login(world.teacher)
    member = Membership.objects.get(student=kid)
    page = teacher.post(reverse("classes:reset-password", args=[world.class1.pk, member.pk]))
    assert page.status_code == 200
    kid.refresh_from_db()
    assert kid.has_usable_password()  # the new one-time password
    assert REMOVED not in _log_in("kid", PASSWORD).content.decode().replace("&#x27;", "'")


def test_the_lockouts_page_reads_as_many_queries_whatever_is_locked(world) -> None:
    client, url = _lockouts(world)
    with CaptureQueriesContext(connection) as none_locked:
        assert client.get(url).status_code == 200
    for pupil in _class_of(world, 6):
        for _ in range(5):
            _log_in(pupil.username, "wrong")
    with CaptureQueriesContext(connection) as six_locked:
        page = client.get(url).content.decode()
    assert "Locked now (6)" in page
    assert len(six_locked) == len(none_locked)
