"""A learner going through a lesson: exercises, the guided hand and the check, graded by the
engine; progress kept once, whatever is replayed, forged or done in a second tab; and moving
from a browser session to an account."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.loo.bots import BeginnerBot
from games.loo.questions import Question, coverage
from games.loo.view import view_for
from games.models import PracticeTable
from games.naming import HUMAN
from lessons.course.models import Lesson, Progress, Step, StepKind
from lessons.trainer.models import AskedQuestion

pytestmark = pytest.mark.django_db

LESSON = "follow-suit"
HTMX = {"HX-Request": "true"}


class Learner:
    """Someone taking a lesson through the views with a test client."""

    def __init__(self, client: Client, lesson: str = LESSON, rules: str = "hoffmann") -> None:
        self.client = client
        self.lesson = Lesson.objects.get(slug=lesson)
        self.rules = rules

    @property
    def steps(self) -> list[Step]:
        return list(self.lesson.steps.all())

    def page(self, **query: str) -> str:
        response = self.client.get(self.lesson.get_absolute_url(), {"rules": self.rules, **query})
        assert response.status_code == 200
        return response.content.decode()

    def start(self, step: Step, htmx: bool = False) -> Any:
        url = reverse("course:start", args=[self.lesson.slug, step.key])
        return self.client.post(f"{url}?rules={self.rules}", headers=HTMX if htmx else {})

    def progress(self, step: Step) -> Progress:
        """This learner's progress on ``step``: his account's, or his browser session's."""
        session = self.client.session
        user = session.get("_auth_user_id")
        if user is not None:
            return Progress.objects.get(step=step, owner_id=user)
        return Progress.objects.get(step=step, owner=None, session_key=session.session_key)

    def pending(self, step: Step) -> AskedQuestion:
        return self.progress(step).questions.get(answered__isnull=True)

    def answer(
        self, step: Step, asked: AskedQuestion, response: list[str], htmx: bool = False
    ) -> Any:
        url = reverse("course:answer", args=[self.lesson.slug, step.key, asked.pk])
        return self.client.post(
            f"{url}?rules={self.rules}", {"response": response}, headers=HTMX if htmx else {}
        )

    def do(self, step: Step, right: bool = True) -> Question:
        """Begin ``step`` (an exercise or one question of a check) and answer it."""
        self.start(step)
        asked = self.pending(step)
        q = asked.to_engine()
        self.answer(step, asked, list(q.answer) if right else wrong(q))
        return q


def wrong(q: Question) -> list[str]:
    """A wrong answer: a choice that is not the answer (or, select-all, the answer and one
    more, or less one)."""
    others = [c.id for c in q.choices if c.id not in q.answer]
    if not q.multiple:
        return others[:1]
    return [*q.answer, others[0]] if others else list(q.answer)[1:] or [q.choices[0].id]


def snapshot() -> dict[str, object]:
    return {
        "progress": sorted(
            Progress.objects.values_list("pk", "step_id", "done", "first_try", "right", "table_id")
        ),
        "questions": sorted(AskedQuestion.objects.values_list("pk", "response", "correct")),
    }


@pytest.fixture
def learner(client: Client) -> Learner:
    return Learner(client)


# -- exercises ------------------------------------------------------------------------------------


def test_an_exercise_right_at_the_first_try_earns_a_star(learner: Learner) -> None:
    first = learner.steps[0]
    learner.do(first)

    progress = Progress.objects.get(step=first)
    assert progress.done is not None and progress.first_try is True
    assert "right at the first try" in learner.page(step=first.key)


def test_an_exercise_is_done_once_answered_right_without_a_star_after_a_miss(
    learner: Learner,
) -> None:
    first = learner.steps[0]
    learner.do(first, right=False)
    assert Progress.objects.get(step=first).done is None
    assert "Try another" in learner.page()

    learner.do(first)

    progress = Progress.objects.get(step=first)
    assert progress.done is not None and progress.first_try is False
    assert progress.questions.count() == 2


def test_the_page_never_holds_the_answer_before_it_is_given(learner: Learner) -> None:
    """The lesson's page shows the question's prompt and choices, never which are right:
    two stored questions alike but for their answers make the same page."""
    first = learner.steps[0]
    learner.start(first)
    asked = learner.pending(first)
    page = learner.page()
    q = asked.to_engine()
    assert str(asked.seed) not in page
    for a in q.explanations:
        assert a.message.key not in page
    assert 'class="verdict' not in page and "is-answer" not in page


