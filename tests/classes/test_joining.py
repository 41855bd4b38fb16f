"""Joining a class by its code: an account joins, or someone signs up and joins at once."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.classes.models import MAX_STUDENTS, Membership

from .conftest import PASSWORD, World


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_account_joins_by_code_in_any_case_and_spacing(world: World) -> None:
    client = _logged_in(world.outsider)
    code = world.class1.join_code

    response = client.post(
        reverse("classes:join"), {"code": f" {code[:4].lower()}-{code[4:]} ", "real_name": "Out"}
    )

    assert response.status_code == 302 and response["Location"] == world.class1.get_absolute_url()
    assert Membership.objects.get(student=world.outsider).real_name == "Out"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("wrong", "No class has this code"),
        ("closed", "not taking new students"),
        ("archived", "not taking new students"),
        ("member", "You are in this class already"),
        ("teacher", "You teach this class"),
        ("full", f"This class is full ({MAX_STUDENTS} students)"),
    ],
)
def test_a_wrong_or_closed_code_is_refused_clearly(world: World, setup: str, message: str) -> None:
    user = world.outsider
    code = world.class1.join_code
    if setup == "wrong":
        code = "ZZZZZZZZ"
    elif setup == "closed":
        world.class1.joining_open = False
        world.class1.save()
    elif setup == "archived":
        world.class1.archive()
    elif setup == "member":
        user = world.student
    elif setup == "teacher":
        user = world.teacher
    elif setup == "full":
        Membership.objects.bulk_create(
            Membership(school_class=world.class1, student=User.objects.create_user(f"u{i}"))
            for i in range(MAX_STUDENTS - 1)
        )
    count = Membership.objects.count()

    response = _logged_in(user).post(reverse("classes:join"), {"code": code})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert Membership.objects.count() == count


def test_a_new_student_signs_up_and_joins_in_one_form(world: World) -> None:
    client = Client()
    join_page = client.get(f"{reverse('classes:join')}?code={world.class1.join_code}")
    assert f"?code={world.class1.join_code}" in join_page.content.decode()

    response = client.post(
        f"{reverse('sign-up')}?code={world.class1.join_code}",
        {
            "username": "newbie",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "code": world.class1.join_code,
            "real_name": "",
        },
    )

    assert response.status_code == 302 and response["Location"] == world.class1.get_absolute_url()
    assert Membership.objects.filter(student__username="newbie", school_class=world.class1).exists()


def test_signing_up_with_a_closed_code_makes_no_account(world: World) -> None:
    world.class1.joining_open = False
    world.class1.save()

    response = Client().post(
        reverse("sign-up"),
        {
            "username": "newbie",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "code": world.class1.join_code,
        },
    )

    assert response.status_code == 200
    assert "not taking new students" in response.content.decode()
    assert not User.objects.filter(username="newbie").exists()


def test_signing_up_without_a_code_is_as_before(db: None) -> None:
    response = Client().post(
        reverse("sign-up"), {"username": "plain", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert response.status_code == 302
    assert not Membership.objects.exists()


def test_a_new_code_stops_the_old_one_and_joining_can_be_closed(world: World) -> None:
    teacher = _logged_in(world.teacher)
    old = world.class1.join_code
    teacher.post(reverse("classes:code", args=[world.class1.pk]), {"action": "new"})
    world.class1.refresh_from_db()
    assert world.class1.join_code != old
    teacher.post(reverse("classes:code", args=[world.class1.pk]), {"action": "close"})
    world.class1.refresh_from_db()
    assert not world.class1.joining_open

    text = teacher.post(
        reverse("classes:code", args=[world.class1.pk]), {"action": "bogus"}, follow=True
    ).content.decode()
    assert "out of date" in text


def test_a_class_that_fills_up_after_the_form_was_checked_takes_nobody_more(
    world: World,
) -> None:
    """Two students with the last place: both forms were checked while there was room, the
    second join finds the class full when it writes, and writes nothing."""
    from lessons.classes.forms import JoinForm, NewStudent
    from lessons.classes.models import ClassFull
    from lessons.classes.views import _make_students

    Membership.objects.bulk_create(
        Membership(school_class=world.class1, student=User.objects.create_user(f"u{i}"))
        for i in range(MAX_STUDENTS - 2)
    )
    first = JoinForm(world.outsider, {"code": world.class1.join_code})
    second = JoinForm(world.student2, {"code": world.class1.join_code})
    assert first.is_valid() and second.is_valid()

    first.join(world.outsider)
    with pytest.raises(ClassFull, match=f"full \\({MAX_STUDENTS} students at most\\)"):
        second.join(world.student2)

    assert world.class1.memberships.count() == MAX_STUDENTS
    assert not world.class1.memberships.filter(student=world.student2).exists()
    # The teacher's bulk-made accounts as well: none is made when they do not all fit.
    users = User.objects.count()
    with pytest.raises(ClassFull):
        _make_students(world.class1, world.teacher, [NewStudent("Late Comer", "LateComer")])
    assert User.objects.count() == users
