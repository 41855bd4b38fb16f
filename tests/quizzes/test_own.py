"""A teacher's questions of his own (issue 37): the editor's steps, the engine's refusal of a
position that cannot happen (its reason shown, nothing stored), storing with the question
bank's version, who sees and uses a question, and its use in a quiz: asked with the choices
in an order of the attempt's, graded by the engine, counted as an item of its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from games.loo.questions import AUTHORED_FIELDS, AUTHORED_KINDS, VERSION
from lessons.classes.models import CoTeacher, Membership, SchoolClass, Teacher
from lessons.quizzes import analysis, own, own_forms
from lessons.quizzes.models import Attempt, Quiz
from lessons.quizzes.own_models import OwnQuestion, OwnVersion
from tests.worlds import built_once

from .conftest import NOW, client_for, make_assignment, make_user, text

HEAD = {"rules": "hoffmann", "game": "three-card", "kind": "legal-cards"}
#: The king of spades led to a trick of three players; the student holds the ace and two of
#: spades and the three of hearts: he must follow suit (and head the trick).
FOLLOWING = {
    **HEAD,
    "trump": "H",
    "declared": "3",
    "trick_number": "1",
    "trick-1": "KS",
    "hand": ["AS", "2S", "3H"],
}
#: The same, but the king of spades is both led and in the student's hand.
IMPOSSIBLE = {**FOLLOWING, "hand": ["KS", "2S", "3H"]}


def _build() -> dict[str, int]:
    users = {}
    for name in ("teacher", "co-teacher", "stranger"):
        users[name] = make_user(name)
        Teacher.objects.create(user=users[name])
    school_class = SchoolClass.objects.create(teacher=users["teacher"], name="Class 1")
    CoTeacher.objects.create(school_class=school_class, teacher=users["co-teacher"])
    SchoolClass.objects.create(teacher=users["stranger"], name="Class 2")
    for name in ("ann", "bob"):
        users[name] = make_user(name)
        Membership.objects.create(school_class=school_class, student=users[name])
    draft = own.Draft(
        "legal-cards",
        "hoffmann",
        "three-card",
        position={
            "trump": "H",
            "declared": 3,
            "trick_number": 1,
            "trick": ["KS"],
            "hand": ["AS", "2S", "3H"],
        },
    )
    question = own.save(users["teacher"], draft, "Following the king")
    return {"class": school_class.pk, "question": question.pk} | {
        name: user.pk for name, user in users.items()
    }


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[dict[str, int]]:
    yield from built_once(django_db_blocker, _build)


@pytest.fixture
def world(built: dict[str, int], clock: Any, db: None) -> dict[str, Any]:
    users = User.objects.in_bulk([v for k, v in built.items() if k not in ("class", "question")])
    found = {name: users[pk] for name, pk in built.items() if pk in users and name != "class"}
    return found | {
        "class": SchoolClass.objects.get(pk=built["class"]),
        "question": OwnQuestion.objects.get(pk=built["question"]),
    }


# -- the editor ---------------------------------------------------------------------------------


def test_the_editor_offers_every_kind_the_engine_answers_about_a_position() -> None:
    assert own.kinds() == [k for k in own.ASKS if k in AUTHORED_KINDS]
    assert set(own.kinds()) == set(AUTHORED_KINDS)
    for kind, fields in own.FIELDS.items():
        assert fields[: len(AUTHORED_FIELDS[kind])] == AUTHORED_FIELDS[kind]
        assert set(fields) <= set(own.TYPES) and set(fields) <= set(own_forms.LABELS)


def test_the_steps_carry_the_choices_and_draw_card_pickers_grouped_by_suit(world) -> None:
    client = client_for(world["teacher"])
    page = client.get(reverse("quizzes:own-new"))
    assert page.status_code == 200 and 'name="kind"' in page.content.decode()
    cards = client.get(reverse("quizzes:own-cards"), HEAD).content.decode()
    for suit in ("Spades", "Hearts", "Diamonds", "Clubs"):
        assert f"{suit}</legend>" in cards
    assert 'type="checkbox" name="hand" value="AS"' in cards
    assert '<select name="trick-1"' in cards and 'name="kind" value="legal-cards"' in cards


def test_the_preview_shows_the_question_the_engines_answer_and_its_rules_linked(world) -> None:
    page = client_for(world["teacher"]).get(reverse("quizzes:own-preview"), FOLLOWING)
    words = text(page)
    assert "Which of your cards may you play?" in words
    assert "The answer: Ace of spades." in words
    assert reverse("lessons:rule-detail", args=["follow-suit"]) in page.content.decode()
    assert OwnQuestion.objects.count() == 1  # a preview stores nothing


def test_an_impossible_position_is_refused_with_the_engines_reason_and_nothing_stored(
    world,
) -> None:
    client = client_for(world["teacher"])
    preview = client.get(reverse("quizzes:own-preview"), IMPOSSIBLE)
    assert "The engine cannot ask this." in text(preview)
    assert "the king of spades is in your hand and in the trick" in text(preview)
    assert 'value="KS" id="id_hand_KS" checked' in preview.content.decode()  # cards kept
    saved = client.post(reverse("quizzes:own-save"), IMPOSSIBLE)
    assert saved.status_code == 200
    assert "the king of spades is in your hand and in the trick" in text(saved)
    assert OwnQuestion.objects.count() == 1 and OwnVersion.objects.count() == 1


def test_a_trick_with_a_gap_is_refused_by_the_form(world) -> None:
    gap = {**FOLLOWING, "trick-1": "", "trick-2": "KS"}
    page = client_for(world["teacher"]).get(reverse("quizzes:own-preview"), gap)
    assert "fill it from the card led, with no gap" in text(page)


def test_saving_stores_the_position_with_the_question_banks_version(world) -> None:
    client = client_for(world["teacher"])
    response = client.post(reverse("quizzes:own-save"), {**FOLLOWING, "title": "Mine"})
    question = OwnQuestion.objects.exclude(pk=world["question"].pk).get()
    assert response.status_code == 302 and response["Location"] == question.get_absolute_url()
    version = question.current
    assert (version.title, version.kind, version.version) == ("Mine", "legal-cards", VERSION)
    assert version.position["hand"] == ["AS", "2S", "3H"] and version.position["trick"] == ["KS"]
    assert question.owner == world["teacher"]


def test_an_edit_is_a_new_version_and_only_the_owner_edits(world) -> None:
    question = world["question"]
    edit = {**FOLLOWING, "hand": ["AS", "2S", "4H"], "question": str(question.pk)}
    assert (
        client_for(world["co-teacher"]).post(reverse("quizzes:own-save"), edit).status_code == 404
    )
    client_for(world["teacher"]).post(reverse("quizzes:own-save"), edit)
    question.refresh_from_db()
    assert question.current.number == 2 and question.current.position["hand"][2] == "4H"
    assert question.versions.count() == 2


def test_a_co_teacher_sees_and_uses_it_a_stranger_gets_a_404(world) -> None:
    url = world["question"].get_absolute_url()
    co = client_for(world["co-teacher"])
    assert "Following the king" in text(co.get(url))
    assert "Following the king" in text(co.get(reverse("quizzes:own-list")))
    assert "Following the king" in text(co.get(reverse("quizzes:quiz-new")))
    stranger = client_for(world["stranger"])
    assert stranger.get(url).status_code == 404
    assert "Following the king" not in text(stranger.get(reverse("quizzes:own-list")))
    assert (
        stranger.post(reverse("quizzes:own-delete", args=[world["question"].pk])).status_code == 404
    )
    assert co.post(reverse("quizzes:own-delete", args=[world["question"].pk])).status_code == 404


def _quiz_with_own(world, question: OwnQuestion | None = None, **fields: Any) -> Quiz:
    question = question or world["question"]
    response = client_for(world["co-teacher"]).post(
        reverse("quizzes:quiz-new"),
        {
            "title": "Own only",
            "rules": "hoffmann",
            "game": "three-card",
            "scope": "any",
            "count": "0",
            "same_for_all": "1",
            "own": [str(question.pk)],
            **fields,
        },
    )
    assert response.status_code == 302, text(response)
    return Quiz.objects.latest("pk")


def test_a_quiz_refuses_a_question_of_another_rule_set(world) -> None:
    response = client_for(world["teacher"]).post(
        reverse("quizzes:quiz-new"),
        {
            "title": "Peel",
            "rules": "peel",
            "game": "three-card",
            "scope": "any",
            "count": "1",
            "same_for_all": "1",
            "own": [str(world["question"].pk)],
        },
    )
    assert "a quiz asks all its questions under its own rule set and game" in text(response)
    assert not Quiz.objects.exists()


def test_a_question_in_use_is_not_deleted(world) -> None:
    _quiz_with_own(world)
    client = client_for(world["teacher"])
    client.post(reverse("quizzes:own-delete", args=[world["question"].pk]))
    assert OwnQuestion.objects.filter(pk=world["question"].pk).exists()
    unused = own.save(world["teacher"], own.Draft.of(world["question"].current), "Spare")
    client.post(reverse("quizzes:own-delete", args=[unused.pk]))
    assert not OwnQuestion.objects.filter(pk=unused.pk).exists()


def test_a_quiz_asks_it_graded_by_the_engine_and_counted_as_an_item_of_its_own(world) -> None:
    """A co-teacher's quiz of the teacher's question; Ann answers right, Bob wrong; each
    attempt's choices are shuffled by a seed of its own, and the analysis counts one item."""
    assignment = make_assignment(world["class"], _quiz_with_own(world), attempts_allowed=2)
    attempts = {name: Attempt.start(assignment, world[name]) for name in ("ann", "bob")}
    for name, attempt in attempts.items():
        answer = attempt.answers.get()
        assert answer.own == world["question"].current
        q = answer.to_engine()
        assert q.answer == ("AS",) and {c.id for c in q.choices} == {"AS", "2S", "3H"}
        response = ["AS"] if name == "ann" else ["AS", "2S"]
        assert answer.record(q, response).grade.correct is (name == "ann")
        attempt.submit()
    found = analysis.analyse(assignment, [world["ann"].pk, world["bob"].pk], NOW)
    [item] = found.items
    assert (item.key, item.asked, item.right, item.partly) == (
        f"own-{world['question'].current.pk}",
        2,
        1,
        1,
    )
    assert {o.id: o.ticked for o in item.choices} == {"AS": 2, "2S": 1, "3H": 0}
    # The same for all: both first attempts are shuffled alike; a second attempt afresh.
    seeds = [attempts[name].answers.get().seed for name in ("ann", "bob")]
    again = Attempt.start(assignment, world["ann"]).answers.get()
    assert seeds[0] == seeds[1] != again.seed and again.own == world["question"].current


