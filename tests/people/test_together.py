"""The people together at a table for people (games.people.service): presence, a latecomer
taking a computer player's seat between hands, rematch, the host removing a seat and closing
the table, the fixed phrases; each refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import PeopleHand, PeoplePhrase, PeopleSeat, PeopleTable
from games.people import outcomes, together
from games.people import service as people

from .conftest import decision, make_user, open_table, play_to_end, started, to_act

pytestmark = pytest.mark.django_db


def _snapshot(table: PeopleTable) -> tuple[Any, ...]:
    """Everything a refused change must leave as it was."""
    stored = PeopleTable.objects.get(pk=table.pk)
    seats = list(
        PeopleSeat.objects.filter(table=table).values_list(
            "number", "user", "away", "left", "removed", "deadline", "since_hand"
        )
    )
    return (
        stored.version,
        stored.status,
        stored.state,
        stored.rematch_id,
        seats,
        PeopleTable.objects.count(),
        PeoplePhrase.objects.count(),
    )


def _refused(table: PeopleTable, match: str, change: Any) -> None:
    before = _snapshot(table)
    with pytest.raises(outcomes.Refused, match=match):
        change()
    assert _snapshot(table) == before


def _over(names: tuple[str, ...] = ("host", "ann", "bob")) -> tuple[PeopleTable, list[Any]]:
    """A started table (people at the first seats, computer players after) whose first hand
    is over."""
    table, users = started(names)
    return play_to_end(table, users), users


def _mid_hand(users: list[Any], table: PeopleTable) -> PeopleTable:
    """Deal on until a hand is in play with a person to act."""
    for _ in range(30):
        table.refresh_from_db()
        if to_act(table) is not None:
            return table
        people.next_hand(table, users[0], table.version)
    raise AssertionError("no hand in play with a person to act")


# -- presence ----------------------------------------------------------------------------------


def test_presence_is_written_at_most_every_few_seconds_and_bumps_no_version() -> None:
    table, users = started()
    ann = users[1]
    assert together.seen(table.pk, ann.pk)
    first = PeopleSeat.objects.get(table=table, user=ann).seen
    assert first is not None
    assert not together.seen(table.pk, ann.pk)  # written lately: nothing written
    assert PeopleSeat.objects.get(table=table, user=ann).seen == first
    long_ago = timezone.now() - timedelta(seconds=together.SEEN_EVERY + 1)
    PeopleSeat.objects.filter(table=table, user=ann).update(seen=long_ago)
    assert together.seen(table.pk, ann.pk)
    assert PeopleSeat.objects.get(table=table, user=ann).seen > long_ago
    assert PeopleTable.objects.get(pk=table.pk).version == table.version
    # Nobody else's seat, no one not at the table.
    assert PeopleSeat.objects.filter(table=table).exclude(user=ann).exclude(seen=None).count() == 0
    assert not together.seen(table.pk, make_user("eve").pk)
    assert not together.seen(table.pk, None)


def test_a_person_is_online_while_seen_lately_and_away_after() -> None:
    table, users = started()
    together.seen(table.pk, users[1].pk)
    seat = PeopleSeat.objects.get(table=table, user=users[1])
    assert together.online(seat)
    assert not together.online(seat, seat.seen + timedelta(seconds=together.ONLINE_SECONDS + 1))
    never = PeopleSeat.objects.get(table=table, user=users[2])
    assert not together.online(never)
    here = {h.name: h.online for h in together.together(table, seat).here}
    assert here == {"host": False, "ann": True, "bob": False}


def test_who_left_is_not_seen_any_more() -> None:
    table, users = started()
    people.leave(table, users[2])
    assert not together.seen(table.pk, users[2].pk)
    table.refresh_from_db()
    assert "bob" not in {h.name for h in together.together(table, None).here}


# -- a latecomer takes a computer player's seat between hands -----------------------------------


def test_a_latecomer_takes_a_computer_players_seat_once_the_hand_is_over() -> None:
    table, users = _over()
    cat = make_user("cat")
    offer = together.latecomer(table, cat)
    assert [n for n, _label in offer.seats] == [3, 4] and not offer.reason
    hand_number = table.state["hand_number"]
    done = together.take_seat(table, cat, table.version, 4)
    assert done.said == [together.TOOK_SEAT]
    seat = PeopleSeat.objects.get(table=table, number=4)
    assert seat.user == cat and seat.present and seat.since_hand == hand_number + 1
    table.refresh_from_db()
    assert table.version == done.table.version and table.state["hand_number"] == hand_number
    assert table.hand_over  # the hand just over is as it was
    assert not together.plays_yet(table, seat)
    assert not together.may_replay(seat, hand_number) and together.may_replay(seat, hand_number + 1)
    # From the next deal his seat is a person's: no computer player decides for him.
    people.next_hand(table, users[0], table.version)
    table.refresh_from_db()
    assert together.plays_yet(table, seat)
    assert 4 in people.autoplay(table, table.seats.all()).people


def test_a_latecomer_may_take_the_seat_of_a_person_who_left() -> None:
    table, users = _over()
    people.leave(table, users[2])
    table.refresh_from_db()
    cat = make_user("cat")
    assert 2 in [n for n, _label in together.latecomer(table, cat).seats]
    together.take_seat(table, cat, table.version, 2)
    seat = PeopleSeat.objects.get(table=table, number=2)
    assert seat.user == cat and seat.left is None and not seat.removed


def test_no_seat_is_taken_while_a_hand_is_played() -> None:
    table, users = started()
    table = _mid_hand(users, table)
    cat = make_user("cat")
    assert together.latecomer(table, cat).reason == together.HAND_IN_PLAY
    _refused(
        table, "A hand is being played", lambda: together.take_seat(table, cat, table.version, 3)
    )


def test_taking_a_seat_refuses_what_is_not_allowed_and_changes_nothing() -> None:
    table, users = _over()
    cat = make_user("cat")
    version = table.version
    _refused(table, "A person has that seat", lambda: together.take_seat(table, cat, version, 1))
    _refused(table, "no such seat", lambda: together.take_seat(table, cat, version, 7))
    _refused(table, "already have a seat", lambda: together.take_seat(table, users[1], version, 3))
    _refused(table, "out of date", lambda: together.take_seat(table, cat, version - 1, 3))
    waiting = open_table(users[0])
    _refused(waiting, "not started", lambda: together.take_seat(waiting, cat, waiting.version, 1))
    members = open_table(make_user("teacher"), members_only=True)
    assert together.latecomer(members, cat).reason == outcomes.NOT_INVITED


def test_two_latecomers_at_one_seat_store_one() -> None:
    table, _users = _over()
    cat, dan = make_user("cat"), make_user("dan")
    together.take_seat(table, cat, table.version, 3)
    _refused(table, "out of date", lambda: together.take_seat(table, dan, table.version, 3))
    assert PeopleSeat.objects.get(table=table, number=3).user == cat


# -- rematch -----------------------------------------------------------------------------------


def test_rematch_opens_a_table_for_the_same_people_where_each_chooses_to_sit() -> None:
    table, users = _over()
    host, ann, bob = users
    done = together.rematch(table, host, table.version)
    new = done.table
    old = PeopleTable.objects.get(pk=table.pk)
    assert old.rematch == new and old.version == table.version + 1
    assert old.status == "playing"  # the old table plays on if they wish
    assert new.pk != old.pk and new.status == "waiting" and new.members_only
    assert (new.game, new.rules, new.players, new.opponents, new.seconds_per_move) == (
        old.game,
        old.rules,
        old.players,
        old.opponents,
        old.seconds_per_move,
    )
    # Only the host is seated: he acted. The others are invited, and seated by nobody.
    assert list(new.seats.exclude(user=None).values_list("user", flat=True)) == [host.pk]
    assert set(new.invited.all()) >= {ann, bob}
    offer = together.together(old, PeopleSeat.objects.get(table=old, user=ann))
    assert offer.rematch_join == new.join_url and not offer.may_rematch
    people.sit(new, ann)
    with pytest.raises(outcomes.Refused, match="Only the people the host invited"):
        people.sit(new, make_user("eve"))
    new.refresh_from_db()
    people.start(new, host, new.version)
    assert PeopleTable.objects.get(pk=new.pk).status == "playing"


def test_rematch_is_the_hosts_once_a_hand_is_over_and_once_only() -> None:
    table, users = started()
    table = _mid_hand(users, table)
    host, ann = users[0], users[1]
    _refused(table, "once a hand is over", lambda: together.rematch(table, host, table.version))
    table = play_to_end(table, users)
    _refused(table, "Only the host", lambda: together.rematch(table, ann, table.version))
    _refused(table, "out of date", lambda: together.rematch(table, host, table.version - 1))
    together.rematch(table, host, table.version)
    table.refresh_from_db()
    _refused(table, "open already", lambda: together.rematch(table, host, table.version))
    waiting = open_table(host)
    _refused(waiting, "once a hand is over", lambda: together.rematch(waiting, host, 1))


def test_a_closed_table_may_be_played_again() -> None:
    table, users = started()
    table = _mid_hand(users, table)
    together.close(table, users[0], table.version)
    table.refresh_from_db()
    new = together.rematch(table, users[0], table.version).table
    assert new.status == "waiting" and new.seats.get(number=0).user == users[0]


# -- the host removes a seat, closes the table --------------------------------------------------


def test_the_host_gives_a_persons_seat_to_a_computer_player_who_plays_on() -> None:
    table, users = started()
    for _ in range(50):  # the host plays his own turns: another person's is wanted
        table = _mid_hand(users, table)
        seat = to_act(table)
        if seat != 0:
            break
        people.act(table, users[0], decision(table, 0))
    assert seat in (1, 2)
    together.remove(table, users[0], table.version, seat)
    row = PeopleSeat.objects.get(table=table, number=seat)
    assert row.removed and row.left is not None and row.deadline is None
    table.refresh_from_db()
    assert to_act(table) != seat  # his computer player decided at once
    with pytest.raises(outcomes.Refused, match="You left this table"):
        people.act(table, users[seat], {"version": table.version})
    assert users[seat].username not in {h.name for h in together.together(table, None).here}


def test_removing_refuses_what_is_not_the_hosts_and_changes_nothing() -> None:
    table, users = _over()
    host, ann = users[0], users[1]
    version = table.version
    _refused(table, "Only the host", lambda: together.remove(table, ann, version, 2))
    _refused(table, "your own seat", lambda: together.remove(table, host, version, 0))
    _refused(table, "No person plays", lambda: together.remove(table, host, version, 3))
    _refused(table, "no such seat", lambda: together.remove(table, host, version, -1))
    _refused(table, "out of date", lambda: together.remove(table, host, version - 1, 2))


def test_a_person_removed_before_the_start_cannot_sit_again_and_a_latecomer_may_take_it() -> None:
    host, ann = make_user("host"), make_user("ann")
    table = open_table(host, players=3)
    people.sit(table, ann)
    table.refresh_from_db()
    together.remove(table, host, table.version, 1)
    with pytest.raises(outcomes.Refused, match="already have a seat"):
        people.sit(table, ann)
    table.refresh_from_db()
    people.start(table, host, table.version)
    table = play_to_end(PeopleTable.objects.get(pk=table.pk), [host])
    assert together.latecomer(table, ann).reason == together.REMOVED_YOU
    together.take_seat(table, make_user("cat"), table.version, 1)
    assert PeopleSeat.objects.get(table=table, number=1).user.username == "cat"


def test_the_host_closes_the_table_and_its_finished_hands_stay() -> None:
    table, users = _over()
    people.next_hand(table, users[0], table.version)
    table = _mid_hand(users, table)
    _refused(table, "Only the host", lambda: together.close(table, users[1], table.version))
    done = together.close(table, users[0], table.version)
    assert done.said == [together.CLOSED]
    table.refresh_from_db()
    assert table.status == "closed" and table.closed is not None
    assert not PeopleSeat.objects.filter(table=table).exclude(deadline=None).exists()
    assert people.next_due(table.pk) is None
    assert PeopleHand.objects.filter(table=table, number=1).exists()
    seat = to_act(table)
    assert seat is not None
    with pytest.raises(outcomes.Refused, match="closed"):
        people.act(table, users[seat], decision(table, seat))
    _refused(table, "closed", lambda: together.close(table, users[0], table.version))
    assert not together.together(table, None).may_close


# -- fixed phrases -----------------------------------------------------------------------------


def test_a_person_at_the_table_says_a_fixed_phrase_and_the_others_see_who_said_it() -> None:
    table, users = started()
    done = together.say_phrase(table, users[1], "well-played")
    assert done.table.version == table.version + 1
    together.say_phrase(table, users[2], "thank-you")
    host_seat = PeopleSeat.objects.get(table=table, number=0)
    said = together.together(PeopleTable.objects.get(pk=table.pk), host_seat).said
    assert [(s.name, s.text, s.mine) for s in said] == [
        ("bob", "Thank you", False),
        ("ann", "Well played", False),
    ]


def test_only_the_last_few_phrases_are_shown() -> None:
    table, users = started()
    for phrase in ["good-game", "one-moment"] * 4:
        together.say_phrase(table, users[1], phrase)
    said = together.together(table, None).said
    assert len(said) == together.PHRASES_SHOWN == 5
    assert said[0].text == "One moment"


def test_no_free_text_and_no_phrase_from_whoever_is_not_at_the_table() -> None:
    table, users = started()
    _refused(table, "Choose one of the phrases", lambda: together.say_phrase(table, users[1], "hi"))
    _refused(table, "no seat", lambda: together.say_phrase(table, make_user("eve"), "thank-you"))
    people.leave(table, users[2])
    table.refresh_from_db()
    _refused(table, "You left", lambda: together.say_phrase(table, users[2], "thank-you"))
    together.close(table, users[0], table.version)
    table.refresh_from_db()
    _refused(table, "closed", lambda: together.say_phrase(table, users[1], "thank-you"))


def test_a_phrase_said_while_a_decision_is_worked_out_does_not_refuse_it() -> None:
    """A person's decision is worked out from the table as read, then stored under the row
    lock; a phrase said in between changes nothing it rests on: the decision is stored, with
    a version of its own after the phrase's (the pages redraw on both), not refused as
    stale."""
    table, users = started()
    table = _mid_hand(users, table)
    seat = to_act(table)
    assert seat is not None
    read = people._read(table.pk, table.state_version)[0]  # as people.act reads it
    said = together.say_phrase(table, users[(seat + 1) % len(users)], "thank-you").table
    with people._storing(read):
        people._bump(read)
    assert read.version == said.version + 1 and read.state_version == read.version
    stored = PeopleTable.objects.get(pk=table.pk)
    assert (stored.version, stored.state_version) == (read.version, read.version)