def test_a_question_is_asked_once_for_two_clicks_or_two_tabs(learner: Learner) -> None:
    first = learner.steps[0]
    learner.start(first)
    learner.start(first, htmx=True)

    assert Progress.objects.get(step=first).questions.count() == 1


def test_an_answer_given_twice_counts_once(learner: Learner) -> None:
    first = learner.steps[0]
    learner.start(first)
    asked = learner.pending(first)
    q = asked.to_engine()
    learner.answer(first, asked, wrong(q))
    before = snapshot()

    response = learner.answer(first, asked, list(q.answer))

    assert response.status_code == 302
    assert snapshot() == before
    assert "already answered" in learner.page()


@pytest.mark.parametrize("forged", [["XX"], [], ["AS", "KS", "QS", "JS", "TS", "9S"]])
def test_a_forged_answer_is_refused_and_changes_nothing(
    learner: Learner, forged: list[str]
) -> None:
    first = learner.steps[0]
    learner.start(first)
    asked = learner.pending(first)
    before = snapshot()

    response = learner.answer(first, asked, forged, htmx=True)

    assert response.status_code == 200
    assert 'class="alert alert--error"' in response.content.decode()
    assert snapshot() == before


def test_another_learners_question_is_not_found_and_changes_nothing(learner: Learner) -> None:
    first = learner.steps[0]
    learner.start(first)
    asked = learner.pending(first)
    q = asked.to_engine()
    stranger = Learner(Client())
    stranger.page()
    before = snapshot()

    response = stranger.answer(first, asked, list(q.answer))

    assert response.status_code == 404
    assert snapshot() == before


def test_a_step_cannot_be_taken_before_the_ones_before_it(learner: Learner) -> None:
    last = learner.steps[-1]
    before = snapshot()

    learner.start(last)

    assert snapshot() == before
    assert "Do the steps before this one first" in learner.page()


def test_switching_the_rule_set_asks_the_exercise_under_it(learner: Learner) -> None:
    first = learner.steps[0]
    learner.start(first)
    learner.rules = "parlett"
    assert "Ask under Parlett (modern)" in learner.page()
    learner.start(first)
    assert "Ask under" not in learner.page() and "Which of your cards" in learner.page()

    asked = list(Progress.objects.get(step=first).questions.order_by("pk"))
    assert [a.rules for a in asked] == ["hoffmann", "parlett"]
    assert "Parlett (modern)</option>" in learner.page()


# -- the guided hand and the check ----------------------------------------------------------------


def play_out(client: Client, table: PracticeTable) -> None:
    """Play the table's hand to its end through the table's views, as a learner might."""
    for n in range(100):
        table.refresh_from_db()
        hand = table.to_engine().hand
        assert hand is not None
        if hand.over:
            return
        data: dict[str, Any] = {"version": table.version}
        if hand.to_act != HUMAN:
            data["kind"] = "wait"
        else:
            action = BeginnerBot(f"lesson:{n}").decide(view_for(hand, HUMAN)).action
            data["kind"] = action.kind
            if action.kind == "play":
                data["card"] = action.cards[0]
            else:
                data["choice"] = action.choice
        client.post(reverse("games:table-act", args=[table.pk]), data)
    raise AssertionError("the hand did not end")


def test_a_whole_lesson_is_done_step_by_step(learner: Learner) -> None:
    for step in learner.steps:
        if step.kind == StepKind.EXERCISE:
            learner.do(step)
        elif step.kind == StepKind.GUIDED_HAND:
            response = learner.start(step)
            table = PracticeTable.objects.get(pk=Progress.objects.get(step=step).table_id)
            assert response["Location"] == table.get_absolute_url()
            assert table.guide is not None and table.guide["rule"] == step.data["rule"]
            assert table.seed == step.data["seeds"][learner.rules]
            page = learner.client.get(table.get_absolute_url()).content.decode()
            assert "A guided hand: Follow suit" in page
            assert step.data["banner"].split()[0] in page
            assert Progress.objects.get(step=step).done is None
            play_out(learner.client, table)
            learner.page()  # the lesson sees the hand is over
            assert Progress.objects.get(step=step).done is not None
        else:
            answers = [learner.do(step, right=n != 0) for n in range(step.data["count"])]
            assert len(answers) == step.data["count"]
            progress = Progress.objects.get(step=step)
            assert progress.done is not None and progress.right == step.data["count"] - 1
    assert "Lesson complete" in learner.page()
    course = learner.client.get(reverse("course:home")).content.decode()
    assert "badge--done" in course