def test_a_position_too_large_to_store_is_refused() -> None:
    draft = own.Draft("legal-cards", "hoffmann", "three-card", position={"x": "y" * 5000})
    with pytest.raises(own.Refused, match="too large"):
        draft.question()


# -- questions about a whole table: the settlement, the declaring ---------------------------------

#: Four at the table, the dealer on the student's right (seat 4); the student, seat 2 and
#: seat 3 play, a pool of 3 (hoffmann: the dealer's stake); the student takes the first and
#: third tricks, seat 2 the second: a counter a trick, so the student receives 2.
SETTLEMENT = {
    "rules": "hoffmann",
    "game": "three-card",
    "kind": "settlement",
    "players": "4",
    "dealer": "3",
    "pool": "3",
    "in_play": ["0", "1", "2"],
    "tricks-1": "0",
    "tricks-2": "1",
    "tricks-3": "0",
    "asked": "0",
}
#: Four at the table, seat 2 deals; seat 3 passes, seat 4 plays; the student, next, may take
#: the miss, play or pass (only the dealer may play for the pool).
DECLARATION = {
    "rules": "hoffmann",
    "game": "three-card",
    "kind": "declaration",
    "players": "4",
    "dealer": "1",
    "hand": ["AS", "2S", "3H"],
    "turn_up": "5H",
    "declarations-1": "pass",
    "declarations-2": "play",
}


