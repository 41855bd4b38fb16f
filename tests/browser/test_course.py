"""The course at /learn/ as a learner takes it, in Chromium: a whole lesson done by clicking
(its exercises, one answered wrong before it is answered right; its guided hand, dealt from the
lesson and played to its end at the practice table; its check), with JavaScript on (htmx swaps
the step) and off (POST/redirect/GET); its first exercise by keyboard; its pages on a phone;
and axe-core on them.

The right answer is found on the server, never on the page: the page names the question it
asks only by its row (in the answer form's address), and the test makes the stored question
again with the engine, as the server does to grade it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from lessons.course.models import Progress, Step
from lessons.trainer.models import AskedQuestion
from tests.browser import axe

# What a test here stores (progress, questions asked, a guided hand's table) belongs to its own
# browser session, in a context of its own, and no other test reads it: the module's tests
# share one database, content/ loaded once (tests/browser/conftest.py).
pytestmark = pytest.mark.usefixtures("shared_database", "shared_content")

#: A short three-card lesson: three exercises (two of them about positions of its own), a
#: guided hand at a table of four, and a check of three questions.
LESSON = "follow-suit"
PHONE: ViewportSize = {"width": 375, "height": 740}
VERDICT = re.compile(r"Right\.|Not quite\.")
ASK = re.compile(r"^(Begin|Next question|Try another)$")
ANSWER_URL = re.compile(r"/q/(\d+)/answer/")
PLAY = re.compile(r"^Play( \(draw for the ticked cards\))?$")


def _javascript(request: pytest.FixtureRequest) -> bool:
    return "no-js" not in request.node.callspec.id


# -- answering, from the stored question ------------------------------------------------------


def _asked(page: Page) -> AskedQuestion:
    """The stored question the page asks, by the address its answer form posts to."""
    action = page.locator("form.question__form").get_attribute("action") or ""
    found = ANSWER_URL.search(action)
    assert found, action
    return AskedQuestion.objects.get(pk=int(found.group(1)))


def _answer(page: Page, *, right: bool) -> None:
    """Tick the answer the engine gives to the question asked (or, for ``right=False``, one
    that is not it), and send it."""
    q = _asked(page).to_engine()
    others = [c.id for c in q.choices if c.id not in q.answer]
    if right:
        chosen = list(q.answer)
    else:
        # A choice that is no answer; failing that (every choice is one), one answer alone.
        chosen = others[:1] or list(q.answer[:1])
        assert sorted(chosen) != sorted(q.answer)
    form = page.locator("form.question__form")
    for choice in chosen:
        form.locator(f"input[name=response][value='{choice}']").check()
    form.get_by_role("button", name="Answer").click()
    expect(page.locator(".verdict")).to_contain_text("Right." if right else "Not quite.")


def _ask(page: Page) -> None:
    page.locator("#lesson-steps").get_by_role("button", name=ASK).click()
    expect(page.get_by_role("button", name="Answer")).to_be_visible()


def _continue(page: Page) -> None:
    page.locator("#lesson-steps").get_by_role("link", name="Continue").click()


def _title(page: Page) -> Locator:
    """The heading of the step the page shows."""
    return page.locator(".step__title")


# -- the guided hand, played as test_play.py plays hands ---------------------------------------


def _version(page: Page) -> str:
    return str(page.locator("input[name=version]").first.input_value())


def _take_turn(page: Page) -> None:
    """One decision, by clicking: a legal card, or play on the cards."""
    legal = page.locator("button.card-button:not([aria-disabled])")
    if legal.count():
        legal.first.click()
    elif page.get_by_role("button", name=PLAY).count():
        page.get_by_role("button", name=PLAY).click()
    else:
        page.locator(".choices button").first.click()


def _play_out(page: Page) -> None:
    status = page.locator("#table-status")
    for _ in range(40):
        if "is over" in status.inner_text():
            return
        before = _version(page)
        _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    raise AssertionError("the hand did not end")


# -- a whole lesson ------------------------------------------------------------------------------


def test_a_lesson_is_done_by_clicking(page: Page, request: pytest.FixtureRequest) -> None:
    js = _javascript(request)
    page.goto("/learn/")
    page.get_by_role("link", name="Follow suit", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Follow suit")
    expect(page.locator(".step-list__item.is-current")).to_contain_text("Exercise")
    if js:
        page.evaluate("() => { window.stayed = true }")

    # The first exercise: wrong, then right at the second try (no star).
    _ask(page)
    _answer(page, right=False)
    expect(page.locator(".step-list__item").first).not_to_contain_text("done")
    _ask(page)  # "Try another"
    _answer(page, right=True)
    expect(page.locator(".step-list__item").first).to_contain_text("done")
    if js:
        assert page.evaluate("() => window.stayed") is True  # swapped in place, not reloaded

    # The second and third: right at the first try (a star each).
    for n in (2, 3):
        _continue(page)
        expect(page.locator(".step-list__item.is-current")).to_contain_text("Exercise")
        _ask(page)
        _answer(page, right=True)
        expect(page.locator(".step-list__item").nth(n - 1)).to_contain_text(
            "right at the first try"
        )

    # The guided hand: dealt from the lesson, played at the practice table, then back.
    _continue(page)
    expect(_title(page)).to_have_text("Guided hand")
    # The others' cards at once (reduced motion): their pace is test_table_pace's to try, and
    # here would cost 450 ms a card and 1.2 s a trick.
    page.emulate_media(reduced_motion="reduce")
    page.get_by_role("button", name="Deal the hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    guide = page.locator("aside.guide")
    expect(guide).to_contain_text("A guided hand: Follow suit")
    expect(guide).to_contain_text("look for cards of that suit in your hand")
    _play_out(page)
    expect(page.locator("#table-log .log-line--lesson").first).to_contain_text("The lesson's rule:")
    guide.get_by_role("link", name="go back to the lesson").click()
    expect(page).to_have_url(re.compile(rf"/learn/{LESSON}/\?rules=hoffmann&step="))
    expect(page.locator(".step")).to_contain_text("You have played the hand to its end.")
    expect(page.locator(".step-list__item").nth(3)).to_contain_text("done")

    # The check: three questions, the second answered wrong.
    _continue(page)
    for n in (1, 2, 3):
        _ask(page)
        expect(_title(page)).to_have_text(f"Check: question {n} of 3")
        _answer(page, right=n != 2)
    expect(page.locator(".step .score")).to_have_text("2 of 3 right.")
    expect(page.locator(".step")).to_contain_text("Lesson complete.")

    page.goto(f"/learn/{LESSON}/")
    expect(page.locator(".lesson-complete")).to_contain_text("Lesson complete.")
    expect(page.locator(".step-list .badge--done")).to_have_count(5)

    page.goto("/learn/")
    row = page.locator(".lesson-row", has=page.get_by_role("link", name="Follow suit", exact=True))
    expect(row).to_have_class(re.compile(r"\blesson-row--complete\b"))
    expect(row.locator(".badge--done")).to_have_text("done")
    expect(row.locator(".stars [aria-hidden]")).to_have_text("★★")
    expect(row.locator(".stars")).to_contain_text("2 of 3 exercises right at the first try")


def test_the_first_exercise_is_begun_and_answered_with_the_keyboard(
    page: Page, request: pytest.FixtureRequest
) -> None:
    js = _javascript(request)
    page.goto(f"/learn/{LESSON}/")
    page.get_by_role("button", name="Begin").focus()

    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    if js:
        expect(page.locator(".question__prompt")).to_be_focused(timeout=2_000)
    page.keyboard.press("Tab")
    first = page.locator(".answer-choice input").first
    expect(first).to_be_focused()
    page.keyboard.press("Space")
    expect(first).to_be_checked()
    answer = page.get_by_role("button", name="Answer")
    for _ in range(page.locator(".answer-choice input").count()):
        page.keyboard.press("Tab")  # past the other choices, to the button
        if answer.evaluate("button => button === document.activeElement"):
            break
    expect(answer).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator(".verdict")).to_contain_text(VERDICT)
    if js:
        expect(page.locator(".verdict")).to_be_focused()


# -- on a phone, and axe ----------------------------------------------------------------------


def _finish_in_the_database(page: Page, *keys: str) -> None:
    """Record ``keys`` as done for the page's browser session, as the lesson would have (the
    clicks that do it are the first test's)."""
    cookie = next(c for c in page.context.cookies() if c["name"] == "sessionid")
    now = timezone.now()
    for key in keys:
        Progress.objects.update_or_create(
            owner=None,
            session_key=cookie["value"],
            step=Step.objects.get(key=key),
            defaults={"done": now, "first_try": True},
        )


