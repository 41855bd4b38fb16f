"""A table for people's time and codes (issue 36): the clock of whoever is to act and the
refresh due at his deadline; a decision sent after it, told so in plain words; wrong join
codes counted before any look-up; a class's table that shows an outsider nobody; pages no
cache keeps; and a page after leaving that calls no one else "You"."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import PeopleSeat, PeopleTable
from games.people import outcomes
from games.people import service as people
from games.people.page import AWAY_TURN, LATE, REFRESH_SECONDS

from .conftest import decision, make_user, open_table, play_to_end, started, to_act

pytestmark = pytest.mark.django_db

LIMITS = settings.RATE_LIMITS


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _a_person_to_act() -> tuple[PeopleTable, list[Any], int]:
    """A started table where a person is to act (the first deal again until one is)."""
    for n in range(10):
        table, users = started(tuple(f"{name}{n}" for name in ("host", "ann", "bob")))
        seat = to_act(table)
        if seat is not None and seat < len(users):
            return table, users, seat
    raise AssertionError("no deal came to a person")


def _clock(html: str) -> tuple[str, int]:
    """The clock's words ("Your turn", "ann (left) to act") and its seconds left."""
    found = re.search(r'<strong>([^<]+)</strong>: <span [^>]*data-clock="(\d+)"', html)
    assert found, "no clock on the page"
    return found[1], int(found[2])


def _refresh(html: str) -> int | None:
    found = re.search(r'<meta http-equiv="refresh" content="(\d+)">', html)
    return int(found[1]) if found else None


# -- the clock -----------------------------------------------------------------------------


def test_the_clock_shows_whose_turn_and_his_time_and_a_page_without_script_comes_at_it() -> None:
    table, users, seat = _a_person_to_act()
    deadline = PeopleSeat.objects.get(table=table, number=seat).deadline
    assert deadline is not None
    mine = client_for(users[seat]).get(table.get_absolute_url()).content.decode()
    words, left = _clock(mine)
    assert words == "Your turn" and 0 < left <= table.seconds_per_move
    until = timezone.localtime(deadline).strftime("%H:%M")
    assert f'<time datetime="{deadline.isoformat()}">{until}</time>' in mine
    # His form is open: his page comes again at his deadline, not every few seconds.
    refresh = _refresh(mine)
    assert refresh is not None and left < refresh <= left + 2

    other = next(n for n in range(len(users)) if n != seat)
    theirs = client_for(users[other]).get(table.get_absolute_url()).content.decode()
    words, _left = _clock(theirs)
    assert words.startswith(f"{users[seat].get_username()} (") and words.endswith(") to act")
    assert _refresh(theirs) == 5


def test_no_clock_while_nobody_s_time_runs() -> None:
    table, users = started()
    table = play_to_end(table, users)
    html = client_for(users[1]).get(table.get_absolute_url()).content.decode()
    assert "data-clock" not in html and 'id="people-turn"' in html


# -- a decision after the time ran out -----------------------------------------------------


@pytest.mark.parametrize("taken_over_first", [False, True])
def test_a_decision_sent_after_the_time_ran_out_says_so_and_offers_the_seat_back(
    taken_over_first: bool,
) -> None:
    """The page without JavaScript was left open with its form past the deadline. Whether a
    computer player took the seat over before the POST (a live stream, cron) or on it, the
    person reads when his time ran out, that what he sent was not played, and "Back to my
    seat"; never "out of date"."""
    table, users, seat = _a_person_to_act()
    data = decision(table, seat)
    deadline = timezone.now() - timedelta(seconds=3)
    PeopleSeat.objects.filter(table=table, number=seat).update(deadline=deadline)
    if taken_over_first:
        assert people.expire(table)
    client = client_for(users[seat])
    before = PeopleTable.objects.get(pk=table.pk).version
    response = client.post(reverse("games:people-act", args=[table.pk]), data, follow=True)
    html = response.content.decode()
    until = timezone.localtime(deadline).strftime("%H:%M")
    assert f"Your time ran out at {until}, so a computer player played for you" in html
    assert LATE in html and "Back to my seat" in html and "out of date" not in html
    row = PeopleSeat.objects.get(table=table, number=seat)
    assert row.away and row.ran_out == deadline
    # What he sent was not played: only the take-over changed the table.
    if taken_over_first:
        assert PeopleTable.objects.get(pk=table.pk).version == before
    # Before the felt: on a phone's first screen.
    assert html.index("Back to my seat") < html.index('id="hand-table"')


