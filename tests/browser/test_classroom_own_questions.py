"""A teacher's question of his own in Chromium (issue 37): he builds a position on the card
table by keyboard, sees the engine refuse an impossible one with its reason, previews the
engine's answer, saves it and assigns it in a quiz; two students take it, one on a phone
(375x740), one with JavaScript off; the engine grades both. And a question about a whole
table (what the settlement pays), built by keyboard on a phone with JavaScript off."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Answer
from lessons.quizzes.own_models import OwnVersion
from tests.browser import axe

# The classroom tests' helpers (task T gathers them in one module: import them from there).
from .classroom_world import PASSWORD, log_in, new_page

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 740}


def _take(page: Page, path: str, right: bool) -> None:
    """A student answers the quiz's one question (right: the ace of spades alone)."""
    page.goto(path)
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.get_by_text("Question 1 of 1")).to_be_visible()
    page.get_by_role("checkbox", name="Ace of spades").check()
    if not right:
        page.get_by_role("checkbox", name="Two of spades").check()
    page.get_by_role("button", name="Answer").click()
    page.get_by_role("link", name="Finish the attempt").click()
    page.get_by_role("button", name="Submit the attempt").click()
    expect(page.get_by_text(f"Your score: {1 if right else 0} of 1 right")).to_be_visible()


def test_a_teacher_builds_a_position_the_engine_refuses_then_answers_and_a_class_takes_it(
    browser: Browser, live_server: LiveServer
) -> None:
    teacher_user = User.objects.create_user("mr_quill", password=PASSWORD)
    Teacher.objects.create(user=teacher_user, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=teacher_user, name="Form 4")
    for name in ("alice", "bob"):
        student = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=school_class, student=student)

    # Step 1, by keyboard: the rule set, the game, what to ask.
    teacher = new_page(browser, live_server, javascript=True)
    log_in(teacher, "mr_quill", "/quizzes/own/new/")
    teacher.get_by_label("Rule set").select_option("hoffmann")
    teacher.get_by_label("Game").select_option("three-card")
    teacher.get_by_label(re.compile("Which cards may be played")).focus()
    teacher.keyboard.press("Space")
    teacher.keyboard.press("Enter")  # submits the form: the cards
    # Step 2: the king of spades led to three players; the king is also ticked in the hand.
    expect(teacher.get_by_role("heading", name="The cards")).to_be_visible()
    teacher.get_by_label("Hearts", exact=True).check()
    teacher.get_by_label("Players in the play").select_option("3")
    teacher.get_by_label("Card led").select_option("KS")
    for words in ("King of spades", "Two of spades", "Three of hearts"):
        teacher.get_by_role("group", name="Your cards").get_by_label(words).check()
    teacher.get_by_role("button", name="Next: preview the question").click()
    refusal = teacher.locator("#own-refusal")
    expect(refusal).to_contain_text("The engine cannot ask this.")
    expect(refusal).to_contain_text("the king of spades is in your hand and in the trick")
    assert not Answer.objects.exists()
    axe.assert_nothing_serious(teacher, "the cards refused by the engine")
    # The hand kept as ticked: the ace instead of the king, and the preview.
    hand = teacher.get_by_role("group", name="Your cards")
    expect(hand.get_by_label("King of spades")).to_be_checked()
    hand.get_by_label("King of spades").uncheck()
    hand.get_by_label("Ace of spades").check()
    teacher.get_by_role("button", name="Next: preview the question").click()
    expect(teacher.get_by_text("The answer: Ace of spades.")).to_be_visible()
    expect(teacher.get_by_role("link", name=re.compile("Follow suit", re.I)).first).to_be_visible()
    axe.assert_nothing_serious(teacher, "the preview")
    teacher.get_by_label("Its name on your list").fill("Following the king")
    teacher.get_by_role("button", name="Save the question").click()
    expect(teacher.get_by_text("Saved “Following the king”.")).to_be_visible()

    # A quiz of it alone, assigned to the class.
    teacher.goto("/quizzes/new/")
    teacher.get_by_label("Title").fill("My own")
    teacher.get_by_label("Number of the engine's questions").fill("0")
    teacher.get_by_label(re.compile("Following the king")).check()
    teacher.get_by_role("button", name="Save the quiz").click()
    expect(teacher.get_by_text("Question 1: Which of your cards may you play?")).to_be_visible()
    teacher.goto(f"/quizzes/class/{school_class.pk}/")
    teacher.get_by_label("Assign", exact=True).select_option(label="My own")
    teacher.get_by_role("button", name="Assign").click()
    expect(teacher.get_by_text("Assigned “My own” to Form 4.")).to_be_visible()
    assignment = school_class.assignments.get()
    teacher.context.close()

    # Alice on a phone, JavaScript on, answers right; Bob, JavaScript off, ticks one too many.
    alice = new_page(browser, live_server, javascript=True, viewport=PHONE)
    log_in(alice, "alice", assignment.get_absolute_url())
    _take(alice, assignment.get_absolute_url(), right=True)
    alice.context.close()
    bob = new_page(browser, live_server, javascript=False)
    log_in(bob, "bob", assignment.get_absolute_url())
    _take(bob, assignment.get_absolute_url(), right=False)
    bob.context.close()
    graded = dict(Answer.objects.values_list("attempt__student__username", "correct"))
    assert graded == {"alice": True, "bob": False}


