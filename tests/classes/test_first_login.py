"""A student's way in (issue 37): from his slip to his first question in at most six actions,
the forced password change without the one-time password again, straight to his class's page
with its assignments, and "Assignments" in the header.

An action is what the student does that asks the site for a page: opening the slip's address,
sending a form (what he types into it is part of sending it), following a link. Redirects
that follow by themselves are not his."""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.quizzes.models import Assignment, Quiz

from .conftest import PASSWORD, World
from .test_students import _add, _passwords

MINE = "my very own phrase 12"


class Student:
    """A browser: each call is one action, and the redirects it brings are followed."""

    def __init__(self) -> None:
        self.client = Client()
        self.actions = 0
        self.page = ""
        self.url = ""

    def _went(self, response: object) -> None:
        self.actions += 1
        self.page = response.content.decode()  # type: ignore[attr-defined]
        chain = response.redirect_chain  # type: ignore[attr-defined]
        self.url = chain[-1][0] if chain else self.url

    def open(self, url: str) -> None:
        self.url = url
        self._went(self.client.get(url, follow=True))

    def send(self, url: str, data: dict[str, str]) -> None:
        self._went(self.client.post(url, data, follow=True))

    def follow(self, text: str) -> None:
        """Follow the link whose text is ``text`` on the page he sees."""
        found = re.search(rf'<a href="([^"]+)"[^>]*>{re.escape(text)}</a>', self.page)
        assert found, f"no link “{text}” on {self.url}"
        self.open(found.group(1))


def _assign(world: World) -> Assignment:
    quiz = Quiz.objects.create(teacher=world.teacher)
    quiz.save_version(
        title="Following suit",
        rules="hoffmann",
        game="three-card",
        topics=[],
        topics_from="any rule",
        kinds=["legal-cards"],
        count=3,
        same_for_all=True,
        seed=12345,
    )
    now = timezone.now()
    return Assignment.objects.create(
        school_class=world.class1,
        quiz=quiz,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
        attempts_allowed=1,
    )


def test_from_the_slip_to_the_first_question_in_six_actions_at_most(world: World) -> None:
    teacher = Client()
    teacher.force_login(world.teacher)
    _assign(world)
    _, text = _add(teacher, world.class1, "Ada Lovelace")
    password = _passwords(text)["AdaLovelace"]
    address = re.search(r'Open <a href="([^"]+)"', text)
    assert address
    ada = Student()

    ada.open(address.group(1))  # the slip's address: the log-in page
    ada.send(reverse("login"), {"username": "AdaLovelace", "password": password})
    assert ada.url == reverse("password-change")
    assert "old_password" not in ada.page  # not asked for the one-time password again
    ada.send(reverse("password-change"), {"new_password1": MINE, "new_password2": MINE})
    assert ada.url == world.class1.get_absolute_url()  # his class, with its assignments
    ada.follow("Following suit")
    found = re.search(r'<form method="post" action="([^"]+/start/)"', ada.page)
    assert found, "no Start button on the assignment's page"
    ada.send(found.group(1), {})

    assert "Question 1" in ada.page
    assert ada.actions <= 6, ada.actions


def test_the_forced_change_needs_no_old_password_and_a_later_one_does(world: World) -> None:
    teacher = Client()
    teacher.force_login(world.teacher)
    _, text = _add(teacher, world.class1, "Ada")
    ada = Client()
    ada.post(reverse("login"), {"username": "Ada", "password": _passwords(text)["Ada"]})

    response = ada.post(reverse("password-change"), {"new_password1": MINE, "new_password2": MINE})

    assert response["Location"] == world.class1.get_absolute_url()
    # Now it is his own: changing it asks for it.
    other = "another long phrase 9"
    page = ada.post(reverse("password-change"), {"new_password1": other, "new_password2": other})
    assert page.status_code == 200 and "old_password" in page.content.decode()
    again = Client().post(reverse("login"), {"username": "Ada", "password": MINE})
    assert again.status_code == 302


def test_a_student_who_chose_his_password_long_ago_is_asked_for_it(world: World) -> None:
    student = Client()
    student.post(reverse("login"), {"username": "student", "password": PASSWORD})

    page = student.get(reverse("password-change")).content.decode()

    assert 'name="old_password"' in page


def test_the_header_has_assignments_for_a_student_only(world: World) -> None:
    student, teacher = Client(), Client()
    student.force_login(world.student)
    teacher.force_login(world.teacher)
    link = f'<li><a href="{reverse("quizzes:my-assignments")}">Assignments</a></li>'

    assert link in student.get(reverse("home")).content.decode()
    assert link not in teacher.get(reverse("home")).content.decode()
    # Joining a class by its code brings the link at once.
    outsider = Client()
    outsider.force_login(world.outsider)
    assert link not in outsider.get(reverse("home")).content.decode()
    outsider.post(reverse("classes:join"), {"code": world.class1.join_code})
    assert link in outsider.get(reverse("home")).content.decode()


def test_the_class_page_lists_the_students_assignments_there(world: World) -> None:
    _assign(world)
    student = Client()
    student.force_login(world.student)

    page = student.get(world.class1.get_absolute_url()).content.decode()

    assert "Following suit" in page and "not started" in page
    other = Client()
    other.force_login(world.student2)
    assert "Following suit" not in other.get(world.class2.get_absolute_url()).content.decode()
