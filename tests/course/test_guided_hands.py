"""The guided hands set up for their rule (issue 14): a stacked deal, a table that begins as
after a hand, agreed variations, a laws-mode table of careless players. Each is dealt at the
learner's table as the loader checked it, never shows a card the learner may not know, and is
done when the hand is finished."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.loo.bots import BeginnerBot
from games.loo.cards import Card
from games.loo.hand import Hand
from games.loo.view import view_for
from games.models import Opponents, PracticeTable
from games.naming import HUMAN
from lessons.course.models import Lesson, Progress, Step, StepKind
from tests.games.conftest import hidden_cards

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

#: The guided hands set for their rule, and the lesson each belongs to.
SET_HANDS = {
    "the-dealer-hand": "the-dealer",
    "the-miss-hand": "the-miss",
    "unlimited-loo-hand": "unlimited-loo",
    "singles-and-musts-hand": "singles-and-musts",
    "club-law-hand": "club-law",
    "rival-flushes-hand": "rival-flushes",
    "laws-before-play-hand": "laws-before-play",
    "laws-in-play-hand": "laws-in-play",
    "trumped-trick-hand": "trumped-trick",
}


def _open_guided_hand(client: Client, key: str, preset: str) -> tuple[Step, PracticeTable]:
    """Take the lesson up to its guided hand (the steps before it recorded done) and deal it
    through the lesson's view; the step and its table."""
    step = Step.objects.select_related("lesson").get(key=key, kind=StepKind.GUIDED_HAND)
    lesson = step.lesson
    client.get(lesson.get_absolute_url(), {"rules": preset})
    session_key = client.session.session_key
    assert session_key
    for before in Step.objects.filter(lesson=lesson, position__lt=step.position):
        Progress.objects.create(session_key=session_key, step=before, done=timezone.now())
    url = reverse("course:start", args=[lesson.slug, step.key])
    response = client.post(f"{url}?rules={preset}")
    table = PracticeTable.objects.get(pk=Progress.objects.get(step=step).table_id)
    assert response.status_code == 302
    assert response["Location"] == table.get_absolute_url()
    return step, table


def _hand(table: PracticeTable) -> Hand:
    table.refresh_from_db()
    hand = table.to_engine().hand
    assert hand is not None
    return hand


_LABEL = re.compile(
    r"\b(?:ace|king|queen|knave|ten|nine|eight|seven|six|five|four|three|two) of "
    r"(?:spades|hearts|diamonds|clubs)\b"
)


def _labels(body: str) -> set[str]:
    return set(_LABEL.findall(body))


def _assert_hides(body: str, hidden: set[Card], where: str) -> None:
    """No hidden card in ``body`` in any form: code (QH), display (Q♥), label (queen of
    hearts)."""
    codes = set(re.findall(r"\b[AKQJT98765432][SHDC]\b", body))
    displays = set(re.findall(r"(?:10|[AKQJ98765432])[♠♥♦♣]", body))
    assert not codes & {c.code for c in hidden}, where
    assert not displays & {c.display for c in hidden}, where
    assert not _labels(body) & {c.label for c in hidden}, where


def _play_out(client: Client, table: PracticeTable, htmx: bool) -> None:
    """Play the hand to its end through the table's views, checking every page on the way."""
    for n in range(200):
        hand = _hand(table)
        for headers in ({}, HTMX):
            page = client.get(table.get_absolute_url(), headers=headers).content.decode()
            _assert_hides(page, hidden_cards(hand), f"table page, step {n}")
        if hand.over:
            return
        data: dict[str, Any] = {"version": table.version}
        if hand.to_act != HUMAN:
            data["kind"] = "wait"
        else:
            action = BeginnerBot(f"guided:{n}").decide(view_for(hand, HUMAN)).action
            data["kind"] = action.kind
            if action.kind == "play":
                data["card"] = action.cards[0]
            else:
                data["choice"] = action.choice
                if action.cards:
                    data["discards"] = list(action.cards)
        response = client.post(
            reverse("games:table-act", args=[table.pk]), data, headers=HTMX if htmx else {}
        )
        assert response.status_code == (200 if htmx else 302)
        if htmx:
            _assert_hides(response.content.decode(), hidden_cards(_hand(table)), f"fragment {n}")
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("preset", ["hoffmann", "britannica", "whiteknuckle", "parlett", "peel"])
def test_the_stacked_guided_hand_is_dealt_as_written_and_never_shows_a_hidden_card(
    client: Client, preset: str
) -> None:
    step, table = _open_guided_hand(client, "the-dealer-hand", preset)
    hand = _hand(table)

    # The-dealer's deal: you deal, holding 4D 6C 7S; the 2H is turned up.
    assert hand.dealer == HUMAN
    assert [c.code for c in hand.dealt[HUMAN]] == ["4D", "6C", "7S"]
    assert hand.turn_up.code == "2H"
    assert table.seed == step.data["seeds"][preset]
    # The lesson's page and the table's hold no card of the stacked deal but the learner's own
    # and the turn-up, in any form.
    lesson_page = client.get(step.lesson.get_absolute_url(), {"rules": preset}).content.decode()
    _assert_hides(lesson_page, hidden_cards(hand), "lesson page")
    page = client.get(table.get_absolute_url()).content.decode()
    seen = {"four of diamonds", "six of clubs", "seven of spades", "two of hearts"}
    assert seen <= _labels(page) if hand.to_act == HUMAN else "two of hearts" in page
    _play_out(client, table, htmx=preset in ("britannica", "peel"))


