"""Login slips, new passwords in bulk and renaming (issue 37): who may see and do them, what a
slip shows, and what a reset changes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.classes.models import ManagedStudent, Membership

from .conftest import PASSWORD, REAL_NAME, World
from .test_students import _add, _passwords


@pytest.fixture
def teacher(world: World) -> Client:
    client = Client()
    client.force_login(world.teacher)
    return client


def _made(client: Client, world: World, names: str) -> dict[str, str]:
    """Accounts made for class 1: username → one-time password."""
    status, text = _add(client, world.class1, names)
    assert status == 200
    return _passwords(text)


def _member(username: str) -> Membership:
    return Membership.objects.select_related("student").get(student__username=username)


def _logs_in(username: str, password: str) -> Client | None:
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return client if response.status_code == 302 else None


def _slips(world: World) -> str:
    return reverse("classes:slips", args=[world.class1.pk])


def test_only_the_class_teachers_see_its_slips(world: World) -> None:
    for user, status in [
        (world.teacher, 200),
        (world.co_teacher, 200),
        (world.teacher2, 404),
        (world.student, 404),
        (world.outsider, 404),
        (world.staff, 404),
        (world.former_co_teacher, 404),
    ]:
        client = Client()
        client.force_login(user)
        assert client.get(_slips(world)).status_code == status, user
    assert Client().get(_slips(world))["Location"].startswith(reverse("login"))


def test_made_accounts_come_on_slips_with_their_passwords_shown_once(
    world: World, teacher: Client
) -> None:
    status, text = _add(teacher, world.class1, "Olivia Smith\nOlivia Smith")

    made = _passwords(text)
    assert set(made) == {"OliviaSmith", "OliviaSmith2"}
    assert text.count('<li class="slip">') == 2
    assert "http://testserver/accounts/log-in/" in text
    assert 'href="/static/css/print.css" media="print"' in text
    for username, password in made.items():
        assert text.count(password) == 2  # the table to copy from, and the slip
        assert password not in User.objects.get(username=username).password  # only hashed


def test_slips_printed_later_show_no_password_and_the_real_name(
    world: World, teacher: Client
) -> None:
    made = _made(teacher, world, "Olivia Smith\nOlivia Smith")
    two = _member("OliviaSmith2")
    two.real_name = "Olivia Smith (Year 8 blue)"
    two.save()

    text = teacher.get(f"{_slips(world)}?student={two.pk}").content.decode()

    assert text.count('<li class="slip">') == 1
    assert "OliviaSmith2" in text and "Olivia Smith (Year 8 blue)" in text
    assert made["OliviaSmith2"] not in text and made["OliviaSmith"] not in text
    assert 'class="slip__blank"' in text  # a line to write the password on
    assert "Give new passwords and print the slips" in text


def test_the_whole_roster_is_printed_when_nobody_is_chosen(world: World, teacher: Client) -> None:
    _made(teacher, world, "Ann\nBea")
    Membership.objects.filter(student__username="Bea").update(archived="2024-01-01T00:00Z")

    text = teacher.get(_slips(world)).content.decode()

    # On the roster: the student who joined by code, and Ann; Bea is archived.
    assert text.count('<li class="slip">') == 2
    assert "Ann" in text and ">Bea<" not in text
    assert "your own" in text  # the student made his own account: his password is his


def test_a_student_of_another_class_cannot_be_chosen(world: World, teacher: Client) -> None:
    text = teacher.get(f"{_slips(world)}?student={world.membership2.pk}").content.decode()

    assert "out of date" in text
    assert "student2" not in text


def test_the_rosters_print_action_leads_to_the_slips_of_those_ticked(
    world: World, teacher: Client
) -> None:
    _made(teacher, world, "Ann\nBea")
    ann = _member("Ann")

    response = teacher.post(
        reverse("classes:roster", args=[world.class1.pk]),
        {"action": "slips", "students": [ann.pk]},
    )

    assert response["Location"] == f"{_slips(world)}?student={ann.pk}"


def test_new_passwords_in_bulk_replace_the_old_ones_and_are_chosen_again(
    world: World, teacher: Client
) -> None:
    old = _made(teacher, world, "Ann\nBea\nCat")
    for name in ("Ann", "Bea"):  # they have logged in and chosen their own
        ManagedStudent.objects.filter(user__username=name).update(one_time_password=False)
        user = User.objects.get(username=name)
        user.set_password(PASSWORD)
        user.save()
    ann, bea, cat = (_member(n) for n in ("Ann", "Bea", "Cat"))
    logged_in = _logs_in("Ann", PASSWORD)
    assert logged_in is not None

    response = teacher.post(
        reverse("classes:new-passwords", args=[world.class1.pk]),
        {"student": [ann.pk, bea.pk, world.membership.pk]},  # and one who made his own
    )

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    new = _passwords(text)
    assert set(new) == {"Ann", "Bea"}  # his own account keeps its password
    assert text.count('<li class="slip">') == 2
    assert _logs_in("Ann", PASSWORD) is None and _logs_in("Bea", PASSWORD) is None
    # The session logged in with the old password is over.
    assert logged_in.get(world.class1.get_absolute_url())["Location"].startswith(reverse("login"))
    client = _logs_in("Ann", new["Ann"])
    assert client is not None
    assert client.get(world.class1.get_absolute_url())["Location"] == reverse("password-change")
    assert _logs_in("Cat", old["Cat"]) is not None  # not chosen: unchanged
    assert _logs_in("student", PASSWORD) is not None
    assert ManagedStudent.objects.get(user=bea.student).one_time_password


def test_new_passwords_need_a_teacher_of_the_class_and_a_class_in_use(
    world: World, teacher: Client
) -> None:
    old = _made(teacher, world, "Ann")
    ann = _member("Ann")
    url = reverse("classes:new-passwords", args=[world.class1.pk])
    for user in (world.teacher2, world.student, world.outsider):
        client = Client()
        client.force_login(user)
        assert client.post(url, {"student": [ann.pk]}).status_code == 404
    world.class1.archive()
    assert teacher.post(url, {"student": [ann.pk]}).status_code == 302
    assert _logs_in("Ann", old["Ann"]) is not None  # nothing changed


def test_a_co_teacher_gives_new_passwords_too(world: World, teacher: Client) -> None:
    _made(teacher, world, "Ann")
    client = Client()
    client.force_login(world.co_teacher)

    response = client.post(
        reverse("classes:new-passwords", args=[world.class1.pk]), {"student": [_member("Ann").pk]}
    )

    assert _logs_in("Ann", _passwords(response.content.decode())["Ann"]) is not None


def test_the_teacher_renames_an_account_he_made(world: World, teacher: Client) -> None:
    made = _made(teacher, world, "Olivia Smith\nOlivia Smith")
    two = _member("OliviaSmith2")
    url = reverse("classes:rename-student", args=[world.class1.pk, two.pk])

    response = teacher.post(url, {"username": "OliviaSmithB"}, follow=True)

    assert "OliviaSmith2 is now OliviaSmithB" in response.content.decode()
    assert _logs_in("OliviaSmithB", made["OliviaSmith2"]) is not None
    assert _logs_in("OliviaSmith2", made["OliviaSmith2"]) is None
    # A name like another's is refused: capitals and look-alikes count as the same.
    for taken in ("oliviasmith", "STUDENT", "\u0405tudent", "bad name!"):
        text = teacher.post(url, {"username": taken}, follow=True).content.decode()
        assert "is taken" in text or "cannot be a username" in text, taken
    assert User.objects.filter(pk=two.student_id, username="OliviaSmithB").exists()
    teacher.post(url, {"username": "oliviasmithb"})  # its own name in other capitals
    assert User.objects.filter(pk=two.student_id, username="oliviasmithb").exists()


def test_only_a_teacher_who_may_manage_the_account_renames_it(
    world: World, teacher: Client
) -> None:
    _made(teacher, world, "Ann")
    ann = _member("Ann")
    url = reverse("classes:rename-student", args=[world.class1.pk, ann.pk])
    for user in (world.teacher2, world.student, world.outsider):
        client = Client()
        client.force_login(user)
        assert client.post(url, {"username": "Annie"}).status_code == 404
    # A student's own account is his to name.
    own = reverse("classes:rename-student", args=[world.class1.pk, world.membership.pk])
    teacher.post(own, {"username": "Renamed"})
    assert User.objects.filter(username="student").exists()
    # A co-teacher who teaches every class the account is in may.
    client = Client()
    client.force_login(world.co_teacher)
    client.post(url, {"username": "Annie"})
    assert User.objects.filter(pk=ann.student_id, username="Annie").exists()


def test_the_real_name_stands_beside_the_username_on_the_teachers_pages(
    world: World, teacher: Client
) -> None:
    class_page = teacher.get(world.class1.get_absolute_url()).content.decode()
    student_page = teacher.get(
        reverse("classes:student", args=[world.class1.pk, world.membership.pk])
    ).content.decode()

    assert "student</a>" in class_page and REAL_NAME in class_page
    assert f"student ({REAL_NAME})" in student_page
