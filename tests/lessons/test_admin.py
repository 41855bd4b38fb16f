"""Editors correct texts in the admin: HTML is rendered on save, broken references refused."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lessons.models import GlossaryTerm, Passage, Rule, Source, TimelineEntry, WitnessStatement

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("editor", "editor@example.com", "x"))
    return client


@pytest.mark.parametrize(
    "model", ["source", "passage", "rule", "glossaryterm", "witnessstatement", "timelineentry"]
)
def test_every_model_has_a_list_in_the_admin(editor: Client, model: str) -> None:
    assert editor.get(f"/admin/lessons/{model}/").status_code == 200


def test_each_kind_of_text_opens_in_the_admin(editor: Client) -> None:
    passage = Passage.objects.get(source="peel", key="p21-2")
    for url in (
        f"/admin/lessons/source/{Source.objects.get(slug='peel').pk}/change/",
        f"/admin/lessons/passage/{passage.pk}/change/",
        "/admin/lessons/rule/must/change/",
        "/admin/lessons/glossaryterm/miss/change/",
        f"/admin/lessons/witnessstatement/{WitnessStatement.objects.first().pk}/change/",
        f"/admin/lessons/timelineentry/{TimelineEntry.objects.first().pk}/change/",
        f"/admin/lessons/source/{Source.objects.get(slug='cotton').pk}/change/",
    ):
        response = editor.get(url)
        assert response.status_code == 200, url
        assert "the next loadcontent overwrites" in response.content.decode()


def _post_passage(editor: Client, passage: Passage, text: str) -> str:
    response = editor.post(
        f"/admin/lessons/passage/{passage.pk}/change/",
        {"label": passage.label, "text": text, "quotation": "", "editorial": ""},
        follow=True,
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_corrected_passage_is_rendered_when_it_is_saved(editor: Client) -> None:
    passage = Passage.objects.get(source="hoffmann", key="law-12")

    html = _post_passage(editor, passage, "12.—Every player is bound to [[follow suit]] if able.")

    assert "was changed successfully" in html
    saved = Passage.objects.get(pk=passage.pk)
    assert 'href="/glossary/follow-suit/"' in saved.html
    assert saved.plain == "12.—Every player is bound to follow suit if able."
    assert saved.terms == [["follow-suit", "follow suit"]]


def test_a_reference_to_a_missing_term_is_refused(editor: Client) -> None:
    passage = Passage.objects.get(source="hoffmann", key="law-12")

    html = _post_passage(editor, passage, "12.—Every player must [[folow suit]].")

    assert "is not a glossary term" in html
    assert Passage.objects.get(pk=passage.pk).text == passage.text


def test_a_rule_explanation_and_a_definition_are_rendered_on_save(editor: Client) -> None:
    rule = Rule.objects.get(pk="must")
    rule.explanation = "Nobody may [[pass]]."
    rule.save()
    assert 'href="/glossary/pass/"' in Rule.objects.get(pk="must").explanation_html

    term = GlossaryTerm.objects.get(pk="miss")
    term.definition = "The spare hand; see [[rule:take-miss|taking it]]."
    term.save()
    assert 'href="/rules/take-miss/"' in GlossaryTerm.objects.get(pk=term.pk).definition_html


def test_a_lesson_link_is_rendered_on_save_and_a_missing_lesson_refused(editor: Client) -> None:
    rule = Rule.objects.get(pk="must")
    rule.explanation = "See [[lesson:follow-suit]]."
    rule.save()
    assert (
        '<a href="/learn/follow-suit/">Follow suit</a>'
        in Rule.objects.get(pk="must").explanation_html
    )

    html = _post_rule(editor, rule, explanation="See [[lesson:folow-suit]].")
    assert "no lesson &#x27;folow-suit&#x27; in the course" in html
    assert Rule.objects.get(pk="must").explanation == "See [[lesson:follow-suit]]."


def _post_rule(editor: Client, rule: Rule, **changes: str) -> str:
    data = {
        "explanation": rule.explanation,
        "example_title": rule.example_title,
        "example": json.dumps(rule.example) if rule.example else "",
        "no_example": rule.no_example,
    } | changes
    response = editor.post(f"/admin/lessons/rule/{rule.pk}/change/", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_a_worked_example_the_engine_cannot_work_out_is_refused(editor: Client) -> None:
    rule = Rule.objects.get(pk="flush-tie-break")
    broken = dict(rule.example, hands=["KS QS 9S 5S 3S", "KS 7D 6D 4D 2D"])

    html = _post_rule(editor, rule, example=json.dumps(broken))

    assert "KS is dealt twice" in html
    assert Rule.objects.get(pk=rule.pk).example == rule.example


def test_a_hand_refused_under_every_rule_set_is_refused(editor: Client) -> None:
    rule = Rule.objects.get(pk="miss-only-once")
    broken = dict(rule.example, steps=["0 take-miss", "1 take-miss"])

    html = _post_rule(editor, rule, example=json.dumps(broken))

    assert "the engine refuses this hand under every rule set" in html
    assert Rule.objects.get(pk=rule.pk).example == rule.example


def test_a_rule_needs_an_example_or_a_reason_for_having_none(editor: Client) -> None:
    rule = Rule.objects.get(pk="shuffle-and-cut")

    html = _post_rule(editor, rule, no_example="")
    assert "Give a worked example, or say why there is none" in html

    html = _post_rule(editor, rule, no_example="Nothing to work out.")
    assert "was changed successfully" in html
    assert Rule.objects.get(pk=rule.pk).no_example == "Nothing to work out."
