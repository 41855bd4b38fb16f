"""The pages and forms of the people together at a table for people: presence, a latecomer's
seat, rematch, the host's forms, the fixed phrases; refusals, outsiders, limits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PeoplePhrase, PeopleSeat, PeopleTable
from games.people import outcomes, together
from games.people import service as people
from games.people.page import CLOSED

from .conftest import decision, make_user, play_to_end, started, to_act
from .test_together import _mid_hand, _over, _snapshot

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client, table: PeopleTable, **headers: str) -> str:
    response = client.get(table.get_absolute_url(), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def _url(name: str, table: PeopleTable) -> str:
    return reverse(f"games:people-{name}", args=[table.pk])


def test_the_people_bar_says_who_is_online_once_he_opened_his_page() -> None:
    table, users = started()
    host, ann = client_for(users[0]), client_for(users[1])
    page = _page(host, table)
    assert "At the table now" in page
    assert 'host (you): <span class="presence__online">online' in page
    assert 'ann: <span class="presence__away">away' in page
    _page(ann, table)
    page = _page(host, table)
    assert 'ann: <span class="presence__online">online' in page
    # The live fragment (htmx) carries it too.
    fragment = _page(host, table, **{"HX-Request": "true"})
    assert 'ann: <span class="presence__online">online' in fragment


def test_a_form_at_the_table_counts_as_showing_up() -> None:
    table, users = started()
    client_for(users[2]).post(_url("say", table), {"phrase": "one-moment"})
    assert PeopleSeat.objects.get(table=table, user=users[2]).seen is not None


# -- a latecomer -------------------------------------------------------------------------------


def test_a_latecomer_takes_a_seat_by_the_join_link_between_hands() -> None:
    table, users = _over()
    cat = client_for(make_user("cat"))
    page = cat.get(table.join_url).content.decode()
    assert "take a computer player" in page and "Take this seat" in page
    response = cat.post(table.join_url, {"seat": 3, "version": table.version})
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    seat = PeopleSeat.objects.get(table=table, number=3)
    assert seat.user.username == "cat"
    # Until the next deal he watches: the hand just over was the computer player's.
    page = _page(cat, table)
    assert together.TOOK_SEAT in page and "You are watching" in page
    assert _url("say", table) in page  # he may greet the others already
    replay = reverse("games:people-hand", args=[table.pk, 1])
    assert cat.get(replay).status_code == 404
    table.refresh_from_db()
    people.next_hand(table, users[0], table.version)
    assert "You are watching" not in _page(cat, table)


def test_no_seat_is_taken_by_the_join_link_while_a_hand_is_played() -> None:
    table, users = started()
    table = _mid_hand(users, table)
    cat = client_for(make_user("cat"))
    page = cat.get(table.join_url).content.decode()
    assert together.HAND_IN_PLAY in page and "Take this seat" not in page
    before = _snapshot(table)
    response = cat.post(table.join_url, {"seat": 3, "version": table.version})
    assert response.status_code == 400 and together.HAND_IN_PLAY in response.content.decode()
    assert _snapshot(table) == before


# -- rematch -----------------------------------------------------------------------------------


def test_rematch_takes_the_host_to_the_new_table_and_offers_the_others_their_seats() -> None:
    table, users = _over()
    host, ann = client_for(users[0]), client_for(users[1])
    assert "Same people, new game" in _page(host, table)
    assert "Same people, new game" not in _page(ann, table)
    response = host.post(_url("rematch", table), {"version": table.version})
    new = PeopleTable.objects.exclude(pk=table.pk).get()
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert together.REMATCHED in _page(host, new)
    page = _page(ann, table)
    assert f'href="{new.join_url}"' in page and "take your seat at the new table" in page
    assert page.index("take your seat at the new table") < page.index('id="hand-table"')
    # Nobody is seated without acting: she takes her seat herself.
    assert not new.seats.filter(user=users[1]).exists()
    assert "Take a seat" in ann.get(new.join_url).content.decode()
    assert ann.post(new.join_url).status_code == 302
    assert new.seats.filter(user=users[1]).exists()


def test_rematch_is_refused_to_another_than_the_host_and_to_an_outsider() -> None:
    table, users = _over()
    before = _snapshot(table)
    ann = client_for(users[1])
    response = ann.post(_url("rematch", table), {"version": table.version}, follow=True)
    assert outcomes.HOST_ONLY in response.content.decode()
    eve = client_for(make_user("eve"))
    assert eve.post(_url("rematch", table), {"version": table.version}).status_code == 404
    assert Client().post(_url("rematch", table))["Location"].startswith("/accounts/log-in/")
    assert _snapshot(table) == before


# -- the host's forms --------------------------------------------------------------------------


def test_the_host_removes_a_person_who_is_told_on_his_next_page() -> None:
    table, users = _over()
    host, bob = client_for(users[0]), client_for(users[2])
    page = _page(host, table)
    assert "Give bob's seat to a computer player" in page
    assert "Give host" not in page
    response = host.post(_url("remove", table), {"version": table.version, "seat": 2})
    assert response.status_code == 302
    assert PeopleSeat.objects.get(table=table, number=2).removed
    page = _page(bob, table)
    # Said once, above the felt (on a phone's first screen); never that he left.
    assert page.count(together.REMOVED_YOU) == 1
    assert page.index(together.REMOVED_YOU) < page.index('id="hand-table"')
    assert "You left" not in page and "you left" not in page
    assert "Leave the table" not in page


def test_the_hosts_forms_are_refused_to_the_others_and_change_nothing() -> None:
    table, users = _over()
    before = _snapshot(table)
    ann = client_for(users[1])
    assert "Close the table" not in _page(ann, table)
    for name, data in (("remove", {"seat": 2}), ("close", {})):
        response = ann.post(_url(name, table), {"version": table.version, **data}, follow=True)
        assert outcomes.HOST_ONLY in response.content.decode()
    host = client_for(users[0])
    response = host.post(
        _url("remove", table), {"version": table.version, "seat": "x"}, follow=True
    )
    assert "no such seat" in response.content.decode()
    response = host.post(_url("close", table), {"version": table.version - 1}, follow=True)
    assert "out of date" in response.content.decode()
    assert _snapshot(table) == before


def test_a_closed_table_says_so_on_every_page_and_its_replays_stay() -> None:
    table, users = _over()
    host, ann = client_for(users[0]), client_for(users[1])
    assert host.post(_url("close", table), {"version": table.version}).status_code == 302
    table.refresh_from_db()
    assert table.status == "closed"
    for client in (host, ann):
        page = _page(client, table)
        assert "This table is closed" in page and "sse-connect" not in page
        # The felt's heading says so, on a phone's first screen.
        assert f'tabindex="-1">{CLOSED}</h2>' in page
        assert "Close the table" not in page
    assert ann.get(reverse("games:people-hand", args=[table.pk, 1])).status_code == 200
    # Played again: the same people, a new table.
    assert "Same people, new game" in _page(host, table)


# -- phrases -----------------------------------------------------------------------------------


def test_a_phrase_reaches_the_others_pages_with_who_said_it() -> None:
    table, users = started()
    ann, bob = client_for(users[1]), client_for(users[2])
    page = _page(ann, table)
    for text in ("Well played", "Thank you", "One moment", "Good game"):
        assert f'value="{text.lower().replace(" ", "-")}">{text}</button>' in page
    response = ann.post(_url("say", table), {"phrase": "good-game"})
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert PeopleTable.objects.get(pk=table.pk).version == table.version + 1
    assert "<strong>ann</strong>: “Good game”" in _page(bob, table)
    assert "<strong>You</strong>: “Good game”" in _page(ann, table)


def test_free_text_is_refused_and_says_nothing() -> None:
    table, users = started()
    ann = client_for(users[1])
    response = ann.post(_url("say", table), {"phrase": "meet me after school"}, follow=True)
    assert together.NO_SUCH_PHRASE in response.content.decode()
    assert "meet me" not in response.content.decode()
    assert not PeoplePhrase.objects.exists()
    assert (
        client_for(make_user("eve")).post(_url("say", table), {"phrase": "thank-you"}).status_code
        == 404
    )
    assert not PeoplePhrase.objects.exists()


def test_a_spectator_host_sees_the_phrases_and_says_none() -> None:
    host = make_user("teacher")
    table = people.open_table(
        host, game="three-card", rules="hoffmann", players=4, opponents="beginner", host_sits=False
    )
    ann = make_user("ann")
    people.sit(table, ann)
    together.say_phrase(table, ann, "one-moment")
    page = client_for(host).get(_url("watch", table)).content.decode()
    assert "<strong>ann</strong>: “One moment”" in page
    assert _url("say", table) not in page


@override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "people-phrases-per-account": (2, 60)})
def test_phrases_are_rate_limited_before_any_work() -> None:
    table, users = started()
    ann = client_for(users[1])
    for _ in range(2):
        assert ann.post(_url("say", table), {"phrase": "thank-you"}).status_code == 302
    version = PeopleTable.objects.get(pk=table.pk).version
    response = ann.post(_url("say", table), {"phrase": "thank-you"})
    assert response.status_code == 429
    assert PeoplePhrase.objects.count() == 2
    assert PeopleTable.objects.get(pk=table.pk).version == version


def test_the_hand_in_play_is_unchanged_by_a_phrase() -> None:
    table, users = started()
    table = _mid_hand(users, table)
    seat = to_act(table)
    before = PeopleTable.objects.get(pk=table.pk).state
    client_for(users[1]).post(_url("say", table), {"phrase": "one-moment"})
    after = PeopleTable.objects.get(pk=table.pk)
    assert after.state == before and to_act(after) == seat
    play_to_end(after, users)


def _form_version(page: str) -> int:
    """The version every form of a page sends (one for all of them)."""
    versions = set(re.findall(r'name="version" value="(\d+)"', page))
    assert len(versions) == 1, versions
    return int(versions.pop())


def _a_persons_turn() -> tuple[PeopleTable, list[Client], int]:
    """A hand in play at a table of four people, a person to act: the table, each person's
    client (by seat), the seat to act."""
    table, users = started(("host", "ann", "bob", "cat"))
    table = _mid_hand(users, table)
    seat = to_act(table)
    assert seat is not None
    return table, [client_for(u) for u in users], seat


def test_a_phrase_or_presence_leaves_a_decision_form_open_without_javascript_good() -> None:
    table, clients, seat = _a_persons_turn()
    player, others = clients[seat], clients[:seat] + clients[seat + 1 :]
    page = _page(player, table)  # his form open, JavaScript off
    assert 'name="card"' in page or 'name="choice"' in page
    # Another says a phrase, and another opens his page (his presence written) meanwhile.
    assert others[0].post(_url("say", table), {"phrase": "well-played"}).status_code == 302
    PeopleSeat.objects.filter(table=table).update(seen=None)
    _page(others[1], table)
    redrawn = PeopleTable.objects.get(pk=table.pk)
    assert redrawn.version > table.version  # the pages are drawn again...
    assert redrawn.state == table.state  # ...and nothing of the hand changed
    data = {**decision(table, seat), "version": _form_version(page)}
    response = player.post(_url("act", table), data, follow=True)
    assert "out of date" not in response.content.decode()
    after = PeopleTable.objects.get(pk=table.pk)
    assert after.state != table.state  # his decision was played
    assert after.state_version > redrawn.state_version


def test_a_form_from_before_a_card_was_played_is_still_refused() -> None:
    table, clients, seat = _a_persons_turn()
    player, other = clients[seat], clients[(seat + 1) % len(clients)]
    first_tab, second_tab = _page(player, table), _page(player, table)
    assert _form_version(first_tab) == _form_version(second_tab)
    # A phrase, then his card played from the first tab: the second tab's form is stale.
    assert other.post(_url("say", table), {"phrase": "thank-you"}).status_code == 302
    data = {**decision(table, seat), "version": _form_version(first_tab)}
    assert player.post(_url("act", table), data).status_code == 302
    played = _snapshot(table)
    stale = {**decision(table, seat), "version": _form_version(second_tab)}
    response = player.post(_url("act", table), stale, follow=True)
    assert "out of date" in response.content.decode()
    assert _snapshot(table) == played
