"""The practice pages: each as a whole page and as an htmx fragment, the POST/redirect/GET
path without JavaScript, and who may see which table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from pytest_django import DjangoAssertNumQueries

from games.links import content_version, forget_links
from games.loo.rulesets import PRESETS
from games.models import PracticeHand, PracticeTable, deal_seed
from games.naming import HUMAN

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _text(response: Any) -> str:
    return str(response.content.decode())


def _is_fragment(text: str, element_id: str) -> bool:
    return text.lstrip().startswith(f'<section id="{element_id}"') and "<html" not in text


# -- choosing a table --------------------------------------------------------------------------


def test_the_chooser_describes_every_rule_set_with_a_link_to_its_source(client: Client) -> None:
    text = _text(client.get(reverse("games:choose")))

    for preset in PRESETS.values():
        assert preset.title in text
        assert escape(preset.summary) in text
        assert f'href="/sources/{preset.id}/"' in text
    for game in ("Three-card Loo", "Five-card Loo", "Irish Loo"):
        assert game in text
    assert "Deal me a hand" in text
    assert 'name="players"' in text and 'min="3"' in text and 'max="9"' in text


def test_the_chooser_costs_no_query_before_there_is_a_session(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        assert client.get(reverse("games:choose")).status_code == 200


def test_the_chooser_lists_this_sessions_tables(
    client: Client, practice: PracticeTable, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(2):  # the session, the tables
        text = _text(client.get(reverse("games:choose")))

    assert practice.get_absolute_url() in text


def test_deal_me_a_hand_deals_a_table_for_this_session(client: Client) -> None:
    response = client.post(
        reverse("games:table-create"),
        {
            "game": "three-card",
            "rules": "hoffmann",
            "players": 5,
            "opponents": "sensible",
            "mode": "learning",
        },
    )

    table = PracticeTable.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/play/{table.pk}/"
    assert table.owner is None
    assert table.session_key == client.session.session_key
    assert (table.game, table.rules, table.players, table.opponents, table.laws) == (
        "three-card",
        "hoffmann",
        5,
        "sensible",
        False,
    )
    hand = table.to_engine().hand
    assert hand is not None
    assert hand.to_act == HUMAN or hand.over


def test_a_logged_in_player_owns_the_table(client: Client, player: Any) -> None:
    user = User.objects.create_user("student", password="pw")
    client.force_login(user)

    table = player.new_table()

    assert table.owner == user
    assert table.session_key == ""


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "irish", "rules": "hoffmann"}, "Hoffmann (1909) describes no Irish Loo"),
        ({"game": "five-card", "rules": "peel", "players": 8}, "is for 3 to 6 players here"),
        ({"game": "five-card", "rules": "parlett", "players": 3}, "is for 5 to 9 players here"),
        ({"players": 12}, "less than or equal to 9"),
        ({"game": "bridge"}, "Select a valid choice"),
        ({"players": "many"}, "Enter a whole number"),
    ],
)
def test_a_table_that_cannot_be_dealt_is_refused_with_the_reason(
    client: Client, fields: dict[str, Any], message: str
) -> None:
    data = {"game": "three-card", "rules": "hoffmann", "players": 4}
    data |= {"opponents": "beginner", "mode": "learning"} | fields

    response = client.post(reverse("games:table-create"), data)

    assert response.status_code == 200
    assert message in _text(response)
    assert not PracticeTable.objects.exists()


# -- the shareable deal ---------------------------------------------------------------------------


def test_the_seed_link_offers_to_deal_the_same_cards(client: Client, player: Any) -> None:
    url = reverse("games:table-seed", args=["five-card", "peel", 4, 1234])

    text = _text(client.get(url))

    assert "Deal these cards" in text
    assert '<input type="hidden" name="seed" value="1234">' in text
    assert "five-card Loo for 4 players under the rules of Peel (1891)" in text


def test_the_seed_link_shows_the_tables_already_dealt_from_it(client: Client, player: Any) -> None:
    table = player.new_table(game="five-card", rules="peel", players=4, seed=1234)

    text = _text(client.get(table.seed_url))

    assert table.get_absolute_url() in text


@pytest.mark.parametrize(
    "args", [["five-card", "nobody", 4, 1], ["poker", "peel", 4, 1], ["five-card", "peel", 9, 1]]
)
def test_a_seed_link_to_an_impossible_deal_is_not_found(client: Client, args: list[Any]) -> None:
    response = client.get(reverse("games:table-seed", args=args))

    assert response.status_code == 404
    assert "There is no such deal" in _text(response)


def test_the_same_seed_deals_the_same_cards_to_anyone(player: Any) -> None:
    other = type(player)(Client())

    mine = player.new_table(game="five-card", rules="hoffmann", players=5, seed=77)
    theirs = other.new_table(game="five-card", rules="hoffmann", players=5, seed=77)

    assert mine.state["hand"]["state"]["dealt"] == theirs.state["hand"]["state"]["dealt"]
    assert mine.state["hand"]["state"]["turn_up"] == theirs.state["hand"]["state"]["turn_up"]


def test_the_public_seed_is_not_the_engines_seed(player: Any) -> None:
    table = player.new_table(seed=77)

    assert table.state["config"]["seed"] == deal_seed(77) != "77"
    assert "77" not in str(table.state["config"]["seed"])


# -- the table ------------------------------------------------------------------------------------


def test_the_table_page_shows_the_whole_layout(client: Client, practice: PracticeTable) -> None:
    response = client.get(practice.get_absolute_url())

    text = _text(response)
    assert response.status_code == 200
    assert "<html" in text and '<main id="main"' in text
    assert '<section id="hand-table"' in text
    assert "Three-card Loo under Hoffmann (1909)" in text
    assert "Learning mode." in text
    assert "HX-Request" in response["Vary"]


def test_the_table_fragment_is_only_the_hand_table(client: Client, practice: PracticeTable) -> None:
    response = client.get(practice.get_absolute_url(), headers=HTMX)

    assert response.status_code == 200
    assert _is_fragment(_text(response), "hand-table")


def test_showing_the_table_costs_three_queries_once_the_worker_has_the_rule_links(
    client: Client, practice: PracticeTable, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    content_version()  # a running site has one in its shared cache (here: the database's)
    forget_links()
    # The session, the table, the content version (a get from the shared cache: a query with
    # the database cache, none with Redis), the rules' source passages.
    with django_assert_num_queries(4):
        client.get(practice.get_absolute_url())
    with django_assert_num_queries(3):  # the passages are kept by the worker for that version
        client.get(practice.get_absolute_url())


def test_the_human_declares_and_the_computer_players_reply(
    client: Client, practice: PracticeTable, player: Any
) -> None:
    version = practice.version
    data = player.post_data(player.human_decision(player.current_hand(practice.pk), 0), version)

    response = player.act(practice.pk, data, htmx=True)

    practice.refresh_from_db()
    hand = practice.to_engine().hand
    assert response.status_code == 200
    assert _is_fragment(_text(response), "hand-table")
    assert practice.version == version + 1
    assert hand.over or hand.to_act == HUMAN
    assert any(a.seat == HUMAN for a in hand.log)


def test_without_javascript_an_action_redirects_to_the_table(
    client: Client, practice: PracticeTable, player: Any
) -> None:
    response = player.act(practice.pk, player.decide(practice.pk))

    assert response.status_code == 302
    assert response["Location"] == practice.get_absolute_url()
    practice.refresh_from_db()
    assert practice.version == 2


def test_the_computer_players_say_why_they_did_what_they_did(client: Client, player: Any) -> None:
    table = player.new_table(players=6, seed=5)
    player.play_out(table.pk)

    text = _text(client.get(table.get_absolute_url()))

    assert "Why: a random" in text
    assert "seat 2" not in text and "seat 1" not in text


def test_the_last_trick_stays_on_the_table_when_the_hand_is_over(
    client: Client, player: Any
) -> None:
    table = player.new_table(rules="hoffmann", players=4, seed=8)
    hand = player.play_out(table.pk)
    while not hand.tricks:  # a hand everyone passed: the next one
        table.refresh_from_db()
        client.post(reverse("games:table-next", args=[table.pk]), {"version": table.version})
        hand = player.play_out(table.pk)
    last = hand.tricks[-1]
    winner = "You" if last.winner == HUMAN else None

    page = client.get(table.get_absolute_url()).content.decode()

    trick = page[
        page.index('id="table-trick"') : page.index("</section>", page.index('id="table-trick"'))
    ]
    assert f"Trick {len(hand.tricks)}" in trick and "took it" in trick
    assert [c.code for _, c in last.plays] == re.findall(r'data-card="(\w\w)"', trick)
    assert winner is None or "You took it" in trick
    assert "No card is led" not in trick
    # Issue 38: without its "Why:", which stayed under the settlement and, once the player had
    # left, under the final standing; the log and the settlement say who took it and why.
    table.refresh_from_db()
    client.post(reverse("games:table-leave", args=[table.pk]), {"version": table.version})
    left = client.get(table.get_absolute_url()).content.decode()
    assert "You left the table" in left
    for html in (page, left):
        start = html.index('id="table-trick"')
        trick = html[start : html.index("</section>", start)]
        assert "took it" in trick
        assert "trick-lead" not in trick and "Why: " not in trick


def test_an_action_costs_a_bounded_number_of_queries(
    client: Client, player: Any, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    """However many computer players act after it: the session, the table, the update, the
    content version (a query with the database cache) and the source passages; ending a hand
    adds its history row, in a transaction (two savepoints in a test), and the session's
    finished hands read back for its running score."""
    content_version()  # a running site has one in its shared cache (here: the database's)
    table = player.new_table(game="five-card", players=8, seed=2)
    for _ in range(12):
        if player.current_hand(table.pk).over:
            break
        data = player.decide(table.pk)
        with django_assert_max_num_queries(9):
            player.act(table.pk, data, htmx=True)
    assert player.current_hand(table.pk).over


def test_a_mid_hand_action_costs_exactly_five_queries_then_four(
    client: Client, player: Any, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    table = player.new_table(game="five-card", players=5, seed=3)
    assert not player.current_hand(table.pk).over
    data = player.decide(table.pk)
    data["choice"] = "play"
    data.pop("discards", None)
    content_version()  # a running site has one in its shared cache (here: the database's)
    forget_links()

    # The session, the table, its update, the content version (a get from the shared cache: a
    # query with the database cache, none with Redis) and the rules' passages (kept by the
    # worker after, while the version stays).
    with django_assert_num_queries(5):
        player.act(table.pk, data, htmx=True)
    assert not player.current_hand(table.pk).over
    data = player.decide(table.pk)
    with django_assert_num_queries(4):
        player.act(table.pk, data, htmx=True)


# -- the end of a hand, the next deal and the history ---------------------------------------------


def test_the_settlement_is_written_out(client: Client, player: Any) -> None:
    table = player.new_table(players=4, seed=11)
    hand = player.play_out(table.pk)

    text = _text(client.get(table.get_absolute_url()))

    assert "Settlement" in text
    assert "Who pays what" in text
    assert "to the next pool" in text
    if hand.outcome == "played":
        assert "Who took which trick" in text
    assert "Deal the next hand" in text
    assert reverse("games:hand-replay", args=[table.pk, 1]) in text


def test_a_finished_hand_is_kept_with_how_it_went(player: Any) -> None:
    table = player.new_table(players=4, seed=11)
    hand = player.play_out(table.pk)

    record = PracticeHand.objects.get(table=table)
    assert record.number == 1
    assert record.outcome == hand.outcome
    assert record.net == hand.balances[HUMAN] - hand.setup.balances[HUMAN]
    assert record.looed == (HUMAN in hand.looed)
    assert record.replay().to_dict()["state"] == hand.to_dict()["state"]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_next_deal_is_dealt_at_the_same_table(client: Client, player: Any, htmx: bool) -> None:
    table = player.new_table(players=4, seed=11)
    first = player.play_out(table.pk)
    table.refresh_from_db()

    response = client.post(
        reverse("games:table-next", args=[table.pk]),
        {"version": table.version},
        headers=HTMX if htmx else {},
    )

    assert response.status_code == (200 if htmx else 302)
    if htmx:
        assert _is_fragment(_text(response), "hand-table")
    hand = player.current_hand(table.pk)
    assert hand.setup.hand_number == 2
    assert hand.setup.dealer == (first.setup.dealer + 1) % 4
    assert hand.setup.pool == first.pool


def test_the_stored_state_keeps_only_the_hand_in_progress(client: Client, player: Any) -> None:
    """Finished hands are rows of their own: the table's state does not grow deal by deal."""
    table = player.new_table(players=4, seed=11)
    sizes = []
    for _ in range(3):
        player.play_out(table.pk)
        table.refresh_from_db()
        client.post(reverse("games:table-next", args=[table.pk]), {"version": table.version})
        table.refresh_from_db()
        sizes.append(len(str(table.state)))
        assert table.state["history"] == []
    assert PracticeHand.objects.filter(table=table).count() == 3
    assert max(sizes) < 2 * min(sizes)
    assert player.current_hand(table.pk).setup.hand_number == 4


