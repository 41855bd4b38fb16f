"""The permission matrix: anonymous, a student of class 1, a student of class 2, the teacher
of class 1, his co-teacher, a former co-teacher, the teacher of class 2 and staff, against
every URL and action of the quizzes. Another's object is a 404 (its existence is not told);
nothing of it is in the page. A co-teacher does all a class's teacher does there, but a quiz
stays its author's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from lessons.classes.models import CoTeacher, Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, AssignmentException, Attempt, ProblemReport, Quiz
from tests.worlds import built_once

from .conftest import (
    NOW,
    client_for,
    frozen,
    make_assignment,
    make_quiz,
    make_user,
    right_response,
)

pytestmark = pytest.mark.django_db

ACTORS = [
    "anonymous",
    "student",
    "outsider",
    "teacher",
    "co_teacher",
    "former_co_teacher",
    "other_teacher",
    "staff",
]

#: (url name, args from the world, method, who may): the rest get a 404 (or the login page).
TEACHER_PAGES = [
    ("quizzes:quiz", "quiz", "get"),
    ("quizzes:quiz-edit", "quiz", "get"),
    ("quizzes:quiz-edit", "quiz", "post"),
    ("quizzes:class-assignments", "class", "get"),
    ("quizzes:assign", "class", "post"),
    ("quizzes:gradebook", "class", "get"),
    ("quizzes:gradebook-csv", "class", "get"),
    ("quizzes:assignment-edit", "assignment", "get"),
    ("quizzes:assignment-edit", "assignment", "post"),
    ("quizzes:assignment-delete", "assignment", "post"),
    ("quizzes:results", "assignment", "get"),
    ("quizzes:student-results", "assignment+student", "get"),
    ("quizzes:exception", "assignment+student", "post"),
    ("quizzes:exceptions", "assignment", "get"),
    ("quizzes:exceptions", "assignment", "post"),
    ("quizzes:regrade", "assignment", "post"),
    ("quizzes:answers-csv", "assignment", "get"),
    ("quizzes:results-csv", "assignment", "get"),
    ("quizzes:items-csv", "assignment", "get"),
]
#: A quiz stays its author's; the class's pages are its co-teachers' too.
QUIZ_PAGES = [page for page in TEACHER_PAGES if page[1] == "quiz"]
CLASS_PAGES = [page for page in TEACHER_PAGES if page[1] != "quiz"]
STUDENT_PAGES = [
    ("quizzes:assignment", "assignment", "get"),
    ("quizzes:attempt-start", "assignment", "post"),
    ("quizzes:attempt", "attempt", "get"),
    ("quizzes:attempt-answer", "attempt+1", "post"),
    ("quizzes:report", "attempt+1", "post"),
    ("quizzes:attempt-submit", "attempt", "get"),
    ("quizzes:attempt-submit", "attempt", "post"),
]
#: Pages of one's own, open to any teacher (a 403 for an account that does not teach).
OWN_TEACHER_PAGES = [
    ("quizzes:quiz-list", "", "get"),
    ("quizzes:quiz-new", "", "get"),
    ("quizzes:quiz-new", "", "post"),
]
OWN_PAGES = [("quizzes:my-assignments", "", "get")]

#: Each actor's username.
USERNAMES = {actor: actor.replace("_", "-") for actor in ACTORS if actor != "anonymous"}
SECRET_TITLE = "Secret quiz of class one"
NEW_QUIZ = {
    "title": "A quiz of one's own",
    "rules": "hoffmann",
    "game": "three-card",
    "scope": "any",
    "kinds": ["legal-cards"],
    "count": "3",
    "same_for_all": "1",
}


def _build() -> dict[str, int]:
    """The world's rows (the conftest's actors, a quiz of class 1 with an attempt at it, and
    class 2's own work), made once for the module (tests/worlds.py): their primary keys."""
    with frozen(NOW):
        return _make()


def _make() -> dict[str, int]:
    users = {name: make_user(name) for name in ("teacher", "other-teacher", "co-teacher")}
    users |= {name: make_user(name) for name in ("former-co-teacher", "student", "outsider")}
    users["staff"] = make_user("staff", is_staff=True, is_superuser=True)
    Teacher.objects.create(user=users["teacher"], time_zone="Europe/Paris")
    for name in ("other-teacher", "co-teacher", "former-co-teacher"):
        Teacher.objects.create(user=users[name])
    school_class = SchoolClass.objects.create(teacher=users["teacher"], name="Class 1")
    other_class = SchoolClass.objects.create(teacher=users["other-teacher"], name="Class 2")
    Membership.objects.create(
        school_class=school_class, student=users["student"], real_name="Ann Example"
    )
    Membership.objects.create(school_class=other_class, student=users["outsider"])
    quiz = make_quiz(users["teacher"], title=SECRET_TITLE)
    assignment = make_assignment(school_class, quiz)
    attempt = Attempt.start(assignment, users["student"])
    answer = attempt.answers.get(position=1)
    answer.record(answer.to_engine(), right_response(attempt, 1))
    # Class 2 has work of its own, which nobody of class 1 sees either.
    make_assignment(other_class, make_quiz(users["other-teacher"], title="Class two's quiz"))
    for name in ("co-teacher", "former-co-teacher"):
        CoTeacher.objects.create(school_class=school_class, teacher=users[name])
    CoTeacher.objects.filter(teacher=users["former-co-teacher"]).delete()
    pks = {"quiz": quiz.pk, "assignment": assignment.pk, "attempt": attempt.pk}
    return pks | {"class": school_class.pk} | {name: user.pk for name, user in users.items()}


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[dict[str, int]]:
    yield from built_once(django_db_blocker, _build)


