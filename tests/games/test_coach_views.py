"""The coach at the practice table (games/practice/coaching.py, issue 28): "Ask the coach" while
the human decides, with JavaScript (htmx fills a region) and without (``?coach=1``), in learning
mode only; the same answer each time (seeded by his view, cached); the computing requests limited;
a GET that creates nothing; the review of a finished hand, linked from the table and the replay."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.urls import reverse

from games.models import PracticeTable
from games.practice import coaching
from loo_site import limits

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
LIMITS = {
    "coach-per-session": (2, 600),
    "coach-per-address": (100, 600),
}


def _ask(client: Client, pk: int, htmx: bool = True) -> Any:
    if htmx:
        return client.get(reverse("games:table-coach", args=[pk]), {"coach": "1"}, headers=HTMX)
    return client.get(reverse("games:table", args=[pk]), {"coach": "1"})


def _options(html: str) -> list[str]:
    return re.findall(r'<span class="coach__text">(.*?)(?: <strong|</span>)', html)


def test_the_coach_answers_each_option_in_words_and_a_chart(player: Any) -> None:
    practice = player.new_table(players=5, opponents="sensible", seed=2)
    page = player.client.get(practice.get_absolute_url()).content.decode()
    assert "Ask the coach" in page
    response = _ask(player.client, practice.pk)
    assert response.status_code == 200
    html = response.content.decode()
    rows = _options(html)
    assert rows and all(":" in r for r in rows)
    # "Play: 71% (± 8%) to take a trick, +1.4 counters on average (± 0.6)", every figure with
    # its margin at 95%; a pass takes no part.
    assert any(
        re.search(
            r"^Play: \d+% \(±\s\d+%\) to take a trick, [+-]?[\d.]+ counters on average "
            r"\(±\s[\d.]+\)$",
            r,
        )
        for r in rows
    ), rows
    assert any(r.startswith("Pass: 0 counters") for r in rows), rows
    assert html.count('class="coach__bar"') == len(rows)
    assert "best</strong>" in html
    assert "Each figure is an average over 120 deals of the cards you cannot see" in html
    assert "against these players" in html and "knowing what they have done" in html
    # Asked again: the same answer (seeded by his view; kept in the cache).
    assert _ask(player.client, practice.pk).content.decode() == html


def test_without_javascript_the_answer_is_on_the_table_page(player: Any) -> None:
    practice = player.new_table(players=5, opponents="sensible", seed=2)
    answer = _options(_ask(player.client, practice.pk).content.decode())
    # The region's own address, asked without htmx, sends back to the table's.
    response = player.client.get(reverse("games:table-coach", args=[practice.pk]))
    assert response.status_code == 302
    assert response["Location"] == practice.get_absolute_url() + "?coach=1#coach"
    page = _ask(player.client, practice.pk, htmx=False)
    assert page.status_code == 200
    assert _options(page.content.decode()) == answer
    assert 'id="hand-table"' in page.content.decode()


def test_at_a_five_card_draw_the_coach_says_how_many_ways_it_weighs(player: Any) -> None:
    for seed in range(1, 20):
        practice = player.new_table(game="five-card", players=5, opponents="sensible", seed=seed)
        hand = player.current_hand(practice.pk)
        if hand.to_act == 0 and hand.phase == "exchange" and hand.discard_limit():
            break
    else:
        raise AssertionError("no five-card deal begins with the human's draw")
    html = _ask(player.client, practice.pk).content.decode()
    ways = re.search(r"The coach weighs (\d+) ways to draw, not every set of cards\.", html)
    assert ways
    assert sum("throwing out" in r or "drawing no card" in r for r in _options(html)) == int(
        ways.group(1)
    )


@pytest.mark.parametrize("fields", [{"mode": "laws"}, {"takebacks": "honest"}])
def test_in_laws_mode_and_at_an_honest_table_the_coach_is_not_offered(
    player: Any, fields: dict[str, str]
) -> None:
    practice = player.new_table(players=5, seed=2, **fields)
    page = player.client.get(practice.get_absolute_url()).content.decode()
    assert "Ask the coach" not in page
    response = _ask(player.client, practice.pk)
    assert response.status_code == 403
    assert coaching.NOT_HERE in response.content.decode()
    page = _ask(player.client, practice.pk, htmx=False).content.decode()
    assert coaching.NOT_HERE in page
    assert 'class="coach__option' not in page


def test_not_his_turn_the_coach_says_so(player: Any) -> None:
    practice = player.new_table(players=5, seed=2)
    player.play_out(practice.pk)
    page = player.client.get(practice.get_absolute_url()).content.decode()
    assert "Ask the coach" not in page
    response = _ask(player.client, practice.pk)
    assert response.status_code == 200
    assert coaching.NOT_YOUR_TURN in response.content.decode()


def test_a_get_creates_no_session_and_no_row(player: Any) -> None:
    practice = player.new_table()
    client = Client()  # another browser, with no session
    sessions, tables = Session.objects.count(), PracticeTable.objects.count()
    for htmx in (True, False):
        response = _ask(client, practice.pk, htmx)
        assert response.status_code == 404
        assert "sessionid" not in response.cookies
    assert (Session.objects.count(), PracticeTable.objects.count()) == (sessions, tables)


@override_settings(RATE_LIMITS={**settings.RATE_LIMITS, **LIMITS})
def test_only_the_answers_computed_are_limited(player: Any) -> None:
    practice = player.new_table(players=5, opponents="sensible", seed=2)
    assert _ask(player.client, practice.pk).status_code == 200
    for _ in range(3):  # kept: asked again, nothing is computed or counted
        assert _ask(player.client, practice.pk).status_code == 200
    second = player.new_table(players=5, opponents="sensible", seed=3)
    assert _ask(player.client, second.pk).status_code == 200
    third = player.new_table(players=5, opponents="sensible", seed=4)
    refused = _ask(player.client, third.pk)
    assert refused.status_code == 429
    assert refused.content.decode().startswith(limits.COACH)
    assert "Retry-After" in refused
    page = _ask(player.client, third.pk, htmx=False)
    assert page.status_code == 429


def _review(html: str) -> str:
    return html[html.index('<section class="coach-review') : html.index("</section>")]


def _finished(player: Any, **fields: Any) -> PracticeTable:
    practice = player.new_table(players=5, opponents="sensible", **fields)
    player.play_out(practice.pk)
    practice.refresh_from_db()
    return practice


def test_the_review_lists_his_decisions_costliest_first(player: Any) -> None:
    for seed in range(1, 30):
        practice = _finished(player, game="five-card", seed=seed)
        number = player.current_hand(practice.pk).setup.hand_number
        url = reverse("games:hand-review", args=[practice.pk, number])
        page = player.client.get(practice.get_absolute_url()).content.decode()
        assert f'<a href="{url}">Review your decisions</a>' in page
        replay = player.client.get(reverse("games:hand-replay", args=[practice.pk, number]))
        assert f'<a href="{url}">Review your decisions</a>' in replay.content.decode()
        response = player.client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        if html.count('class="coach-review__item') >= 3:
            break
    else:
        raise AssertionError("no hand with three decisions of the human's")
    summary = r'id="review-summary" class="coach-review__summary"><strong>\d+ decisions? weighed: '
    assert re.search(summary, html)
    assert (
        "forced, under the rule" in html or "the only choice" in html or "the coach agrees" in html
    )
    costs = [float(c) for c in re.findall(r"gave up about ([\d.]+) counters here", html)]
    assert costs == sorted(costs, reverse=True)
    assert "?step=" in html
    # Fixed once the hand is over: the same page again (kept in the cache).
    again = player.client.get(url).content.decode()
    assert _review(again) == _review(html)


@pytest.mark.parametrize("fields", [{"mode": "laws"}, {"takebacks": "honest"}])
def test_no_review_in_laws_mode_or_at_an_honest_table(player: Any, fields: dict[str, str]) -> None:
    practice = _finished(player, seed=2, **fields)
    number = player.current_hand(practice.pk).setup.hand_number
    url = reverse("games:hand-review", args=[practice.pk, number])
    assert (
        "Review your decisions"
        not in player.client.get(practice.get_absolute_url()).content.decode()
    )
    replay = player.client.get(reverse("games:hand-replay", args=[practice.pk, number]))
    assert "Review your decisions" not in replay.content.decode()
    response = player.client.get(url)
    assert response.status_code == 403
    assert coaching.NOT_HERE in response.content.decode()


def test_another_browser_gets_no_review(player: Any) -> None:
    practice = _finished(player, seed=2)
    number = player.current_hand(practice.pk).setup.hand_number
    response = Client().get(reverse("games:hand-review", args=[practice.pk, number]))
    assert response.status_code == 404
