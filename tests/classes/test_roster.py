"""A roster that loses nothing (issue 27, items 3, 4, 5 and 9b): removing a student keeps his
work in every teacher view and his feedback his to read; archived and departed students leave
room; a teacher-made account left in no class cannot log in with the password its teacher
knows; accounts are deleted without their results; co-teachers share a class."""

import csv
import io
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.classes.models import (
    DELETED_ACCOUNT,
    MAX_STUDENTS,
    CoTeacher,
    ManagedStudent,
    Membership,
    SchoolClass,
    Teacher,
)
from lessons.quizzes.models import Assignment, Attempt
from lessons.quizzes.zones import teacher_zone
from tests.quizzes.conftest import make_quiz, right_response

from .conftest import PASSWORD, REAL_NAME, World, make_teacher


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _assignment(school_class: SchoolClass, teacher: User, **fields: Any) -> Assignment:
    now = timezone.now()
    return Assignment.objects.create(
        school_class=school_class,
        quiz=make_quiz(teacher),
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
        attempts_allowed=2,
        **fields,
    )


def _took(assignment: Assignment, student: User) -> Attempt:
    """The student answers the first question right and submits."""
    attempt = Attempt.start(assignment, student)
    answer = attempt.answers.get(position=0)
    assert answer.record(answer.to_engine(), right_response(attempt, 0)).grade is not None
    attempt.submit()
    return attempt


def _remove(world: World, membership: Membership) -> None:
    url = reverse("classes:remove-student", args=[membership.school_class_id, membership.pk])
    assert _client(world.teacher).post(url).status_code == 302


def _teacher_views(client: Client, assignment: Assignment) -> dict[str, str]:
    pk, class_pk = assignment.pk, assignment.school_class_id
    urls = {
        "results": reverse("quizzes:results", args=[pk]),
        "gradebook": reverse("quizzes:gradebook", args=[class_pk]),
        "answers-csv": reverse("quizzes:answers-csv", args=[pk]),
        "gradebook-csv": reverse("quizzes:gradebook-csv", args=[class_pk]),
    }
    pages = {name: client.get(url) for name, url in urls.items()}
    assert all(page.status_code == 200 for page in pages.values())
    return {
        name: b"".join(page.streaming_content).decode()  # type: ignore[attr-defined]
        if page.streaming
        else page.content.decode()
        for name, page in pages.items()
    }


# -- item 3: removing keeps the work ---------------------------------------------------------


def test_a_removed_student_stays_in_every_teacher_view_marked_left(world: World) -> None:
    assignment = _assignment(world.class1, world.teacher)
    attempt = _took(assignment, world.student)
    teacher = _client(world.teacher)
    before = _teacher_views(teacher, assignment)
    page = teacher.get(
        reverse("classes:remove-student", args=[world.class1.pk, world.membership.pk])
    )
    assert "stays in the results" in page.content.decode() and "Archive" in page.content.decode()

    _remove(world, world.membership)

    after = _teacher_views(teacher, assignment)
    assert "left the class" in after["results"] and "left the class" in after["gradebook"]
    for name in ("results", "gradebook"):
        assert REAL_NAME in after[name] and "33%" in after[name], name
    assert after["answers-csv"] == before["answers-csv"]
    # The gradebook CSV is as it was, but for the day he left, in a column of its own.
    was, now = (list(csv.DictReader(io.StringIO(v["gradebook-csv"]))) for v in (before, after))
    assert [r.pop("left the class") for r in was] == [""]
    world.membership.refresh_from_db()
    left = timezone.localtime(world.membership.left, teacher_zone(world.teacher)).date()
    assert [r.pop("left the class") for r in now] == [left.isoformat()]
    assert now == was
    student_results = reverse("quizzes:student-results", args=[assignment.pk, world.student.pk])
    assert "Left the class on" in teacher.get(student_results).content.decode()
    roster = teacher.get(world.class1.get_absolute_url()).content.decode()
    assert "Left the class" in roster and "(0 of at most" in roster
    # His own feedback stays his to read, from his list of classes.
    student = _client(world.student)
    classes = student.get(reverse("classes:list")).content.decode()
    assert "Classes you have left" in classes and attempt.get_absolute_url() in classes
    assert student.get(attempt.get_absolute_url()).status_code == 200


def test_a_removed_student_can_start_no_work_and_his_answers_are_refused(world: World) -> None:
    assignment = _assignment(world.class1, world.teacher)
    attempt = Attempt.start(assignment, world.student)
    _remove(world, world.membership)
    student = _client(world.student)

    assert student.get(world.class1.get_absolute_url()).status_code == 404
    assert student.get(assignment.get_absolute_url()).status_code == 404
    answer = attempt.answers.get(position=0)
    refused = answer.record(answer.to_engine(), right_response(attempt, 0)).refused
    assert refused.startswith("You are no longer in this class")  # not "archived"
    attempt.submit()
    with pytest.raises(Exception, match="no longer in this class"):
        Attempt.start(assignment, world.student)