@pytest.mark.parametrize("preset", ["hoffmann", "parlett"])
def test_the_trumped_trick_hand_shows_the_learner_a_trumped_trick_to_follow(
    client: Client, preset: str
) -> None:
    # Issue 38: "Following a trick that has been trumped" could end with no trick trumped.
    # West leads a diamond, north trumps it, east throws a spade: the learner must follow
    # with a diamond, and the page says what heading asks of him under the rule set chosen.
    _, table = _open_guided_hand(client, "trumped-trick-hand", preset)
    assert _hand(table).options().choices == ("play",)  # club law: he plays, as all do
    client.post(
        reverse("games:table-act", args=[table.pk]),
        {"version": table.version, "kind": "declare", "choice": "play"},
    )
    table.refresh_from_db()
    hand = _hand(table)
    assert hand.to_act == HUMAN and hand.trick is not None
    assert [c.code[1] for _, c in hand.trick.plays] == ["D", "C", "S"]
    text = " ".join(client.get(table.get_absolute_url()).content.decode().split())
    if preset == "hoffmann":
        assert "The trick has been trumped" in text and "may play any diamond" in text
    else:
        assert "must head the trick" in text
    _play_out(client, table, htmx=False)


@pytest.mark.parametrize("key", SET_HANDS)
def test_a_guided_hand_set_for_its_rule_is_dealt_so_and_done_when_finished(
    client: Client, key: str
) -> None:
    lesson = Lesson.objects.get(slug=SET_HANDS[key])
    preset = lesson.presets[-1]
    step, table = _open_guided_hand(client, key, preset)
    hand = _hand(table)
    engine = table.to_engine()
    data = step.data

    assert table.guide is not None and table.guide["rule"] == data["rule"]
    assert table.laws == bool(data.get("laws"))
    assert table.opponents == (Opponents.CARELESS if data.get("laws") else Opponents.SENSIBLE)
    assert hand.setup.pack == (tuple(data["packs"][preset]) if "packs" in data else None)
    for name, value in data.get("options", {}).items():
        assert engine.rules.value(name) == value
    if data.get("start") == "after-loo":
        assert hand.double and not hand.setup.first
    if data.get("start") == "after-no-loo":
        assert hand.setup.prev_no_loo and hand.must
    assert Progress.objects.get(step=step).done is None

    _play_out(client, table, htmx=False)
    client.get(lesson.get_absolute_url(), {"rules": preset})  # the lesson sees it is over

    assert Progress.objects.get(step=step).done is not None
    # A seed link deals a plain table from the seed: the same cards, unless the deal was
    # stacked, the table begun as after a hand, or a variation agreed. Then it offers none.
    plain = not ("packs" in data or step.guided(preset).start != "fresh" or data.get("options"))
    assert (table.seed_url in client.get(table.get_absolute_url()).content.decode()) == plain


def test_a_guided_hand_deals_the_same_cards_whatever_the_site_s_secret_key() -> None:
    """Its deal is stored with the content (content/guided.json): it cannot depend on a key
    each site has of its own, or the stored deal would be another site's."""
    from django.test import override_settings

    hands = []
    for secret in ("one site's key " * 4, "another site's key " * 4):
        with override_settings(SECRET_KEY=secret):
            _, table = _open_guided_hand(Client(), "looed-hand", "hoffmann")
            hands.append(_hand(table).to_dict())
            Progress.objects.all().delete()
    assert hands[0] == hands[1]


def test_a_guided_hand_offers_no_seed_link_that_would_deal_other_cards(client: Client) -> None:
    """A guided hand deals from its stored seed alone, so a seed link would deal other cards:
    none is offered. Like every finished hand (issue 26) it is shared by its replay, from which
    its own cards are dealt again."""
    _, table = _open_guided_hand(client, "looed-hand", "hoffmann")
    _play_out(client, table, htmx=False)
    body = client.get(table.get_absolute_url()).content.decode()
    assert "is over" in body
    assert table.seed_url not in body
    assert "Share this deal" in body and "/play/shared/" in body


