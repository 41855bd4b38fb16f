"""The quizzes' actors: two classes, each with its teacher and a student, and staff; a quiz
and an assignment of class 1; a frozen clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Attempt, Quiz

HTMX = {"HX-Request": "true"}
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)


@contextmanager
def frozen(at: datetime) -> Iterator[None]:
    """The clock stopped at ``at`` (every ``timezone.now()`` of the site)."""
    with mock.patch("django.utils.timezone.now", return_value=at):
        yield


@pytest.fixture
def clock() -> Iterator[Any]:
    """A clock that the test moves: ``clock.at = ...``."""

    class Clock:
        at = NOW

    c = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: c.at):
        yield c


def make_user(name: str, **extra: Any) -> User:
    return User.objects.create_user(name, password="pw", **extra)


@pytest.fixture
def teacher(db: None) -> User:
    user = make_user("teacher")
    Teacher.objects.create(user=user, time_zone="Europe/Paris")
    return user


@pytest.fixture
def other_teacher(db: None) -> User:
    user = make_user("other-teacher")
    Teacher.objects.create(user=user)
    return user


@pytest.fixture
def school_class(teacher: User) -> SchoolClass:
    return SchoolClass.objects.create(teacher=teacher, name="Class 1")


@pytest.fixture
def other_class(other_teacher: User) -> SchoolClass:
    return SchoolClass.objects.create(teacher=other_teacher, name="Class 2")


@pytest.fixture
def student(school_class: SchoolClass) -> User:
    user = make_user("student")
    Membership.objects.create(school_class=school_class, student=user, real_name="Ann Example")
    return user


@pytest.fixture
def outsider(other_class: SchoolClass) -> User:
    """A student of class 2."""
    user = make_user("outsider")
    Membership.objects.create(school_class=other_class, student=user)
    return user


@pytest.fixture
def staff(db: None) -> User:
    return make_user("staff", is_staff=True, is_superuser=True)


def make_quiz(teacher: User, **fields: Any) -> Quiz:
    quiz = Quiz.objects.create(teacher=teacher)
    settings = {
        "title": "Following",
        "rules": "hoffmann",
        "game": "three-card",
        "topics": [],
        "topics_from": "any rule",
        "kinds": ["legal-cards", "trick-winner"],
        "count": 3,
        "same_for_all": True,
        "seed": 12345,
    }
    settings.update(fields)
    quiz.save_version(**settings)
    return quiz


def make_assignment(school_class: SchoolClass, quiz: Quiz, **fields: Any) -> Assignment:
    values: dict[str, Any] = {
        "opens": NOW - timedelta(hours=1),
        "closes": NOW + timedelta(days=1),
        "attempts_allowed": 1,
        "feedback": "attempt",
    }
    values.update(fields)
    return Assignment.objects.create(school_class=school_class, quiz=quiz, **values)


@pytest.fixture
def quiz(teacher: User) -> Quiz:
    return make_quiz(teacher)


@pytest.fixture
def assignment(school_class: SchoolClass, quiz: Quiz, student: User) -> Assignment:
    return make_assignment(school_class, quiz)


def client_for(user: User | None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def right_response(attempt: Attempt, position: int) -> list[str]:
    """The right answer to a question of an attempt (the test asks the engine)."""
    return list(attempt.answers.get(position=position).to_engine().answer)


def wrong_response(attempt: Attempt, position: int) -> list[str]:
    q = attempt.answers.get(position=position).to_engine()
    wrong = [c.id for c in q.choices if c.id not in q.answer]
    if q.multiple:
        return list(q.answer) + wrong[:1] if wrong else [q.choices[0].id]
    return wrong[:1]


def text(response: Any) -> str:
    """A page's text without its tags."""
    words = unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
    return re.sub(r"\s+", " ", words).replace(" .", ".").replace(" :", ":")
