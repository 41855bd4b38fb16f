"""The page of a table for people as one typed model: :class:`PeopleBar`, who sits where and
what the viewer may do at the table besides his decisions, with the felt's
:class:`~games.table.page.TablePage` once the table has started; built in one place
(:func:`people_bar`) for a person at his seat and for a spectator alike.

The bar is frozen and decides everything its template shows (``templates/games/people/
table.html``): whether the viewer may start the table, show every hand, leave it, whether his
time ran out, and what the page says of each seat. The template reads ``bar.seats``,
``bar.urls``, ``bar.may_start``... and decides nothing but how to show them.

**Time.** The person whose turn it is has until his seat's ``deadline``: the page shows it
(:class:`Clock`) as the time left when it was made, which ``static/js/clock.js`` counts down,
and as the time of day it ends (a page without JavaScript comes again then:
:attr:`PeopleBar.refresh_seconds`). When it has passed a computer player decides for him and
plays his seat until he is back (``games.people.service.expire``); his page says so beside the
felt (:attr:`PeopleBar.away_text`) with the button that takes his seat back, and a decision he
sends after it is refused with :data:`LATE`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from games.links import RuleLink, RuleLinks
from games.loo.cards import Card
from games.loo.hand import Hand, IllegalAction
from games.loo.view import PlayerView, view_for
from games.models import PeopleSeat, PeopleTable
from games.naming import seat_label
from games.people import together
from games.table import presenting
from games.table.forms import ActionForm
from games.table.page import Alerts, Offers, TablePage, TableUrls

#: Every how many seconds a page without JavaScript comes again while nothing is his to do.
REFRESH_SECONDS = 5

#: The felt's heading once the table is closed (a hand in play then is not kept).
CLOSED = "This table is closed: nothing more is played at it."

#: The felt's heading for a person whose time ran out, at his seat's turn.
AWAY_TURN = "A computer player decides for you."

#: A decision sent after the sender's time ran out (a page without JavaScript, left open).
LATE = "What you sent came after your time ran out: it was not played."


def away_text(ran_out: datetime | None) -> str:
    """What the page of a person whose time ran out says beside the felt, with the button
    that takes his seat back."""
    if ran_out is None:
        return "Your time ran out, so a computer player is playing your seat."
    return (
        f"Your time ran out at {clock_time(ran_out)}, so a computer player played for you, "
        "and plays your seat until you are back."
    )


def clock_time(moment: datetime) -> str:
    """A moment as the time of day on the site's clock ("14:32")."""
    return timezone.localtime(moment).strftime("%H:%M")


def minutes_seconds(seconds: int) -> str:
    """A time left as a clock shows it ("1:05")."""
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Clock:
    """The time left to the person whose turn it is: ``left`` seconds when the page was made
    (``left_text``, "1:45", counted down in the page by ``static/js/clock.js``) until
    ``deadline`` (``until``: "14:32" on the site's clock). ``mine``: the viewer's own."""

    whose: str
    mine: bool
    deadline: datetime
    until: str
    left: int
    left_text: str


@dataclass(frozen=True)
class PeopleSeatRow:
    """A seat as the bar lists it: ``place`` is where it sits from the viewer's chair ("You",
    "Left"), or "Seat 2" for a viewer who has no seat there (a spectator, or a person who left
    it); ``name`` the person in it ("" for a computer player's or, before the start, a free
    seat). ``mine``: the viewer's seat (or the one he left); ``removed``: the host gave it to
    a computer player (``left`` too)."""

    number: int
    place: str
    #: How the bar names the seat: ``place``, with its number before the start ("You (seat
    #: 1)").
    label: str
    name: str
    away: bool
    left: bool
    mine: bool
    removed: bool = False


@dataclass(frozen=True)
class PeopleUrls:
    """Where the table's forms post, its stream and its page."""

    act: str
    next: str
    leave: str
    start: str
    back: str
    reveal: str
    stream: str
    table: str


@dataclass(frozen=True)
class PeopleBar:
    """What the table's page shows besides the felt, for the person at ``seat`` (None: a
    spectator, the host who does not sit or a person who left), and the felt itself
    (``page``, None before the start)."""

    table: PeopleTable
    seats: list[PeopleSeatRow]
    urls: PeopleUrls
    #: The flashed messages, each (text, level, rule): the felt shows them while a person
    #: plays at his seat, the bar otherwise (``bar_alerts``).
    flashed: list[tuple[str, str, RuleLink | None]]
    bar_alerts: bool
    spectator: bool
    waiting: bool
    closed: bool
    #: The host starts a waiting table.
    may_start: bool
    #: His time ran out: a computer player plays his seat until he is back.
    away: bool
    #: The host may show every hand of the deal just over.
    may_reveal: bool
    #: He may leave the table (he sits there and has not left).
    may_leave: bool
    #: Why the viewer no longer sits at the table, if he sat there (he watches it now, as a
    #: spectator): he left it, or the host gave his seat away.
    gone: str
    #: What his page says beside the felt while his time has run out (``away``).
    away_text: str
    #: The time left to the person whose turn it is (None: a computer player's turn, or none).
    clock: Clock | None
    #: Without JavaScript the page comes again after this many seconds (None: it does not):
    #: every few seconds while he has nothing to decide, at his deadline while he has.
    refresh_seconds: int | None
    #: Who is to act, named for a spectator's heading ("ben", "Seat 3 (a computer player)").
    to_act_name: str
    #: Every hand of this deal as dealt, (place, cards), once the host has shown them.
    revealed: list[tuple[str, list[Card]]]
    view: PlayerView | None
    page: TablePage | None
    #: Who is here now, the fixed phrases said, the host's forms (games/people/_together.html).
    together: together.Together | None = None

    def context(self) -> dict[str, Any]:
        """The template's context: the bar, and the felt's page (``page``, None before the
        start) that the practice table's partials read."""
        return {"bar": self, "page": self.page}


