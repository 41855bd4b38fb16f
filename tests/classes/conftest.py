"""Named actors of the class tests: two teachers with a class each, a student in each class,
someone in neither (an outsider), a member of staff, and two more teachers: one who
co-teaches class 1, one who did."""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from lessons.classes.models import CoTeacher, Membership, SchoolClass, Teacher

PASSWORD = "a long pass phrase 7"
REAL_NAME = "Henrietta Secretname"
NOTE = "Private remark about homework"


@dataclass
class World:
    teacher: User
    teacher2: User
    student: User
    student2: User
    outsider: User
    staff: User
    class1: SchoolClass
    class2: SchoolClass
    membership: Membership
    membership2: Membership
    co_teacher: User
    former_co_teacher: User


def make_teacher(username: str, **extra: Any) -> User:
    user = User.objects.create_user(username, password=PASSWORD, **extra)
    Teacher.objects.create(user=user)
    return user


@pytest.fixture(autouse=True)
def _empty_cache(db: None) -> Iterator[None]:
    """The rate limit counts in the cache: each test starts with none made."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db: None) -> World:
    return build_world()


def build_world() -> World:
    """The actors and their classes (the ``world`` fixture's rows)."""
    teacher = make_teacher("teacher")
    teacher2 = make_teacher("teacher2")
    student = User.objects.create_user("student", password=PASSWORD)
    student2 = User.objects.create_user("student2", password=PASSWORD)
    outsider = User.objects.create_user("outsider", password=PASSWORD)
    staff = User.objects.create_user("staff", password=PASSWORD, is_staff=True, is_superuser=True)
    class1 = SchoolClass.objects.create(teacher=teacher, name="Loo 1", description="Year one")
    class2 = SchoolClass.objects.create(teacher=teacher2, name="Loo 2")
    membership = Membership.objects.create(
        school_class=class1, student=student, real_name=REAL_NAME, notes=NOTE
    )
    membership2 = Membership.objects.create(
        school_class=class2, student=student2, real_name="Other Realname", notes="Other note"
    )
    co_teacher, former = make_teacher("coteacher"), make_teacher("formerco")
    CoTeacher.objects.create(school_class=class1, teacher=co_teacher)
    CoTeacher.objects.create(school_class=class1, teacher=former).delete()
    return World(
        teacher,
        teacher2,
        student,
        student2,
        outsider,
        staff,
        class1,
        class2,
        membership,
        membership2,
        co_teacher,
        former,
    )
