"""Reviews that come back: every answer about a rule schedules its next review with FSRS
(wrong = Again, right = Good), per learner and rule; "Due for review" starts a drill on the due
rules; the dashboard shows each rule's state, weakest first. No GET writes a schedule."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.loo.catalogue import rules
from lessons.course.management.commands.prunesessions import kept_by_session
from lessons.trainer import reviews, views
from lessons.trainer.models import AskedQuestion, RuleReview

from .conftest import Learner

pytestmark = pytest.mark.django_db


def _schedules() -> list[dict[str, Any]]:
    return list(RuleReview.objects.order_by("pk").values())


def _session(learner: Learner) -> str:
    learner.client.get(reverse("trainer:choose"))  # no session needed to read the page
    session = learner.client.session
    if session.session_key is None:
        session.save()
        learner.client.cookies["sessionid"] = session.session_key or ""
    return learner.client.session.session_key or ""


def _overdue(key: str, rule: str = "follow-suit", owner: Any = None) -> RuleReview:
    """A schedule for ``rule`` whose review fell due a day ago."""
    row = reviews.review(
        owner,
        "" if owner else key,
        rule,
        False,
        timezone.now() - timedelta(days=2),
        rules="hoffmann",
        game="three-card",
    )
    assert row is not None and row.due < timezone.now()
    return row


@pytest.mark.parametrize("right", [True, False])
def test_an_answer_in_the_trainer_schedules_its_rule(learner: Learner, right: bool) -> None:
    asked = learner.start()
    q = asked.to_engine()
    before = timezone.now()

    learner.answer(asked, list(q.answer) if right else learner.wrong(q))

    row = RuleReview.objects.get()
    assert (row.rule, row.session_key, row.owner) == (asked.topic, asked.session_key, None)
    assert row.last_rating == (3 if right else 1)  # Good, Again
    assert (row.reviews, row.lapses) == (1, 0 if right else 1)
    assert (row.rules, row.game) == ("hoffmann", "three-card")
    # FSRS's first learning steps: a minute after Again, ten minutes after Good.
    assert row.due - before < timedelta(minutes=11 if right else 2)
    assert row.due - before > timedelta(minutes=9 if right else 0)


def test_a_second_answer_to_the_same_question_changes_no_schedule(learner: Learner) -> None:
    asked = learner.start()
    q = asked.to_engine()
    learner.answer(asked, learner.wrong(q))
    before = _schedules()

    learner.answer(asked, list(q.answer))

    assert _schedules() == before


def test_right_answers_push_the_review_further_and_a_wrong_one_brings_it_back() -> None:
    user = User.objects.create_user("ada")
    start = timezone.now()
    when = start
    dues = []
    for right in (True, True, True, True):
        row = reviews.review(user, "", "follow-suit", right, when, rules="peel", game="five-card")
        assert row is not None
        dues.append(row.due - when)
        when = row.due
    assert dues == sorted(dues) and dues[-1] > timedelta(days=1)
    assert row.state == 2  # FSRS's review state: known
    lapse = reviews.review(user, "", "follow-suit", False, when, rules="peel", game="five-card")
    assert lapse is not None and lapse.due - when < timedelta(hours=1)
    assert (lapse.reviews, lapse.lapses, RuleReview.objects.count()) == (5, 1, 1)


def test_no_page_read_writes_a_schedule(learner: Learner) -> None:
    key = _session(learner)
    _overdue(key)
    asked = learner.start()
    before = _schedules()

    for url in (
        reverse("trainer:choose"),
        reverse("trainer:reviews"),
        reverse("home"),
        asked.get_absolute_url(),
    ):
        assert learner.client.get(url).status_code == 200
    assert learner.client.get(reverse("trainer:review-due")).status_code == 405

    assert _schedules() == before


def test_due_for_review_starts_a_drill_on_a_due_rule(learner: Learner) -> None:
    key = _session(learner)
    row = _overdue(key, "follow-suit")
    reviews.review(
        None, key, "head-the-trick", True, rules="hoffmann", game="three-card"
    )  # not due

    for url in (reverse("trainer:choose"), reverse("home")):
        text = learner.text(learner.client.get(url).content.decode())
        assert "Due for review 1 rule you answered about is due to be asked again." in text
    response = learner.client.post(reverse("trainer:review-due"))

    assert response.status_code == 302
    asked = AskedQuestion.objects.get()
    assert response["Location"] == asked.get_absolute_url()
    assert (asked.scope, asked.rules, asked.game) == ("rule:follow-suit", row.rules, row.game)
    assert asked.topic == "follow-suit"
    # Its answer reviews the rule again.
    learner.answer(asked, list(asked.to_engine().answer))
    row.refresh_from_db()
    assert (row.reviews, row.last_rating) == (2, 3) and row.due > timezone.now()


def test_with_nothing_due_no_question_is_asked(learner: Learner) -> None:
    key = _session(learner)
    reviews.review(None, key, "follow-suit", True, rules="hoffmann", game="three-card")
    assert "Due for review" not in learner.client.get(reverse("home")).content.decode()

    response = learner.client.post(reverse("trainer:review-due"))

    assert views.NOTHING_DUE in response.content.decode()
    assert not AskedQuestion.objects.exists()


def test_another_learners_due_rules_are_not_drawn(learner: Learner) -> None:
    _overdue("", owner=User.objects.create_user("bea"))
    _session(learner)
    learner.client.post(reverse("trainer:review-due"))
    assert not AskedQuestion.objects.exists()


def test_the_dashboard_shows_each_rule_weakest_first(learner: Learner) -> None:
    key = _session(learner)
    _overdue(key, "follow-suit")
    reviews.review(None, key, "head-the-trick", True, rules="hoffmann", game="three-card")

    response = learner.client.get(reverse("trainer:reviews"))
    assert "no-store" in response["Cache-Control"]
    text = learner.text(response.content.decode())

    assert "Due for review 1 rule" in text and "Learning 1 rule" in text
    assert "New " + f"{len(rules()) - 2} rules" in text
    states = reviews.dashboard(RuleReview.objects.filter(session_key=key))
    assert [s.state for s in states[:2]] == ["due", "learning"]
    assert {s.state for s in states[2:]} == {"new"}
    due, learning = states[0].name, states[1].name
    assert text.index(f"{due} Due for review") < text.index(f"{learning} Learning")


def test_prunesessions_deletes_the_schedules_of_ended_sessions() -> None:
    assert RuleReview in kept_by_session()
    live, ended = Client(), Client()
    keys = []
    for client in (live, ended):
        learner = Learner(client)
        keys.append(_session(learner))
        _overdue(keys[-1])
    Session.objects.filter(session_key=keys[1]).delete()
    _overdue("", owner=User.objects.create_user("cy"))

    call_command("prunesessions", stdout=StringIO())

    assert sorted(r.session_key for r in RuleReview.objects.all()) == sorted(["", keys[0]])


def test_logging_in_brings_the_sessions_schedules_to_the_account(client: Client) -> None:
    user = User.objects.create_user("dee", password="a long enough password 1")
    key = _session(Learner(client))
    _overdue(key, "follow-suit")
    _overdue(key, "head-the-trick")
    _overdue("", "head-the-trick", owner=user)

    RuleReview.objects.give_to(user, key)

    assert sorted(RuleReview.objects.values_list("rule", "session_key")) == [
        ("follow-suit", ""),
        ("head-the-trick", ""),
    ]
    assert RuleReview.objects.filter(owner=user).count() == 2


def test_an_answered_question_offers_the_next_due_rule(learner: Learner) -> None:
    key = _session(learner)
    _overdue(key, "follow-suit")
    _overdue(key, "head-the-trick")
    learner.client.post(reverse("trainer:review-due"))
    first = AskedQuestion.objects.get()
    learner.answer(first, list(first.to_engine().answer))

    page = learner.text(learner.page(first))
    assert "Next rule due for review (1 due)" in page
    learner.client.post(reverse("trainer:review-due"))

    second = AskedQuestion.objects.exclude(pk=first.pk).get()
    assert {first.scope, second.scope} == {"rule:follow-suit", "rule:head-the-trick"}


def test_among_rules_being_learnt_one_answered_wrong_comes_first_and_new_ones_are_folded(
    learner: Learner,
) -> None:
    """Just after an answer FSRS's chance of recall is near 100% whether it was right or
    wrong: the dashboard says which it was, puts the wrong one first, and says "still
    learning it", not "100%"; the rules never asked wait in a folded list."""
    key = _session(learner)
    for rule, right in (("head-the-trick", True), ("follow-suit", False), ("trick-winner", True)):
        reviews.review(None, key, rule, right, rules="hoffmann", game="three-card")
    states = reviews.dashboard(RuleReview.objects.filter(session_key=key))
    assert [s.rule for s in states[:3]][0] == "follow-suit"
    assert {s.state for s in states[:3]} == {"learning"}

    html = learner.client.get(reverse("trainer:reviews")).content.decode()
    table, folded = html.split('<details class="review-new">')
    text = learner.text(table)
    assert "wrong (1 answer in all)" in text and "right (1 answer in all)" in text
    assert "still learning it" in text and "100%" not in text
    assert f"Rules not asked yet ({len(rules()) - 3})" in learner.text(folded)
    assert states[3].name not in text and states[3].name in folded


