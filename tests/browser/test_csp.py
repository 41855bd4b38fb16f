"""The Content-Security-Policy breaks nothing: in Chromium with JavaScript on, every kind of page
is visited and used (htmx swaps included) and the browser reports no violation of the policy,
neither as a `securitypolicyviolation` event nor in the console (nor a Permissions-Policy it
cannot read). The policy is enforced here as it is served: this context does not bypass it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from pytest_django.live_server_helper import LiveServer

from lessons.classes.models import Membership, SchoolClass, Teacher
from lessons.quizzes.models import Assignment, Attempt, Quiz

# Each test has a context of its own (a watched page); what one stores (a hand, progress, a
# class) no other reads: the module's tests share one database (tests/browser/conftest.py).
# Pages that only read, served on the live server's threads: either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

PASSWORD = "a long enough password"
VERDICT = re.compile(r"Right\.|Not quite\.")
PLAY = re.compile(r"^Play( \(draw for the ticked cards\))?$")

# Runs in every document before the page's own scripts; Playwright's init scripts are not
# subject to the page's policy.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__csp.push({
    directive: event.violatedDirective,
    blocked: event.blockedURI,
    source: event.sourceFile,
    line: event.lineNumber,
    sample: event.sample,
  });
}, true);
"""


class Watched:
    """A page whose policy violations are collected: the console's for the whole test, the
    document's events each time `check` is called (a new document starts a new list)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        self.events: list[tuple[str, Any]] = []
        self.checked = 0
        page.on("console", self._on_console)

    def _on_console(self, message: ConsoleMessage) -> None:
        # Chromium also warns here about a Permissions-Policy feature it does not know.
        if "Content Security Policy" in message.text or "Permissions-Policy" in message.text:
            self.console.append(f"{self.page.url}: {message.text}")

    def check(self) -> None:
        """Record the violations of the document shown, once the tasks queued so far ran."""
        found = self.page.evaluate(
            "() => new Promise(resolve => setTimeout(() => resolve(window.__csp), 0))"
        )
        assert found is not None, f"{self.page.url}: the init script did not run"
        if found:
            self.events.append((self.page.url, found))
        self.checked += 1

    def visit(self, path: str) -> None:
        response = self.page.goto(path)
        assert response is not None
        self.check()


@pytest.fixture
def watched(browser: Browser, live_server: LiveServer) -> Iterator[Watched]:
    context = browser.new_context(java_script_enabled=True, base_url=live_server.url)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    watched = Watched(page)
    yield watched
    context.close()
    assert watched.checked > 0
    assert watched.events == [], watched.events
    assert watched.console == [], "\n".join(watched.console)


def test_the_policy_is_served_and_a_violation_would_be_seen(watched: Watched) -> None:
    """The test can fail: an inline style and an inline script are refused and reported."""
    response = watched.page.goto("/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    watched.page.evaluate(
        """() => {
            const p = document.createElement("p");
            p.innerHTML = '<span style="color: red">x</span>';
            document.body.append(p);
            const s = document.createElement("script");
            s.textContent = "window.__ran = true";
            document.body.append(s);
        }"""
    )
    watched.check()

    assert watched.page.evaluate("() => window.__ran") is None
    directives = {v["directive"] for _, found in watched.events for v in found}
    assert {"style-src-attr", "script-src-elem"} <= directives, watched.events
    watched.events.clear()
    watched.console.clear()


def test_the_reading_pages(watched: Watched, shared_content: None) -> None:
    page = watched.page
    for path in ["/", "/rules/", "/sources/", "/compare/", "/disagreements/", "/glossary/"]:
        watched.visit(path)
    # The witnesses and the timeline (issue 23): a gap, derived text, grouped choices.
    for path in ["/timeline/", "/sources/cotton/", "/compare/?a=hoffmann&b=enquire-within"]:
        watched.visit(path)
    watched.visit("/glossary/miss/")

    # A rule, and a rule it cites opened in place and closed again (htmx and reading.js).
    watched.visit("/rules/single/")
    link = page.locator(".rule-statement").get_by_role("link", name="must", exact=True)
    link.click()
    summary = page.locator(".rule-statement .rule-summary")
    expect(summary).to_contain_text("Nobody may pass")
    expect(link).to_have_attribute("aria-expanded", "true")
    watched.check()
    summary.get_by_role("button", name="Close").click()
    expect(summary).to_have_count(0)
    expect(link).to_have_attribute("aria-expanded", "false")
    expect(link).to_be_focused()
    watched.check()

    # A source, and a glossary term opened in place in it.
    watched.visit("/sources/hoffmann/")
    page.locator("#p2").get_by_role("link", name="miss", exact=True).first.click()
    expect(page.locator("#p2 .term-definition")).to_contain_text("an extra hand of three cards")
    watched.check()

    # Search, as a page and as a search made in it.
    watched.visit("/search/?q=pam")
    watched.visit("/search/")
    page.get_by_label("Search the sources, rules and glossary").fill("Pam")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#search-results")).to_contain_text("results for “Pam”")
    watched.check()

    # The site's 404 page.
    response = page.goto("/no-such-page/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    watched.check()


def _version(page: Page) -> str:
    return str(page.locator("input[name=version]").first.input_value())


def _take_turn(page: Page) -> None:
    """One decision, by clicking: a legal card, or play on the cards, or the first choice."""
    legal = page.locator("button.card-button:not([aria-disabled])")
    if legal.count():
        legal.first.click()
    elif page.get_by_role("button", name=PLAY).count():
        page.get_by_role("button", name=PLAY).click()
    elif page.get_by_role("button", name="Let the result stand").count():
        page.get_by_role("button", name="Let the result stand").click()
    else:
        page.locator(".choices button").first.click()


def test_a_hand_played_and_replayed(watched: Watched) -> None:
    page = watched.page
    watched.visit("/play/")
    form = page.locator("form.chooser")
    form.get_by_label("Three-card Loo").check()
    form.locator("input[name=rules][value=hoffmann]").check()
    form.get_by_label("Players, you included").fill("3")
    form.get_by_label("Beginners: random legal choices").check()
    form.get_by_role("button", name="Deal", exact=True).click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    watched.check()
    page.evaluate("() => { window.stayed = true }")

    status = page.locator("#table-status")
    for _ in range(60):
        if "is over" in status.inner_text():
            break
        before = _version(page)
        _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
        page.keyboard.press("Escape")  # the cards still arriving are all shown
        watched.check()
    else:
        raise AssertionError("the hand did not end")
    assert page.evaluate("() => window.stayed") is True  # htmx swapped the table

    page.get_by_role("link", name="Replay this deal step by step").click()
    watched.check()
    page.get_by_role("link", name="Next step").click()
    expect(page.locator("#replay-status")).to_contain_text("Step 1 of")
    watched.check()


def test_a_lesson_and_the_trainer(watched: Watched, shared_content: None) -> None:
    page = watched.page
    watched.visit("/learn/")
    watched.visit("/learn/follow-suit/")
    page.locator("#lesson-steps").get_by_role("button", name="Begin").click()
    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    watched.check()
    page.locator(".answer-choice").first.click()
    page.get_by_role("button", name="Answer").click()
    expect(page.locator(".verdict")).to_contain_text(VERDICT)
    watched.check()

    watched.visit("/trainer/")
    page.get_by_label("Rule set", exact=True).select_option("hoffmann")
    page.get_by_label("Game", exact=True).select_option("three-card")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/trainer/q/\d+/$"))
    watched.check()
    page.evaluate("() => { window.stayed = true }")
    page.locator(".answer-choice").first.click()
    page.get_by_role("button", name="Answer").click()
    expect(page.locator(".verdict")).to_contain_text(VERDICT)
    assert page.evaluate("() => window.stayed") is True  # htmx swapped the question
    watched.check()
    page.get_by_role("button", name="Next question").click()
    expect(page.get_by_role("button", name="Answer")).to_be_visible()
    watched.check()


@pytest.fixture
def assignment() -> Assignment:
    """A teacher's class with two students, a quiz assigned to it, and one attempt submitted
    (so the results page draws its chart)."""
    teacher = User.objects.create_user("mr_quill", password=PASSWORD)
    Teacher.objects.create(user=teacher, time_zone="Europe/London")
    school_class = SchoolClass.objects.create(teacher=teacher, name="Form 4")
    for name in ("alice", "bob"):
        student = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=school_class, student=student)
    quiz = Quiz.objects.create(teacher=teacher)
    quiz.save_version(
        title="Tricks",
        rules="hoffmann",
        game="three-card",
        topics=[],
        topics_from="any rule",
        kinds=["trick-winner", "legal-cards"],
        count=2,
        same_for_all=True,
        seed=99,
    )
    now = timezone.now()
    assignment = Assignment.objects.create(
        school_class=school_class,
        quiz=quiz,
        opens=now - timedelta(hours=1),
        closes=now + timedelta(days=1),
        attempts_allowed=2,
    )
    attempt = Attempt.start(assignment, User.objects.get(username="alice"))
    answer = attempt.answers.get(position=0)
    question = answer.to_engine()
    answer.record(question, [question.choices[0].id])
    attempt.submit()
    return assignment


def test_the_account_pages_and_a_teachers_classes(watched: Watched, assignment: Assignment) -> None:
    page = watched.page
    watched.visit("/accounts/sign-up/")
    watched.visit("/accounts/log-in/?next=/classes/")
    page.get_by_label("Username").fill("mr_quill")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/classes/$"))
    watched.check()

    school_class = assignment.school_class
    watched.visit(school_class.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_contain_text("Form 4")
    watched.visit(f"/quizzes/class/{school_class.pk}/")
    watched.visit(f"/quizzes/assignment/{assignment.pk}/results/")
    chart = page.locator("figure.chart svg[role=img]").first
    expect(chart).to_be_visible()
    assert chart.locator("rect.chart__bar").count() > 0
    watched.visit("/accounts/")
