"""The pages of tables for people: who may see and do what, and what each is shown."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PeopleSeat, PeopleTable
from games.people import service as people

from .conftest import decision, make_user, open_table, play_to_end, started, to_act

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def test_opening_a_table_seats_the_host_and_shows_the_invitation() -> None:
    host = make_user("host")
    client = client_for(host)
    assert client.get(reverse("games:people-new")).status_code == 200
    response = client.post(
        reverse("games:people-new"),
        {
            "game": "three-card",
            "rules": "hoffmann",
            "players": 4,
            "opponents": "beginner",
            "mode": "learning",
            "seconds_per_move": 60,
        },
    )
    table = PeopleTable.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.seconds_per_move == 60 and table.seats.get(number=0).user == host
    page = client.get(table.get_absolute_url()).content.decode()
    assert table.code in page and table.join_url in page and "Start" in page


def test_a_host_who_only_watches_takes_no_seat_and_watches() -> None:
    client = client_for(make_user("teacher"))
    response = client.post(
        reverse("games:people-new"),
        {
            "game": "three-card",
            "rules": "hoffmann",
            "players": 4,
            "opponents": "beginner",
            "mode": "learning",
            "seconds_per_move": 120,
            "watch": "1",
        },
    )
    table = PeopleTable.objects.get()
    assert not table.seats.exclude(user=None).exists()
    assert client.get(response["Location"])["Location"].endswith("/watch/")


def test_a_bad_form_opens_nothing() -> None:
    client = client_for(make_user("host"))
    response = client.post(reverse("games:people-new"), {"game": "three-card", "players": 12})
    assert response.status_code == 400 and not PeopleTable.objects.exists()


def test_not_logged_in_goes_to_the_login_page_and_changes_nothing() -> None:
    table = open_table(make_user("host"))
    client = Client()
    for url in (table.join_url, table.get_absolute_url(), reverse("games:people-new")):
        response = client.get(url)
        assert response.status_code == 302 and "/log-in/" in response["Location"], url
    response = client.post(table.join_url)
    assert response.status_code == 302 and "/log-in/" in response["Location"]
    response = client.post(reverse("games:people-act", args=[table.pk]), {"version": 1})
    assert response.status_code == 302 and "/log-in/" in response["Location"]
    assert table.seats.exclude(user=None).count() == 1


def test_joining_by_link_and_by_code() -> None:
    table = open_table(make_user("host"))
    ann = client_for(make_user("ann"))
    found = ann.get(reverse("games:people-join"), {"code": table.code.lower()})
    assert found.status_code == 302 and found["Location"] == table.join_url
    assert "Take a seat" in ann.get(table.join_url).content.decode()
    assert ann.post(table.join_url, {"seat": "2"})["Location"] == table.get_absolute_url()
    assert PeopleSeat.objects.get(table=table, number=2).user.get_username() == "ann"
    # Again: he is taken to his seat; nobody sits twice.
    assert ann.get(table.join_url).status_code == 302
    response = ann.post(table.join_url, {"seat": ""})
    assert response.status_code == 400 and "already have a seat" in response.content.decode()
    assert ann.get(reverse("games:people-join"), {"code": "ZZZZZZ"}).status_code == 200


def test_outsiders_get_404_and_change_nothing() -> None:
    table, users = started()
    outsider = client_for(make_user("eve"))
    before = PeopleTable.objects.get(pk=table.pk)
    for name in ("people-table", "people-watch", "people-hand"):
        args = [table.pk, 1] if name == "people-hand" else [table.pk]
        assert outsider.get(reverse(f"games:{name}", args=args)).status_code == 404, name
    for name in ("people-act", "people-next", "people-start", "people-reveal", "people-leave"):
        url = reverse(f"games:{name}", args=[table.pk])
        response = outsider.post(url, {"version": before.version})
        assert response.status_code == 404, name
    # A seated player who is not the host may not watch.
    assert (
        client_for(users[1]).get(reverse("games:people-watch", args=[table.pk])).status_code == 404
    )
    after = PeopleTable.objects.get(pk=table.pk)
    assert (after.version, after.state) == (before.version, before.state)


def test_a_stale_form_is_refused_with_a_message() -> None:
    table, users = started()
    seat = to_act(table)
    if seat is None:
        pytest.skip("the first deal ended before any person's turn")
    client = client_for(users[seat])
    data = decision(table, seat)
    assert client.post(reverse("games:people-act", args=[table.pk]), data).status_code == 302
    response = client.post(reverse("games:people-act", args=[table.pk]), data, follow=True)
    assert "out of date" in response.content.decode()


def test_the_host_who_does_not_sit_watches() -> None:
    teacher, ann = make_user("teacher"), make_user("ann")
    table = open_table(teacher, host_sits=False)
    people.sit(table, ann)
    table.refresh_from_db()
    people.start(table, teacher, table.version)
    client = client_for(teacher)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 302 and response["Location"].endswith("/watch/")
    page = client.get(reverse("games:people-watch", args=[table.pk])).content.decode()
    assert "You are watching" in page and "my-cards" not in page


def test_a_finished_hand_replays_for_those_who_sat_there() -> None:
    table, users = started()
    table = play_to_end(table, users)
    number = table.to_engine().hand.setup.hand_number  # type: ignore[union-attr]
    url = reverse("games:people-hand", args=[table.pk, number])
    client = client_for(users[1])
    page = client.get(url, {"step": 3})
    assert page.status_code == 200 and "Step 3 of" in page.content.decode()
    assert "Replay this deal" in client.get(table.get_absolute_url()).content.decode()
    assert client_for(make_user("eve")).get(url).status_code == 404


LIMITS = settings.RATE_LIMITS


@override_settings(RATE_LIMITS={**LIMITS, "people-tables-per-account": (1, 600)})
def test_opening_tables_is_limited_before_any_work() -> None:
    client = client_for(make_user("host"))
    data = {
        "game": "three-card",
        "rules": "hoffmann",
        "players": 4,
        "opponents": "beginner",
        "mode": "learning",
        "seconds_per_move": 120,
    }
    assert client.post(reverse("games:people-new"), data).status_code == 302
    response = client.post(reverse("games:people-new"), data)
    assert response.status_code == 429 and "Retry-After" in response
    assert PeopleTable.objects.count() == 1


@override_settings(RATE_LIMITS={**LIMITS, "people-joins-per-account": (1, 600)})
def test_joining_is_limited() -> None:
    first, second = open_table(make_user("h1")), open_table(make_user("h2"))
    client = client_for(make_user("ann"))
    assert client.post(first.join_url).status_code == 302
    assert client.post(second.join_url).status_code == 429
    assert not second.seats.filter(user__username="ann").exists()


@override_settings(RATE_LIMITS={**LIMITS, "people-actions-per-account": (1, 60)})
def test_decisions_are_limited() -> None:
    table, users = started()
    client = client_for(users[0])
    url = reverse("games:people-reveal", args=[table.pk])
    assert client.post(url, {"version": table.version}).status_code == 302  # refused: not over
    version = PeopleTable.objects.get(pk=table.pk).version
    assert client.post(url, {"version": version}).status_code == 429
    assert PeopleTable.objects.get(pk=table.pk).version == version


def test_a_decision_with_htmx_answers_the_felt() -> None:
    table, users = started()
    seat = to_act(table)
    if seat is None:
        pytest.skip("the first deal ended before any person's turn")
    client = client_for(users[seat])
    url = reverse("games:people-act", args=[table.pk])
    response = client.post(url, decision(table, seat), headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<section id="hand-table"') or 'id="hand-table"' in html[:200]
    stale = client.post(url, decision(table, seat), headers={"HX-Request": "true"})
    assert stale.status_code == 200 and "out of date" in stale.content.decode()


def test_the_stream_is_for_those_at_the_table() -> None:
    table, users = started()
    url = reverse("games:people-stream", args=[table.pk])
    assert Client().get(url).status_code == 401
    assert client_for(make_user("eve")).get(url).status_code == 404
    # Under WSGI (the test client) a stream answers 204: the page refreshes itself instead.
    assert client_for(users[1]).get(url).status_code == 204


def test_a_waiting_page_refreshes_itself_and_reloads_once_the_table_starts() -> None:
    host, ann = make_user("host"), make_user("ann")
    table = open_table(host)
    people.sit(table, ann)
    client = client_for(ann)
    page = client.get(table.get_absolute_url()).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in page
    live = client.get(table.get_absolute_url(), {"waiting": 1}, headers={"HX-Request": "true"})
    assert live.status_code == 200 and "HX-Refresh" not in live
    table.refresh_from_db()
    people.start(table, host, table.version)
    live = client.get(table.get_absolute_url(), {"waiting": 1}, headers={"HX-Request": "true"})
    assert live["HX-Refresh"] == "true"


def test_who_left_sees_the_table_without_his_former_seat_s_cards() -> None:
    table, users = started(("host", "ann", "bob"))
    people.leave(table, users[2])
    table.refresh_from_db()
    hand = table.to_engine().hand
    assert hand is not None
    page = client_for(users[2]).get(table.get_absolute_url()).content.decode()
    assert "You are watching" in page and "my-cards" not in page
    if not hand.over:
        assert not any(c.label in page for c in hand.hands[2])


def test_the_page_of_playing_with_people_tells_a_visitor_how_to_begin() -> None:
    """The play chooser links it for everyone: a visitor not logged in reads that a table for
    people needs an account (with links to log in and to sign up that come back), and is
    offered no form he could not use; a logged-in user gets the forms and his tables."""
    url = reverse("games:people-list")
    page = Client().get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert f'href="/accounts/log-in/?next={url}"' in text.replace("%2F", "/")
    assert reverse("games:people-new") not in text and 'name="code"' not in text

    host = make_user("host")
    table = open_table(host)
    text = client_for(host).get(url).content.decode()
    assert reverse("games:people-new") in text and 'name="code"' in text
    assert table.get_absolute_url() in text