def test_a_wrong_answer_about_what_to_declare_brings_no_rule_back(learner: Learner) -> None:
    """The coach's "what to declare" is a judgement over sampled deals, not a rule's words: a
    wrong answer there schedules no review of the rule it is filed under; an answer of
    another kind about the same rule does."""
    response = learner.client.post(
        reverse("trainer:ask"),
        {"scope": "any", "rules": "hoffmann", "game": "three-card", "kind": "declare"},
    )
    assert response.status_code == 302
    asked = AskedQuestion.objects.get()
    q = asked.to_engine()
    assert q.kind == "declare"
    learner.answer(asked, learner.wrong(q))
    assert not RuleReview.objects.exists()

    other = learner.start()
    learner.answer(other, learner.wrong(other.to_engine()))
    assert RuleReview.objects.count() == 1


def _answers(times_and_rights: list[tuple[timedelta, bool]]) -> RuleReview:
    """A learner's answers about one rule at given offsets from a fixed start (the clock is
    passed in: no waiting)."""
    user = User.objects.create_user(f"early{User.objects.count()}")
    start = timezone.now()
    row = None
    for offset, right in times_and_rights:
        row = reviews.review(
            user, "", "follow-suit", right, start + offset, rules="hoffmann", game="three-card"
        )
    assert row is not None
    row.start = start  # type: ignore[attr-defined]
    return row


