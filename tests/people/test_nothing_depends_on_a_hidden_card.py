"""At a table for people nothing a page shows depends on a card its viewer cannot see: from
every seat and from a spectator (the approach of
tests/games/test_nothing_depends_on_a_hidden_card.py).

Three people and two computer players play a hand; at each person's decision, for each viewer
(every person's seat and the host who watches), a second table is dealt the same pack but for
two cards the viewer cannot see (one of them held by another player or in the miss), and the
same decisions are made there. Where the computer players met them with the same actions (what
the table sees), the viewer's table page, its live fragment and the table his stream's event
carries (games.people.live.render_table) must be the same, byte for byte but for the table's
number, its code, the CSRF tokens and the clock's times; and so must every page once the hand
is over, for two cards the viewer never saw.
"""

from __future__ import annotations

import dataclasses
import difflib
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.cards import PACK
from games.loo.hand import Hand
from games.loo.rng import deal_rng, shuffled_pack
from games.loo.view import view_for
from games.models import PeopleTable
from games.people import live, outcomes
from games.people import service as people
from tests.profile import size

from .conftest import decision, make_user, open_table

pytestmark = pytest.mark.django_db

SPECTATOR = -1
#: (game, rule set, seats, computer players, seed)
HANDS = [
    ("three-card", "hoffmann", 5, "beginner", 3),
    ("three-card", "britannica", 5, "sensible", 10),
    ("five-card", "hoffmann", 5, "beginner", 17),
    ("irish", "britannica", 5, "beginner", 4),
]
ENGINE_SEED = "hidden-card-test"
TRIES = 8
VIEWERS = (SPECTATOR, 0, 1, 2)


def _viewers_at(decision: int) -> tuple[int, ...]:
    """Whose pages are compared before the ``decision``-th decision of the hand: under
    ``LOO_TEST_PROFILE=ci`` (tests/profile.py) one viewer in turn, so that each is compared
    through the hand; under ``thorough`` every viewer at every decision. Once the hand is
    over, every viewer under both."""
    return size(ci=(VIEWERS[decision % len(VIEWERS)],), thorough=VIEWERS)


def _pack(seed: int) -> list[str]:
    return [c.code for c in shuffled_pack(deal_rng(seed, 1))]


def _table(users: list[Any], game: str, rules: str, seats: int, opponents: str) -> PeopleTable:
    """A table whose host watches, the others at seats 0, 1, 2; not started."""
    table = open_table(users[0], players=seats, host_sits=False, opponents=opponents)
    table.game, table.rules = game, rules
    table.save(update_fields=["game", "rules"])
    for user in users[1:]:
        people.sit(table, user)
    table.refresh_from_db()
    return table


def _deal(
    users: list[Any], spec: tuple[str, str, int, str], pack: list[str], posted: list[Any]
) -> PeopleTable | None:
    """A table dealt ``pack``, where the people made the decisions ``posted`` ((user, data));
    None if one of them was refused there (a card he does not hold in that deal: the table
    went otherwise)."""
    table = _table(users, *spec)
    people.start(table, users[0], table.version, first_pack=tuple(pack), engine_seed=ENGINE_SEED)
    for user, data in posted:
        table.refresh_from_db()
        try:
            people.act(table, user, {**data, "version": table.version})
        except outcomes.Refused:
            table.delete()
            return None
    table.refresh_from_db()
    return table


def _hand(table: PeopleTable) -> Hand:
    hand = table.to_engine().hand
    assert hand is not None
    return hand


def _log(table: PeopleTable) -> list[Any]:
    return [a.to_dict() for a in _hand(table).log]


def _visible(hand: Hand, viewer: int) -> set[str]:
    """The cards ``viewer`` sees (a spectator: those face up on the table)."""
    view = view_for(hand, max(viewer, 0))
    if viewer == SPECTATOR:
        view = dataclasses.replace(view, hand=(), own_discards=(), peeked=())
    return {c.code for c in view.visible_cards()}


def _swaps(rng: random.Random, hand: Hand, viewer: int, pack: list[str]) -> list[list[str]]:
    hidden = sorted({c.code for c in PACK} - _visible(hand, viewer))
    held = {
        c.code
        for seat, cards in enumerate(hand.hands)
        if seat != viewer
        for c in cards
        if c.code in hidden
    } | {c.code for c in hand.miss or () if c.code in hidden}
    theirs = sorted(held)
    found = []
    for _ in range(TRIES if theirs else 0):
        a, b = rng.choice(theirs), rng.choice(hidden)
        if a != b:
            swapped = list(pack)
            i, j = swapped.index(a), swapped.index(b)
            swapped[i], swapped[j] = b, a
            found.append(swapped)
    return found


