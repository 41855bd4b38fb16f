"""Tables where people play together: the service the views (and a class's tables, in
``lessons``) call. Every change is made here. It reads the table, checks what the caller's
page showed (its ``version``), and works out the change *outside* any transaction: an expert
computer player decides in 0.1 to 0.6 s, and SQLite's write lock, taken when a transaction
begins, would hold up every other writer of the site meanwhile. Then a short transaction locks
the table's row (``select_for_update``), finds its version unchanged (else the change is
refused as stale, or worked out again where no page's version was asked: :func:`_again`),
stores the engine's new state with the version bumped, and tells the live pages once it has
committed (``games.live.bus.publish_on_commit``). A refusal raises :class:`Refused` with the
sentence to show, and changes nothing.

A person's decision is stored and told alone: the computer players after him decide later,
each as a change of its own (:func:`advance`), ``PeopleTable.bot_pause_ms`` after the change
before it (``PeopleTable.bot_due`` says when). Who makes them: the process that stored the
change, by its driver (:mod:`games.people.driver`), and whoever finds one overdue: the
table's live streams (``games.people.live``), a request for its page, the ``timeouts``
command. Of those that find a decision due at once, one claims it (:func:`_bot_step`) and the
others leave it; a decision stored after another change got there first is dropped.

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

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import Exists, Min, OuterRef, Q, QuerySet
from django.utils import timezone

from games.live import bus
from games.loo.autoplay import CARELESS, MAX_BOT_ACTIONS, Autoplay, BotNote, Note, bot_seed
from games.loo.bots import CarelessBot
from games.loo.errors import LooError
from games.loo.hand import Hand, IllegalAction
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import view_for
from games.models import (
    DEFAULT_BOT_PAUSE_MS,
    DEFAULT_SECONDS_PER_MOVE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PeopleHand,
    PeoplePhrase,
    PeopleSeat,
    PeopleTable,
    deal_seed,
    new_code,
    new_later_seed,
    new_seed,
    stored_state,
)
from games.naming import say
from games.people import driver
from games.table import presenting
from games.table.forms import ActionForm

T = TypeVar("T")

#: How long a computer player's decision, once a process has claimed it, is left to that
#: process to make (it takes well under a second) before another may make it instead: the
#: one that claimed it died meanwhile.
CLAIM_SECONDS = 10

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
NOT_SEATED = "You have no seat at this table."
NOT_STARTED = "The host has not started this table yet."
NOT_YOUR_TURN = "It is not your turn: nothing was done."
NO_WAITING = "At a table with people everyone declares in turn: there is nothing to wait for."
HAND_NOT_OVER = "This hand is not over yet."
YOU_ARE_AWAY = (
    "Your time ran out, and a computer player is playing your seat: press "
    "“Back to my seat” to play again."
)
YOU_LEFT = "You left this table: a computer player has your seat."
NOT_AWAY = "You are at your seat already."
STARTED = "The table has started: the empty seats are computer players."
BACK = "You are back at your seat."
LEFT = "You left the table: a computer player has your seat for good."
REVEALED = "Every hand of this deal is shown to the table."


class Refused(Exception):
    """What a person asked cannot be done now; ``str(error)`` says why, to him. Nothing was
    changed."""


class ActionRefused(Refused):
    """A decision the form or the engine refused: ``form`` (bound, with its errors) and the
    engine's ``refusal`` (None if the form refused it), for the table page to show."""

    def __init__(self, form: ActionForm, refusal: IllegalAction | None = None) -> None:
        super().__init__(" ".join(str(e) for e in form.non_field_errors()))
        self.form, self.refusal = form, refusal


@dataclass
class Done:
    """What a stored change did, for its page: ``table`` as stored, ``said``, sentences for
    the person who made it."""

    table: PeopleTable
    said: list[str] = field(default_factory=list)


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
    bot_pause_ms: int = DEFAULT_BOT_PAUSE_MS,
) -> PeopleTable:
    """A new table for people, waiting for its players: ``players`` seats (3 to 9), all empty
    but the host's (seat 0) unless ``host_sits`` is False (a teacher who only watches).
    ``options``: variations agreed on the rule set (``RuleSet.with_options``). The caller has
    checked the game, rules and count (``games.people.forms.NewPeopleTableForm``).
    ``bot_pause_ms``: the pause before each computer player's decision is made and shown."""
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
                    bot_pause_ms=bot_pause_ms,
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


# -- playing -------------------------------------------------------------------------------


def seat_of(table: PeopleTable, user: Any) -> PeopleSeat | None:
    """``user``'s seat at ``table`` (he may be away, or have left), or None."""
    if not user.is_authenticated:
        return None
    return table.seats.filter(user=user).first()


def may_watch(table: PeopleTable, user: Any) -> bool:
    """Whether ``user`` may watch ``table`` as a spectator: its host (a teacher who does not
    sit watches each of his class's tables)."""
    return bool(user.is_authenticated and user.pk == table.host_id)


