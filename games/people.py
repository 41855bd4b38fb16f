"""Tables where people play together: the service the views (and a class's tables, in
``lessons``) call. Every change is made here, in a transaction that locks the table's row
(``select_for_update``), checks what the caller's page showed (its ``version``), stores the
engine's new state with the version bumped, and tells the live pages once it has committed
(``games.live.bus.publish_on_commit``). A refusal raises :class:`Refused` with the sentence to
show, and changes nothing.

The hooks for class tables (``games`` never imports ``lessons``):

- :func:`open_table` ``(host, *, game, rules, players, opponents, options, seconds_per_move,
  host_sits=True, members_only=False, laws=False)``: a new table, waiting for its players;
- :func:`invite` ``(table, users)``: at a ``members_only`` table only the invited (and the
  host) may sit;
- :func:`reserve` ``(table, seat_number, user)``: seat a named person (a teacher seats a
  student);
- :func:`watch`: whether a user may watch the table as a spectator (its host), the page
  ``/play/people/<pk>/watch/``;
- :func:`reveal` ``(table, user, version)``: the host shows every hand of the hand just over;
- :func:`tables_for` ``(user)``: the tables a user hosts or sits at; :func:`tables_by_ids`
  ``(ids)``: tables listed by their ids (a class keeps its tables' ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.live import bus
from games.models import (
    DEFAULT_SECONDS_PER_MOVE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PeopleSeat,
    PeopleTable,
    new_code,
)

# -- what the service says when it refuses ---------------------------------------------------

NO_SUCH_CODE = "No table has that code: check it with whoever invited you."
TABLE_FULL = "Every seat at this table is taken."
TABLE_STARTED = "This table has started: its seats are no longer open."
TABLE_CLOSED = "This table is closed."
ALREADY_SEATED = "You already have a seat at this table."
SEAT_TAKEN = "That seat is taken: choose another."
NO_SUCH_SEAT = "This table has no such seat."
NOT_INVITED = "Only the people the host invited may sit at this table."
HOST_ONLY = "Only the host may do that."


class Refused(Exception):
    """What a person asked cannot be done now; ``str(error)`` says why, to him. Nothing was
    changed."""


# -- opening and sitting ---------------------------------------------------------------------


def open_table(
    host: Any,
    *,
    game: str,
    rules: str,
    players: int,
    opponents: str,
    options: dict[str, Any] | None = None,
    seconds_per_move: int = DEFAULT_SECONDS_PER_MOVE,
    host_sits: bool = True,
    members_only: bool = False,
    laws: bool = False,
) -> PeopleTable:
    """A new table for people, waiting for its players: ``players`` seats (3 to 9), all empty
    but the host's (seat 0) unless ``host_sits`` is False (a teacher who only watches).
    ``options``: variations agreed on the rule set (``RuleSet.with_options``). The caller has
    checked the game, rules and count (``games.forms.NewPeopleTableForm``)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players")
    for _ in range(10):  # a code already in use is drawn again
        try:
            with transaction.atomic():
                table = PeopleTable.objects.create(
                    host=host,
                    code=new_code(),
                    game=game,
                    rules=rules,
                    players=players,
                    options=options or {},
                    laws=laws,
                    opponents=opponents,
                    seconds_per_move=seconds_per_move,
                    members_only=members_only,
                )
                PeopleSeat.objects.bulk_create(
                    PeopleSeat(table=table, number=n, user=host if host_sits and n == 0 else None)
                    for n in range(players)
                )
                return table
        except IntegrityError:
            continue
    raise RuntimeError("no free join code")  # pragma: no cover: 387 million codes


def table_for_code(code: str) -> PeopleTable:
    """The table a join code names (typed in any case, spaces ignored), or :class:`Refused`."""
    code = "".join(code.split()).upper()
    table = PeopleTable.objects.filter(code=code).first()
    if table is None:
        raise Refused(NO_SUCH_CODE)
    return table


def invite(table: PeopleTable, users: Iterable[Any]) -> None:
    """Let ``users`` sit at a ``members_only`` table (adds to those invited before)."""
    table.invited.add(*users)


def may_sit(table: PeopleTable, user: Any) -> bool:
    """Whether ``user`` may take a seat at ``table`` (any user, unless it is members only)."""
    if not table.members_only or user.pk == table.host_id:
        return True
    return table.invited.filter(pk=user.pk).exists()


def sit(table: PeopleTable, user: Any, seat_number: int | None = None) -> PeopleSeat:
    """Seat ``user`` at ``table`` while it waits for its players: in seat ``seat_number``, or
    the first free one. :class:`Refused` if he may not sit, already sits there, the table has
    started or is full, or the seat is taken."""
    if not may_sit(table, user):
        raise Refused(NOT_INVITED)
    return _seat(table, user, seat_number)


def reserve(table: PeopleTable, seat_number: int, user: Any) -> PeopleSeat:
    """Seat a named person in seat ``seat_number`` (the host's doing: a teacher seats a
    student); he is invited too, at a members-only table. Refused as :func:`sit` is."""
    table.invited.add(user)
    return _seat(table, user, seat_number)


def _seat(table: PeopleTable, user: Any, seat_number: int | None) -> PeopleSeat:
    with transaction.atomic():
        locked = PeopleTable.objects.select_for_update().get(pk=table.pk)
        if locked.status == PeopleTable.Status.CLOSED:
            raise Refused(TABLE_CLOSED)
        if locked.status != PeopleTable.Status.WAITING:
            raise Refused(TABLE_STARTED)
        seats = list(locked.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise Refused(ALREADY_SEATED)
        free = [s for s in seats if s.user_id is None]
        if seat_number is None:
            if not free:
                raise Refused(TABLE_FULL)
            seat = free[0]
        else:
            seat = next((s for s in seats if s.number == seat_number), None)
            if seat is None:
                raise Refused(NO_SUCH_SEAT)
            if seat.user_id is not None:
                raise Refused(TABLE_FULL if not free else SEAT_TAKEN)
        seat.user = user
        seat.save(update_fields=["user"])
        _bump(locked)
    table.version = locked.version
    return seat


def _bump(table: PeopleTable, **fields: Any) -> None:
    """Store ``fields`` of the locked ``table`` with its version bumped, and tell its live
    pages once the transaction commits."""
    table.version += 1
    for name, value in fields.items():
        setattr(table, name, value)
    table.save(update_fields=["version", "updated", *fields])
    bus.publish_on_commit(table.channel, table.version)


# -- listing ---------------------------------------------------------------------------------


def tables_for(user: Any) -> QuerySet[PeopleTable]:
    """The tables ``user`` hosts or has a seat at, the latest first."""
    return (
        PeopleTable.objects.filter(Q(host=user) | Q(seats__user=user))
        .distinct()
        .defer("state", "notes")
    )


def tables_by_ids(ids: Iterable[int]) -> QuerySet[PeopleTable]:
    """The tables of ``ids`` (those that still exist), the latest first."""
    return PeopleTable.objects.filter(pk__in=list(ids)).defer("state", "notes")


def _deadline(table: PeopleTable) -> Any:
    return timezone.now() + timedelta(seconds=table.seconds_per_move)