def test_the_guided_hand_deals_the_rule_sets_own_seed_once(learner: Learner) -> None:
    for step in learner.steps:
        if step.kind == StepKind.GUIDED_HAND:
            break
        learner.do(step)
    learner.start(step)
    learner.start(step)
    assert PracticeTable.objects.count() == 1


# -- progress moves to an account ----------------------------------------------------------------


def test_progress_comes_along_when_the_learner_signs_up(learner: Learner) -> None:
    first, second = learner.steps[:2]
    learner.do(first)
    learner.start(second)

    response = learner.client.post(
        reverse("sign-up"),
        {
            "username": "pupil",
            "password1": "a long pass phrase 7",
            "password2": "a long pass phrase 7",
        },
    )
    assert response.status_code == 302

    user = get_user_model().objects.get(username="pupil")
    rows = Progress.objects.filter(owner=user)
    assert set(rows.values_list("step_id", flat=True)) == {first.key, second.key}
    assert not Progress.objects.filter(owner=None).exists()
    assert AskedQuestion.objects.filter(owner=user).count() == 2
    assert "right at the first try" in learner.page(step=first.key)


def test_signing_up_from_a_lesson_comes_back_to_it_with_the_progress(learner: Learner) -> None:
    first = learner.steps[0]
    learner.do(first)
    back = f"/learn/{LESSON}/?rules=hoffmann"
    page = learner.page()
    assert f'href="/accounts/sign-up/?next={quote(back, safe="/")}"' in page
    assert f'href="/accounts/log-in/?next={quote(back, safe="/")}"' in page
    form = learner.client.get(reverse("sign-up"), {"next": back}).content.decode()
    assert f'name="next" value="{escape(back)}"' in form

    response = learner.client.post(
        reverse("sign-up"),
        {
            "username": "pupil",
            "password1": "a long pass phrase 7",
            "password2": "a long pass phrase 7",
            "next": back,
        },
    )

    assert response.status_code == 302 and response["Location"] == back
    user = get_user_model().objects.get(username="pupil")
    assert Progress.objects.get(owner=user, step=first).done
    assert not Progress.objects.filter(owner=None).exists()
    assert "right at the first try" in learner.page(step=first.key)
    assert "Your progress is kept for this browser session" not in learner.page()


def test_logging_in_from_a_lesson_comes_back_to_it(client: Client) -> None:
    get_user_model().objects.create_user("pupil", password="a long pass phrase 7")
    back = f"/learn/{LESSON}/?rules=peel"
    response = client.post(
        reverse("login"),
        {"username": "pupil", "password": "a long pass phrase 7", "next": back},
    )
    assert response.status_code == 302 and response["Location"] == back


@pytest.mark.parametrize("view", ["sign-up", "login"])
def test_a_next_that_leaves_the_site_is_ignored(client: Client, view: str) -> None:
    password = "a long pass phrase 7"
    for n, elsewhere in enumerate(["https://evil.example/learn/", "//evil.example/learn/"]):
        if view == "login":
            get_user_model().objects.create_user(f"pupil{n}", password=password)
            data = {"username": f"pupil{n}", "password": password}
        else:
            data = {"username": f"pupil{n}", "password1": password, "password2": password}
        client.logout()
        response = client.post(reverse(view), {**data, "next": elsewhere})
        assert response.status_code == 302
        assert response["Location"] == reverse(settings.LOGIN_REDIRECT_URL)


def test_logging_in_keeps_what_either_side_had_done(client: Client) -> None:
    user = get_user_model().objects.create_user("pupil", password="a long pass phrase 7")
    first, second = Learner(client).steps[:2]
    # The account has begun the first exercise; the session finishes it and the second.
    account = Client()
    account.force_login(user)
    Learner(account).start(first)
    session = Learner(client)
    session.do(first)
    session.do(second)

    client.post(reverse("login"), {"username": "pupil", "password": "a long pass phrase 7"})

    rows = {p.step_id: p for p in Progress.objects.filter(owner=user)}
    assert set(rows) == {first.key, second.key}
    assert rows[first.key].done is not None and rows[second.key].done is not None
    assert not Progress.objects.filter(owner=None).exists()


