"""The helpers every class page (and the quizzes') goes through: anyone else's class is a 404."""

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404

from lessons.classes.access import (
    class_for_student,
    class_for_teacher,
    classes_joined,
    classes_taught,
)
from lessons.classes.models import Membership, SchoolClass, Teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, object]:
    teacher = User.objects.create_user("teacher", password="x")
    Teacher.objects.create(user=teacher)
    outsider = User.objects.create_user("outsider", password="x", is_staff=True)
    student = User.objects.create_user("student", password="x")
    mine = SchoolClass.objects.create(teacher=teacher, name="Mine")
    old = SchoolClass.objects.create(teacher=teacher, name="Old", archived="2026-01-01T00:00Z")
    theirs = SchoolClass.objects.create(teacher=outsider, name="Theirs")
    Membership.objects.create(school_class=mine, student=student)
    return {
        "teacher": teacher,
        "outsider": outsider,
        "student": student,
        "mine": mine,
        "old": old,
        "theirs": theirs,
    }


def test_a_teacher_has_his_own_classes_archived_included(world: dict) -> None:
    assert set(classes_taught(world["teacher"])) == {world["mine"], world["old"]}
    assert list(classes_taught(AnonymousUser())) == []
    assert list(classes_joined(world["student"])) == [world["mine"]]


def test_anyone_elses_class_is_a_404(world: dict) -> None:
    assert class_for_teacher(world["teacher"], world["mine"].pk) == world["mine"]
    assert class_for_student(world["student"], world["mine"].pk) == world["mine"]
    for user, pk in [
        (world["teacher"], world["theirs"].pk),
        (world["outsider"], world["mine"].pk),  # staff too
        (world["student"], world["theirs"].pk),
        (AnonymousUser(), world["mine"].pk),
        (world["teacher"], "nonsense"),
    ]:
        with pytest.raises(Http404):
            class_for_teacher(user, pk)
    with pytest.raises(Http404):
        class_for_student(world["teacher"], world["mine"].pk)