def test_removing_in_bulk_keeps_the_work_too(world: World) -> None:
    assignment = _assignment(world.class1, world.teacher)
    _took(assignment, world.student)
    url = reverse("classes:roster", args=[world.class1.pk])

    response = _client(world.teacher).post(
        url, {"action": "remove", "students": [world.membership.pk]}, follow=True
    )

    assert "marked “left the class”" in response.content.decode()
    results = _client(world.teacher).get(reverse("quizzes:results", args=[assignment.pk]))
    assert "left the class" in results.content.decode()


def test_moving_a_student_keeps_his_work_in_the_class_he_left(world: World) -> None:
    other = SchoolClass.objects.create(teacher=world.teacher, name="Loo 1b")
    assignment = _assignment(world.class1, world.teacher)
    _took(assignment, world.student)

    _client(world.teacher).post(
        reverse("classes:roster", args=[world.class1.pk]),
        {"action": "move", "students": [world.membership.pk], "target": other.pk},
    )

    assert other.memberships.active().filter(student=world.student).exists()
    results = _client(world.teacher).get(reverse("quizzes:results", args=[assignment.pk]))
    assert "left the class" in results.content.decode()


def test_a_student_who_left_joins_again_in_his_old_row(world: World) -> None:
    _remove(world, world.membership)

    response = _client(world.student).post(
        reverse("classes:join"), {"code": world.class1.join_code}
    )

    assert response.status_code == 302
    row = Membership.objects.get(school_class=world.class1, student=world.student)
    assert row.pk == world.membership.pk and row.left is None and row.real_name == REAL_NAME


def test_the_teacher_brings_back_a_student_who_left(world: World) -> None:
    _remove(world, world.membership)

    text = (
        _client(world.teacher)
        .post(
            reverse("classes:roster", args=[world.class1.pk]),
            {"action": "restore", "students": [world.membership.pk]},
            follow=True,
        )
        .content.decode()
    )

    assert "Brought back 1 student" in text
    assert world.class1.memberships.active().filter(pk=world.membership.pk).exists()


# -- 9b: room ------------------------------------------------------------------------------


def _fill(school_class: SchoolClass, n: int) -> list[Membership]:
    return Membership.objects.bulk_create(
        Membership(school_class=school_class, student=User.objects.create_user(f"f{i}"))
        for i in range(n)
    )


@pytest.mark.parametrize("state", ["archived", "left"])
def test_archived_and_departed_students_leave_room(world: World, state: str) -> None:
    rows = _fill(world.class1, MAX_STUDENTS - 1)  # with the world's student: full
    assert world.class1.room() == 0
    Membership.objects.filter(pk=rows[0].pk).update(**{state: timezone.now()})

    assert world.class1.room() == 1
    response = _client(world.outsider).post(
        reverse("classes:join"), {"code": world.class1.join_code}
    )
    assert response.status_code == 302 and world.class1.room() == 0
    # Bringing one back needs room: the class is full again.
    text = (
        _client(world.teacher)
        .post(
            reverse("classes:roster", args=[world.class1.pk]),
            {"action": "restore", "students": [rows[0].pk]},
            follow=True,
        )
        .content.decode()
    )
    assert "is full" in text
    assert not world.class1.memberships.active().filter(pk=rows[0].pk).exists()


# -- 9b: a teacher-made account removed from its last class ------------------------------------


def _made(world: World, school_class: SchoolClass, name: str = "Made") -> Membership:
    user = User.objects.create_user(name, password=PASSWORD)
    ManagedStudent.objects.create(user=user, created_by=world.teacher, one_time_password=False)
    return Membership.objects.create(school_class=school_class, student=user)


def _logs_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def test_a_made_account_removed_from_its_last_class_cannot_log_in(world: World) -> None:
    made = _made(world, world.class1)
    other = SchoolClass.objects.create(teacher=world.teacher, name="Loo 1b")
    second = Membership.objects.create(school_class=other, student=made.student)

    _remove(world, made)
    assert _logs_in("Made", PASSWORD)  # still in another class
    _remove(world, second)
    assert not _logs_in("Made", PASSWORD)

    # A teacher of a class he was in (here the co-teacher, who did not make him) resets it:
    # the new password lets him in, back in that class.
    page = _client(world.co_teacher).post(
        reverse("classes:reset-password", args=[world.class1.pk, made.pk])
    )
    assert page.status_code == 200
    new = re.findall(r"\b[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}\b", page.content.decode())[0]
    assert _logs_in("Made", new)
    assert Membership.objects.get(pk=made.pk).left is None