def test_resume_goes_to_the_first_unfinished_lesson_in_course_order(learner: Learner) -> None:
    """Resume points at the first lesson not finished, in course order: not after the last
    lesson worked on while an earlier one is still unfinished (issue 26, item 13)."""

    def resume() -> str:
        page = learner.client.get(reverse("course:home")).content.decode()
        start = page.index('class="resume"')
        return page[start : page.index("</p>", start)]

    lessons = list(Lesson.objects.all())
    first, second = lessons[:2]
    assert learner.lesson.position > second.position
    assert f"Start with the first lesson: {first.title}" in resume()
    learner.do(learner.steps[0])
    assert f"Resume: {first.title}" in resume()
    # The later lesson finished: the course still resumes at its first lesson.
    session_key = learner.client.session.session_key
    for step in learner.steps[1:]:
        Progress.objects.create(session_key=session_key, step=step, done=timezone.now())
    assert f"Resume: {first.title}" in resume()
    # The first lesson done: on to the second, though a later one was done before it.
    for step in first.steps.all():
        Progress.objects.create(session_key=session_key, step=step, done=timezone.now())
    assert f"Resume: {second.title}" in resume()
    assert "1 of 3 exercises right at the first try" in learner.page()


def test_another_try_at_an_authored_exercise_is_dealt_afresh_where_the_engine_can(
    client: Client,
) -> None:
    """After a wrong answer to a lesson's own position, the next try is a position the engine
    deals about the same rule (the answer to the first was just shown), where its kind can
    ask about that rule; else the same position again."""
    step = next(
        s
        for s in Step.objects.filter(kind=StepKind.EXERCISE).select_related("lesson")
        if s.data["position"] is not None
        and s.data["rule"] in coverage("hoffmann", s.lesson.game).get(s.data["kind"], ())
        and "hoffmann" in s.lesson.presets
    )
    learner = Learner(client, lesson=step.lesson.slug)
    session_key = None
    for earlier in learner.steps:
        if earlier.key == step.key:
            break
        learner.page()
        session_key = learner.client.session.session_key
        Progress.objects.create(session_key=session_key, step=earlier, done=timezone.now())
    learner.do(step, right=False)
    learner.start(step)

    first, second = learner.progress(step).questions.order_by("pk")
    assert first.position == step.data["position"] and second.position is None
    assert second.to_engine().rule == step.data["rule"]


# -- what is stored, and within which limits ---------------------------------------------------


def test_a_lesson_without_a_rule_set_in_its_link_opens_under_the_one_last_answered(
    learner: Learner,
) -> None:
    """The choice is carried in the links (no session is written by a GET); a link without
    it opens under the rule set of the learner's latest answer in the course."""
    learner.rules = "parlett"
    learner.do(learner.steps[0])
    page = learner.client.get(learner.lesson.get_absolute_url()).content.decode()
    assert '<option value="parlett" selected>' in page
    fresh = Client().get(learner.lesson.get_absolute_url()).content.decode()
    assert f'<option value="{learner.lesson.presets[0]}" selected>' in fresh


def _to_the_guided_hand(learner: Learner) -> Step:
    for step in learner.steps:
        if step.kind == StepKind.GUIDED_HAND:
            return step
        learner.do(step)
    raise AssertionError("the lesson has no guided hand")


def test_a_guided_hand_counts_against_the_practice_tables_limit(learner: Learner) -> None:
    """A guided hand is a practice table: dealt within the same limit per address as the
    chooser's, before anything is stored."""
    step = _to_the_guided_hand(learner)
    deal = {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
    limits = {**settings.RATE_LIMITS, "tables-per-address": (1, 600)}
    with override_settings(RATE_LIMITS=limits):
        made = learner.client.post(reverse("games:table-create"), {**deal, "mode": "learning"})
        assert made.status_code == 302
        refused = learner.start(step)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many practice tables" in refused.content.decode()
    assert PracticeTable.objects.count() == 1
    assert not Progress.objects.filter(step=step).exists()


@override_settings(SESSION_TABLES=1)
def test_a_guided_hand_is_refused_when_the_browsers_tables_are_all_in_play(
    learner: Learner,
) -> None:
    step = _to_the_guided_hand(learner)
    deal = {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}
    learner.client.post(reverse("games:table-create"), {**deal, "mode": "learning"})

    refused = learner.start(step)

    assert refused.status_code == 302
    assert "already has 1 tables with a hand in progress" in learner.page()
    assert PracticeTable.objects.count() == 1 and PracticeTable.objects.get().guide is None


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_lesson_step_counts_against_the_drill_limit(learner: Learner, htmx: bool) -> None:
    """A step's question is a question like the trainer's: within the same limit per
    address, before any work (no progress row, no question)."""
    first, second = learner.steps[:2]
    limits = {**settings.RATE_LIMITS, "drills-per-address": (1, 600)}
    with override_settings(RATE_LIMITS=limits):
        learner.do(first)
        before = snapshot()
        refused = learner.start(second, htmx=htmx)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many questions have been asked from your network." in refused.content.decode()
    assert snapshot() == before