def test_the_table_is_set_first_and_the_seats_are_drawn_for_it(world) -> None:
    client = client_for(world["teacher"])
    head = {k: DECLARATION[k] for k in ("rules", "game", "kind")}
    first = client.get(reverse("quizzes:own-cards"), head).content.decode()
    # Four players, the dealer on the student's right: nobody declares before the student.
    assert f'action="{reverse("quizzes:own-cards")}"' in first and "Set the table" in first
    assert "Nobody: the student sits at the dealer's left" in first
    page = client.get(reverse("quizzes:own-cards"), {**head, "players": "5", "dealer": "1"})
    words = text(page)
    assert "The seats below are for a table of 5 players, seat 2 dealing." in words
    html = page.content.decode()
    for n, seat in ((1, 3), (2, 4), (3, 5)):
        assert f'<label for="id_declarations-{n}">Seat {seat} (' in html
    assert 'name="declarations-4"' not in html
    assert '<option value="defend-master">' in html  # three-card Loo: the miss and master
    settlement = client.get(reverse("quizzes:own-cards"), {**head, "kind": "settlement"})
    html = settlement.content.decode()
    assert 'type="checkbox" name="in_play" value="3"' in html
    assert 'name="in_play" value="4"' not in html  # four seats, 0 to 3
    assert '<select name="tricks-3"' in html and 'name="tricks-4"' not in html
    assert 'type="number" name="pool" value="3"' in html  # the dealer's stake under hoffmann