def test_a_made_account_whose_only_class_is_deleted_cannot_log_in(world: World) -> None:
    _made(world, world.class1)

    _client(world.teacher).post(
        reverse("classes:delete", args=[world.class1.pk]), {"confirm": "Loo 1"}
    )

    assert not SchoolClass.objects.filter(pk=world.class1.pk).exists()
    assert not _logs_in("Made", PASSWORD)


def test_a_self_made_account_keeps_its_password_when_removed(world: World) -> None:
    _remove(world, world.membership)

    assert _logs_in("student", PASSWORD)


# -- item 4: deleting accounts without losing results ----------------------------------------


def test_a_made_account_cannot_delete_itself(world: World) -> None:
    made = _made(world, world.class1)
    client = _client(made.student)

    assert "only a teacher of your class" in client.get(reverse("account")).content.decode()
    page = client.post(reverse("delete-account"), {"password": PASSWORD})

    assert "you cannot delete it yourself" in page.content.decode()
    assert User.objects.filter(pk=made.student_id).exists()


def test_a_teacher_deletes_a_made_account_and_keeps_its_results(world: World) -> None:
    made = _made(world, world.class1)
    Membership.objects.filter(pk=made.pk).update(real_name="Made Realname")
    assignment = _assignment(world.class1, world.teacher)
    attempt = _took(assignment, made.student)
    teacher = _client(world.teacher)
    url = reverse("classes:delete-student", args=[world.class1.pk, made.pk])
    page = teacher.get(reverse("classes:student", args=[world.class1.pk, made.pk]))
    assert "Delete the account" in page.content.decode()

    wrong = teacher.post(url, {"confirm": "made"})  # the username is "Made"
    assert "Nothing has been deleted" in wrong.content.decode()
    assert User.objects.filter(pk=made.student_id).exists()
    teacher.post(url, {"confirm": "Made"})

    assert not User.objects.filter(pk=made.student_id).exists()
    kept = Attempt.objects.select_related("student").get(pk=attempt.pk)
    assert kept.student.get_username().startswith(DELETED_ACCOUNT) and not kept.student.is_active
    results = teacher.get(reverse("quizzes:results", args=[assignment.pk])).content.decode()
    assert DELETED_ACCOUNT in results and "Made Realname" in results and "33%" in results


def test_only_a_teacher_of_every_class_of_a_made_account_may_delete_it(world: World) -> None:
    made = _made(world, world.class1)
    Membership.objects.create(school_class=world.class2, student=made.student)
    url = reverse(
        "classes:delete-student",
        args=[world.class2.pk, made.student.memberships.get(school_class=world.class2).pk],
    )

    client = _client(world.teacher2)  # did not make it, and does not teach class 1
    assert "Delete the account" not in client.get(url.replace("delete/", "")).content.decode()
    client.post(url, {"confirm": "Made"})
    assert User.objects.filter(pk=made.student_id).exists()
    # A student's own account, never, not even by the teacher of his only class.
    own = reverse("classes:delete-student", args=[world.class1.pk, world.membership.pk])
    _client(world.teacher).post(own, {"confirm": "student"})
    assert User.objects.filter(pk=world.student.pk).exists()
    # Once he teaches class 1 too, he teaches every class it is in.
    CoTeacher.objects.create(school_class=world.class1, teacher=world.teacher2)
    client.post(url, {"confirm": "Made"})
    assert not User.objects.filter(pk=made.student_id).exists()


def test_a_student_who_deletes_his_account_leaves_his_results_without_his_name(
    world: World,
) -> None:
    assignment = _assignment(world.class1, world.teacher)
    attempt = _took(assignment, world.student)
    with pytest.raises(ProtectedError):  # never by cascade
        User.objects.get(pk=world.student.pk).delete()

    _client(world.student).post(reverse("delete-account"), {"password": PASSWORD})

    assert not User.objects.filter(pk=world.student.pk).exists()
    kept = Attempt.objects.select_related("student").get(pk=attempt.pk)
    row = Membership.objects.get(school_class=world.class1, student=kept.student)
    assert row.left is not None and row.real_name == "" and row.notes == ""
    results = _client(world.teacher).get(reverse("quizzes:results", args=[assignment.pk]))
    assert DELETED_ACCOUNT in results.content.decode() and REAL_NAME not in results.content.decode()


# -- item 5: co-teachers -------------------------------------------------------------------------


def _teachers(client: Client, school_class: SchoolClass, **data: Any) -> str:
    url = reverse("classes:teachers", args=[school_class.pk])
    return client.post(url, data, follow=True).content.decode()