watch = may_watch


def autoplay(table: PeopleTable, seats: Iterable[PeopleSeat]) -> Autoplay:
    """The table's computer players: every seat but those a person plays now (a person away,
    or gone, is played for)."""
    return Autoplay(table.opponents, people=frozenset(s.number for s in seats if s.present))


class Stale(Refused):
    """The table changed since the page (or the change being worked out) read it."""

    def __init__(self) -> None:
        super().__init__(presenting.STALE)


def _read(pk: int, version: int | None) -> tuple[PeopleTable, list[PeopleSeat]]:
    """The table ``pk`` as stored now, and its seats, read without a lock; :class:`Stale` if
    its version is not ``version`` (None: not checked)."""
    table = PeopleTable.objects.get(pk=pk)
    if version is not None and version != table.version:
        raise Stale
    return table, list(table.seats.select_related("user"))


@contextmanager
def _storing(table: PeopleTable) -> Iterator[None]:
    """A short transaction to store a change worked out from ``table`` as :func:`_read` read
    it: the row locked, and :class:`Stale` (nothing stored) if another change was stored
    since. Every change bumps the version, a seat's too."""
    with transaction.atomic():
        stored = PeopleTable.objects.select_for_update().values_list("version", flat=True)
        if stored.get(pk=table.pk) != table.version:
            raise Stale
        yield


def _again(change: Callable[[], T]) -> T:
    """``change()``, worked out again from the table as stored if another change got there
    first (up to five times): for what asks no page's version (leave, time running out)."""
    for _ in range(4):
        try:
            return change()
        except Stale:
            continue
    return change()


def _seated(seats: list[PeopleSeat], user: Any) -> PeopleSeat:
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise Refused(NOT_SEATED)
    if seat.left is not None:
        raise Refused(YOU_LEFT)
    return seat


def _playing(table: PeopleTable) -> Table:
    if table.status == PeopleTable.Status.CLOSED:
        raise Refused(TABLE_CLOSED)
    if table.status != PeopleTable.Status.PLAYING:
        raise Refused(NOT_STARTED)
    return table.to_engine()


def _hand(engine: Table) -> Hand:
    assert engine.hand is not None  # a started table has been dealt
    return engine.hand


def start(
    table: PeopleTable,
    user: Any,
    version: int,
    *,
    first_pack: tuple[str, ...] | None = None,
    engine_seed: str | None = None,
) -> Done:
    """The host starts the table: its first hand is dealt, the empty seats are computer
    players (who act after it, each as a step of its own). ``first_pack`` stacks the first
    deal and ``engine_seed`` seeds it (a lesson's chosen deal, a test's; see
    ``TableConfig``): the later deals come from a new secret seed all the same."""
    read, seats = _read(table.pk, version)
    if user.pk != read.host_id:
        raise Refused(HOST_ONLY)
    if read.status != PeopleTable.Status.WAITING:
        raise Refused(TABLE_STARTED if read.status == "playing" else TABLE_CLOSED)
    rules = RuleSet.preset(read.rules)
    config = TableConfig(
        read.game,
        rules.with_options(read.options) if read.options else rules,
        read.players,
        engine_seed if engine_seed is not None else deal_seed(new_seed()),
        laws=read.laws,
        first_pack=first_pack,
        later_seed=new_later_seed(),
    )
    engine = Table(config)
    engine.deal()
    bots = _bots_turn(autoplay(read, seats), engine, [])
    with _storing(read):
        read.status, read.started = PeopleTable.Status.PLAYING, timezone.now()
        _store(read, seats, engine, [], "status", "started", bots=bots)
    _follow(read)
    return Done(read, [STARTED])


def act(table: PeopleTable, user: Any, data: Any) -> Done:
    """A person's decision (the practice table's ``ActionForm`` fields and ``version``), at
    his seat and on his turn, checked by the form and the engine, stored and told alone: the
    computer players after him act later, each as a step of its own (:func:`advance`). A
    stale, repeated or forged one is refused (:class:`Refused`, :class:`ActionRefused`) and
    nothing changes."""
    version = posted_version(data)
    read, seats = _read(table.pk, version)
    seat = _seated(seats, user)
    engine = _playing(read)
    if seat.away:
        raise Refused(YOU_ARE_AWAY)
    hand = _hand(engine)
    form = ActionForm(view_for(hand, seat.number), data)
    if not form.is_valid():
        raise ActionRefused(form)
    action = form.action()
    if action is None:
        raise Refused(NO_WAITING)
    first_event = len(hand.events)
    try:
        engine.apply(action)
    except IllegalAction as refusal:
        form.add_error(None, say(refusal.message, read.players, me=seat.number))
        raise ActionRefused(form, refusal) from None
    except LooError as error:
        form.add_error(None, presenting.sentence(str(error)))
        raise ActionRefused(form) from None
    hand = _hand(engine)
    said = [
        say(e.message, read.players, me=seat.number)
        for e in hand.events[first_event:]
        if e.kind == "irregular"
    ]
    players = autoplay(read, seats)
    notes = list(read.notes)
    if bound := players.rules_note(hand, action, form.options, first_event):
        notes.append(bound)
    bots = _bots_turn(players, engine, notes)
    with _storing(read):
        _store(read, seats, engine, notes, bots=bots)
    _follow(read)
    return Done(read, said)


