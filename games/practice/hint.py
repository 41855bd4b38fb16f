"""A hint on the practice table (issue 38): on his turn, the coach's choice highlighted, with
its reason in one line. Opt-in, in learning mode only: the player turns it on or off for his
browser session (:data:`HINT_KEY`); it is not offered where the coach is not (laws mode, an
honest table) nor at tables for people (their pages never ask for it).

What it rests on: ``view_for(hand, HUMAN)`` alone, as the coach's every answer does, with the
view's own seed, so that the same view gives the same hint, byte for byte, whatever deal lies
behind it. Its figures are the analysis board's (:func:`games.practice.analysis.figures`):
cached by the view, the deals and the engine, and counted against the coach's limits when
computed; over them, the table says the hint waits, and is shown as ever.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.loo.coach import SAMPLES
from games.loo.hand import Hand
from games.loo.review import counters, describe, option_line
from games.loo.view import view_for
from games.models import PracticeTable
from games.naming import HUMAN, say
from games.practice import analysis, coaching

#: Where the browser session keeps the player's choice (True: show the hint).
HINT_KEY: Final = "table-hint"
WAITS: Final = (
    "The hint waits: the coach has been asked a lot just now. It comes back in a few minutes."
)


@dataclass(frozen=True)
class Hint:
    """What the table shows of the hint: the toggle (``offered``, ``on``, ``url``) and, on his
    turn with the hint on, the option it marks and its reason (``text``)."""

    offered: bool = False
    on: bool = False
    url: str = ""
    #: The marked option: a declaring (or replay) button's value, a card's code (``civil``:
    #: with "Pam, be civil"), the cards a five-card draw throws.
    choice: str = ""
    card: str = ""
    civil: bool = False
    discards: tuple[str, ...] = ()
    text: str = ""


def wanted(request: HttpRequest) -> bool:
    return request.session.get(HINT_KEY) is True


def for_table(request: HttpRequest, practice: PracticeTable, hand: Hand) -> Hint:
    """The hint for the table page now."""
    if not coaching.offered(practice):
        return Hint()
    url = reverse("games:table-hint", args=[practice.pk])
    if not wanted(request):
        return Hint(offered=True, url=url)
    view = view_for(hand, HUMAN)
    if not coaching.deciding(view):
        return Hint(offered=True, on=True, url=url)
    advice = analysis.figures(request, view, samples=SAMPLES, level=practice.opponents)
    if isinstance(advice, HttpResponse):
        return Hint(offered=True, on=True, url=url, text=WAITS)
    best = advice.best
    exchange = view.phase == "exchange"
    line = say(option_line(best, HUMAN, exchange=exchange), view.players)
    others = sorted(
        (e for e in advice.options if e is not best), key=lambda e: -e.expected_counters
    )
    if others:
        then = say(describe(others[0].action, exchange=exchange), view.players)
        line += f"; the next best, {then}: {counters(others[0].expected_counters)}"
    action = best.action
    return Hint(
        offered=True,
        on=True,
        url=url,
        choice=action.choice if action.kind != "play" else "",
        card=action.cards[0] if action.kind == "play" else "",
        civil=action.civil,
        discards=tuple(action.cards) if action.kind == "declare" else (),
        text=f"The coach’s choice. {line}.",
    )
