"""Take-backs (issue 26): no decision is taken back once something hidden has been shown to the
player because of it, and an honest table offers none at all.

The rule is the engine's (``Table.takeback_refusal``): these tests play stacked deals at the
engine for each kind of reveal (the miss taken, cards drawn at five-card Loo, a look at the miss
in laws mode, the others' answers, the end of the hand), then through the views, with htmx and
without JavaScript.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.cards import card
from games.loo.errors import LooError
from games.loo.hand import Action, IllegalAction, stack_pack
from games.loo.messages import render
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.models import PracticeTable
from games.naming import HUMAN

HTMX = {"HX-Request": "true"}
TAKE_BACK = "Take back your last decision"

#: Three-card Loo for three, the human (seat 0) first to declare: the dealer is seat 2.
THREE = [["AS", "KS", "QS"], ["2H", "3H", "4H"], ["2C", "3C", "4C"]]
MISS = ["5D", "6D", "7D"]
#: Five-card Loo for three.
FIVE = [
    ["AS", "KS", "QS", "JS", "2D"],
    ["2H", "3H", "4H", "5H", "2C"],
    ["3C", "4C", "5C", "6C", "6H"],
]


def _table(
    game: str = "three-card",
    *,
    laws: bool = False,
    rules: str = "hoffmann",
    dealer: int = 2,
    hands: list[list[str]] | None = None,
) -> Table:
    ruleset = RuleSet.preset(rules)
    hands = hands or (THREE if game == "three-card" else FIVE)
    miss = MISS if game == "three-card" else None
    # At five-card Loo the top of the stock makes no flush for whoever draws it.
    stock = () if game == "three-card" else ("7H", "8H", "9H")
    pack = stack_pack(game, ruleset, 3, dealer, hands, "9S", miss, stock)
    config = TableConfig(
        game, ruleset, 3, "take-back", laws=laws, first_pack=pack, first_dealer=dealer
    )
    table = Table(config)
    table.deal()
    return table


def _refusal(table: Table) -> str:
    message = table.takeback_refusal(HUMAN)
    return "" if message is None else render(message, HUMAN)


# -- the rule, at the engine ------------------------------------------------------------------


@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_a_declaration_that_showed_nothing_is_taken_back(laws: bool) -> None:
    table = _table(laws=laws)
    assert _refusal(table) == "You have made no decision in this deal to take back."
    assert table.hand is not None
    before = table.hand.to_dict()["state"]
    table.apply(Action.declare(HUMAN, "play"))

    assert _refusal(table) == ""
    hand = table.take_back_decision(HUMAN)
    assert hand.log == [] and hand.to_act == HUMAN
    assert hand.to_dict()["state"] == before


@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_taking_the_miss_is_not_taken_back(laws: bool) -> None:
    table = _table(laws=laws)
    table.apply(Action.declare(HUMAN, "take-miss"))
    state = table.to_dict()

    assert _refusal(table) == "You have seen the miss."
    with pytest.raises(IllegalAction) as refused:
        table.take_back_decision(HUMAN)
    assert render(refused.value.message, HUMAN) == "You have seen the miss."
    assert table.to_dict() == state


def test_the_miss_seen_is_the_reason_whatever_came_after() -> None:
    table = _table()
    table.apply(Action.declare(HUMAN, "take-miss"))
    table.apply(Action.declare(1, "pass"))

    assert _refusal(table) == "You have seen the miss."


@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_nothing_is_taken_back_once_another_player_answered(laws: bool) -> None:
    table = _table(laws=laws)
    table.apply(Action.declare(HUMAN, "play"))
    table.apply(Action.declare(1, "pass"))
    state = table.to_dict()

    assert _refusal(table) == (
        "The others have played since your last decision: you have seen their answers."
    )
    with pytest.raises(IllegalAction):
        table.take_back_decision(HUMAN)
    assert table.to_dict() == state


def test_nothing_is_taken_back_once_the_hand_is_over() -> None:
    """The human deals and plays last to every trick, his last card ending the hand: nobody
    acted after it, but the end showed the settlement."""
    low = [["2D", "3D", "4D"], ["AS", "KS", "QS"], ["2C", "3C", "4C"]]
    table = _table(dealer=0, hands=low)
    for seat in (1, 2, HUMAN):
        table.apply(Action.declare(seat, "play"))
    for trump, club, diamond in (("AS", "2C", "2D"), ("KS", "3C", "3D"), ("QS", "4C", "4D")):
        table.apply(Action.play(1, card(trump)))
        table.apply(Action.play(2, card(club)))
        table.apply(Action.play(HUMAN, card(diamond)))
    hand = table.hand
    assert hand is not None and hand.over and hand.log[-1].seat == HUMAN
    state = table.to_dict()

    assert _refusal(table).startswith("The hand is over: you have seen how it was settled")
    with pytest.raises(IllegalAction):
        table.take_back_decision(HUMAN)
    assert table.to_dict() == state


@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_drawing_at_five_card_loo_is_not_taken_back(laws: bool) -> None:
    table = _table("five-card", laws=laws)
    table.apply(Action.declare(HUMAN, "play", ["2D"]))

    assert _refusal(table) == "You have seen the cards you drew."
    with pytest.raises(IllegalAction):
        table.take_back_decision(HUMAN)


@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_standing_at_five_card_loo_is_taken_back(laws: bool) -> None:
    table = _table("five-card", laws=laws)
    table.apply(Action.declare(HUMAN, "play"))

    assert _refusal(table) == ""
    assert table.take_back_decision(HUMAN).log == []


def test_a_look_at_the_miss_in_laws_mode_is_not_taken_back() -> None:
    # The human is the dealer's left hand, not yet to declare: seat 1 deals, seat 2 declares
    # first, and the human looks at the miss out of turn.
    table = _table(laws=True, dealer=1)
    hand = table.hand
    assert hand is not None and hand.to_act == 2
    assert "look-miss" in hand.irregularities(HUMAN)
    table.apply(Action("irregular", HUMAN, "look-miss"))

    assert _refusal(table) == "You have seen hidden cards because of your last decision."
    with pytest.raises(IllegalAction):
        table.take_back_decision(HUMAN)


def test_a_card_that_wins_the_trick_is_taken_back_before_the_next_lead() -> None:
    """The human plays the last card of a trick and wins it: nobody has acted since, and the
    trick showed nothing hidden."""
    table = _table(dealer=0)  # seat 1 declares and leads first, the human (dealer) last
    for seat, choice in ((1, "play"), (2, "play"), (HUMAN, "play")):
        table.apply(Action.declare(seat, choice))
    table.apply(Action.play(1, card("2H")))
    table.apply(Action.play(2, card("2C")))
    table.apply(Action.play(HUMAN, card("AS")))
    hand = table.hand
    assert hand is not None and hand.to_act == HUMAN

    assert _refusal(table) == ""
    assert table.take_back_decision(HUMAN).to_act == HUMAN


def test_the_raw_takeback_of_tests_and_tools_is_unchanged() -> None:
    table = _table()
    table.apply(Action.declare(HUMAN, "take-miss"))
    assert table.takeback(1).log == []
    with pytest.raises(LooError):
        table.takeback(5)


# -- at the practice table --------------------------------------------------------------------


def _stacked(player: Any, *, dealer: int = 2, **kw: Any) -> PracticeTable:
    return player.stacked_table(
        game="three-card",
        rules="hoffmann",
        players=3,
        dealer=dealer,
        hands=THREE,
        turn_up="9S",
        miss=MISS,
        **kw,
    )


def _take_back(client: Client, practice: PracticeTable, htmx: bool) -> Any:
    """POST a take-back as the page does (with htmx, or a form and the redirect after it)."""
    return client.post(
        reverse("games:table-takeback", args=[practice.pk]),
        {"version": practice.version},
        headers=HTMX if htmx else {},
        follow=not htmx,
    )


def _text(response: Any) -> str:
    return " ".join(response.content.decode().split())


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
@pytest.mark.parametrize("laws", [False, True], ids=["learning", "laws"])
def test_the_miss_taken_is_refused_with_its_reason_and_nothing_is_stored(
    client: Client, player: Any, htmx: bool, laws: bool
) -> None:
    practice = _stacked(player, laws=laws)
    response = client.post(
        reverse("games:table-act", args=[practice.pk]),
        {"version": practice.version, "kind": "declare", "choice": "take-miss"},
    )
    assert response.status_code == 302
    practice.refresh_from_db()
    page = _text(client.get(practice.get_absolute_url()))
    assert TAKE_BACK not in page
    # At this stacked deal the hand is over when the page is drawn again: once it is over
    # the page says nothing of a take-back (the refused POST says why).
    assert practice.to_engine().hand.over  # type: ignore[union-attr]
    assert "cannot be taken back" not in page
    state, version = practice.state, practice.version

    response = _take_back(client, practice, htmx)

    # Whichever came first after the miss was seen (the others' answers, the end of the hand):
    # the engine's reason, said to the refused POST.
    reason = _refusal(practice.to_engine())
    assert reason
    assert f"Your last decision cannot be taken back. {reason}" in _text(response)
    practice.refresh_from_db()
    assert (practice.state, practice.version) == (state, version)


@pytest.mark.django_db
def test_a_decision_that_showed_nothing_offers_a_take_back_and_says_until_when(
    client: Client, player: Any
) -> None:
    # The human deals: the others declare before him (they stay in, or the deal ends
    # otherwise), and he declares last; each trick's lead is theirs until he takes one.
    practice = _stacked(player, dealer=0)
    table = practice.to_engine()
    hand = table.hand
    assert hand is not None
    # Make the others' declarations and their first cards the test's, as the bots' may vary.
    table.takeback(len(hand.log))
    for seat in (1, 2):
        table.apply(Action.declare(seat, "play"))
    practice.state = table.to_dict()
    practice.notes = []
    practice.save()

    client.post(
        reverse("games:table-act", args=[practice.pk]),
        {"version": practice.version, "kind": "declare", "choice": "play"},
    )
    practice.refresh_from_db()
    hand = practice.to_engine().hand
    assert hand is not None
    if hand.log[-1].seat != HUMAN:
        # The others led and followed; the human's ace of trumps takes the trick.
        client.post(
            reverse("games:table-act", args=[practice.pk]),
            {"version": practice.version, "kind": "play", "card": "AS"},
        )
        practice.refresh_from_db()
    hand = practice.to_engine().hand
    assert hand is not None and hand.log[-1].seat == HUMAN and hand.to_act == HUMAN
    page = _text(client.get(practice.get_absolute_url()))
    assert TAKE_BACK in page
    assert "Offered only until something hidden" in page

    client.post(reverse("games:table-takeback", args=[practice.pk]), {"version": practice.version})
    practice.refresh_from_db()
    after = practice.to_engine().hand
    assert after is not None and len(after.log) == len(hand.log) - 1


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_an_honest_table_offers_no_take_back_and_refuses_one(
    client: Client, player: Any, htmx: bool
) -> None:
    practice = player.new_table(players=3, seed=4, takebacks="honest")
    assert practice.honest
    page = _text(client.get(practice.get_absolute_url()))
    assert "This is an honest table" in page
    player.act(practice.pk, player.decide(practice.pk))
    practice.refresh_from_db()
    page = _text(client.get(practice.get_absolute_url()))
    assert TAKE_BACK not in page and "This is an honest table" in page
    state, version = practice.state, practice.version

    response = _take_back(client, practice, htmx)

    assert "This is an honest table: no decision is taken back" in _text(response)
    practice.refresh_from_db()
    assert (practice.state, practice.version) == (state, version)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mode", "takebacks", "honest"),
    [
        ("learning", "", False),
        ("laws", "", True),
        ("learning", "honest", True),
        ("laws", "offered", False),
    ],
)
def test_an_honest_table_is_the_default_in_laws_mode_and_may_be_chosen_either_way(
    player: Any, mode: str, takebacks: str, honest: bool
) -> None:
    practice = player.new_table(players=3, mode=mode, takebacks=takebacks)
    assert practice.honest is honest


@pytest.mark.django_db
def test_a_table_dealt_without_the_takeback_field_follows_the_mode(player: Any) -> None:
    assert player.new_table(players=3, mode="laws").honest
    assert not player.new_table(players=3, mode="learning").honest


@pytest.mark.django_db
def test_the_chooser_offers_the_honest_table(client: Client) -> None:
    page = _text(client.get(reverse("games:choose")))
    assert "An honest table: no decision is ever taken back" in page
    assert 'name="takebacks" value="" checked' in page


@pytest.mark.django_db
@pytest.mark.parametrize("takebacks", ["offered", "honest"])
def test_nothing_is_said_of_a_take_back_once_the_hand_is_over_or_the_table_left(
    client: Client, player: Any, takebacks: str
) -> None:
    # Issue 38: "Your last decision cannot be taken back. The others have played since" (or
    # the honest table's sentence) stayed under the settlement and the final standing.
    practice = player.new_table(players=3, seed=4, takebacks=takebacks)
    page = _text(client.get(practice.get_absolute_url()))
    assert ("This is an honest table" in page) is (takebacks == "honest")
    player.play_out(practice.pk)
    practice.refresh_from_db()
    over = _text(client.get(practice.get_absolute_url()))
    client.post(reverse("games:table-leave", args=[practice.pk]), {"version": practice.version})
    practice.refresh_from_db()
    assert practice.left
    left = _text(client.get(practice.get_absolute_url()))

    for page in (over, left):
        assert 'id="take-back-help"' not in page
        assert TAKE_BACK not in page
        assert "cannot be taken back" not in page and "This is an honest table" not in page