def posted_version(data: Any) -> int:
    """The version a form sent (:class:`Refused` if it sent none that can be read)."""
    try:
        return int(str(data.get("version", "")))
    except ValueError:
        raise Refused(presenting.NO_VERSION) from None


def next_hand(table: PeopleTable, user: Any, version: int) -> Done:
    """The next deal, once the hand is over: any person at the table (or the host) deals it."""
    read, seats = _read(table.pk, version)
    if user.pk != read.host_id:
        _seated(seats, user)
    engine = _playing(read)
    if not _hand(engine).over:
        raise Refused(HAND_NOT_OVER)
    try:
        engine.deal()
    except LooError as error:
        raise Refused(presenting.sentence(str(error))) from None
    bots = _bots_turn(autoplay(read, seats), engine, [])
    with _storing(read):
        _store(read, seats, engine, [], bots=bots)
    _follow(read)
    return Done(read)


def reveal(table: PeopleTable, user: Any, version: int) -> Done:
    """The host shows every hand of the deal just over to the table and its spectators, for
    discussion; the next deal hides them again."""
    read, _seats = _read(table.pk, version)
    if user.pk != read.host_id:
        raise Refused(HOST_ONLY)
    hand = _hand(_playing(read))
    if not hand.over:
        raise Refused(HAND_NOT_OVER)
    with _storing(read):
        _bump(read, revealed=hand.setup.hand_number)
    return Done(read, [REVEALED])


def back(table: PeopleTable, user: Any) -> Done:
    """A person whose time ran out takes his seat back (from any device: no version asked);
    his next turn is his again."""

    def change() -> Done:
        read, seats = _read(table.pk, None)
        seat = _seated(seats, user)
        if not seat.away:
            raise Refused(NOT_AWAY)
        engine = read.to_engine() if read.state else None
        hand = _hand(engine) if engine else None
        seat.away = False
        # His seat's computer player is no longer due, if it was his turn.
        bots = bool(
            engine
            and read.status == PeopleTable.Status.PLAYING
            and _bots_turn(autoplay(read, seats), engine, list(read.notes))
        )
        with _storing(read):
            seat.deadline = _deadline(read) if hand and hand.to_act == seat.number else None
            seat.save(update_fields=["away", "deadline"])
            _bump(read, bot_due=_bot_due(read, bots))
        _follow(read)
        return Done(read, [BACK])

    return _again(change)


def leave(table: PeopleTable, user: Any) -> Done:
    """A person leaves the table: before it starts his seat is free again; after, a computer
    player has it for good (and plays next if it is his turn). A table no person is left
    at closes itself, and is kept for its replays."""

    def change() -> Done:
        read, seats = _read(table.pk, None)
        seat = _seated(seats, user)
        if read.status == PeopleTable.Status.WAITING:
            with _storing(read):
                seat.user = None
                seat.save(update_fields=["user"])
                _bump(read)
            return Done(read, [LEFT])
        seat.left, seat.deadline = timezone.now(), None
        engine = None
        bots = False
        if read.status == PeopleTable.Status.PLAYING:
            engine = read.to_engine()
            bots = _bots_turn(autoplay(read, seats), engine, list(read.notes))
        with _storing(read):
            seat.save(update_fields=["left", "deadline"])
            if engine is not None:
                _store(read, seats, engine, list(read.notes), bots=bots)
            else:
                _bump(read)
        _follow(read)
        return Done(read, [LEFT])

    return _again(change)


def expire(table: PeopleTable) -> bool:
    """If the person to act has let his time run out, mark him away: a computer player plays
    his seat, and decides for him as its next step (:func:`advance`). Whether the table
    changed since ``table`` was read: here, or by another request's take-over that got there
    first (the caller's table and seats are out of date all the same: a page made from them
    would show the seat still his, and nothing that tells him it is not). Called through
    :func:`advance` (by the table's live streams at the deadline, the driver) and
    :func:`catch_up` (any request for its page), and by the ``timeouts`` command."""
    stored = _take_over(table.pk)
    return stored is not None and (stored.taken or stored.version != table.version)


@dataclass(frozen=True)
class _Stored:
    """What :func:`_take_over` found: the table's version and ``bot_due`` after it, and
    whether it took a seat over."""

    version: int
    bot_due: datetime | None
    taken: bool = False


