"""The page of a table for people as one typed model: :class:`PeopleBar`, who sits where and
what the viewer may do at the table besides his decisions, with the felt's
:class:`~games.table.page.TablePage` once the table has started; built in one place
(:func:`people_bar`) for a person at his seat and for a spectator alike.

The bar is frozen and decides everything its template shows (``templates/games/people/
table.html``): whether the viewer may start the table, show every hand, leave it, whether his
time ran out, and what the page says of each seat. The template reads ``bar.seats``,
``bar.urls``, ``bar.may_start``... and decides nothing but how to show them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from games.links import RuleLink, RuleLinks
from games.loo.cards import Card
from games.loo.hand import Hand, IllegalAction
from games.loo.view import PlayerView, view_for
from games.models import PeopleSeat, PeopleTable
from games.naming import seat_label
from games.table import presenting
from games.table.forms import ActionForm
from games.table.page import Alerts, Offers, TablePage, TableUrls


@dataclass(frozen=True)
class PeopleSeatRow:
    """A seat as the bar lists it: ``place`` is where it sits from the viewer's chair ("You",
    "Left"; a spectator's: seat 0's), ``name`` the person in it ("" for a computer player's
    or, before the start, a free seat)."""

    number: int
    place: str
    name: str
    away: bool
    left: bool
    mine: bool


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
    #: Without JavaScript the page comes again by itself (never while his form is open).
    refresh: bool
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
    #: Who is to act, named for a spectator's heading ("ben", "Left (a computer player)").
    to_act_name: str
    #: Every hand of this deal as dealt, (place, cards), once the host has shown them.
    revealed: list[tuple[str, list[Card]]]
    view: PlayerView | None
    page: TablePage | None

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
    """Who sits where, named from the viewer's chair (a spectator's: seat 0's)."""
    me = mine.number if mine is not None else 0
    return [
        PeopleSeatRow(
            number=s.number,
            place=seat_label(s.number, table.players, me=me),
            name=s.user.get_username() if s.user else "",
            away=s.away,
            left=s.left is not None,
            mine=mine is not None and s.pk == mine.pk,
        )
        for s in table.seats.select_related("user")
    ]


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
    """The page the person at ``seat`` (None: a spectator) sees of ``table``; ``viewer_pk``:
    his account's (the host's forms are his alone)."""
    urls = people_urls(table)
    seats = seat_rows(table, seat)
    status = table.status
    is_host = viewer_pk is not None and viewer_pk == table.host_id
    felt = None
    if table.state is not None:
        felt = _felt(table, seat, seats, urls, form, refusal, error, flashed)
    view = felt.page.view if felt is not None else None
    return PeopleBar(
        table=table,
        seats=seats,
        urls=urls,
        flashed=list(flashed),
        bar_alerts=felt is None or seat is None,
        # Without JavaScript the page comes again by itself while nothing is his to decide.
        refresh=felt.refresh if felt is not None else status == PeopleTable.Status.WAITING,
        spectator=felt is not None and seat is None,
        waiting=status == PeopleTable.Status.WAITING,
        closed=status == PeopleTable.Status.CLOSED,
        may_start=status == PeopleTable.Status.WAITING and is_host,
        away=seat is not None and seat.away and seat.left is None,
        may_reveal=felt is not None
        and status == PeopleTable.Status.PLAYING
        and felt.page.view.phase == "over"
        and is_host
        and not felt.revealed,
        may_leave=seat is not None and seat.left is None and status != PeopleTable.Status.CLOSED,
        to_act_name=felt.to_act_name if felt is not None else "",
        revealed=felt.revealed if felt is not None else [],
        view=view,
        page=felt.page if felt is not None else None,
    )


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
    me = seat.number if seat is not None else 0
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
    revealed = _revealed(table, hand, me)
    if seat is None:
        to_act_name = ""
        if hand.to_act is not None:
            named = seats[hand.to_act]
            to_act_name = named.name or f"{named.place} (a computer player)"
        page = _spectator(table, hand, links, offers, names)
        return _Felt(page, True, to_act_name, revealed)
    view = view_for(hand, me)
    page = presenting.table_page(
        view,
        hand,
        links,
        notes=table.notes,
        version=table.version,
        offers=offers,
        form=form,
        refusal=refusal,
        laws=table.laws,
        first_dealer=engine.first_dealer_brief if hand.setup.hand_number == 1 else None,
        alerts=Alerts(flashed=list(flashed), error=error),
        names=names,
    )
    refresh = view.options is None or view.options.kind == "none" or seat.away
    return _Felt(page, refresh, "", revealed)


def _revealed(table: PeopleTable, hand: Hand, me: int) -> list[tuple[str, list[Card]]]:
    """Every hand as dealt, when the host has shown this finished deal to the table."""
    if not hand.over or table.revealed != hand.setup.hand_number:
        return []
    return [
        (seat_label(n, table.players, me=me), list(cards)) for n, cards in enumerate(hand.dealt)
    ]


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
        public, hand, links, notes=[], version=table.version, offers=offers, names=names
    )
