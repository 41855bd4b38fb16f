"""Announcements (issue 37): a teacher of the class posts, plain text rendered safely and
capped; its students see it on the class's page and in their header until each marks it read;
a teacher of the class removes it; nobody else does any of it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from lessons.classes.models import ANNOUNCEMENT_LENGTH, Announcement

from .conftest import World


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _announce(client: Client, world: World, text: str) -> int:
    url = reverse("classes:announce", args=[world.class1.pk])
    return client.post(url, {"text": text}).status_code


def _marker(client: Client) -> str:
    page = client.get(reverse("home")).content.decode()
    start = page.find('class="notice-marker"')
    return "" if start < 0 else page[start : page.index("</a>", start)]


def test_a_teacher_posts_and_his_students_see_it_escaped(world: World) -> None:
    teacher, student = _client(world.teacher), _client(world.student)

    assert _announce(teacher, world, "Quiz on <b>Friday</b> & <script>alert(1)</script>") == 302

    page = student.get(world.class1.get_absolute_url()).content.decode()
    assert "Quiz on &lt;b&gt;Friday&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page
    assert "1 new notice" in _marker(student)
    assert "notice" not in _marker(_client(world.student2))  # another class's student
    assert "Quiz on" in teacher.get(world.class1.get_absolute_url()).content.decode()


def test_reading_them_takes_them_out_of_the_header_for_that_student_only(world: World) -> None:
    teacher, student = _client(world.teacher), _client(world.student)
    _announce(teacher, world, "Bring a pencil.")
    _announce(teacher, world, "No class on Monday.")
    other = _client(world.outsider)
    other.post(reverse("classes:join"), {"code": world.class1.join_code})
    assert "2 new notices" in _marker(student)
    upto = max(Announcement.objects.values_list("pk", flat=True))

    student.post(reverse("classes:announcements-read", args=[world.class1.pk]), {"upto": upto})

    assert _marker(student) == ""
    assert "2 new notices" in _marker(other)
    _announce(teacher, world, "Well done, all.")
    assert "1 new notice" in _marker(student)


def test_marking_read_stops_at_what_the_page_showed(world: World) -> None:
    teacher, student = _client(world.teacher), _client(world.student)
    _announce(teacher, world, "First.")
    seen = Announcement.objects.get().pk
    _announce(teacher, world, "Posted while he read.")

    student.post(reverse("classes:announcements-read", args=[world.class1.pk]), {"upto": seen})

    assert "1 new notice" in _marker(student)


def test_an_announcement_is_short(world: World) -> None:
    teacher = _client(world.teacher)

    _announce(teacher, world, "x" * (ANNOUNCEMENT_LENGTH + 1))
    _announce(teacher, world, "   ")

    assert not Announcement.objects.exists()
    _announce(teacher, world, "x" * ANNOUNCEMENT_LENGTH)
    assert Announcement.objects.count() == 1


def test_posting_is_rate_limited(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        settings, "RATE_LIMITS", {**settings.RATE_LIMITS, "announcements-per-account": (2, 3600)}
    )
    teacher = _client(world.teacher)

    statuses = [_announce(teacher, world, f"Notice {i}") for i in range(3)]

    assert statuses == [302, 302, 429]
    assert Announcement.objects.count() == 2


def test_only_the_class_teachers_post_and_remove(world: World) -> None:
    for user in (world.teacher2, world.student, world.outsider, world.staff):
        assert _announce(_client(user), world, "Not yours.") == 404
    assert not Announcement.objects.exists()
    assert _announce(_client(world.teacher), world, "Mine.") == 302
    notice = Announcement.objects.get()
    remove = reverse("classes:announcement-remove", args=[world.class1.pk, notice.pk])
    elsewhere = reverse("classes:announcement-remove", args=[world.class2.pk, notice.pk])
    for user in (world.teacher2, world.student, world.outsider):
        assert _client(user).post(remove).status_code == 404
    assert _client(world.teacher2).post(elsewhere).status_code == 404
    assert Announcement.objects.exists()

    assert _client(world.co_teacher).post(remove).status_code == 302

    assert not Announcement.objects.exists()


def test_only_the_class_students_mark_read(world: World) -> None:
    _announce(_client(world.teacher), world, "Hello.")
    url = reverse("classes:announcements-read", args=[world.class1.pk])
    for user in (world.student2, world.outsider):
        assert _client(user).post(url, {"upto": 10**6}).status_code == 404


def test_an_archived_class_takes_no_announcement(world: World) -> None:
    world.class1.archive()

    _announce(_client(world.teacher), world, "Too late.")

    assert not Announcement.objects.exists()