def _take_over(pk: int) -> _Stored | None:
    """:func:`expire` at table ``pk`` (None: no such table)."""
    now = timezone.now()
    late_seats = PeopleSeat.objects.filter(table=OuterRef("pk"), deadline__lt=now)
    row = PeopleTable.objects.filter(pk=pk).values_list("version", "bot_due", Exists(late_seats))
    stored = row.first()
    if stored is None:
        return None
    if not stored[2]:
        return _Stored(stored[0], stored[1])

    def change() -> _Stored:
        read, seats = _read(pk, None)
        late = [s for s in seats if s.deadline is not None and s.deadline < now]
        if not late or read.status != PeopleTable.Status.PLAYING:
            return _Stored(read.version, read.bot_due)
        for seat in late:
            seat.away, seat.ran_out, seat.deadline = True, seat.deadline, None
        bots = _bots_turn(autoplay(read, seats), read.to_engine(), list(read.notes))
        with _storing(read):
            for seat in late:
                seat.save(update_fields=["away", "ran_out", "deadline"])
            _bump(read, bot_due=_bot_due(read, bots))
        _follow(read)
        return _Stored(read.version, read.bot_due, taken=True)

    return _again(change)


# -- what falls due at a table by itself ------------------------------------------------------


def next_due(pk: int) -> float | None:
    """In how many seconds something next falls due at table ``pk`` by itself: a computer
    player's decision, or a person's time running out (:func:`advance` then lets a computer
    player take his seat); None if nothing will. Negative: overdue."""
    row = (
        PeopleTable.objects.filter(pk=pk)
        .annotate(deadline=Min("seats__deadline"))
        .values_list("bot_due", "deadline")
        .first()
    )
    times = [t for t in row or () if t is not None]
    return (min(times) - timezone.now()).total_seconds() if times else None


def bots_due(pk: int) -> float | None:
    """In how many seconds the next computer player's decision falls due at table ``pk``;
    None if none is to act (the driver's question: it follows a table while one is)."""
    due = PeopleTable.objects.filter(pk=pk).values_list("bot_due", flat=True).first()
    return None if due is None else (due - timezone.now()).total_seconds()


def advance(pk: int) -> bool:
    """Do what has fallen due at table ``pk`` (:func:`next_due`): a person's time running
    out (a computer player takes his seat), else one computer player's decision; whether
    this call changed the table. A decision another process has claimed is left to it; one
    whose table changed while it was worked out is dropped (False)."""
    return _advance(pk, timezone.now())


def _advance(pk: int, by: datetime | None) -> bool:
    """:func:`advance`, the computer player's decision made if it falls due by ``by`` (None:
    whenever it falls due)."""
    stored = _take_over(pk)
    if stored is None or stored.taken:
        return stored is not None
    if stored.bot_due is None or by is not None and stored.bot_due > by:
        return False  # nothing due (the whole table is read only when something is)
    table = PeopleTable.objects.filter(pk=pk).first()
    return table is not None and _bot_step(table, by)


def finish(pk: int) -> int:
    """Everything due at table ``pk`` done now, the computer players' decisions without
    waiting for their pace (until a person's turn or the end of the hand): for the
    ``timeouts`` command, which nobody waits on, and the tests' driver (``inline``). How
    many changes were stored."""
    steps = 0
    with driver.making_them():
        for _ in range(MAX_BOT_ACTIONS):
            if not _advance(pk, None):
                break
            steps += 1
    return steps


def catch_up(table: PeopleTable) -> bool:
    """A request for ``table``'s page does what is overdue there (a page that has no live
    stream, JavaScript off, must not wait for a heartbeat that never comes): a person's time
    run out, a computer player's decision whose time has come; the decisions after it are
    left to this process's driver, at their pace. Whether the table changed since ``table``
    was read (its caller's table and seats are then out of date)."""
    for _ in range(MAX_BOT_ACTIONS):
        if not advance(table.pk):
            break
    stored = PeopleTable.objects.filter(pk=table.pk).values_list("version", "bot_due").first()
    if stored is None:
        return False
    if stored[1] is not None:
        driver.follow(table.pk, stored[1], STEPS)
    return bool(stored[0] != table.version)


#: What this process's driver calls (games.people.driver: it knows no table).
STEPS = driver.Steps(advance=advance, bots_due=bots_due, finish=finish)


def expire_all() -> int:
    """Do everything overdue at every table (the ``timeouts`` command): a person's time run
    out, computer players' decisions (a process that was to make them died), each table's
    until a person's turn; how many tables changed."""
    now = timezone.now()
    late = set(PeopleSeat.objects.filter(deadline__lt=now).values_list("table", flat=True)) | set(
        PeopleTable.objects.filter(bot_due__lt=now).values_list("pk", flat=True)
    )
    return sum(finish(pk) > 0 for pk in sorted(late))


