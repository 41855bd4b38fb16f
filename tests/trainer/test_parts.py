"""The partials that ask and grade a stored question stand on their own, for any page (the
lessons and the quizzes) to include with the context the presenting module makes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from lessons.trainer import bank, presenting
from lessons.trainer.presenting import POSITIONS, asking_context, graded_context

from .conftest import make, one_per_kind

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", bank.kinds())
def test_a_question_is_asked_and_graded_by_the_partials_alone(learner: Any, kind: str) -> None:
    rules, game = next((p, g) for k, p, g in one_per_kind() if k == kind)
    q = make(kind, rules, game)
    asked, form, graded = _asked_and_graded(learner, q)

    assert 'action="/somewhere/answer/"' in form and 'name="csrfmiddlewaretoken"' in form
    assert form.count('name="response"') == len(q.choices)
    assert f'id="q{asked.pk}-prompt"' in form
    assert "Right." in graded and "Why" in graded
    assert kind in POSITIONS  # each kind the engine makes has a partial for its position


def _asked_and_graded(learner: Any, q: Any) -> tuple[Any, str, str]:
    """``q`` stored for the learner, its asking partial, then answered right, its grading."""
    asked = learner.store(q)
    request = RequestFactory().get("/somewhere/")
    form = render_to_string(
        "trainer/parts.html#asked-question",
        asking_context(asked, q, answer_url="/somewhere/answer/"),
        request=request,
    )
    asked.record_answer(q, list(q.answer))
    graded = render_to_string(
        "trainer/parts.html#graded-question", graded_context(asked, q), request=request
    )
    return asked, form, graded


def test_a_kind_without_a_partial_of_its_own_shows_its_position_field_by_field() -> None:
    q = dataclasses.replace(make("legal-cards", "hoffmann", "three-card"), kind="new-kind")

    shown = presenting.shown(q)
    html = render_to_string(shown.position_template, {"shown": shown})

    assert shown.position_template == "trainer/parts.html#position-generic"
    assert "<dt>Hand</dt>" in html and "<dt>Trump</dt>" in html
    assert 'class="pcard' in html  # its card codes drawn as cards


def test_a_position_not_in_its_kinds_form_falls_back_to_the_generic_partial() -> None:
    q = make("trick-winner", "peel", "five-card")
    broken = dataclasses.replace(q, position={"trump": "H", "puzzle": ["QH", "XX"]})

    shown = presenting.shown(broken)

    assert shown.position_template == "trainer/parts.html#position-generic"
    assert [f.label for f in shown.position["facts"]] == ["Trump", "Puzzle"]


def test_the_learners_own_declaration_reads_in_the_second_person() -> None:
    from lessons.trainer.presenting import declared

    assert (declared(0, "play"), declared(0, "pass"), declared(0, "take-miss")) == (
        "play",
        "pass",
        "take the miss",
    )
    assert (declared(2, "play"), declared(2, "defend")) == ("plays", "plays for the pool")


def test_peels_single_deal_is_drawn_as_its_cards_face_up() -> None:
    """A settlement question on Peel's single deal (A39): the turn-up and each player's card,
    with no table of tricks, since none is played."""
    from games.loo.questions import question

    q = question("settlement", "peel", game="three-card", rule="single", seed=3)
    shown = presenting.shown(q)
    html = render_to_string(shown.position_template, {"shown": shown})

    assert shown.position_template == "trainer/parts.html#position-settlement"
    assert "<dt>Turned up</dt>" in html and "Who took which trick" not in html
    assert html.count("Face up") == len(q.position["single"])
    assert html.count('class="pcard') >= 1 + len(q.position["single"])


def test_a_disputed_question_is_marked_with_a_link_to_its_reading(learner: Any) -> None:
    """Issue 25, finding 11: where the answer rests on a reading, the question says so and
    links the rule page that shows the readings (hoffmann ¶4 and its parenthesis, A8)."""
    from games.loo.questions import question_at

    position = {"trump": "H", "hand": ["KH", "3H", "9C"], "trick": [], "turn_up": "2H"}
    q = question_at(
        "legal-cards",
        "hoffmann",
        game="three-card",
        position={**position, "declared": 3, "trick_number": 1},
        seed=1,
    )
    asked = learner.store(q)
    form = render_to_string(
        "trainer/parts.html#asked-question",
        asking_context(asked, q, answer_url="/somewhere/answer/"),
        request=RequestFactory().get("/somewhere/"),
    )
    assert q.disputed and "rests on our reading" in form
    assert 'href="/rules/lead-highest-trump-heads-up/"' in form


def test_a_carried_pool_is_told_after_the_answer_with_its_rule_linked(learner: Any) -> None:
    """RULES.md A56: Peel's pool of 25 (stakes 3, loos 6) says, once answered, how the hands
    before left it; before the answer, nothing of it is shown."""
    from games.loo.questions import question

    q = question(
        "settlement", "peel", game="three-card", rule="indivisible-pool-rounding", seed=502
    )
    _, form, graded = _asked_and_graded(learner, q)
    assert "came from the hands before" not in form
    told = next(line for line in graded.split("<li>") if "came from the hands before" in line)
    assert "playing the miss for the pool" in told and "makes 25." in told
    assert "/rules/dealer-defends-miss/" in told
