"""A session at the practice table (issue 26, items 6, 8 and 9): the seats fixed from the
human's left, the running score across deals and times looed, "Leave the table" with the final
standing, and the goal said at the table from the engine's facts."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games.models import PracticeHand, PracticeTable
from games.naming import seat_label
from games.practice.service import FINISH_THE_HAND, LEFT_THE_TABLE, TABLE_LEFT
from games.table.presenting import seat_slots


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _page(client: Client, table: PracticeTable) -> str:
    return _text(client.get(table.get_absolute_url()))


def _leave(client: Client, table: PracticeTable, version: int | None = None) -> Any:
    table.refresh_from_db()
    url = reverse("games:table-leave", args=[table.pk])
    return client.post(url, {"version": table.version if version is None else version})


def _deal(client: Client, table: PracticeTable) -> Any:
    table.refresh_from_db()
    return client.post(reverse("games:table-next", args=[table.pk]), {"version": table.version})


def test_seats_are_laid_round_the_felt_from_the_left_at_every_size_of_table() -> None:
    assert seat_slots(3) == ["you", "left", "right"]
    assert seat_slots(5) == ["you", "left", "top-1-of-2", "top-2-of-2", "right"]
    assert seat_slots(9) == [
        "you", "left-low", "left-high", "top-1-of-4", "top-2-of-4", "top-3-of-4", "top-4-of-4",
        "right-high", "right-low",
    ]  # fmt: skip
    for players in range(3, 10):
        assert len(set(seat_slots(players))) == players


def test_the_seats_stay_in_their_places_whoever_deals(client: Client, player: Any) -> None:
    table = player.new_table(players=5, seed=4)
    orders = []
    for _ in range(3):
        html = _page(client, table)
        seats = html.split('id="table-seats"')[1].split("</section>")[0]
        orders.append(re.findall(r'<li class="at-([\w-]+)" data-seat="(\d)">', seats))
        # The dealer's mark is at the dealer's seat (at the foot when the human deals).
        dealer = player.current_hand(table.pk).dealer
        marked = [li for li in seats.split("<li ")[1:] if "badge--dealer" in li]
        if dealer:
            assert len(marked) == 1 and f'data-seat="{dealer}"' in marked[0]
        else:
            assert not marked and '<span class="badge badge--dealer">you deal</span>' in html
        player.play_out(table.pk)
        assert _deal(client, table).status_code == 302
    assert orders[0] == orders[1] == orders[2] == [
        ("left", "1"), ("top-1-of-2", "2"), ("top-2-of-2", "3"), ("right", "4")
    ]  # fmt: skip


def test_the_running_score_and_leaving_the_table(client: Client, player: Any) -> None:
    table = player.new_table(players=4, seed=6)
    # Leaving is between deals: in the middle of one it is refused, and nothing changes.
    response = _leave(client, table)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.left is None
    assert FINISH_THE_HAND in _page(client, table)

    for deal in range(2):
        player.play_out(table.pk)
        if deal == 0:
            assert _deal(client, table).status_code == 302
    page = _page(client, table)
    assert "The session so far: 2 deals played" in page
    assert '<svg viewBox="0 0 320 150" role="img"' in page
    rows = PracticeHand.objects.filter(table=table).order_by("number")
    looed = [sum(seat in row.looed_seats for row in rows) for seat in range(4)]
    counters = rows.last().balances
    for seat in range(4):
        label = seat_label(seat, 4)
        net = counters[seat] - 100
        assert (
            f'<th scope="row">{label}</th><td>{counters[seat]}</td>'
            f"<td>{'+' if net > 0 else ''}{net}</td><td>{looed[seat]}</td>"
        ) in page

    # A stale page does not leave.
    assert _leave(client, table, version=table.version - 1).status_code == 302
    table.refresh_from_db()
    assert table.left is None
    assert _leave(client, table).status_code == 302
    table.refresh_from_db()
    assert table.left is not None
    page = _page(client, table)
    assert LEFT_THE_TABLE in page
    assert "You left the table: the final standing after 2 deals" in page
    assert ">Deal the next hand<" not in page and ">Leave the table<" not in page
    assert ">Take back your last decision<" not in page
    # No more deals, no take-back: the table stays as it was left.
    version = table.version
    assert _deal(client, table).status_code == 302
    client.post(reverse("games:table-takeback", args=[table.pk]), {"version": version})
    table.refresh_from_db()
    assert table.version == version and PracticeHand.objects.filter(table=table).count() == 2
    assert TABLE_LEFT in _page(client, table)
    # The chooser lists it as ended.
    chooser = _text(client.get(reverse("games:choose")))
    assert re.search(
        rf'href="/play/{table.pk}/">[^<]*</a> <span class="badge">ended</span>', chooser
    )


def test_a_hand_stored_before_the_running_score_is_read_from_its_replay(player: Any) -> None:
    table = player.new_table(players=4, seed=6)
    player.play_out(table.pk)
    row = PracticeHand.objects.get(table=table)
    stored = row.standing()
    PracticeHand.objects.filter(pk=row.pk).update(balances=None, looed_seats=None)
    row.refresh_from_db()
    assert row.standing() == stored


def test_the_goal_is_said_at_the_table_from_the_rules(client: Client, player: Any) -> None:
    three = _page(client, player.new_table(players=4, seed=1))
    assert "The goal: take at least one trick. Each of the 3 tricks wins a third of the pool" in (
        three
    )
    assert "a player who plays and takes no trick is looed, and pays" in three
    five = _page(client, player.new_table(game="five-card", players=5, seed=1))
    assert "Each of the 5 tricks wins a fifth of the pool" in five