def _bots_turn(players: Autoplay, engine: Table, notes: list[Note]) -> bool:
    """Whether a computer player has a step to take at ``engine``'s hand now: one is to act,
    or (careless players, where the laws let an irregularity stand) one of them lapses at
    this point; they are asked before whoever acts, a person too, as ``Autoplay.run`` asks
    them (each answer is seeded by the point of the hand: asked again, it is the same)."""
    hand = _hand(engine)
    if hand.over:
        return False
    if hand.to_act is not None and hand.to_act not in players.persons:
        return True
    return _may_lapse(players, hand, notes) and any(
        CarelessBot(bot_seed(engine, seat)).lapse(view_for(hand, seat)) is not None
        for seat in range(hand.players)
        if seat not in players.persons
    )


def _may_lapse(players: Autoplay, hand: Hand, notes: list[Note]) -> bool:
    """Whether careless computer players are asked if one lapses now: where the laws let an
    irregularity stand, and not twice at one point (the last action was not one's lapse)."""
    if players.opponents != CARELESS or not hand.laws_apply():
        return False
    last = notes[-1] if notes else None
    lapsed = (
        last is not None
        and "reason" in last
        and last["action"] == len(hand.log) - 1
        and hand.log[-1].kind == "irregular"
    )
    return not lapsed


def _step(players: Autoplay, engine: Table, notes: list[Note]) -> bool:
    """One computer player's step at ``engine``'s hand, its reason added to ``notes``: a
    careless one's lapse, else the decision of the one to act (what one round of
    ``Autoplay.run`` does); whether there was one to take."""
    hand = _hand(engine)
    if hand.over:
        return False
    # Autoplay's own way to ask for a lapse (games.loo is not edited for a public one: its
    # every file is part of the guided deals' fingerprint).
    if _may_lapse(players, hand, notes) and players._lapse(engine, notes):
        return True
    seat = hand.to_act
    if seat is None or seat in players.persons:
        return False
    decision = players.bot(engine, seat).decide(view_for(hand, seat))
    first_event = len(hand.events)
    engine.apply(decision.action)
    note: BotNote = {
        "action": len(hand.log) - 1,
        "seat": seat,
        "event": first_event,
        "reason": decision.reason.to_dict(),
    }
    notes.append(note)
    return True


def _bot_step(read: PeopleTable, by: datetime | None) -> bool:
    """The next computer player's step at the table as ``read``, if it falls due by ``by``
    (None: whenever it falls due, the pace not waited for), stored and told as a change of
    its own; whether it was.

    It is claimed first (``bot_due`` moved on by ``CLAIM_SECONDS``, the version unchanged:
    nothing the table shows), so that of the processes that find it due at once only one
    works it out; then it is worked out outside any transaction. Stored only if the table
    has not changed meanwhile (a person came back, left, or another process's step got there
    first): else it is dropped, and whoever stored that change saw to what falls due after
    it."""
    due = read.bot_due
    if due is None or read.status != PeopleTable.Status.PLAYING or by is not None and due > by:
        return False
    claim = timezone.now() + timedelta(seconds=CLAIM_SECONDS)
    claimed = PeopleTable.objects.filter(pk=read.pk, version=read.version, bot_due=due)
    if not claimed.update(bot_due=claim):
        return False
    unclaimed = PeopleTable.objects.filter(pk=read.pk, version=read.version, bot_due=claim)
    seats = list(read.seats.select_related("user"))
    players = autoplay(read, seats)
    engine = read.to_engine()
    notes = list(read.notes)
    try:
        stepped = _step(players, engine, notes)
        bots = stepped and _bots_turn(players, engine, notes)
    except BaseException:
        unclaimed.update(bot_due=due)  # due again at once: for whoever tries it next
        raise
    if not stepped:
        # No computer player to act after all: nothing falls due (the table shows the same).
        unclaimed.update(bot_due=None)
        return False
    try:
        with _storing(read):
            _store(read, seats, engine, notes, bots=bots)
    except Stale:
        return False
    _follow(read)
    return True


def _bot_due(table: PeopleTable, bots: bool) -> datetime | None:
    """When a computer player's step falls due after a change stored now (``bots``: one is
    to act), or None."""
    if not bots or table.status != PeopleTable.Status.PLAYING:
        return None
    return timezone.now() + timedelta(milliseconds=table.bot_pause_ms)


def _follow(table: PeopleTable) -> None:
    """After a change stored (``table`` as stored): this process's driver makes the next
    computer player's step at its time, if one is due."""
    if table.bot_due is not None:
        driver.follow(table.pk, table.bot_due, STEPS)