def test_a_settlement_question_is_previewed_saved_and_graded(world) -> None:
    client = client_for(world["teacher"])
    preview = client.get(reverse("quizzes:own-preview"), SETTLEMENT)
    words = text(preview)
    assert "how many counters do you receive or pay?" in words
    assert "The answer: Receives 2." in words
    assert reverse("lessons:rule-detail", args=["pool-division"]) in preview.content.decode()
    client.post(reverse("quizzes:own-save"), {**SETTLEMENT, "title": "Two tricks"})
    version = OwnVersion.objects.get(title="Two tricks")
    assert version.kind == "settlement" and version.position["tricks"] == [0, 1, 0]
    assert version.position["in_play"] == [0, 1, 2] and version.position["dealer"] == 3
    assert "The answer: Receives 2." in text(client.get(version.question.get_absolute_url()))
    _graded_in_a_quiz(world, version.question, ["+2"], _another_amount)


def _another_amount(q: Any) -> list[str]:
    return [next(c.id for c in q.choices if c.id != "+2")]


def _graded_in_a_quiz(
    world, question: OwnQuestion, right: list[str], wrong: Callable[[Any], list[str]]
) -> None:
    """In a quiz of ``question`` alone, Ann answers ``right``, Bob ``wrong(the question)``:
    the engine grades Ann's right and Bob's wrong."""
    assignment = make_assignment(world["class"], _quiz_with_own(world, question))
    for name in ("ann", "bob"):
        answer = Attempt.start(assignment, world[name]).answers.get()
        q = answer.to_engine()
        response = right if name == "ann" else wrong(q)
        assert answer.record(q, response).grade.correct is (name == "ann")


def test_a_declaration_question_is_previewed_saved_and_graded(world) -> None:
    client = client_for(world["teacher"])
    preview = client.get(reverse("quizzes:own-preview"), DECLARATION)
    assert "What may you do now?" in text(preview)
    client.post(reverse("quizzes:own-save"), {**DECLARATION, "title": "After a pass"})
    version = OwnVersion.objects.get(title="After a pass")
    assert version.position["declarations"] == ["pass", "play"]
    right = ["take-miss", "play", "pass"]
    _graded_in_a_quiz(world, version.question, right, lambda q: [*right, "defend-miss"])
    # What the edit link sends is what was saved: the same table, the same declarations.
    again = client.get(reverse("quizzes:own-cards"), own_forms.pairs_of(own.Draft.of(version)))
    assert '<option value="play" selected>' in again.content.decode()


@pytest.mark.parametrize(
    ("posted", "reason"),
    [
        (
            {**SETTLEMENT, "tricks-2": "3"},
            "seat 4 takes the second trick but is not in the play",
        ),
        (
            {**DECLARATION, "declarations-1": "take-miss", "declarations-2": "take-miss"},
            "seat 4 takes the miss, which the rules do not allow there",
        ),
        (
            # Irish Loo under the Britannica: every stake and loo divides by three, no miss is
            # played for the pool, no offender leaves his shares in it (RULES.md A56).
            {**SETTLEMENT, "rules": "britannica", "game": "irish", "pool": "10"},
            "A pool of 10 is not reachable under these rules: at Irish Loo under Britannica",
        ),
    ],
    ids=["settlement", "declaration", "unreachable-pool"],
)
def test_an_impossible_table_is_refused_with_the_engines_reason(world, posted, reason) -> None:
    client = client_for(world["teacher"])
    preview = client.get(reverse("quizzes:own-preview"), posted)
    assert "The engine cannot ask this." in text(preview) and reason in text(preview)
    saved = client.post(reverse("quizzes:own-save"), {**posted, "title": "Impossible"})
    assert saved.status_code == 200 and reason in text(saved)
    assert not OwnVersion.objects.filter(title="Impossible").exists()


def test_tricks_with_a_gap_are_refused_by_the_form(world) -> None:
    gap = {**SETTLEMENT, "tricks-2": ""}
    page = client_for(world["teacher"]).get(reverse("quizzes:own-preview"), gap)
    assert "fill them from the first trick, with no gap" in text(page)