def _state(row: RuleReview, at: timedelta) -> str:
    start = row.start  # type: ignore[attr-defined]
    return reviews.state_of(row, start + at).state


def test_two_right_answers_seconds_apart_do_not_make_a_rule_known() -> None:
    """Issue 38: two right answers 20 s apart made a rule "Known" for two days. The second
    is given before the learning step is due: it leaves the schedule as the first made it."""
    first = _answers([(timedelta(0), True)])
    due_after_one = first.due
    row = _answers([(timedelta(0), True), (timedelta(seconds=20), True)])
    assert row.due - row.start == due_after_one - first.start  # type: ignore[attr-defined]
    assert _state(row, timedelta(seconds=30)) == reviews.LEARNING
    assert row.reviews == 2 and row.lapses == 0  # the answer is counted, not the step


def test_a_right_answer_when_the_step_is_due_makes_it_known() -> None:
    row = _answers([(timedelta(0), True)])
    step = row.due - row.start  # type: ignore[attr-defined]
    row = _answers([(timedelta(0), True), (step, True)])
    assert _state(row, step + timedelta(seconds=1)) == reviews.KNOWN
    assert row.due - row.start > timedelta(days=1)  # type: ignore[attr-defined]


def test_a_wrong_answer_before_the_rule_is_due_counts_at_once() -> None:
    row = _answers([(timedelta(0), True), (timedelta(minutes=10), True)])
    assert row.state == 2
    lapse = _answers(
        [(timedelta(0), True), (timedelta(minutes=10), True), (timedelta(hours=1), False)]
    )
    assert lapse.lapses == 1 and lapse.state == 3  # relearning
    assert _state(lapse, timedelta(hours=1, seconds=1)) == reviews.LEARNING


def test_an_early_answer_never_takes_a_rule_further_than_a_due_one() -> None:
    """For cards in every state (learning, relearning, review after one to four due
    answers), a right answer at many moments before the due time gives a card due no later,
    and no more stable, than a right answer at the due time; and some early answer in the
    review state does move the card (FSRS's elapsed-time rule is used, not ignored)."""
    from fsrs import Card

    start = timezone.now()
    cards = []
    card = Card(due=start)
    when = start
    for right in (True, True, True, False, True, True, True):
        card = reviews.schedule(card, right, when)
        cards.append((card, when))
        when = card.due
    moved = 0
    for card, last in cards:
        on_time = reviews.schedule(card, True, card.due)
        for fraction in (0.0, 0.01, 0.3, 0.7, 0.99):
            at = last + (card.due - last) * fraction
            early = reviews.schedule(card, True, at)
            assert early.due <= on_time.due, (card, fraction)
            assert (early.stability or 0) <= (on_time.stability or 0), (card, fraction)
            moved += early.to_dict() != card.to_dict()
            if card.state != reviews.State.Review:
                assert early.to_dict() == card.to_dict()
    assert moved > 0