def _store(
    table: PeopleTable,
    seats: list[PeopleSeat],
    engine: Table,
    notes: list[Note],
    *fields: str,
    bots: bool,
) -> None:
    """Store the locked ``table``'s engine state and notes with its version bumped; keep a
    finished hand for its replay; give the person now to act his deadline; say when the next
    computer player's step falls due (``bots``: one is to act); close the table when no
    person is left at it."""
    hand = _hand(engine)
    if hand.over:
        _record_hand(table, hand, notes)
    for seat in seats:
        # Each decision of his has its own time, from when it became his to make.
        due = seat.present and hand.to_act == seat.number and not hand.over
        if due or seat.deadline is not None:
            seat.deadline = _deadline(table) if due else None
            seat.save(update_fields=["deadline"])
    closing: dict[str, Any] = {}
    if not any(s.user_id is not None and s.left is None for s in seats):
        closing = {"status": PeopleTable.Status.CLOSED, "closed": timezone.now()}
        bots = False
    _bump(
        table,
        state=stored_state(engine),
        notes=notes,
        bot_due=_bot_due(table, bots),
        **closing,
    )
    if fields:
        table.save(update_fields=list(fields))


def _record_hand(table: PeopleTable, hand: Hand, notes: list[Note]) -> None:
    data = hand.to_dict()
    PeopleHand.objects.update_or_create(
        table=table,
        number=hand.setup.hand_number,
        defaults={
            "setup": data["setup"],
            "log": data["log"],
            "notes": notes,
            "balances": list(hand.balances),
            "looed_seats": sorted(set(hand.looed)),
            "finished": timezone.now(),
        },
    )


def _deadline(table: PeopleTable) -> Any:
    return timezone.now() + timedelta(seconds=table.seconds_per_move)


# -- together at the table: presence, latecomers, rematch, the host's say, phrases -----------
#
# Each change below is checked against the table as stored (:func:`_read`), refused with a
# sentence and nothing changed, else stored under the row lock with the version bumped and
# published (:func:`_storing`, :func:`_bump`). Presence alone bumps nothing (:func:`seen`).

#: A person's presence is written at most once every ``SEEN_EVERY`` seconds; he is "online"
#: while he showed up within the last ``ONLINE_SECONDS`` (his page's live stream does at
#: every heartbeat, 15 s by default).
SEEN_EVERY = 20
ONLINE_SECONDS = 60
#: How many of the phrases said at a table its pages show (the latest first).
PHRASES_SHOWN = 5

HAND_IN_PLAY = "A hand is being played: a seat can be taken only once it is over."
GAME_OVER = "This game is over: there is no deal left to play at this table."
NOT_A_COMPUTER_SEAT = "A person has that seat: choose a computer player's seat."
TOOK_SEAT = "You have taken this seat: you play it from the next deal."
REMOVED_YOU = "The host gave your seat at this table to a computer player."
NO_PERSON_THERE = "No person plays that seat."
OWN_SEAT = "That is your own seat: to give it up, leave the table."
REMOVED = "That seat is a computer player's now."
CLOSED = "The table is closed. Its finished hands stay, for replays."
REMATCH_NOT_YET = (
    "A new game with the same people can be opened once a hand is over, or the table closed."
)
REMATCH_OPEN = "A new table for these people is open already."
REMATCHED = (
    "A new table for the same people: each of them is offered a seat at it; start it when "
    "they have sat."
)
NO_SUCH_PHRASE = "Choose one of the phrases offered."


def seen(table_id: int, user_id: int | None) -> bool:
    """The person ``user_id`` showed up at table ``table_id`` (a page, a form, his page's live
    stream's heartbeat): his seat's ``seen`` is written, at most once every
    :data:`SEEN_EVERY` seconds (one UPDATE, none when written lately). Whether it wrote.

    It bumps no version: a person opening his page must not make the forms open on the
    others' pages out of date. His presence shows on their pages at their next redraw."""
    if user_id is None:
        return False
    now = timezone.now()
    lately = now - timedelta(seconds=SEEN_EVERY)
    rows = PeopleSeat.objects.filter(table_id=table_id, user_id=user_id, left__isnull=True)
    return bool(rows.filter(Q(seen__isnull=True) | Q(seen__lt=lately)).update(seen=now))


def online(seat: PeopleSeat, now: Any = None) -> bool:
    """Whether the person at ``seat`` showed up within the last :data:`ONLINE_SECONDS`."""
    now = now or timezone.now()
    return seat.seen is not None and seat.seen >= now - timedelta(seconds=ONLINE_SECONDS)


def plays_yet(table: PeopleTable, seat: PeopleSeat) -> bool:
    """Whether the person at ``seat`` plays the table's current deal: a latecomer plays from
    the deal after the one he sat down at (he is shown it as a spectator, since the computer
    player's cards of that seat were never his to see)."""
    if seat.since_hand is None or table.state is None:
        return True
    return int(table.state.get("hand_number", 0)) >= seat.since_hand


def may_replay(seat: PeopleSeat, number: int) -> bool:
    """Whether the person at ``seat`` may replay the table's finished deal ``number``: those
    he played (a latecomer none before he sat)."""
    return seat.since_hand is None or number >= seat.since_hand


@dataclass(frozen=True)
class Here:
    """A person at the table, for the page: his seat, his name, whether he is here now."""

    number: int
    name: str
    online: bool
    mine: bool