# -- the first guided hands ask only what has been taught (issue 26, item 12) ------------------


def test_an_early_guided_hand_declares_for_the_learner_and_names_the_lesson_that_teaches_it(
    client: Client,
) -> None:
    """Declaring is taught in a later lesson: the table declares for him (he plays), says so
    with a link to that lesson, and does not offer that declaration to take back."""
    step, table = _open_guided_hand(client, "cards-and-tricks-hand", "hoffmann")
    hand = _hand(table)
    declaring = Lesson.objects.get(slug=step.data["declares"])

    assert hand.phase == "play" and hand.declared[HUMAN] == "play"
    assert [a.kind for a in hand.log if a.seat == HUMAN] == ["declare"]
    page = client.get(table.get_absolute_url()).content.decode()
    assert "The table declares for you in this hand" in page
    assert declaring.title in page and declaring.get_absolute_url() in page
    assert 'name="choice" value="pass"' not in page
    assert "Take back your last decision" not in page
    response = client.post(
        reverse("games:table-takeback", args=[table.pk]), {"version": table.version}
    )
    assert response.status_code == 302
    assert _hand(table).declared[HUMAN] == "play"


def _pending_page(client: Client, table: PracticeTable) -> tuple[Hand, str]:
    """Play the learner's first legal card until a trick is complete and waits for his
    answer; the hand and the table's page then."""
    for _ in range(10):
        hand = _hand(table)
        page = client.get(table.get_absolute_url()).content.decode()
        if "is complete. Who takes it?" in page:
            return hand, page
        card = hand.choices()[0]
        assert hand.to_act == HUMAN and hand.phase == "play"
        client.post(
            reverse("games:table-act", args=[table.pk]),
            {"version": table.version, "kind": "play", "card": str(card.code)},  # type: ignore[union-attr]
        )
    raise AssertionError("no trick waited for an answer")


@pytest.mark.parametrize("htmx", [False, True], ids=["no-js", "htmx"])
def test_the_first_guided_hand_holds_back_who_takes_a_trick_until_the_learner_says(
    client: Client, htmx: bool
) -> None:
    step, table = _open_guided_hand(client, "cards-and-tricks-hand", "hoffmann")
    assert step.data["asks"] == "trick-winner"
    hand, page = _pending_page(client, table)
    trick = hand.tricks[0]
    winner = trick.winner
    assert winner is not None

    # The trick lies whole on the felt, and nothing says who took it.
    assert "Trick 1 is complete: who takes it?" in page
    for _, c in trick.plays:
        assert f'data-card="{c.code}"' in page
    assert not re.search(r"takes? trick 1\b", page)
    assert "took it" not in page and "winning" not in page
    assert "is winning so far" not in page
    # Nothing moves on while it waits: a card is refused.
    version = table.version
    if hand.to_act == HUMAN:
        client.post(
            reverse("games:table-act", args=[table.pk]),
            {"version": version, "kind": "play", "card": hand.choices()[0].code},  # type: ignore[union-attr]
        )
        assert _hand(table).log == hand.log
    # A seat that played no card to it is no answer.
    say = reverse("games:table-say", args=[table.pk])
    table.refresh_from_db()
    outsider = next((s for s in range(hand.players) if s not in [p for p, _ in trick.plays]), None)
    if outsider is not None:
        client.post(say, {"version": table.version, "seat": outsider})
        table.refresh_from_db()
        assert table.guide is not None and "said" not in table.guide
    # A wrong answer is told wrong, with who took it and why; then the table moves on.
    wrong = next(s for s, _ in trick.plays if s != winner)
    response = client.post(
        say, {"version": table.version, "seat": wrong}, headers=HTMX if htmx else {}
    )
    body = (
        response.content.decode() if htmx else client.get(table.get_absolute_url()).content.decode()
    )
    assert "Not so:" in body and re.search(r"takes? trick 1\b", body)
    table.refresh_from_db()
    assert table.guide is not None and table.guide["said"] == [wrong]

    # A take-back that reopens the trick forgets his answer, and it is asked again; once the
    # others have played since his card, none is allowed (issue 26), and the answer stays.
    allowed = table.to_engine().takeback_refusal(HUMAN) is None
    client.post(reverse("games:table-takeback", args=[table.pk]), {"version": table.version})
    table.refresh_from_db()
    if allowed:
        assert not _hand(table).tricks and table.guide["said"] == []
        _, page = _pending_page(client, table)
        assert "Trick 1 is complete: who takes it?" in page
    else:
        assert _hand(table).tricks and table.guide["said"] == [wrong]