def test_the_owner_adds_a_co_teacher_by_username_who_must_teach(world: World) -> None:
    owner = _client(world.teacher)

    assert "No teacher has the username" in _teachers(
        owner, world.class1, action="add", username="outsider"
    )
    assert "No teacher has the username" in _teachers(
        owner, world.class1, action="add", username="nobody"
    )
    assert "teaches this class already" in _teachers(
        owner, world.class1, action="add", username="coteacher"
    )
    assert "now teaches this class too" in _teachers(
        owner, world.class1, action="add", username="TEACHER2"
    )

    assert CoTeacher.objects.filter(school_class=world.class1, teacher=world.teacher2).exists()
    results_page = _client(world.teacher2).get(reverse("quizzes:gradebook", args=[world.class1.pk]))
    assert results_page.status_code == 200 and REAL_NAME in results_page.content.decode()


def test_a_co_teacher_assigns_his_own_quiz_and_edits_the_owners_assignment(
    world: World,
) -> None:
    owners = _assignment(world.class1, world.teacher)
    mine = make_quiz(world.co_teacher, title="The co-teacher's quiz")
    co = _client(world.co_teacher)
    now = timezone.localtime(timezone.now(), timezone.get_current_timezone())
    dates = {
        "opens": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "closes": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "attempts": "1",
        "grading": "highest",
        "feedback": "attempt",
    }

    co.post(reverse("quizzes:assign", args=[world.class1.pk]), {"what": f"quiz:{mine.pk}", **dates})
    edit = co.post(
        reverse("quizzes:assignment-edit", args=[owners.pk]),
        {"what": f"quiz:{owners.quiz_id}", **dates, "attempts": "3"},
    )

    assert Assignment.objects.filter(school_class=world.class1, quiz=mine).exists()
    assert edit.status_code == 302
    assert Assignment.objects.get(pk=owners.pk).attempts_allowed == 3


def test_handing_over_makes_a_co_teacher_the_owner_and_the_owner_a_co_teacher(
    world: World,
) -> None:
    row = CoTeacher.objects.get(teacher=world.co_teacher)

    owner = _client(world.teacher)
    unconfirmed = _teachers(owner, world.class1, action="hand-over", co_teacher=row.pk)
    assert "Tick the box" in unconfirmed
    assert SchoolClass.objects.get(pk=world.class1.pk).teacher == world.teacher

    text = _teachers(owner, world.class1, action="hand-over", co_teacher=row.pk, confirm="yes")

    assert "owns “Loo 1” now" in text
    school_class = SchoolClass.objects.get(pk=world.class1.pk)
    assert school_class.teacher == world.co_teacher
    assert list(school_class.co_teachers.values_list("teacher", flat=True)) == [world.teacher.pk]
    # The old owner may no longer delete it; the new one may.
    delete = reverse("classes:delete", args=[world.class1.pk])
    assert _client(world.teacher).get(delete).status_code == 404
    assert _client(world.co_teacher).get(delete).status_code == 200


def test_a_removed_co_teacher_loses_the_class(world: World) -> None:
    row = CoTeacher.objects.get(teacher=world.co_teacher)

    _teachers(_client(world.teacher), world.class1, action="remove", co_teacher=row.pk)

    assert _client(world.co_teacher).get(world.class1.get_absolute_url()).status_code == 404


def test_a_co_teacher_may_step_down(world: World) -> None:
    _teachers(_client(world.co_teacher), world.class1, action="step-down")

    assert not CoTeacher.objects.filter(teacher=world.co_teacher).exists()
    assert SchoolClass.objects.get(pk=world.class1.pk).teacher == world.teacher


def test_an_owner_who_deletes_his_account_leaves_the_class_to_his_co_teacher(
    world: World,
) -> None:
    _client(world.teacher).post(reverse("delete-account"), {"password": PASSWORD})

    assert SchoolClass.objects.get(pk=world.class1.pk).teacher == world.co_teacher
    assert not SchoolClass.objects.filter(pk=world.class2.pk, teacher=world.teacher).exists()


def test_a_teacher_never_joins_a_class_he_co_teaches(world: World) -> None:
    teacher = make_teacher("another")
    CoTeacher.objects.create(school_class=world.class1, teacher=teacher)

    page = _client(teacher).post(reverse("classes:join"), {"code": world.class1.join_code})

    assert "You teach this class" in page.content.decode()


def test_a_co_teacher_cannot_stop_teaching_while_he_co_teaches(world: World) -> None:
    page = _client(world.co_teacher).post(
        reverse("account"), {"time_zone": "Europe/London"}, follow=True
    )

    assert "You still teach 1 class" in page.content.decode()
    assert Teacher.objects.filter(user=world.co_teacher).exists()