def test_a_late_decision_with_htmx_answers_the_felt_and_the_time_out_beside_it() -> None:
    table, users, seat = _a_person_to_act()
    data = decision(table, seat)
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    response = client_for(users[seat]).post(
        reverse("games:people-act", args=[table.pk]), data, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="hand-table"' in html and LATE in html
    turn = html[html.index('<div id="people-turn"') :]
    assert 'hx-swap-oob="true"' in turn[:100] and "Back to my seat" in turn


def test_back_at_his_seat_the_time_out_is_gone_and_his_next_turn_has_a_clock() -> None:
    table, users, seat = _a_person_to_act()
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    client = client_for(users[seat])
    assert "Back to my seat" in client.get(table.get_absolute_url()).content.decode()
    client.post(reverse("games:people-back", args=[table.pk]))
    html = client.get(table.get_absolute_url()).content.decode()
    assert "Back to my seat" not in html and "Your time ran out" not in html


def test_while_a_computer_player_plays_his_seat_no_decision_of_his_is_offered(
    settings: Any,
) -> None:
    """His time ran out at his turn; the computer player that decides for him has not yet
    (its pause): his page offers no decision (one sent would be refused as late) and does not
    say it is his turn, and without JavaScript it comes again every few seconds."""
    table, users, seat = _a_person_to_act()
    settings.PEOPLE_BOT_STEPS = "off"  # nobody makes the computer player's step meanwhile
    PeopleTable.objects.filter(pk=table.pk).update(bot_pause_ms=60_000)
    PeopleSeat.objects.filter(table=table, number=seat).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    html = client_for(users[seat]).get(table.get_absolute_url()).content.decode()
    assert to_act(PeopleTable.objects.get(pk=table.pk)) == seat  # his seat's turn still
    assert "Back to my seat" in html and AWAY_TURN in html
    assert 'name="card"' not in html and 'name="choice"' not in html
    assert "Your turn" not in html
    assert _refresh(html) == REFRESH_SECONDS


# -- codes ---------------------------------------------------------------------------------


@override_settings(RATE_LIMITS={**LIMITS, "people-codes-per-account": (3, 600)})
def test_wrong_codes_count_against_the_account_before_any_look_up() -> None:
    table = open_table(make_user("host"))
    eve = client_for(make_user("eve"))
    join = reverse("games:people-join")
    # A right code costs nothing, however often.
    for _ in range(5):
        assert eve.get(join, {"code": table.code})["Location"] == table.join_url
        assert eve.get(table.join_url).status_code == 200
    for wrong in ("ZZZZZZ", "YYYYYY"):
        assert eve.get(join, {"code": wrong}).status_code == 200  # the form, with why
    assert eve.get(reverse("games:people-join-code", args=["XXXXXX"])).status_code == 404
    # Over the limit: refused before the code is looked at, a right one too.
    for url, query in ((join, {"code": table.code}), (table.join_url, {})):
        response = eve.get(url, query)
        assert response.status_code == 429 and "Retry-After" in response, url
    assert eve.post(table.join_url).status_code == 429
    assert not table.seats.filter(user__username="eve").exists()
    # Another account is not held up by eve's guesses.
    assert client_for(make_user("ann")).get(table.join_url).status_code == 200


@override_settings(RATE_LIMITS={**LIMITS, "people-codes-per-address": (4, 600)})
def test_wrong_codes_count_against_the_address_whatever_the_account() -> None:
    table = open_table(make_user("host"))
    join = reverse("games:people-join")
    for n in range(4):
        assert client_for(make_user(f"bot{n}")).get(join, {"code": "ZZZZZZ"}).status_code == 200
    assert client_for(make_user("bot4")).get(join, {"code": table.code}).status_code == 429


def test_a_class_table_s_code_shows_an_outsider_nobody_and_counts_as_wrong() -> None:
    teacher, ann, bob = make_user("mrsmith"), make_user("DylanJackson"), make_user("OliviaSmith")
    table = open_table(teacher, host_sits=False, members_only=True)
    people.reserve(table, 0, ann)
    people.invite(table, [bob])
    outsider = client_for(make_user("eve"))
    for response in (
        outsider.get(table.join_url),
        outsider.get(reverse("games:people-join"), {"code": table.code}),
    ):
        html = response.content.decode()
        assert response.status_code in (200, 403)
        assert outcomes.NOT_INVITED in html
        for name in ("mrsmith", "DylanJackson", "OliviaSmith"):
            assert name not in html
    assert outsider.get(table.join_url).status_code == 403
    # The invited see who sits there.
    html = client_for(bob).get(table.join_url).content.decode()
    assert "DylanJackson" in html and "mrsmith" in html
    # Counted as wrong codes: three tries, and the fourth is refused.
    with override_settings(RATE_LIMITS={**LIMITS, "people-codes-per-account": (3, 600)}):
        assert outsider.get(table.join_url).status_code == 429


# -- what no cache keeps -------------------------------------------------------------------


def test_the_people_pages_and_the_history_are_not_stored_by_any_cache() -> None:
    table, users = started()
    table = play_to_end(table, users)
    number = table.to_engine().hand.setup.hand_number  # type: ignore[union-attr]
    client = client_for(users[0])
    urls = [
        reverse("games:people-list"),
        reverse("games:people-new"),
        reverse("games:people-join"),
        table.join_url,
        table.get_absolute_url(),
        reverse("games:people-hand", args=[table.pk, number]),
        reverse("games:hand-list"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 302), url
        assert "no-store" in response.get("Cache-Control", ""), url
    teacher = make_user("teacher")
    watched = open_table(teacher, host_sits=False)
    response = client_for(teacher).get(reverse("games:people-watch", args=[watched.pk]))
    assert "no-store" in response["Cache-Control"]


# -- after leaving -------------------------------------------------------------------------


def _seat_lines(html: str) -> list[str]:
    found = re.search(r'<ul class="people-seats">(.*?)</ul>', html, re.S)
    assert found
    return [re.sub(r"<[^>]+>", "", li) for li in re.findall(r"<li[^>]*>(.*?)</li>", found[1])]


def test_after_leaving_no_one_else_is_called_you() -> None:
    table, users = started(("ann536", "ben", "cat"))
    people.leave(table, users[2])
    html = client_for(users[2]).get(table.get_absolute_url()).content.decode()
    lines = _seat_lines(html)
    assert lines[0].startswith("Seat 1: ann536"), lines
    assert not any(line.startswith("You") for line in lines), lines
    assert lines[2].startswith("Seat 3: cat") and "you left" in lines[2]


def test_a_teacher_watching_a_waiting_table_is_not_in_its_first_seat() -> None:
    teacher, ann = make_user("teacher"), make_user("ann")
    table = open_table(teacher, host_sits=False)
    people.sit(table, ann)
    html = client_for(teacher).get(reverse("games:people-watch", args=[table.pk])).content
    lines = _seat_lines(html.decode())
    assert lines[0] == "Seat 1: ann" and not any(line.startswith("You") for line in lines)
