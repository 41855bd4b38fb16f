"""Together at a table for people: who is here now, a latecomer taking a computer player's
seat between hands, the host's rematch, removal and closing, and the fixed phrases. Each
change is the service's kind (:mod:`games.people.service`): checked against the table as
stored, refused with a sentence and nothing changed, else stored under the row lock with the
version bumped and published.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import (
    PeoplePhrase,
    PeopleSeat,
    PeopleTable,
)
from games.people.outcomes import (
    ALREADY_SEATED,
    HOST_ONLY,
    NO_SUCH_SEAT,
    NOT_INVITED,
    NOT_STARTED,
    TABLE_CLOSED,
    TABLE_FULL,
    Done,
    Refused,
)
from games.people.service import (
    _again,
    _bots_turn,
    _bump,
    _follow,
    _read,
    _seated,
    _store,
    _storing,
    autoplay,
    invite,
    may_sit,
    open_table,
)

# -- together at the table: presence, latecomers, rematch, the host's say, phrases -----------
#
# Each change below is checked against the table as stored (:func:`_read`), refused with a
# sentence and nothing changed, else stored under the row lock with the version bumped and
# published (:func:`_storing`, :func:`_bump`). Presence alone bumps nothing (:func:`seen`), and
# a phrase only the version the pages redraw on, not the one their forms carry: a person's form
# open when another says "Well played" is still good.

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
        return Latecomer([], str(refusal), table.state_version)
    free = [
        (s.number, f"Seat {s.number + 1}: a computer player")
        for s in seats
        if s.user_id is None or s.left is not None
    ]
    return Latecomer(free, "" if free else TABLE_FULL, table.state_version)


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
    no free text) to the others; its pages show the last few, each with who said it. Only
    the pages are drawn again: the forms open on them stay good (``_bump``'s ``forms``)."""
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
            _bump(read, forms=False)
        return Done(read)

    return _again(change)