def _pages(table: PeopleTable, viewer: int, client: Client, user: Any) -> str:
    """The viewer's page, its live fragment and his stream's event, normalised."""
    name = "games:people-watch" if viewer == SPECTATOR else "games:people-table"
    url = reverse(name, args=[table.pk])
    pages = []
    for headers in ({}, {"HX-Request": "true"}):
        response = client.get(url, headers=headers)
        assert response.status_code == 200
        pages.append(response.content.decode())
    watch = viewer == SPECTATOR
    seat = None if watch else viewer
    event = live.render_table(live.Viewer(table.pk, user, seat, watch, "http", "testserver"))
    assert not event.reload and event.version == table.version
    pages.append(event.html)
    html = "\n".join(pages)
    html = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1-", html)
    html = re.sub(r'("x-csrftoken": ")[^"]+', r"\1-", html)
    html = re.sub(rf"/play/people/{table.pk}/", "/play/people/N/", html)
    # Who is online depends on who opened a page of which table, not on any card.
    html = re.sub(r'presence__(online|away)">(online|away)', 'presence__-">-', html)
    # The clock of whoever is to act: the time left and the time of day it ends, and the
    # refresh due then, are the moment his turn came, on each table its own.
    clock = r'(data-clock="|data-deadline="|datetime="|http-equiv="refresh" content=")[^"]+'
    html = re.sub(clock, r"\1-", html)
    html = re.sub(r">\d+:\d\d<", ">-<", html)
    return html.replace(table.code, "CODE")


def _same(page: str, theirs: str, what: str) -> None:
    assert theirs == page, "\n".join(
        difflib.unified_diff(page.splitlines(), theirs.splitlines(), "dealt", what, n=1)
    )


@pytest.mark.parametrize(("game", "rules", "seats", "opponents", "seed"), HANDS)
def test_no_page_depends_on_a_card_its_viewer_cannot_see(
    game: str, rules: str, seats: int, opponents: str, seed: int
) -> None:
    users = [make_user(n) for n in ("teacher", "ann", "bob", "cat")]
    clients = {}
    viewing = dict(zip(VIEWERS, users, strict=True))
    for viewer, user in viewing.items():
        clients[viewer] = Client()
        clients[viewer].force_login(user)
    by_seat = dict(enumerate(users[1:]))
    spec = (game, rules, seats, opponents)
    pack = _pack(seed)
    original = _deal(users, spec, pack, [])
    assert original is not None
    rng = random.Random(f"{game}:{rules}:{seed}")
    posted: list[Any] = []
    compared: set[int] = set()
    for n in range(60):
        original.refresh_from_db()
        hand = _hand(original)
        viewers = _viewers_at(n) if not hand.over else ()
        for viewer in viewers:
            page = _pages(original, viewer, clients[viewer], viewing[viewer])
            for swapped in _swaps(rng, hand, viewer, pack):
                other = _deal(users, spec, swapped, posted)
                if other is None or _log(other) != _log(original):
                    if other is not None:
                        other.delete()
                    continue  # the computer players saw the difference, and acted otherwise
                theirs = _pages(other, viewer, clients[viewer], viewing[viewer])
                _same(page, theirs, f"viewer {viewer}")
                compared.add(viewer)
                other.delete()
                break
        if hand.over:
            break
        seat = hand.to_act
        assert seat is not None and seat in by_seat
        data = decision(original, seat)
        people.act(original, by_seat[seat], data)
        posted.append((by_seat[seat], {k: v for k, v in data.items() if k != "version"}))
    else:
        raise AssertionError("the hand did not end")
    # Every viewer's pages were compared during the hand, at one decision at least.
    assert compared == set(VIEWERS), compared
    # Once the hand is over: every page, for two cards its viewer never saw.
    hand = _hand(original)
    for viewer in VIEWERS:
        page = _pages(original, viewer, clients[viewer], viewing[viewer])
        for swapped in _swaps(rng, hand, viewer, pack):
            other = _deal(users, spec, swapped, posted)
            if other is not None and _log(other) == _log(original):
                theirs = _pages(other, viewer, clients[viewer], viewing[viewer])
                _same(page, theirs, f"the end, viewer {viewer}")
                other.delete()
                break
            if other is not None:
                other.delete()