@dataclass(frozen=True)
class Said:
    """A phrase said at the table, and who said it."""

    name: str
    text: str
    mine: bool


@dataclass(frozen=True)
class Together:
    """What the table's page shows of its people together (``templates/games/people/
    _together.html``): who is here (``here``), the last phrases said (``said``), whether the
    viewer may say one (``may_say``, ``phrases`` the choices), the new table opened for the
    same people (``rematch_page`` for its host, ``rematch_join``: its invitation, for a
    person still at this table);
    for the host's own forms: whether a rematch may be opened (``may_rematch``), the people
    whose seats he may give to a computer player (``removable``), whether he may close it."""

    here: list[Here]
    said: list[Said]
    may_say: bool
    phrases: list[tuple[str, str]]
    rematch_page: str
    rematch_join: str
    may_rematch: bool
    removable: list[Here]
    may_close: bool


def together(table: PeopleTable, seat: PeopleSeat | None) -> Together:
    """What ``table``'s page shows the person at ``seat`` (None: a spectator) of the people at
    the table."""
    now = timezone.now()
    seats = list(table.seats.select_related("user"))
    here = [
        Here(s.number, s.user.get_username(), online(s, now), seat is not None and s == seat)
        for s in seats
        if s.user is not None and s.left is None
    ]
    said = [
        Said(p.name, p.get_phrase_display(), seat is not None and p.number == seat.number)
        for p in table.phrases.all()[:PHRASES_SHOWN]
    ]
    is_open = table.status != PeopleTable.Status.CLOSED
    host_seat = next((s.number for s in seats if s.user_id == table.host_id), None)
    still = seat is not None and seat.left is None
    new = None
    if table.rematch_id is not None:
        new = PeopleTable.objects.filter(pk=table.rematch_id).only("pk", "code").first()
    return Together(
        here=here,
        said=said,
        may_say=still and is_open,
        phrases=list(PeoplePhrase.Phrase.choices),
        rematch_page=new.get_absolute_url() if new else "",
        rematch_join=new.join_url if new and still else "",
        may_rematch=_may_rematch(table),
        removable=[h for h in here if h.number != host_seat],
        may_close=is_open,
    )


def _between_hands(table: PeopleTable) -> bool:
    return table.status == PeopleTable.Status.PLAYING and table.hand_over


def _may_rematch(table: PeopleTable) -> bool:
    """A new game for the same people: once a hand is over, or the table closed after it
    started; one a table."""
    if table.rematch_id is not None:
        return False
    if table.status == PeopleTable.Status.CLOSED:
        return table.started is not None
    return _between_hands(table)


# -- a latecomer takes a computer player's seat between hands


@dataclass(frozen=True)
class Latecomer:
    """What a started table's invitation offers ``user``: the computer players' seats he may
    take now (``seats``: number and label), else why not (``reason``)."""

    seats: list[tuple[int, str]]
    reason: str
    version: int


def latecomer(table: PeopleTable, user: Any) -> Latecomer:
    """The seats of a started ``table`` that ``user`` may take now, or why none."""
    seats = list(table.seats.all())
    try:
        _may_take(table, user, seats)
    except Refused as refusal:
        return Latecomer([], str(refusal), table.version)
    free = [
        (s.number, f"Seat {s.number + 1}: a computer player")
        for s in seats
        if s.user_id is None or s.left is not None
    ]
    return Latecomer(free, "" if free else TABLE_FULL, table.version)


def _may_take(table: PeopleTable, user: Any, seats: list[PeopleSeat]) -> None:
    """:class:`Refused` unless ``user`` may take a computer player's seat at ``table`` now."""
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None:
        raise Refused(REMOVED_YOU if mine.removed else ALREADY_SEATED)
    if not may_sit(table, user):
        raise Refused(NOT_INVITED)
    if table.status == PeopleTable.Status.CLOSED:
        raise Refused(TABLE_CLOSED)
    if table.status != PeopleTable.Status.PLAYING:
        raise Refused(NOT_STARTED)
    if not table.hand_over:
        raise Refused(HAND_IN_PLAY)
    if table.to_engine().session_over:
        raise Refused(GAME_OVER)


def take_seat(table: PeopleTable, user: Any, version: int, seat_number: int | None) -> Done:
    """A latecomer takes a computer player's seat (one never a person's, or one whose person
    left) between hands: he plays it from the next deal; the hand just over is not changed.
    ``seat_number`` None: the first such seat. The page's ``version`` is checked: a deal
    since refuses it (:class:`Stale`)."""
    read, seats = _read(table.pk, version)
    _may_take(read, user, seats)
    free = [s for s in seats if s.user_id is None or s.left is not None]
    if seat_number is None:
        if not free:
            raise Refused(TABLE_FULL)
        seat = free[0]
    else:
        found = next((s for s in seats if s.number == seat_number), None)
        if found is None:
            raise Refused(NO_SUCH_SEAT)
        if found not in free:
            raise Refused(NOT_A_COMPUTER_SEAT)
        seat = found
    seat.user, seat.left, seat.away, seat.removed = user, None, False, False
    seat.deadline, seat.seen = None, timezone.now()
    seat.since_hand = int(read.state["hand_number"]) + 1 if read.state else None
    with _storing(read):
        seat.save(
            update_fields=["user", "left", "away", "removed", "deadline", "seen", "since_hand"]
        )
        _bump(read)
    return Done(read, [TOOK_SEAT])


