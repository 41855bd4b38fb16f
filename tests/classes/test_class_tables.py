"""A class's tables (issue 29): the teacher opens tables for his class (the students dealt
evenly round them, or left to choose), changes the seats, starts them, takes one away; the
limits (tables open at once, the creation rate, an archived class); and everyone else: a
student of another class, a student removed from the class, an outsider, staff, anonymous,
can neither list nor sit at the tables, and nothing changes when they try."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import PeopleTable
from games.people import outcomes
from games.people import service as people
from lessons.classes.leaving import leave
from lessons.classes.models import ClassTable, Membership
from lessons.classes.tables import MAX_OPEN_TABLES

from .conftest import PASSWORD, World

SETTINGS = {
    "game": "three-card",
    "rules": "hoffmann",
    "players": 3,
    "opponents": "beginner",
    "mode": "learning",
    "seconds_per_move": 120,
}


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _add_students(world: World, *names: str) -> list[User]:
    made = []
    for name in names:
        user = User.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(school_class=world.class1, student=user)
        made.append(user)
    return made


def _open(world: World, user: Any = None, **data: Any) -> Any:
    post = {**SETTINGS, "tables": 2, "seating": "seat", **data}
    url = reverse("classes:open-tables", args=[world.class1.pk])
    return _client(user or world.teacher).post(url, post)


def _seated(ct: ClassTable) -> list[str]:
    return [s.user.username for s in ct.table.seats.exclude(user=None).order_by("number")]


def _state() -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    return (
        list(ClassTable.objects.values_list("pk", "number")),
        list(PeopleTable.objects.values_list("pk", "version", "status")),
        sorted(PeopleTable.invited.through.objects.values_list("peopletable_id", "user_id")),
    )


# -- the teacher opens tables ------------------------------------------------------------------


def test_the_teacher_seats_four_students_evenly_round_two_tables(world: World) -> None:
    _add_students(world, "ann", "bob", "cat")
    response = _open(world)
    assert response.status_code == 302
    assert response["Location"].endswith(f"{world.class1.get_absolute_url()}#tables")
    one, two = sorted(world.class1.tables.all(), key=lambda ct: ct.number)
    assert (one.number, two.number) == (1, 2)
    assert _seated(one) == ["ann", "cat"] and _seated(two) == ["bob", "student"]
    for ct in (one, two):
        table = ct.table
        assert table.host == world.teacher and table.members_only and not ct.students_choose
        assert not table.seats.filter(user=world.teacher).exists()  # he watches
        # Each may sit at his own table only (not at the other by its code).
        assert sorted(u.username for u in table.invited.all()) == _seated(ct)
        assert table.status == PeopleTable.Status.WAITING and table.players == 3


def test_a_second_deal_seats_only_those_at_no_table(world: World) -> None:
    _add_students(world, "ann", "bob", "cat")
    _open(world, tables=1, players=4)
    (late,) = _add_students(world, "late")
    _open(world, tables=1)
    assert _seated(world.class1.tables.get(number=2)) == ["late"]
    before = _state()
    response = _open(world, tables=1)
    assert response.status_code == 400 and "sits at one of its tables already" in str(
        response.content.decode()
    )
    assert _state() == before


def test_five_students_at_two_tables_are_three_and_two(world: World) -> None:
    _add_students(world, "ann", "bob", "cat", "dan")
    _open(world, players=4)
    counts = sorted(len(_seated(ct)) for ct in world.class1.tables.all())
    assert counts == [2, 3]


def test_when_students_choose_nobody_is_seated_but_all_are_invited(world: World) -> None:
    _add_students(world, "ann")
    _open(world, seating="choose", tables=3)
    assert world.class1.tables.count() == 3
    for ct in world.class1.tables.all():
        assert ct.students_choose and _seated(ct) == []
        assert ct.table.invited.count() == 2


def test_more_students_than_seats_is_refused(world: World) -> None:
    _add_students(world, "ann", "bob", "cat", "dan", "eve", "fay")
    before = _state()
    response = _open(world, tables=2, players=3)
    assert response.status_code == 400
    assert "7 students do not fit at 2 tables of 3 seats" in response.content.decode()
    assert _state() == before


def test_seating_a_class_without_students_is_refused(world: World) -> None:
    Membership.objects.filter(school_class=world.class1).delete()
    response = _open(world, tables=1)
    assert response.status_code == 400 and world.class1.tables.count() == 0
    # They may choose, when they come.
    assert _open(world, tables=1, seating="choose").status_code == 302


@pytest.mark.parametrize(
    "bad",
    [{"players": 2}, {"players": 10}, {"tables": 0}, {"tables": 11}, {"seating": "x"}],
)
def test_bad_input_is_refused_and_changes_nothing(world: World, bad: dict[str, Any]) -> None:
    before = _state()
    assert _open(world, **{"seating": "choose", **bad}).status_code == 400
    assert _state() == before


def test_a_class_has_at_most_ten_tables_open_at_once(world: World) -> None:
    assert _open(world, seating="choose", tables=MAX_OPEN_TABLES).status_code == 302
    before = _state()
    response = _open(world, seating="choose", tables=1)
    assert response.status_code == 400
    assert "at most 10 tables open at once" in response.content.decode()
    assert _state() == before
    # A closed table no longer counts.
    PeopleTable.objects.filter(pk=world.class1.tables.first().table_id).update(status="closed")
    assert _open(world, seating="choose", tables=1).status_code == 302


def test_opening_tables_is_rate_limited(world: World, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "class-tables-per-account": (1, 3600)}
    assert _open(world, seating="choose", tables=1).status_code == 302
    before = _state()
    assert _open(world, seating="choose", tables=1).status_code == 429
    assert _state() == before


def test_an_archived_class_opens_no_tables(world: World) -> None:
    world.class1.archive()
    response = _open(world)
    assert response.status_code == 302 and world.class1.tables.count() == 0
    page = _client(world.teacher).get(reverse("classes:class", args=[world.class1.pk]))
    assert reverse("classes:open-tables", args=[world.class1.pk]) not in page.content.decode()


# -- the teacher's page, seats, start, take away ------------------------------------------------


def test_the_teacher_page_lists_the_tables_with_their_watch_links(world: World) -> None:
    _add_students(world, "ann")
    _open(world)
    page = _client(world.teacher).get(world.class1.get_absolute_url()).content.decode()
    for ct in world.class1.tables.all():
        assert reverse("games:people-watch", args=[ct.table_id]) in page
        assert f"Start table {ct.number}" in page
    assert "ann" in page and "Waiting for players" in page
    watch = reverse("games:people-watch", args=[world.class1.tables.first().table_id])
    assert _client(world.teacher).get(watch).status_code == 200


def _seats_url(world: World, number: int) -> str:
    return reverse("classes:table-seats", args=[world.class1.pk, number])


def test_the_teacher_changes_the_seats_before_starting(world: World) -> None:
    ann, bob, cat = _add_students(world, "ann", "bob", "cat")
    _open(world)
    one = world.class1.tables.get(number=1)  # ann, cat
    post = {"seat_0": cat.pk, "seat_1": "", "seat_2": ""}
    assert _client(world.teacher).post(_seats_url(world, 1), post).status_code == 302
    seats = {s.number: s.user for s in one.table.seats.all()}
    assert seats == {0: cat, 1: None, 2: None}
    assert set(one.table.invited.all()) == {cat}  # ann may not sit there by its code
    post = {"seat_0": cat.pk, "seat_1": "", "seat_2": ann.pk}
    assert _client(world.teacher).post(_seats_url(world, 1), post).status_code == 302
    seats = {s.number: s.user for s in one.table.seats.all()}
    assert seats == {0: cat, 1: None, 2: ann}
    assert set(one.table.invited.all()) == {ann, cat}
    # bob sits at table 2: he is not seated twice.
    before = _state()
    for seat_1, refusal in [
        (bob.pk, "bob already sits at table 2"),
        (cat.pk, "cat is seated twice"),
        (world.student2.pk, "Select a valid choice"),  # only a student of the class
    ]:
        response = _client(world.teacher).post(_seats_url(world, 1), {**post, "seat_1": seat_1})
        assert response.status_code == 400 and refusal in response.content.decode()
    assert _state() == before


def test_the_teacher_starts_every_waiting_table_with_students(world: World) -> None:
    _add_students(world, "ann")
    _open(world, tables=2)  # student and ann, one each
    _open(world, tables=1, seating="choose")  # nobody yet: not started
    url = reverse("classes:start-tables", args=[world.class1.pk])
    response = _client(world.teacher).post(url, follow=True)
    text = response.content.decode()
    assert "Table 1 has started." in text and "Table 3 has no student yet" in text
    statuses = {ct.number: ct.table.status for ct in world.class1.tables.all()}
    assert statuses == {1: "playing", 2: "playing", 3: "waiting"}
    # Its seats can no longer be changed, nor can it be taken away.
    response = _client(world.teacher).post(_seats_url(world, 1), {"seat_0": ""})
    assert response.status_code == 400
    take = reverse("classes:take-away", args=[world.class1.pk, 1])
    _client(world.teacher).post(take)
    assert world.class1.tables.filter(number=1).exists()


def test_the_teacher_starts_one_table_and_takes_another_away(world: World) -> None:
    _add_students(world, "ann")
    _open(world, tables=2)
    url = reverse("classes:start-tables", args=[world.class1.pk])
    _client(world.teacher).post(url, {"table": 2})
    statuses = {ct.number: ct.table.status for ct in world.class1.tables.all()}
    assert statuses == {1: "waiting", 2: "playing"}
    table = world.class1.tables.get(number=1).table_id
    _client(world.teacher).post(reverse("classes:take-away", args=[world.class1.pk, 1]))
    assert not PeopleTable.objects.filter(pk=table).exists()
    assert list(world.class1.tables.values_list("number", flat=True)) == [2]


# -- students -------------------------------------------------------------------------------------


def _sit_url(world: World, number: int) -> str:
    return reverse("classes:sit", args=[world.class1.pk, number])


def test_a_student_sits_where_students_choose_and_comes_back(world: World) -> None:
    _open(world, seating="choose", tables=2)
    page = _client(world.student).get(world.class1.get_absolute_url()).content.decode()
    assert "Sit here, at table 1" in page and "Sit here, at table 2" in page
    response = _client(world.student).post(_sit_url(world, 2))
    two = world.class1.tables.get(number=2)
    assert response.status_code == 302 and response["Location"] == two.table.get_absolute_url()
    assert _seated(two) == ["student"]
    page = _client(world.student).get(world.class1.get_absolute_url()).content.decode()
    assert "Back to my seat at table 2" in page and "Sit here" not in page
    # One table at a time.
    before = _state()
    _client(world.student).post(_sit_url(world, 1))
    assert _state() == before


def test_a_student_who_joined_after_the_tables_opened_may_sit(world: World) -> None:
    _open(world, seating="choose", tables=1)
    (late,) = _add_students(world, "late")
    assert _client(late).post(_sit_url(world, 1)).status_code == 302
    assert _seated(world.class1.tables.get()) == ["late"]


def test_a_student_does_not_sit_where_the_teacher_seats(world: World) -> None:
    _add_students(world, "ann")
    _open(world, tables=1)
    _client(world.teacher).post(_seats_url(world, 1), {"seat_0": "", "seat_1": "", "seat_2": ""})
    before = _state()
    _client(world.student).post(_sit_url(world, 1))
    assert _state() == before


@pytest.mark.parametrize(
    "actor", ["anonymous", "student2", "outsider", "teacher2", "former_co_teacher", "staff"]
)
def test_nobody_else_lists_or_sits_at_the_tables(world: World, actor: str) -> None:
    _open(world, seating="choose", tables=1)
    user = None if actor == "anonymous" else getattr(world, actor)
    client = _client(user)
    page = client.get(world.class1.get_absolute_url())
    assert page.status_code in (302, 404)
    before = _state()
    pk = world.class1.pk
    for url in (
        _sit_url(world, 1),
        reverse("classes:start-tables", args=[pk]),
        reverse("classes:take-away", args=[pk, 1]),
        _seats_url(world, 1),
        reverse("classes:open-tables", args=[pk]),
    ):
        response = client.post(url, {**SETTINGS, "tables": 1, "seating": "choose"})
        assert response.status_code in (302, 404)
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login"))
    # Nor by the games' own pages: the join code lets in only the class's students.
    table = world.class1.tables.get().table
    if user is not None:
        join = client.post(reverse("games:people-join-code", args=[table.code]))
        assert join.status_code == 403  # and it shows nobody who sits there
        assert client.get(reverse("games:people-watch", args=[table.pk])).status_code == 404
    assert _state() == before


def test_a_student_of_another_class_sees_none_of_its_tables(world: World) -> None:
    _open(world, seating="choose", tables=1)
    page = _client(world.student2).get(world.class2.get_absolute_url()).content.decode()
    assert "Your teacher has opened no table yet." in page
    assert "Sit here" not in page


def test_a_removed_student_loses_his_invitation_and_his_waiting_seat(world: World) -> None:
    _add_students(world, "ann")
    _open(world, tables=1)
    table = world.class1.tables.get().table
    assert "student" in _seated(world.class1.tables.get())
    leave(Membership.objects.filter(pk=world.membership.pk))
    assert _seated(world.class1.tables.get()) == ["ann"]
    assert not table.invited.filter(pk=world.student.pk).exists()
    client = _client(world.student)
    assert client.get(world.class1.get_absolute_url()).status_code == 404
    before = _state()
    assert client.post(_sit_url(world, 1)).status_code == 404
    assert client.post(reverse("games:people-join-code", args=[table.code])).status_code == 403
    assert _state() == before
    with pytest.raises(outcomes.Refused):
        people.sit(table, world.student)


def test_an_archived_student_sees_the_tables_but_does_not_sit(world: World) -> None:
    _open(world, seating="choose", tables=1)
    Membership.objects.filter(pk=world.membership.pk).update(archived="2026-01-01T00:00Z")
    page = _client(world.student).get(world.class1.get_absolute_url()).content.decode()
    assert "Table 1" in page and "Sit here" not in page
    before = _state()
    _client(world.student).post(_sit_url(world, 1))
    assert _state() == before


def test_nobody_sits_at_an_archived_class_s_tables(world: World) -> None:
    _open(world, seating="choose", tables=1)
    world.class1.archive()
    before = _state()
    response = _client(world.student).post(_sit_url(world, 1), follow=True)
    assert "This class is archived" in response.content.decode()
    assert _state() == before


def test_the_class_pages_cost_the_same_queries_for_more_tables(
    world: World, django_assert_num_queries: Any
) -> None:
    _add_students(world, "ann", "bob", "cat")
    _open(world, tables=2)
    for user in (world.teacher, world.student):
        client = _client(user)
        client.get(world.class1.get_absolute_url())
        with django_assert_num_queries(99, exact=False) as few:
            client.get(world.class1.get_absolute_url())
        count = len(few.captured_queries)  # before another request resets the log
        _open(world, tables=2, seating="choose")
        with django_assert_num_queries(count):
            client.get(world.class1.get_absolute_url())
        world.class1.tables.filter(number__gt=2).delete()


def test_a_co_teacher_sees_the_tables_but_arranges_only_those_he_opened(world: World) -> None:
    _add_students(world, "ann")
    _open(world, tables=1)  # the owner's
    page = _client(world.co_teacher).get(world.class1.get_absolute_url()).content.decode()
    assert "Opened by another teacher of the class" in page and "Start table 1" not in page
    before = _state()
    client = _client(world.co_teacher)
    client.post(reverse("classes:start-tables", args=[world.class1.pk]), {"table": 1})
    client.post(reverse("classes:take-away", args=[world.class1.pk, 1]))
    assert client.post(_seats_url(world, 1), {"seat_0": ""}).status_code == 400
    assert _state() == before
    # His own table he hosts and watches.
    assert _open(world, world.co_teacher, tables=1, seating="choose").status_code == 302
    assert world.class1.tables.get(number=2).table.host == world.co_teacher


def test_a_student_moved_to_another_class_loses_its_tables(world: World) -> None:
    _open(world, seating="choose", tables=1)
    table = world.class1.tables.get().table
    world.class2.teacher = world.teacher  # he may move students to a class he teaches
    world.class2.save()
    move = {"action": "move", "target": world.class2.pk, "students": [world.membership.pk]}
    response = _client(world.teacher).post(reverse("classes:roster", args=[world.class1.pk]), move)
    assert response.status_code == 302
    assert world.class2.memberships.filter(student=world.student).exists()
    assert not table.invited.filter(pk=world.student.pk).exists()