def test_the_next_deal_waits_for_the_end_of_the_hand(
    client: Client, practice: PracticeTable
) -> None:
    response = client.post(
        reverse("games:table-next", args=[practice.pk]),
        {"version": practice.version},
        headers=HTMX,
    )

    assert "The hand in progress is not over" in _text(response)
    practice.refresh_from_db()
    assert practice.version == 1


def test_the_history_lists_a_logged_in_players_hands(
    client: Client, player: Any, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client.force_login(User.objects.create_user("student"))
    table = player.new_table(players=4, seed=11)
    player.play_out(table.pk)

    with django_assert_num_queries(4):  # session, user, count, page of hands
        text = _text(client.get(reverse("games:hand-list")))

    assert f"Table {table.pk}, deal 1" in text
    assert reverse("games:hand-replay", args=[table.pk, 1]) in text


def test_the_history_explains_itself_to_someone_not_logged_in(client: Client) -> None:
    text = _text(client.get(reverse("games:hand-list")))

    assert "Hands are kept in a history for players who are logged in" in text


# -- takeback ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_takeback_after_the_others_answered_is_refused_and_changes_nothing(
    client: Client, player: Any, htmx: bool
) -> None:
    # Five players: the others declare after the human, and he has seen their answers
    # (tests/games/test_take_back.py: a decision nobody has answered is taken back).
    table = player.new_table(players=5, seed=21)
    player.act(table.pk, player.decide(table.pk))
    table.refresh_from_db()
    state, version = table.state, table.version

    response = client.post(
        reverse("games:table-takeback", args=[table.pk]),
        {"version": table.version},
        headers=HTMX if htmx else {},
    )

    assert response.status_code == (200 if htmx else 302)
    table.refresh_from_db()
    assert (table.state, table.version) == (state, version)


