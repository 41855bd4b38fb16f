"""Making student accounts in bulk, resetting a password, removing, moving, archiving."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.classes.models import MAX_STUDENTS, ManagedStudent, Membership, SchoolClass

from .conftest import PASSWORD, World


@pytest.fixture
def teacher(world: World) -> Client:
    client = Client()
    client.force_login(world.teacher)
    return client


def _add(client: Client, school_class: SchoolClass, names: str) -> tuple[int, str]:
    url = reverse("classes:add-students", args=[school_class.pk])
    page = client.get(url)
    token = page.context["form"].initial["token"]
    response = client.post(url, {"names": names, "token": token})
    return response.status_code, response.content.decode()


def _passwords(text: str) -> dict[str, str]:
    rows = re.findall(r"<code>([^<]+)</code></td><td><code class=\"password\">([^<]+)</code>", text)
    return dict(rows)


def test_usernames_are_made_from_names_and_passwords_shown_once(
    world: World, teacher: Client
) -> None:
    status, text = _add(teacher, world.class1, "Ada Lovelace\n\nÈve d'Arcy\nAda  Lovelace\n")

    assert status == 200
    made = _passwords(text)
    assert set(made) == {"AdaLovelace", "EveDArcy", "AdaLovelace2"}
    assert "Shown once" in text
    for username, password in made.items():
        user = User.objects.get(username=username)
        assert user.check_password(password)
        assert password not in user.password  # hashed, never stored in plain text
        assert ManagedStudent.objects.get(user=user).created_by == world.teacher
    assert Membership.objects.get(student__username="EveDArcy").real_name == "Ève d'Arcy"
    client = Client()
    response = client.post(reverse("login"), {"username": "EveDArcy", "password": made["EveDArcy"]})
    assert response.status_code == 302
    assert client.get(world.class1.get_absolute_url())["Location"] == reverse("password-change")
    mine = "my very own phrase 12"
    client.post(
        reverse("password-change"),
        {"old_password": made["EveDArcy"], "new_password1": mine, "new_password2": mine},
    )
    assert "Loo 1" in client.get(world.class1.get_absolute_url()).content.decode()


def test_the_printable_page_is_not_cached_and_a_resent_form_makes_nothing(
    world: World, teacher: Client
) -> None:
    url = reverse("classes:add-students", args=[world.class1.pk])
    token = teacher.get(url).context["form"].initial["token"]

    first = teacher.post(url, {"names": "Ada", "token": token})
    again = teacher.post(url, {"names": "Ada", "token": token})

    assert "no-store" in first["Cache-Control"]
    assert "sent already" in again.content.decode()
    assert User.objects.filter(username__startswith="Ada").count() == 1


def test_a_made_username_avoids_existing_ones_whatever_their_case(
    world: World, teacher: Client
) -> None:
    User.objects.create_user("adalovelace")
    User.objects.create_user("ＡｄａＬｏｖｅｌａｃｅ2")  # full-width look-alike of AdaLovelace2

    status, text = _add(teacher, world.class1, "Ada Lovelace")

    assert list(_passwords(text)) == ["AdaLovelace3"]


@pytest.mark.parametrize("chosen", ["STUDENT", "Student", "ｓｔｕｄｅｎｔ", "\u0405tud\u0435nt"])
def test_a_chosen_username_like_an_existing_one_is_refused(
    world: World, teacher: Client, chosen: str
) -> None:
    count = User.objects.count()

    status, text = _add(teacher, world.class1, f"Ann Other = {chosen}\nBea = bea1")

    assert status == 200
    assert "is taken, or looks too like one that is" in text or "cannot be a username" in text
    assert User.objects.count() == count


def test_two_chosen_usernames_alike_in_one_list_are_refused(world: World, teacher: Client) -> None:
    count = User.objects.count()

    status, text = _add(teacher, world.class1, "Ann = ann1\nAnne = ANN1")

    assert "Line 2" in text and User.objects.count() == count


def test_a_class_takes_at_most_100_students(world: World, teacher: Client) -> None:
    names = "\n".join(f"Pupil {i}" for i in range(MAX_STUDENTS))  # class 1 has one already

    status, text = _add(teacher, world.class1, names)

    assert f"at most {MAX_STUDENTS} students" in text
    assert world.class1.memberships.count() == 1
    status, text = _add(teacher, world.class1, "\n".join(names.splitlines()[1:]))
    assert world.class1.memberships.count() == MAX_STUDENTS


def test_making_accounts_is_rate_limited(
    world: World, teacher: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        settings, "RATE_LIMITS", {**settings.RATE_LIMITS, "accounts-per-teacher": (3, 3600)}
    )
    _add(teacher, world.class1, "A\nB")

    status, text = _add(teacher, world.class1, "C\nD")

    assert "at most 3 student accounts an hour" in text
    assert world.class1.memberships.count() == 3
    _add(teacher, world.class1, "C")
    assert world.class1.memberships.count() == 4


def test_the_teacher_resets_a_password_of_an_account_he_made(world: World, teacher: Client) -> None:
    _, text = _add(teacher, world.class1, "Ada")
    old = _passwords(text)["Ada"]
    member = Membership.objects.get(student__username="Ada")

    response = teacher.post(reverse("classes:reset-password", args=[world.class1.pk, member.pk]))

    new = _passwords(response.content.decode())["Ada"]
    user = User.objects.get(username="Ada")
    assert new != old and user.check_password(new) and not user.check_password(old)
    assert "no-store" in response["Cache-Control"]


def test_a_student_who_made_his_own_account_keeps_his_password(
    world: World, teacher: Client
) -> None:
    before = User.objects.get(pk=world.student.pk).password

    response = teacher.post(
        reverse("classes:reset-password", args=[world.class1.pk, world.membership.pk]), follow=True
    )

    assert "only he can change its password" in response.content.decode()
    assert User.objects.get(pk=world.student.pk).password == before


def test_removing_a_student_asks_first(world: World, teacher: Client) -> None:
    url = reverse("classes:remove-student", args=[world.class1.pk, world.membership.pk])

    assert "Remove from the class" in teacher.get(url).content.decode()
    assert Membership.objects.filter(pk=world.membership.pk).exists()
    response = teacher.post(url)

    assert response.status_code == 302
    assert Membership.objects.get(pk=world.membership.pk).left is not None
    assert not world.class1.memberships.active().exists()
    assert User.objects.filter(pk=world.student.pk).exists()


def test_the_teacher_keeps_notes_and_real_names(world: World, teacher: Client) -> None:
    url = reverse("classes:student", args=[world.class1.pk, world.membership.pk])

    teacher.post(url, {"real_name": "Henrietta Q", "notes": "Good at Pam"})

    member = Membership.objects.get(pk=world.membership.pk)
    assert (member.real_name, member.notes) == ("Henrietta Q", "Good at Pam")


def _roster(client: Client, school_class: SchoolClass, **data: object) -> str:
    url = reverse("classes:roster", args=[school_class.pk])
    return client.post(url, data, follow=True).content.decode()


def test_students_move_to_another_of_the_teachers_classes(world: World, teacher: Client) -> None:
    other = SchoolClass.objects.create(teacher=world.teacher, name="Loo 1b")
    second = User.objects.create_user("second")
    m2 = Membership.objects.create(school_class=world.class1, student=second)
    Membership.objects.create(school_class=other, student=second)  # already there

    text = _roster(
        teacher, world.class1, action="move", students=[world.membership.pk, m2.pk], target=other.pk
    )

    assert "Moved 2 students" in text
    assert not world.class1.memberships.present().exists()  # gone, their rows kept as left
    assert world.class1.memberships.count() == 2
    assert set(other.memberships.active().values_list("student__username", flat=True)) == {
        "student",
        "second",
    }
    assert other.memberships.get(student=world.student).notes == world.membership.notes


def test_a_move_needs_a_target_and_room(world: World, teacher: Client) -> None:
    full = SchoolClass.objects.create(teacher=world.teacher, name="Full")
    Membership.objects.bulk_create(
        Membership(school_class=full, student=User.objects.create_user(f"u{i}"))
        for i in range(MAX_STUDENTS)
    )

    assert "Choose the class" in _roster(
        teacher, world.class1, action="move", students=[world.membership.pk]
    )
    assert "has room for 0 more" in _roster(
        teacher, world.class1, action="move", students=[world.membership.pk], target=full.pk
    )
    assert "Tick at least one" in _roster(teacher, world.class1, action="archive")
    assert Membership.objects.get(pk=world.membership.pk).school_class == world.class1


def test_archiving_students_keeps_them_off_the_roster_and_classmates(
    world: World, teacher: Client
) -> None:
    _roster(teacher, world.class1, action="archive", students=[world.membership.pk])

    assert Membership.objects.get(pk=world.membership.pk).archived is not None
    text = teacher.get(world.class1.get_absolute_url()).content.decode()
    assert "Archived students" in text
    _roster(teacher, world.class1, action="restore", students=[world.membership.pk])
    assert Membership.objects.get(pk=world.membership.pk).archived is None


def test_removing_in_bulk(world: World, teacher: Client) -> None:
    text = _roster(teacher, world.class1, action="remove", students=[world.membership.pk])

    assert "Removed 1 student" in text
    assert not world.class1.memberships.present().exists()
    assert world.class1.memberships.count() == 1  # his row, and with it his results, stay


def test_a_tampered_action_changes_nothing(world: World, teacher: Client) -> None:
    text = _roster(teacher, world.class1, action="expel", students=[world.membership.pk])

    assert "not one of the available choices" in text
    assert Membership.objects.filter(pk=world.membership.pk).exists()


def test_a_one_time_password_is_changed_before_anything_else(world: World, teacher: Client) -> None:
    """A student whose account the teacher made logs in with the password he was given, and
    must choose his own before any other page; a reset gives him a one-time one again."""
    _, text = _add(teacher, world.class1, "Ada")
    given = _passwords(text)["Ada"]
    student = Client()
    assert student.post(reverse("login"), {"username": "Ada", "password": given}).status_code == 302

    for path in (reverse("classes:list"), reverse("home"), world.class1.get_absolute_url()):
        response = student.get(path)
        assert response.status_code == 302 and response["Location"] == reverse("password-change")
    assert student.get(reverse("password-change")).status_code == 200

    mine = "my very own phrase 12"
    changed = student.post(
        reverse("password-change"),
        {"old_password": given, "new_password1": mine, "new_password2": mine},
    )
    assert changed.status_code == 302
    assert student.get(reverse("classes:list")).status_code == 200
    assert not ManagedStudent.objects.get(user__username="Ada").one_time_password

    # A reset: the next login asks again.
    member = Membership.objects.get(student__username="Ada")
    reset = teacher.post(reverse("classes:reset-password", args=[world.class1.pk, member.pk]))
    again = Client()
    again.post(
        reverse("login"), {"username": "Ada", "password": _passwords(reset.content.decode())["Ada"]}
    )
    assert again.get(reverse("classes:list"))["Location"] == reverse("password-change")


def test_an_account_of_ones_own_is_never_sent_to_change_its_password(world: World) -> None:
    client = Client()
    client.post(reverse("login"), {"username": "student", "password": PASSWORD})
    assert client.get(reverse("classes:list")).status_code == 200
