"""Tables where people play together: the service the views (and a class's tables, in
``lessons``) call. Every change is made here. It reads the table, checks what the caller's
page showed (its forms' ``state_version``: a phrase leaves them good), and works out the
change *outside* any transaction: an expert computer player decides in 0.1 to 0.6 s, and
SQLite's write lock, taken when a transaction begins, would hold up every writer meanwhile.
Then a short transaction locks the table's row (``select_for_update``), finds its state
unchanged (else the change is refused as stale, or worked out again where no page's version
was asked: :func:`_again`), stores the engine's new state with the version bumped, and tells
the live pages once it has committed (``games.live.bus.publish_on_commit``). A refusal
raises :class:`Refused` with the sentence to show, and changes nothing.

A person's decision is stored and told alone: the computer players after him decide later,
each as a change of its own (:func:`advance`), ``PeopleTable.bot_pause_ms`` after the change
before it (``PeopleTable.bot_due`` says when). Who makes them: the process that stored the
change, by its driver (:mod:`games.people.driver`), and whoever finds one overdue: the
table's live streams (``games.people.live``), a request for its page, the ``timeouts``
command. Of those that find a decision due at once, one claims it (:func:`_bot_step`) and the
others leave it; a decision stored after another change got there first is dropped.

The hooks for class tables (``games`` never imports ``lessons``): :func:`open_table` (with
``members_only``), :func:`invite`, :func:`reserve` (a teacher seats a student),
:func:`may_watch` (its host watches: ``/play/people/<pk>/watch/``), :func:`reveal`,
:func:`tables_for` and :func:`tables_by_ids` (a class keeps its tables' ids).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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
    PeopleSeat,
    PeopleTable,
    deal_seed,
    new_code,
    new_later_seed,
    new_seed,
    stored_state,
)
from games.naming import say
from games.people import driver, outcomes
from games.people.outcomes import ActionRefused, Done, Refused
from games.table import presenting
from games.table.forms import ActionForm

T = TypeVar("T")

#: How long a computer player's decision, once a process has claimed it, is left to that
#: process to make (it takes well under a second) before another may make it instead: the
#: one that claimed it died meanwhile.
CLAIM_SECONDS = 10

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
        raise Refused(outcomes.NO_SUCH_CODE)
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
        raise Refused(outcomes.NOT_INVITED)
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
            raise Refused(outcomes.TABLE_CLOSED)
        if locked.status != PeopleTable.Status.WAITING:
            raise Refused(outcomes.TABLE_STARTED)
        seats = list(locked.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise Refused(outcomes.ALREADY_SEATED)
        free = [s for s in seats if s.user_id is None]
        if seat_number is None:
            if not free:
                raise Refused(outcomes.TABLE_FULL)
            seat = free[0]
        else:
            seat = next((s for s in seats if s.number == seat_number), None)
            if seat is None:
                raise Refused(outcomes.NO_SUCH_SEAT)
            if seat.user_id is not None:
                raise Refused(outcomes.TABLE_FULL if not free else outcomes.SEAT_TAKEN)
        seat.user = user
        seat.save(update_fields=["user"])
        _bump(locked)
    table.version, table.state_version = locked.version, locked.state_version
    return seat


def _bump(table: PeopleTable, *, forms: bool = True, **fields: Any) -> None:
    """Store ``fields`` of the locked ``table`` with its version bumped, and tell its live
    pages once the transaction commits. ``forms``: the change puts the pages' forms out of
    date (all but a phrase), so ``state_version`` follows."""
    table.version += 1
    if forms:
        table.state_version = table.version
    for name, value in fields.items():
        setattr(table, name, value)
    table.save(update_fields=["version", "state_version", "updated", *fields])
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
    its ``state_version`` (what its forms carry) is not ``version`` (None: not checked)."""
    table = PeopleTable.objects.get(pk=pk)
    if version is not None and version != table.state_version:
        raise Stale
    return table, list(table.seats.select_related("user"))


@contextmanager
def _storing(table: PeopleTable) -> Iterator[None]:
    """A short transaction to store a change worked out from ``table`` as :func:`_read` read
    it: the row locked, and :class:`Stale` (nothing stored) if another change was stored
    since (a phrase said meanwhile is none: ``table.version`` is only brought up to date)."""
    with transaction.atomic():
        stored = PeopleTable.objects.select_for_update().values_list("version", "state_version")
        version, state_version = stored.get(pk=table.pk)
        if state_version != table.state_version:
            raise Stale
        table.version = version
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
        raise Refused(outcomes.NOT_SEATED)
    if seat.left is not None:
        raise Refused(outcomes.YOU_LEFT)
    return seat


def _playing(table: PeopleTable) -> Table:
    if table.status == PeopleTable.Status.CLOSED:
        raise Refused(outcomes.TABLE_CLOSED)
    if table.status != PeopleTable.Status.PLAYING:
        raise Refused(outcomes.NOT_STARTED)
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
        raise Refused(outcomes.HOST_ONLY)
    if read.status != PeopleTable.Status.WAITING:
        raise Refused(outcomes.TABLE_STARTED if read.status == "playing" else outcomes.TABLE_CLOSED)
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
    return Done(read, [outcomes.STARTED])


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
        raise Refused(outcomes.YOU_ARE_AWAY)
    hand = _hand(engine)
    form = ActionForm(view_for(hand, seat.number), data)
    if not form.is_valid():
        raise ActionRefused(form)
    action = form.action()
    if action is None:
        raise Refused(outcomes.NO_WAITING)
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
        raise Refused(outcomes.HAND_NOT_OVER)
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
        raise Refused(outcomes.HOST_ONLY)
    hand = _hand(_playing(read))
    if not hand.over:
        raise Refused(outcomes.HAND_NOT_OVER)
    with _storing(read):
        _bump(read, revealed=hand.setup.hand_number)
    return Done(read, [outcomes.REVEALED])


def back(table: PeopleTable, user: Any) -> Done:
    """A person whose time ran out takes his seat back (from any device: no version asked);
    his next turn is his again."""

    def change() -> Done:
        read, seats = _read(table.pk, None)
        seat = _seated(seats, user)
        if not seat.away:
            raise Refused(outcomes.NOT_AWAY)
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
        return Done(read, [outcomes.BACK])

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
            return Done(read, [outcomes.LEFT])
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
        return Done(read, [outcomes.LEFT])

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

    It is claimed first (``bot_due`` moved on by ``CLAIM_SECONDS``, the state unchanged:
    nothing the table shows), so that of the processes that find it due at once only one
    works it out; then it is worked out outside any transaction. Stored only if the table
    has not changed meanwhile (a person came back, left, or another process's step got there
    first): else it is dropped, and whoever stored that change saw to what falls due after
    it."""
    due = read.bot_due
    if due is None or read.status != PeopleTable.Status.PLAYING or by is not None and due > by:
        return False
    claim = timezone.now() + timedelta(seconds=CLAIM_SECONDS)
    unchanged = PeopleTable.objects.filter(pk=read.pk, state_version=read.state_version)
    if not unchanged.filter(bot_due=due).update(bot_due=claim):
        return False
    unclaimed = unchanged.filter(bot_due=claim)
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