def people_urls(table: PeopleTable) -> PeopleUrls:
    return PeopleUrls(
        **{
            name: reverse(f"games:people-{name}", args=[table.pk])
            for name in ("act", "next", "leave", "start", "back", "reveal", "stream", "table")
        }
    )


def seat_rows(table: PeopleTable, mine: PeopleSeat | None) -> list[PeopleSeatRow]:
    """Who sits where, named from the viewer's chair; by their numbers for a viewer who has
    no seat there (or has left his): no seat is "You" but his own."""
    return [row for row, _deadline in _seat_rows(table, mine)]


def _seat_rows(
    table: PeopleTable, mine: PeopleSeat | None
) -> list[tuple[PeopleSeatRow, datetime | None]]:
    """:func:`seat_rows`, each with its seat's deadline."""
    sitting = mine is not None and mine.left is None
    rows = []
    for s in table.seats.select_related("user"):
        label = place = f"Seat {s.number + 1}"
        if sitting and mine is not None:
            label = place = seat_label(s.number, table.players, me=mine.number)
            if table.status == PeopleTable.Status.WAITING:
                label = f"{place} (seat {s.number + 1})"
        row = PeopleSeatRow(
            number=s.number,
            place=place,
            label=label,
            name=s.user.get_username() if s.user else "",
            away=s.away,
            left=s.left is not None,
            mine=mine is not None and s.pk == mine.pk,
            removed=s.removed,
        )
        rows.append((row, s.deadline))
    return rows


def people_bar(
    table: PeopleTable,
    seat: PeopleSeat | None,
    *,
    viewer_pk: int | None,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    error: str = "",
    flashed: Sequence[tuple[str, str, RuleLink | None]] = (),
) -> PeopleBar:
    """The page the person at ``seat`` (None: a spectator; a person who left the table watches
    it as one) sees of ``table``; ``viewer_pk``: his account's (the host's forms are his
    alone)."""
    urls = people_urls(table)
    rows = _seat_rows(table, seat)
    seats = [row for row, _deadline in rows]
    sitting = seat if seat is not None and seat.left is None else None
    # A latecomer watches the deal he sat down after: its cards were a computer player's.
    playing = sitting if sitting is not None and together.plays_yet(table, sitting) else None
    status = table.status
    is_host = viewer_pk is not None and viewer_pk == table.host_id
    felt = None
    if table.state is not None:
        felt = _felt(table, playing, seats, urls, form, refusal, error, flashed)
        if status == PeopleTable.Status.CLOSED:
            # On the first screen, where whose turn it was stood: nothing more is played.
            felt = dataclasses.replace(felt, page=dataclasses.replace(felt.page, status=CLOSED))
    away = sitting is not None and sitting.away
    # Only the person to act has a deadline, and only while a hand is played.
    clock = _clock(rows, playing) if felt is not None else None
    return PeopleBar(
        table=table,
        seats=seats,
        urls=urls,
        flashed=list(flashed),
        bar_alerts=felt is None or playing is None,
        spectator=felt is not None and playing is None,
        waiting=status == PeopleTable.Status.WAITING,
        closed=status == PeopleTable.Status.CLOSED,
        may_start=status == PeopleTable.Status.WAITING and is_host,
        away=away,
        may_reveal=felt is not None
        and status == PeopleTable.Status.PLAYING
        and felt.page.view.phase == "over"
        and is_host
        and not felt.revealed,
        may_leave=sitting is not None and status != PeopleTable.Status.CLOSED,
        gone=_gone(seat),
        away_text=away_text(sitting.ran_out) if sitting is not None and away else "",
        clock=clock,
        refresh_seconds=_refresh(status, felt, clock),
        to_act_name=felt.to_act_name if felt is not None else "",
        revealed=felt.revealed if felt is not None else [],
        view=felt.page.view if felt is not None else None,
        page=felt.page if felt is not None else None,
        together=together.together(table, sitting),
    )


def _gone(seat: PeopleSeat | None) -> str:
    """:attr:`PeopleBar.gone` for the viewer at ``seat``."""
    if seat is None or seat.left is None:
        return ""
    if seat.removed:
        return together.REMOVED_YOU
    return "You left this table: a computer player has your seat."


