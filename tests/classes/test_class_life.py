"""A class's life: made by a teacher, archived, copied for next year, deleted; the account
page's "I teach"; deleting an account that teaches."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from lessons.classes.models import CoTeacher, ManagedStudent, Membership, SchoolClass, Teacher

from .conftest import PASSWORD, World


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_saying_i_teach_lets_an_account_make_classes(db: None) -> None:
    ada = User.objects.create_user("ada", password=PASSWORD)
    client = _logged_in(ada)
    assert client.post(reverse("classes:create"), {"name": "X"})["Location"] == reverse("account")

    client.post(reverse("account"), {"teaches": "on", "time_zone": "America/New_York"})
    response = client.post(reverse("classes:create"), {"name": "Loo for beginners"})

    assert Teacher.objects.get(user=ada).time_zone == "America/New_York"
    made = SchoolClass.objects.get(teacher=ada)
    assert response["Location"] == made.get_absolute_url()


def test_a_bad_time_zone_is_refused(db: None) -> None:
    ada = User.objects.create_user("ada")
    response = _logged_in(ada).post(reverse("account"), {"teaches": "on", "time_zone": "Mars/Base"})

    assert response.status_code == 200 and not Teacher.objects.exists()


def test_a_teacher_with_classes_cannot_stop_teaching(world: World) -> None:
    response = _logged_in(world.teacher).post(reverse("account"), {"time_zone": "Europe/London"})

    assert "You still teach 1 class" in response.content.decode()
    assert Teacher.objects.filter(user=world.teacher).exists()


def test_a_managed_student_cannot_teach(world: World) -> None:
    kid = User.objects.create_user("kid")
    # (His one-time password changed: tests/classes/test_students.py has that step.)
    ManagedStudent.objects.create(user=kid, created_by=world.teacher, one_time_password=False)
    client = _logged_in(kid)

    page = client.get(reverse("account")).content.decode()
    response = client.post(reverse("account"), {"teaches": "on", "time_zone": "Europe/London"})

    assert "cannot teach" in page
    assert "cannot teach" in response.content.decode()
    assert not Teacher.objects.filter(user=kid).exists()
    assert client.post(reverse("classes:create"), {"name": "Mine"}).status_code == 302
    assert not SchoolClass.objects.filter(teacher=kid).exists()
    assert client.get(reverse("password-change")).status_code == 200


def test_an_archived_class_is_read_only_and_in_the_archived_tab(world: World) -> None:
    client = _logged_in(world.teacher)
    client.post(reverse("classes:archive", args=[world.class1.pk]), {"action": "archive"})
    world.class1.refresh_from_db()
    assert world.class1.is_archived

    text = client.post(
        reverse("classes:edit", args=[world.class1.pk]), {"name": "Changed"}, follow=True
    ).content.decode()
    assert "archived, so it cannot be changed" in text
    assert SchoolClass.objects.get(pk=world.class1.pk).name == "Loo 1"
    assert "Loo 1" not in client.get(reverse("classes:list")).content.decode()
    assert "Loo 1" in client.get(reverse("classes:list") + "?tab=archived").content.decode()
    assert client.get(world.class1.get_absolute_url()).status_code == 200

    client.post(reverse("classes:archive", args=[world.class1.pk]), {"action": "restore"})
    assert not SchoolClass.objects.get(pk=world.class1.pk).is_archived


def test_copying_a_class_for_next_year(world: World) -> None:
    client = _logged_in(world.teacher)

    client.post(reverse("classes:copy", args=[world.class1.pk]), {"name": "Loo 1, 2027"})
    client.post(
        reverse("classes:copy", args=[world.class1.pk]), {"name": "With", "with_students": "on"}
    )

    empty = SchoolClass.objects.get(name="Loo 1, 2027")
    full = SchoolClass.objects.get(name="With")
    assert empty.copied_from == world.class1 and empty.description == "Year one"
    assert empty.join_code != world.class1.join_code and not empty.memberships.exists()
    assert full.memberships.get().real_name == world.membership.real_name


def test_deleting_a_class_needs_its_name(world: World) -> None:
    client = _logged_in(world.teacher)
    url = reverse("classes:delete", args=[world.class1.pk])

    wrong = client.post(url, {"confirm": "Loo"})
    assert "Nothing has been deleted" in wrong.content.decode()
    assert SchoolClass.objects.filter(pk=world.class1.pk).exists()

    assert client.post(url, {"confirm": "Loo 1"})["Location"] == reverse("classes:list")
    assert not SchoolClass.objects.filter(pk=world.class1.pk).exists()
    assert User.objects.filter(pk=world.student.pk).exists()


def test_deleting_a_teachers_account_takes_his_classes(world: World) -> None:
    CoTeacher.objects.filter(school_class=world.class1).delete()  # he alone teaches it
    client = _logged_in(world.teacher)
    page = client.get(reverse("delete-account")).content.decode()
    assert "The 1 class you teach go with it" in page

    client.post(reverse("delete-account"), {"password": PASSWORD})

    assert not SchoolClass.objects.filter(pk=world.class1.pk).exists()
    assert not Membership.objects.filter(pk=world.membership.pk).exists()
    assert User.objects.filter(pk=world.student.pk).exists()


def test_deleting_a_students_account_leaves_his_classes(world: World) -> None:
    client = _logged_in(world.student)
    assert (
        "You leave the 1 class you are in" in client.get(reverse("delete-account")).content.decode()
    )

    client.post(reverse("delete-account"), {"password": PASSWORD})

    assert not Membership.objects.filter(pk=world.membership.pk).exists()
    assert SchoolClass.objects.filter(pk=world.class1.pk).exists()


def test_the_class_page_costs_the_same_queries_for_more_students(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client = _logged_in(world.teacher)
    client.get(world.class1.get_absolute_url())
    # 11: co-teachers, tables, announcements, the learning platform's course (lessons.lti)
    with django_assert_num_queries(11) as small:
        client.get(world.class1.get_absolute_url())
    for i in range(10):
        Membership.objects.create(
            school_class=world.class1, student=User.objects.create_user(f"s{i}")
        )
    with django_assert_num_queries(len(small.captured_queries)):
        client.get(world.class1.get_absolute_url())


@pytest.mark.parametrize("tab", ["", "?tab=archived"])
def test_the_list_page_is_pinned(
    world: World, tab: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client = _logged_in(world.teacher)
    for i in range(5):
        SchoolClass.objects.create(teacher=world.teacher, name=f"C{i}")
    with django_assert_num_queries(6):
        client.get(reverse("classes:list") + tab)
