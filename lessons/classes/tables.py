"""A class's tables (issue 29): the tables for people a teacher opens for his class, through
``games.people``'s hooks. Each is members only, the class's students invited, the teacher its
host, who does not sit but watches (``games.people.may_watch``). Either the teacher seats the
students (:func:`deal_evenly`, then each seat changed by :func:`change_seats` until he starts
the table) or they choose (any student of the class sits at any of its tables: :func:`sit`).

Only the class's students ever see or sit at its tables: a student removed from the class
loses his invitations and his seat at a table that has not started (:func:`forget`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max

from games.models import PeopleTable
from games.people import outcomes
from games.people import service as people
from lessons.classes.models import ClassTable, SchoolClass

#: How many tables a class may have open (not closed) at once.
MAX_OPEN_TABLES = 10

TOO_MANY_TABLES = "A class has at most {limit} tables open at once: it has {open} open now."
TOO_MANY_STUDENTS = (
    "{students} students do not fit at {tables} table{s} of {seats} seats: open more tables "
    "or give each more seats."
)
MORE_TABLES_THAN_STUDENTS = "{students} students fill at most {students} tables: open fewer."
NO_STUDENTS = (
    "Every student of the class sits at one of its tables already (or it has none): let them "
    "choose, or add students."
)
ARCHIVED_TABLES = "This class is archived: it opens no tables and nobody sits at them."
NOT_YOURS = "Only the teacher who opened this table may do that."
NOBODY_SEATED = "Table {number} has no student yet: seat some before starting it."
SEATED_TWICE = "{name} is seated twice: give each student one seat."
ELSEWHERE = "{name} already sits at table {number}: take him from it first."
NOT_WAITING = "Table {number} has started: its seats can no longer be changed."
STARTED = "Table {number} has started."
TAKEN_AWAY = "Table {number} is taken away."


def open_tables(school_class: SchoolClass) -> Any:
    """The class's tables that are not closed."""
    return school_class.tables.exclude(table__status=PeopleTable.Status.CLOSED)


def open_count(school_class: SchoolClass) -> int:
    return int(open_tables(school_class).count())


def students(school_class: SchoolClass) -> list[Any]:
    """The students on the class's roster (neither archived nor gone), by username."""
    memberships = school_class.memberships.active().select_related("student")
    return sorted((m.student for m in memberships), key=lambda u: u.get_username().casefold())


def unseated(school_class: SchoolClass) -> list[Any]:
    """The students on the roster who sit at none of the class's open tables: those a new
    deal seats (a student sits at one table of the class at a time)."""
    sitting = set(
        open_tables(school_class)
        .filter(table__seats__left__isnull=True)
        .values_list("table__seats__user", flat=True)
    )
    return [u for u in students(school_class) if u.pk not in sitting]


def deal_evenly(people_: Sequence[Any], tables: int) -> list[list[Any]]:
    """``people_`` dealt round ``tables`` tables as cards are, one each in turn: the tables'
    counts differ by one at most (the first ones get the more)."""
    return [list(people_[t::tables]) for t in range(tables)]


def open_for_class(
    school_class: SchoolClass,
    teacher: Any,
    *,
    tables: int,
    students_choose: bool,
    **settings: Any,
) -> list[ClassTable]:
    """Open ``tables`` tables for the class (``settings``: ``games.people.open_table``'s game,
    rules, players, opponents, seconds_per_move, laws), the teacher the host who does not sit.
    If they choose, every student on the roster is invited to each (and those who join the
    class later when they sit); else the students who sit at none of the class's tables yet
    are dealt evenly round them, each invited to his own table only. The form checked the
    limits; the count of open tables is checked again under the class's lock."""
    roster = students(school_class)
    with transaction.atomic():
        SchoolClass.objects.select_for_update().filter(pk=school_class.pk).first()
        if open_count(school_class) + tables > MAX_OPEN_TABLES:
            raise outcomes.Refused(
                TOO_MANY_TABLES.format(limit=MAX_OPEN_TABLES, open=open_count(school_class))
            )
        first = (school_class.tables.aggregate(n=Max("number"))["n"] or 0) + 1
        seating = deal_evenly(unseated(school_class), tables) if not students_choose else []
        made = []
        for offset in range(tables):
            table = people.open_table(teacher, host_sits=False, members_only=True, **settings)
            if students_choose:
                people.invite(table, roster)
            for seat, student in enumerate(seating[offset] if seating else []):
                people.reserve(table, seat, student)
            made.append(
                ClassTable.objects.create(
                    school_class=school_class,
                    table=table,
                    number=first + offset,
                    students_choose=students_choose,
                )
            )
    return made