def _clock(
    rows: list[tuple[PeopleSeatRow, datetime | None]], sitting: PeopleSeat | None
) -> Clock | None:
    """The time left to the person whose turn it is (the seat with a deadline: only his has
    one, and only while the decision is his), for the viewer at ``sitting``."""
    due = [(row, deadline) for row, deadline in rows if deadline is not None]
    if not due:
        return None
    row, deadline = min(due, key=lambda pair: pair[1])
    left = max(0, int((deadline - timezone.now()).total_seconds() + 0.999))
    mine = sitting is not None and row.number == sitting.number
    if mine:
        whose = "Your turn"
    elif sitting is None:
        whose = f"{row.name} to act"
    else:  # "ann (left) to act"
        whose = f"{row.name} ({row.place.lower()}) to act"
    return Clock(
        whose=whose,
        mine=mine,
        deadline=deadline,
        until=clock_time(deadline),
        left=left,
        left_text=minutes_seconds(left),
    )


def _refresh(status: str, felt: _Felt | None, clock: Clock | None) -> int | None:
    """When a page without JavaScript comes again by itself (see :attr:`PeopleBar.
    refresh_seconds`): never while the person's form is open, but at his deadline, where the
    page says his time ran out."""
    if felt is None:
        return REFRESH_SECONDS if status == PeopleTable.Status.WAITING else None
    if felt.refresh:
        return REFRESH_SECONDS
    if clock is not None and clock.mine:
        return clock.left + 1
    return None


@dataclass(frozen=True)
class _Felt:
    """A started table's felt, and what the bar takes from it."""

    page: TablePage
    refresh: bool
    to_act_name: str
    revealed: list[tuple[str, list[Card]]]


def _felt(
    table: PeopleTable,
    seat: PeopleSeat | None,
    seats: list[PeopleSeatRow],
    urls: PeopleUrls,
    form: ActionForm | None,
    refusal: IllegalAction | None,
    error: str,
    flashed: Sequence[tuple[str, str, RuleLink | None]],
) -> _Felt:
    engine = table.to_engine()
    hand = engine.hand
    assert hand is not None
    links = RuleLinks.of(table.rules, table.game)
    # The felt's other seats are labelled with the names of the people in them ("Left
    # (ben)"): at a table of people one looks for a friend's seat, not for a place.
    names = {s.number: s.name for s in seats if s.name and not s.left}
    # The table's own "Leave the table" is in the seats' panel, at any time: the felt's (a
    # practice table's, between deals) is not offered twice.
    offers = Offers(
        urls=TableUrls(act=urls.act, next=urls.next),
        deals_on=table.status == PeopleTable.Status.PLAYING and not engine.session_over,
        replay_url=reverse("games:people-hand", args=[table.pk, hand.setup.hand_number])
        if hand.over
        else "",
        # Everyone declares in turn here: nobody waits for the others, or declares early.
        waits=False,
    )
    revealed = _revealed(table, hand, seats)
    if seat is None:
        to_act_name = ""
        if hand.to_act is not None:
            named = seats[hand.to_act]
            to_act_name = named.name or f"{named.place} (a computer player)"
        page = _spectator(table, hand, links, offers, names)
        return _Felt(page, True, to_act_name, revealed)
    view = view_for(hand, seat.number)
    if seat.away:
        # A computer player decides for him until he is back: no decision of his is offered
        # (one sent would be refused as late), and the heading does not say it is his turn.
        view = dataclasses.replace(view, options=None)
    page = presenting.table_page(
        view,
        hand,
        links,
        notes=table.notes,
        version=table.state_version,
        offers=offers,
        form=form,
        refusal=refusal,
        laws=table.laws,
        first_dealer=engine.first_dealer_brief if hand.setup.hand_number == 1 else None,
        alerts=Alerts(flashed=list(flashed), error=error),
        names=names,
    )
    if seat.away and hand.to_act == seat.number and not hand.over:
        page = dataclasses.replace(page, status=AWAY_TURN)
    refresh = view.options is None or view.options.kind == "none"
    return _Felt(page, refresh, "", revealed)


def _revealed(
    table: PeopleTable, hand: Hand, seats: list[PeopleSeatRow]
) -> list[tuple[str, list[Card]]]:
    """Every hand as dealt, when the host has shown this finished deal to the table, each
    named as the bar names its seat."""
    if not hand.over or table.revealed != hand.setup.hand_number:
        return []
    return [(seats[n].place, list(cards)) for n, cards in enumerate(hand.dealt)]


def _spectator(
    table: PeopleTable, hand: Hand, links: RuleLinks, offers: Offers, names: Mapping[int, str]
) -> TablePage:
    """What a spectator sees: the public table (the trick, the pool, the counters, whose
    turn), read from seat 0's chair with seat 0's own cards and choices taken away."""
    public = dataclasses.replace(
        view_for(hand, 0),
        hand=(),
        own_discards=(),
        options=None,
        peeked=(),
        irregularities=(),
        irregular_stands=False,
    )
    return presenting.table_page(
        public, hand, links, notes=[], version=table.state_version, offers=offers, names=names
    )