# -- the host: a new game for the same people, a seat given to a computer player, closing


def rematch(table: PeopleTable, user: Any, version: int) -> Done:
    """The host opens a new table for the same people (once a hand is over, or the table
    closed): its settings, the host seated if he sat here, the people still at this table
    invited (only they may sit there), each of them offered a seat on this table's page;
    nobody else is seated: each chooses to sit, and the host starts it. ``Done.table`` is
    the new table."""
    read, seats = _read(table.pk, version)
    if user.pk != read.host_id:
        raise Refused(HOST_ONLY)
    if read.rematch_id is not None:
        raise Refused(REMATCH_OPEN)
    if not _may_rematch(read):
        raise Refused(REMATCH_NOT_YET)
    still = [s.user for s in seats if s.user is not None and s.left is None]
    with _storing(read):
        new = open_table(
            user,
            game=read.game,
            rules=read.rules,
            players=read.players,
            opponents=read.opponents,
            options=read.options,
            seconds_per_move=read.seconds_per_move,
            host_sits=any(s.user_id == user.pk for s in seats),
            members_only=True,
            laws=read.laws,
        )
        invite(new, still)
        if read.members_only:
            invite(new, read.invited.all())
        _bump(read, rematch=new)
    return Done(new, [REMATCHED])


def remove(table: PeopleTable, user: Any, version: int, seat_number: int) -> Done:
    """The host gives a person's seat to a computer player for good (as if he had left; he
    is told so on his next page, and may replay the hands he played). Before the start the
    seat stays his, empty, until a computer player takes it at the start. In a hand, the
    computer player plays on at once if it is the seat's turn."""
    read, seats = _read(table.pk, version)
    if user.pk != read.host_id:
        raise Refused(HOST_ONLY)
    if read.status == PeopleTable.Status.CLOSED:
        raise Refused(TABLE_CLOSED)
    seat = next((s for s in seats if s.number == seat_number), None)
    if seat is None:
        raise Refused(NO_SUCH_SEAT)
    if seat.user_id is None or seat.left is not None:
        raise Refused(NO_PERSON_THERE)
    if seat.user_id == user.pk:
        raise Refused(OWN_SEAT)
    seat.left, seat.removed, seat.deadline = timezone.now(), True, None
    engine = None
    bots = False
    if read.status == PeopleTable.Status.PLAYING and not read.hand_over:
        # His seat's computer player decides as the next step if it is its turn (advance).
        engine = read.to_engine()
        bots = _bots_turn(autoplay(read, seats), engine, list(read.notes))
    with _storing(read):
        seat.save(update_fields=["left", "removed", "deadline"])
        if engine is not None:
            _store(read, seats, engine, list(read.notes), bots=bots)
        else:
            _bump(read)
    _follow(read)
    return Done(read, [REMOVED])


def close(table: PeopleTable, user: Any, version: int) -> Done:
    """The host closes the table: every page says so, nothing more is played (a hand in play
    is not kept), the finished hands stay for their replays."""
    read, seats = _read(table.pk, version)
    if user.pk != read.host_id:
        raise Refused(HOST_ONLY)
    if read.status == PeopleTable.Status.CLOSED:
        raise Refused(TABLE_CLOSED)
    with _storing(read):
        PeopleSeat.objects.filter(table=read, deadline__isnull=False).update(deadline=None)
        _bump(read, status=PeopleTable.Status.CLOSED, closed=timezone.now(), bot_due=None)
    return Done(read, [CLOSED])


# -- fixed phrases


def say_phrase(table: PeopleTable, user: Any, phrase: str) -> Done:
    """A person at the table says one of the fixed phrases (:class:`PeoplePhrase.Phrase`:
    no free text) to the others; its pages show the last few, each with who said it."""
    if phrase not in PeoplePhrase.Phrase.values:
        raise Refused(NO_SUCH_PHRASE)

    def change() -> Done:
        read, seats = _read(table.pk, None)
        seat = _seated(seats, user)
        if read.status == PeopleTable.Status.CLOSED:
            raise Refused(TABLE_CLOSED)
        with _storing(read):
            PeoplePhrase.objects.create(
                table=read, number=seat.number, name=user.get_username(), phrase=phrase
            )
            _bump(read)
        return Done(read)

    return _again(change)