@pytest.fixture
def world(built: dict[str, int], clock: Any, db: None) -> dict[str, Any]:
    """The module's world, its objects fetched again for this test."""
    users = User.objects.in_bulk([built[name] for name in USERNAMES.values()])
    return {
        "quiz": Quiz.objects.get(pk=built["quiz"]),
        "assignment": Assignment.objects.get(pk=built["assignment"]),
        "attempt": Attempt.objects.get(pk=built["attempt"]),
        "class": SchoolClass.objects.get(pk=built["class"]),
        "users": {"anonymous": None}
        | {actor: users[built[name]] for actor, name in USERNAMES.items()},
    }


def _args(world, spec: str) -> list:
    return {
        "": [],
        "quiz": [world["quiz"].pk],
        "class": [world["class"].pk],
        "assignment": [world["assignment"].pk],
        "assignment+student": [world["assignment"].pk, world["users"]["student"].pk],
        "attempt": [world["attempt"].pk],
        "attempt+1": [world["attempt"].pk, 1],
    }[spec]


def _request(world, actor, name, spec, method):
    client = client_for(world["users"][actor])
    url = reverse(name, args=_args(world, spec))
    data = {"response": right_response(world["attempt"], 0)} if "answer" in name else {}
    if name == "quizzes:quiz-new":
        data = NEW_QUIZ
    if name == "quizzes:exception":
        data = {"extra_attempts": "1"}
    if name == "quizzes:exceptions":
        data = {"students": [world["users"]["student"].pk], "extra_attempts": "1"}
    return getattr(client, method)(url, data)


def _cases(pages, allowed):
    return [
        pytest.param(actor, name, spec, method, actor in allowed, id=f"{actor}-{method}-{name}")
        for name, spec, method in pages
        for actor in ACTORS
    ]


@pytest.mark.parametrize(
    ("actor", "name", "spec", "method", "allowed"),
    _cases(QUIZ_PAGES, {"teacher"})
    + _cases(CLASS_PAGES, {"teacher", "co_teacher"})
    + _cases(STUDENT_PAGES, {"student"}),
)
def test_another_s_object_is_a_404(world, actor, name, spec, method, allowed) -> None:
    answers_before = list(world["attempt"].answers.values_list("response", "correct"))
    reports_before = ProblemReport.objects.count()
    response = _request(world, actor, name, spec, method)
    made = AssignmentException.objects.exists()

    if actor == "anonymous":
        assert response.status_code == 302 and "/accounts/log-in/" in response.url
    elif allowed:
        assert response.status_code in (200, 302)
    else:
        assert response.status_code == 404
        assert SECRET_TITLE.encode() not in response.content
        assert b"Ann Example" not in response.content
    if not allowed:
        assert list(world["attempt"].answers.values_list("response", "correct")) == answers_before
        assert ProblemReport.objects.count() == reports_before
        assert not made


@pytest.mark.parametrize(
    ("actor", "name", "spec", "method", "allowed"),
    _cases(OWN_TEACHER_PAGES, {"teacher", "co_teacher", "former_co_teacher", "other_teacher"})
    + _cases(OWN_PAGES, set(ACTORS)),
)
def test_pages_of_ones_own_show_only_ones_own(world, actor, name, spec, method, allowed) -> None:
    quizzes_before = Quiz.objects.count()
    response = _request(world, actor, name, spec, method)
    made = allowed and method == "post"
    assert Quiz.objects.count() == quizzes_before + made
    if actor == "anonymous":
        assert response.status_code == 302 and "/accounts/log-in/" in response.url
        return
    if not allowed:
        assert response.status_code == 403
        return
    if made:
        assert response.status_code == 302
        return
    assert response.status_code == 200
    shows_secret = SECRET_TITLE.encode() in response.content
    owner = {"quizzes:quiz-list": "teacher", "quizzes:my-assignments": "student"}.get(name)
    assert shows_secret == (actor == owner)


def test_staff_see_every_reported_problem_in_the_admin(world) -> None:
    attempt = world["attempt"]
    client_for(world["users"]["student"]).post(
        reverse("quizzes:report", args=[attempt.pk, 1]), {"note": "Odd trick"}
    )
    url = reverse("admin:quizzes_problemreport_changelist")
    page = client_for(world["users"]["staff"]).get(url)
    assert (
        page.status_code == 200
        and str(attempt.answers.get(position=0).seed) in page.content.decode()
    )
    assert client_for(world["users"]["teacher"]).get(url).status_code == 302  # to the admin login
