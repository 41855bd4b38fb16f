"""Who may see and do what: anonymous, a student of class 1, a student of class 2, class 1's
teacher, his co-teacher and a former one, class 2's teacher and staff, against every URL and
action of the class pages. Another's class or student is a 404, changes nothing, and no
roster, real name or note leaks. A co-teacher does all the owner does but delete the class,
change its co-teachers or hand it over."""

from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from lessons.classes.models import CoTeacher, Membership, SchoolClass
from tests.worlds import built_once

from .conftest import NOTE, REAL_NAME, World, build_world

ACTORS = [
    "anonymous",
    "student",
    "student2",
    "teacher",
    "co_teacher",
    "former_co_teacher",
    "teacher2",
    "staff",
]
#: Only the owner may: the rest of a class's pages are its co-teachers' too.
OWNER_ONLY = {"delete"}


def _build() -> dict[str, tuple[type[Model], Any]]:
    """The conftest's world, made once for the module (tests/worlds.py): each object's model
    and primary key."""
    world = build_world()
    return {f.name: (type(o), o.pk) for f in fields(World) for o in [getattr(world, f.name)]}


@pytest.fixture(scope="module")
def built(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, tuple[type[Model], Any]]]:
    yield from built_once(django_db_blocker, _build)


@pytest.fixture
def world(built: dict[str, tuple[type[Model], Any]], db: None) -> World:
    """The module's world, its objects fetched again for this test."""
    return World(**{name: model._default_manager.get(pk=pk) for name, (model, pk) in built.items()})


def _client(world: World, actor: str) -> Client:
    client = Client()
    if actor != "anonymous":
        client.force_login(getattr(world, actor))
    return client


def _class_urls(world: World) -> dict[str, str]:
    pk, m = world.class1.pk, world.membership.pk
    return {
        "class": reverse("classes:class", args=[pk]),
        "edit": reverse("classes:edit", args=[pk]),
        "copy": reverse("classes:copy", args=[pk]),
        "delete": reverse("classes:delete", args=[pk]),
        "add-students": reverse("classes:add-students", args=[pk]),
        "student": reverse("classes:student", args=[pk, m]),
        "remove-student": reverse("classes:remove-student", args=[pk, m]),
        "teachers": reverse("classes:teachers", args=[pk]),
        "lockouts": reverse("classes:lockouts", args=[pk]),
    }


def _state(world: World) -> Any:
    c = SchoolClass.objects.get(pk=world.class1.pk)
    members = list(
        Membership.objects.filter(school_class=c).values_list(
            "student_id", "real_name", "notes", "archived"
        )
    )
    password = User.objects.get(pk=world.student.pk).password
    return (
        c.teacher_id,
        list(CoTeacher.objects.filter(school_class=c).values_list("teacher_id", flat=True)),
        c.name,
        c.description,
        c.join_code,
        c.joining_open,
        c.archived,
        members,
        password,
        SchoolClass.objects.count(),
        User.objects.count(),
    )


@pytest.mark.parametrize("actor", ACTORS)
def test_only_the_teacher_sees_his_class_pages(world: World, actor: str) -> None:
    client = _client(world, actor)
    for name, url in _class_urls(world).items():
        response = client.get(url)
        text = response.content.decode()
        if actor == "anonymous":
            assert response.status_code == 302 and "/accounts/log-in/" in response["Location"]
        elif actor == "teacher" or (actor == "co_teacher" and name not in OWNER_ONLY):
            assert response.status_code == 200, name
        elif actor == "student" and name == "class":
            assert response.status_code == 200
            assert "Loo 1" in text and "teacher" in text and "student" in text
        else:
            assert response.status_code == 404, (name, actor)
        if actor not in ("teacher", "co_teacher"):
            assert REAL_NAME not in text and NOTE not in text, (name, actor)


POSTS: list[tuple[str, dict[str, Any]]] = [
    ("edit", {"name": "Hijacked", "description": "x"}),
    ("code", {"action": "new"}),
    ("code", {"action": "close"}),
    ("archive", {"action": "archive"}),
    ("copy", {"name": "Stolen", "with_students": "on"}),
    ("delete", {"confirm": "Loo 1"}),
    ("add-students", {"names": "Intruder", "token": "x"}),
    ("roster", {"action": "remove", "students": "MEMBERSHIP"}),
    ("student", {"real_name": "Changed", "notes": "Changed"}),
    ("reset-password", {}),
    ("remove-student", {}),
    ("delete-student", {"confirm": "student"}),
    ("teachers", {"action": "add", "username": "teacher2"}),
    ("teachers", {"action": "remove", "co_teacher": "COTEACHER"}),
    ("teachers", {"action": "hand-over", "co_teacher": "COTEACHER", "confirm": "yes"}),
]