def test_a_finished_hand_is_not_reopened(client: Client, player: Any) -> None:
    table = player.new_table(players=4, seed=11)
    player.play_out(table.pk)
    table.refresh_from_db()

    response = client.post(
        reverse("games:table-takeback", args=[table.pk]), {"version": table.version}, follow=True
    )

    assert "Your last decision cannot be taken back." in _text(response)
    assert player.current_hand(table.pk).over
    assert PracticeHand.objects.filter(table=table).exists()


def test_there_is_nothing_to_take_back_before_the_first_decision(
    client: Client, practice: PracticeTable
) -> None:
    response = client.post(
        reverse("games:table-takeback", args=[practice.pk]),
        {"version": practice.version},
        follow=True,
    )

    assert "You have made no decision in this deal to take back." in _text(response)
    practice.refresh_from_db()
    assert practice.version == 1


# -- replay ---------------------------------------------------------------------------------------


@pytest.fixture
def finished(player: Any) -> PracticeTable:
    table = player.new_table(players=4, seed=11)
    player.play_out(table.pk)
    table.refresh_from_db()
    return table


def test_the_replay_starts_at_the_deal(client: Client, finished: PracticeTable) -> None:
    response = client.get(reverse("games:hand-replay", args=[finished.pk, 1]))

    text = _text(response)
    assert response.status_code == 200
    assert "<html" in text
    assert "Step 0 of" in text and "the cards are dealt" in text
    assert "Next step" in text