def _later_steps() -> list[str]:
    return list(
        Step.objects.filter(lesson_id=LESSON)
        .exclude(key=f"{LESSON}-1")
        .values_list("key", flat=True)
    )


@pytest.fixture
def phone(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _fits(page: Page) -> None:
    scroll_width, client_width = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll_width <= client_width == PHONE["width"], page.url


def test_the_course_fits_a_phone(phone: Page) -> None:
    page = phone
    page.goto("/learn/")
    _fits(page)
    page.goto(f"/learn/{LESSON}/")
    _fits(page)
    _ask(page)
    _fits(page)
    _answer(page, right=True)
    _fits(page)

    _finish_in_the_database(page, f"{LESSON}-2", f"{LESSON}-3")
    page.goto(f"/learn/{LESSON}/")
    expect(_title(page)).to_have_text("Guided hand")
    _fits(page)
    page.get_by_role("button", name="Deal the hand").click()
    expect(page.locator("aside.guide")).to_be_visible()
    _fits(page)

    _finish_in_the_database(page, *_later_steps())
    page.goto(f"/learn/{LESSON}/")
    expect(page.locator(".lesson-complete")).to_be_visible()
    _fits(page)
    page.goto("/learn/")
    _fits(page)


def test_axe_finds_nothing_serious_on_the_course(js_page: Page) -> None:
    page = js_page
    page.goto(f"/learn/{LESSON}/")
    assert axe.serious(page) == [], "before beginning"
    _ask(page)
    assert axe.serious(page) == [], "a question asked"
    _answer(page, right=False)
    assert axe.serious(page) == [], "a question graded"

    _finish_in_the_database(page, *_later_steps(), f"{LESSON}-1")
    page.goto(f"/learn/{LESSON}/")
    expect(page.locator(".lesson-complete")).to_be_visible()
    assert axe.serious(page) == [], "the lesson complete"
    page.goto("/learn/")
    expect(page.locator(".lesson-row--complete")).to_have_count(1)
    expect(page.locator(".review-panel")).to_contain_text("Follow suit if you can: missed 1")
    assert axe.serious(page) == [], "the course, with a lesson complete and a rule to review"