def _press(page: Page, name: str) -> None:
    """Press a button by keyboard: focus it and press Enter."""
    page.get_by_role("button", name=name).focus()
    page.keyboard.press("Enter")


def _choose(page: Page, label: str, option: str, **within: str) -> None:
    """Choose in a select by keyboard: focus it and type the start of the option's words."""
    scope = page.get_by_role("group", name=within["group"]) if within else page
    select = scope.get_by_label(label, exact=True)
    select.focus()
    page.keyboard.type(option)
    expect(select.locator("option:checked")).to_contain_text(option)


def _fits(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_settlement_question_is_built_by_keyboard_on_a_phone_without_javascript(
    browser: Browser, live_server: LiveServer
) -> None:
    teacher_user = User.objects.create_user("mr_quill", password=PASSWORD)
    Teacher.objects.create(user=teacher_user, time_zone="Europe/London")
    page = new_page(browser, live_server, javascript=False, viewport=PHONE)
    log_in(page, "mr_quill", "/quizzes/own/new/")
    page.get_by_label(re.compile("What does the settlement pay")).focus()
    page.keyboard.press("Space")
    _press(page, "Next: the cards")
    # The table first: five players; the seats below are drawn for it.
    expect(page.get_by_role("heading", name="The table")).to_be_visible()
    _choose(page, "Players at the table", "5")
    _press(page, "Set the table")
    expect(page.get_by_text("The seats below are for a table of 5 players.")).to_be_visible()
    played = page.get_by_role("group", name=re.compile("Who played to the end"))
    for seat in ("You (the student)", "Seat 2 (the player on your left)", "Seat 3 ("):
        played.get_by_label(seat).focus()
        page.keyboard.press("Space")
    tricks = "Who took each trick"
    _choose(page, "Trick 1", "You", group=tricks)
    _choose(page, "Trick 2", "Seat 4", group=tricks)  # who passed
    _choose(page, "Trick 3", "Seat 3", group=tricks)
    _fits(page)
    _press(page, "Next: preview the question")
    refusal = page.locator("#own-refusal")
    expect(refusal).to_contain_text("seat 4 takes the second trick but is not in the play")
    # axe runs only with JavaScript on: the same page (a GET), in a context with the cookies.
    looked = browser.new_context(
        base_url=live_server.url, storage_state=page.context.storage_state()
    )
    axe_page = looked.new_page()
    axe_page.goto(page.url)
    axe.assert_nothing_serious(axe_page, "a settlement's table refused by the engine")
    looked.close()
    # The second trick to seat 2: a pool of 3 shared by the tricks, and the student took one.
    _choose(page, "Trick 2", "Seat 2", group=tricks)
    _press(page, "Next: preview the question")
    expect(page.get_by_text("The answer: Receives 1.")).to_be_visible()
    _fits(page)
    page.get_by_label("Its name on your list").fill("One trick of three")
    _press(page, "Save the question")
    expect(page.get_by_text("Saved “One trick of three”.")).to_be_visible()
    position = OwnVersion.objects.get().position
    assert (position["players"], position["in_play"], position["tricks"]) == (
        5,
        [0, 1, 2],
        [0, 1, 2],
    )
    page.context.close()