def _post_url(world: World, name: str) -> str:
    if name in ("student", "reset-password", "remove-student", "delete-student"):
        return reverse(f"classes:{name}", args=[world.class1.pk, world.membership.pk])
    return reverse(f"classes:{name}", args=[world.class1.pk])


def _data(world: World, data: dict[str, Any]) -> dict[str, Any]:
    co_teacher = CoTeacher.objects.get(teacher=world.co_teacher).pk
    values = {"MEMBERSHIP": world.membership.pk, "COTEACHER": co_teacher}
    return {k: values.get(v, v) for k, v in data.items()}


@pytest.mark.parametrize(
    "actor", ["anonymous", "student", "student2", "former_co_teacher", "teacher2", "staff"]
)
@pytest.mark.parametrize(("name", "data"), POSTS)
def test_no_one_else_can_change_a_class(
    world: World, actor: str, name: str, data: dict[str, Any]
) -> None:
    client = _client(world, actor)
    before = _state(world)
    data = _data(world, data)

    response = client.post(_post_url(world, name), data)

    if actor == "anonymous":
        assert response.status_code == 302 and "/accounts/log-in/" in response["Location"]
    else:
        assert response.status_code == 404
    assert REAL_NAME not in response.content.decode()
    assert _state(world) == before


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("delete", {"confirm": "Loo 1"}),
        *[(name, data) for name, data in POSTS if name == "teachers"],
    ],
)
def test_a_co_teacher_cannot_delete_the_class_or_change_who_teaches_it(
    world: World, name: str, data: dict[str, Any]
) -> None:
    before = _state(world)

    response = _client(world, "co_teacher").post(_post_url(world, name), _data(world, data))

    assert response.status_code == 404
    assert _state(world) == before


def test_another_teachers_student_is_a_404_even_through_my_own_class(world: World) -> None:
    """Class 1's pk with class 2's membership: the pair must match."""
    client = _client(world, "teacher")
    for name in ("student", "reset-password", "remove-student"):
        url = reverse(f"classes:{name}", args=[world.class1.pk, world.membership2.pk])
        assert (client.post(url) if name != "student" else client.get(url)).status_code == 404
    assert Membership.objects.filter(pk=world.membership2.pk).exists()


def test_a_roster_action_on_another_class_students_changes_nothing(world: World) -> None:
    client = _client(world, "teacher")
    url = reverse("classes:roster", args=[world.class1.pk])

    response = client.post(
        url,
        {"action": "remove", "students": [world.membership.pk, world.membership2.pk]},
        follow=True,
    )

    assert "out of date" in response.content.decode()
    assert Membership.objects.count() == 2


def test_moving_to_another_teachers_class_is_refused(world: World) -> None:
    client = _client(world, "teacher")
    url = reverse("classes:roster", args=[world.class1.pk])

    response = client.post(
        url,
        {"action": "move", "students": [world.membership.pk], "target": world.class2.pk},
        follow=True,
    )

    assert "out of date" in response.content.decode()
    assert Membership.objects.get(pk=world.membership.pk).school_class == world.class1


@pytest.mark.parametrize("actor", ACTORS)
def test_the_list_shows_each_only_his_own(world: World, actor: str) -> None:
    text = _client(world, actor).get(reverse("classes:list")).content.decode()

    assert ("Loo 1" in text) == (actor in ("teacher", "co_teacher", "student"))
    assert ("Loo 2" in text) == (actor in ("teacher2", "student2"))
    assert REAL_NAME not in text


@pytest.mark.parametrize("actor", ["anonymous", "student", "student2", "staff", "outsider"])
def test_only_a_teacher_makes_classes(world: World, actor: str) -> None:
    client = _client(world, actor)
    count = SchoolClass.objects.count()

    response = client.post(reverse("classes:create"), {"name": "Mine"})

    assert response.status_code == 302
    assert SchoolClass.objects.count() == count


def test_the_student_page_of_a_class_shows_usernames_never_real_names(world: World) -> None:
    other = User.objects.create_user("classmate")
    Membership.objects.create(
        school_class=world.class1, student=other, real_name="Classmate Realname", notes="n"
    )
    text = _client(world, "student").get(world.class1.get_absolute_url()).content.decode()

    assert "classmate" in text and "Classmate Realname" not in text
    assert REAL_NAME not in text and NOTE not in text
    assert world.class1.join_code not in text


def test_the_teacher_sees_real_names_and_notes(world: World) -> None:
    text = _client(world, "teacher").get(world.class1.get_absolute_url()).content.decode()

    assert REAL_NAME in text and "Private remark" in text
    assert world.class1.join_code in text
    assert reverse("quizzes:class-assignments", args=[world.class1.pk]) in text
    assert reverse("quizzes:gradebook", args=[world.class1.pk]) in text


def test_a_student_is_led_to_his_assignments(world: World) -> None:
    text = _client(world, "student").get(world.class1.get_absolute_url()).content.decode()

    assert reverse("quizzes:my-assignments") in text
