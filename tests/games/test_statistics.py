"""A player's statistics across his practice sessions (issue 38, the player's side): hands,
net counters and times looed by rule set and game, computed in one query from his own
finished hands, drawn as charts with the same numbers as the table beside them."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from games.loo.hand import Hand
from games.models import PracticeTable
from games.naming import HUMAN
from games.practice import statistics

pytestmark = pytest.mark.django_db

URL = reverse("games:statistics")


def _play(client: Client, player: Any, deals: int, **fields: Any) -> list[Hand]:
    """Deal a table through the views and play ``deals`` hands of it out; the engine's
    finished hands."""
    table = player.new_table(**fields)
    hands = []
    for number in range(deals):
        hands.append(player.play_out(table.pk, seed=number))
        if number + 1 < deals:
            table.refresh_from_db()
            response = client.post(
                reverse("games:table-next", args=[table.pk]), {"version": table.version}
            )
            assert response.status_code == 302
    return hands


def _expected(played: dict[tuple[str, str], list[list[Hand]]]) -> dict[str, list[int]]:
    """What the engine's hands say, by group title: sessions, hands, net, times looed."""
    titles = {
        ("hoffmann", "three-card"): "Three-card Loo, Hoffmann (1909)",
        ("parlett", "five-card"): "Five-card Loo, Parlett (modern)",
    }
    out = {}
    for key, tables in played.items():
        hands = [h for table in tables for h in table]
        out[titles[key]] = [
            len(tables),
            len(hands),
            sum(h.balances[HUMAN] - h.setup.balances[HUMAN] for h in hands),
            sum(HUMAN in h.looed for h in hands),
        ]
    return out


def _number(text: str) -> int:
    return int(html.unescape(text).replace("\u2212", "-").replace("+", ""))


def _table_rows(page: str) -> dict[str, list[int]]:
    """The table of figures: by group, its sessions, hands, net and times looed."""
    table = page.split('class="stats-table"', 1)[1].split("</table>", 1)[0]
    rows = {}
    found = re.findall(
        r'<tr><th scope="row">([^<]+?)\s*<span[^>]*>(\d+) sessions?</span></th>(.*?)</tr>',
        table,
        re.S,
    )
    for title, sessions, cells in found:
        values = re.findall(r"<td>\s*([^<\s]+)", cells)
        rows[html.unescape(title)] = [int(sessions), *(_number(v) for v in values)]
    return rows


def _chart_texts(page: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'class="stats-chart__value"[^>]*>([^<]+)<', page)]


def test_the_figures_are_those_of_the_hands_played_and_the_charts_say_the_same(
    client: Client, player: Any
) -> None:
    played: dict[tuple[str, str], list[list[Hand]]] = defaultdict(list)
    played["hoffmann", "three-card"].append(_play(client, player, 3, seed=5))
    played["hoffmann", "three-card"].append(_play(client, player, 1, seed=6))
    played["parlett", "five-card"].append(
        _play(client, player, 2, game="five-card", rules="parlett", players=5, seed=7)
    )
    response = client.get(URL)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    page = response.content.decode()
    expected = _expected(played)
    rows = _table_rows(page)
    assert {k: rows[k] for k in expected} == expected
    total = [sum(v[i] for v in expected.values()) for i in range(4)]
    assert rows["All hands"] == total
    # The charts: a row a group, and at its bars the same numbers as the table.
    texts = _chart_texts(page)
    for title, (_, hands, net, looed) in expected.items():
        assert f">{title}</text>" in html.unescape(page)
        assert f"{hands} hand{'s' * (hands != 1)}" in texts
        assert f"looed {looed} time{'s' * (looed != 1)}" in texts
        sign = "+" if net > 0 else "\u2212" if net < 0 else ""
        assert f"{sign}{abs(net)} counter{'s' * (abs(net) != 1)}" in texts
    # Drawn on the server, with its text alternative, and nothing that needs a script.
    assert page.count('role="img"') == 2
    assert 'aria-describedby="stats-table-caption"' in page


def test_a_player_with_no_finished_hand_sees_an_empty_state(client: Client, player: Any) -> None:
    # A hand begun is not a hand finished.
    player.new_table()
    page = client.get(URL).content.decode()
    assert "You have not finished a hand yet" in page
    assert "<svg" not in page and "stats-table" not in page
    # A browser that never had a session: no session made for it either.
    fresh = Client()
    assert "You have not finished a hand yet" in fresh.get(URL).content.decode()
    assert "sessionid" not in fresh.cookies


def test_another_players_hands_are_never_counted(client: Client, player: Any) -> None:
    mine = _play(client, player, 1, seed=2)
    # Another browser plays at a table of its own, and an account at one of its own.
    other = Client()
    other_player = type(player)(other)
    _play(other, other_player, 2, seed=3)
    member = get_user_model().objects.create_user("ada", password="a long pass phrase")
    account = Client()
    account.force_login(member)
    _play(account, type(player)(account), 1, seed=4)
    rows = _table_rows(client.get(URL).content.decode())
    assert rows["Three-card Loo, Hoffmann (1909)"][:2] == [1, len(mine)]
    assert _table_rows(account.get(URL).content.decode())["Three-card Loo, Hoffmann (1909)"][
        :2
    ] == [1, 1]
    # The account's figures are its own tables' only, whatever browser holds what.
    assert PracticeTable.objects.count() == 3


def test_an_account_keeps_the_browsers_hands_when_it_logs_in(client: Client, player: Any) -> None:
    played = _play(client, player, 2, seed=9)
    get_user_model().objects.create_user("bea", password="a long pass phrase")
    response = client.post(reverse("login"), {"username": "bea", "password": "a long pass phrase"})
    assert response.status_code == 302
    rows = _table_rows(client.get(URL).content.decode())
    assert rows["Three-card Loo, Hoffmann (1909)"][1] == len(played)


def test_the_figures_take_one_query_however_many_hands(
    client: Client, player: Any, django_assert_num_queries: Any
) -> None:
    _play(client, player, 1, seed=1)
    request = RequestFactory().get(URL)
    request.session = client.session
    request.user = type("Anonymous", (), {"is_authenticated": False})()  # type: ignore[assignment]
    with django_assert_num_queries(1):
        few = statistics.of(request)
    _play(client, player, 2, game="five-card", rules="parlett", players=5, seed=7)
    _play(client, player, 2, seed=8)
    with django_assert_num_queries(1):
        many = statistics.of(request)
    assert many.total.hands == few.total.hands + 4
    assert len(many.groups) == 2
    # The whole page: the session, and that one query.
    with django_assert_num_queries(2):
        assert client.get(URL).status_code == 200