def test_each_step_of_the_replay_is_a_fragment_with_its_trace(
    client: Client, finished: PracticeTable, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    record = PracticeHand.objects.get(table=finished)
    url = reverse("games:hand-replay", args=[finished.pk, 1])
    client.get(url, headers=HTMX)  # the worker loads the rule links once
    for step in range(record.steps + 1):
        # The session, the hand with its table, the content version (a get from the shared
        # cache: a query with the database cache, none with Redis).
        with django_assert_num_queries(3):
            response = client.get(url, {"step": step}, headers=HTMX)
        text = _text(response)
        assert _is_fragment(text, "replay-step")
        assert f"Step {step} of {record.steps}" in text
        if step:
            assert "New at this step" in text
    assert "Settlement" in text


def test_a_replay_step_that_is_not_a_number_is_a_bad_request(
    client: Client, finished: PracticeTable
) -> None:
    response = client.get(reverse("games:hand-replay", args=[finished.pk, 1]), {"step": "x"})

    assert response.status_code == 400
    assert "The step must be a whole number" in _text(response)


def test_an_unfinished_hand_has_no_replay(client: Client, practice: PracticeTable) -> None:
    assert client.get(reverse("games:hand-replay", args=[practice.pk, 1])).status_code == 404


# -- outsiders -----------------------------------------------------------------------------------


def _outsider_urls(table: PracticeTable) -> list[tuple[str, str]]:
    return [
        ("get", reverse("games:table", args=[table.pk])),
        ("get", reverse("games:hand-replay", args=[table.pk, 1])),
        ("post", reverse("games:table-act", args=[table.pk])),
        ("post", reverse("games:table-next", args=[table.pk])),
        ("post", reverse("games:table-takeback", args=[table.pk])),
    ]


@pytest.mark.parametrize("outsider_kind", ["another-session", "another-user"])
def test_another_persons_table_is_not_found_and_left_alone(
    finished: PracticeTable, outsider_kind: str
) -> None:
    outsider = Client()
    if outsider_kind == "another-user":
        outsider.force_login(User.objects.create_user("outsider"))
    state, version = finished.state, finished.version

    for method, url in _outsider_urls(finished):
        data = {"version": version, "kind": "play", "card": "AS"} if method == "post" else {}
        response = getattr(outsider, method)(url, data)
        assert response.status_code == 404, url
        assert not re.search(r"\bAS\b", _text(response))

    finished.refresh_from_db()
    assert (finished.state, finished.version) == (state, version)


def test_a_users_table_is_not_the_anonymous_sessions(client: Client, player: Any) -> None:
    client.force_login(User.objects.create_user("student"))
    table = player.new_table()
    client.logout()

    assert client.get(table.get_absolute_url()).status_code == 404