def _refuse_if_archived(school_class: SchoolClass) -> None:
    if school_class.is_archived:
        raise outcomes.Refused(ARCHIVED_TABLES)


def _hosted(class_table: ClassTable, teacher: Any) -> PeopleTable:
    if class_table.table.host_id != teacher.pk:
        raise outcomes.Refused(NOT_YOURS)
    return class_table.table


def change_seats(class_table: ClassTable, teacher: Any, wanted: dict[int, Any]) -> None:
    """Seat ``wanted`` (seat number → a student of the class, or None: a computer player, or
    a student who chooses it) at a table that has not started: those moved off their seats
    first, then those put in them (``games.people``'s ``leave`` and ``reserve``, each telling
    the table's live pages). A student may sit at one table of the class."""
    table = _hosted(class_table, teacher)
    if table.status != PeopleTable.Status.WAITING:
        raise outcomes.Refused(NOT_WAITING.format(number=class_table.number))
    chosen = [u for u in wanted.values() if u is not None]
    for user in chosen:
        if sum(u.pk == user.pk for u in chosen) > 1:
            raise outcomes.Refused(SEATED_TWICE.format(name=user.get_username()))
        other = seat_elsewhere(class_table, user)
        if other is not None:
            raise outcomes.Refused(ELSEWHERE.format(name=user.get_username(), number=other))
    seats = {s.number: s for s in table.seats.select_related("user")}
    changed = {n: u for n, u in wanted.items() if n in seats and seats[n].user_id != _pk(u)}
    with transaction.atomic():
        for number in changed:
            former = seats[number].user
            if former is not None:
                people.leave(table, former)
                if not class_table.students_choose:  # nor may he sit there by its code
                    table.invited.remove(former)
        people.invite(table, [u for u in changed.values() if u is not None])
        for number, user in changed.items():
            if user is not None:
                people.reserve(table, number, user)


def _pk(user: Any) -> Any:
    return None if user is None else user.pk


def seat_elsewhere(class_table: ClassTable, user: Any) -> int | None:
    """The number of another table of the class, not closed, where ``user`` has a seat."""
    other = (
        open_tables(class_table.school_class)
        .exclude(pk=class_table.pk)
        .filter(table__seats__user=user, table__seats__left__isnull=True)
        .first()
    )
    return None if other is None else other.number


def sit(class_table: ClassTable, student: Any) -> None:
    """A student of the class takes the first free seat at a table where students choose
    (invited then, if he joined the class after it was opened). Refused at an archived
    class's table, a table the teacher seats, and when he sits at another of its tables."""
    _refuse_if_archived(class_table.school_class)
    if not class_table.students_choose:
        raise outcomes.Refused(outcomes.NOT_INVITED)
    other = seat_elsewhere(class_table, student)
    if other is not None:
        raise outcomes.Refused(f"You sit at table {other} already: leave it first.")
    people.invite(class_table.table, [student])
    people.sit(class_table.table, student)


def start(class_tables: Iterable[ClassTable], teacher: Any) -> list[str]:
    """Start each of these tables that waits and has a student: what was done, a sentence a
    table. A table no student sits at is not started (it would close at once)."""
    said = []
    for class_table in class_tables:
        table = _hosted(class_table, teacher)
        if table.status != PeopleTable.Status.WAITING:
            continue
        if not table.seats.filter(user__isnull=False).exists():
            said.append(NOBODY_SEATED.format(number=class_table.number))
            continue
        people.start(table, teacher, table.state_version)
        said.append(STARTED.format(number=class_table.number))
    return said


def take_away(class_table: ClassTable, teacher: Any) -> None:
    """Take away a table that has not started (opened by mistake, or nobody came): it is
    deleted, with its seats; a started table closes when its people leave it."""
    table = _hosted(class_table, teacher)
    with transaction.atomic():
        locked = PeopleTable.objects.select_for_update().get(pk=table.pk)
        if locked.status != PeopleTable.Status.WAITING:
            raise outcomes.Refused(NOT_WAITING.format(number=class_table.number))
        locked.delete()


def forget(pairs: Iterable[tuple[int, int]]) -> None:
    """Students (class, student) off their classes' rosters: no longer invited to those
    classes' tables, and off their seats at those that have not started (a started table goes
    on; his seat is played for when his time runs out)."""
    for class_pk, student_pk in pairs:
        tables = PeopleTable.objects.filter(
            class_table__school_class_id=class_pk, invited__pk=student_pk
        )
        for table in tables:
            table.invited.remove(student_pk)
            seat = table.seats.filter(user_id=student_pk).select_related("user").first()
            if seat is not None and table.status == PeopleTable.Status.WAITING:
                people.leave(table, seat.user)
