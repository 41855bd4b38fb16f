"""The coach at a practice table: "Ask the coach" before a decision, and the review of a finished
hand's decisions (issue 28). The figures are the engine's (games.loo.coach, games.loo.review);
this module decides where they may be shown, builds what the pages show of them, keeps them in
the shared cache and counts the requests that compute them against the limits.

Where: in learning mode only. Laws mode is a real table's practice, and an honest table offers
no help a real table would not; there the control is not shown and a request is refused with
:data:`NOT_HERE`.

What may be shown: the coach is asked about ``view_for(hand, HUMAN)`` only, seeded by that
view (``review.view_seed``), so its answer depends on nothing the human cannot see; the same
view gives the same answer, byte for byte, whichever deal lies behind it
(tests/games/test_coach_hidden_cards.py).

Caching: an answer under the table, the hand, the length of its log, the view's digest and the
engine's digest (a take-back that leads elsewhere, or a new engine, finds its own); a finished
hand's review under the table, the hand (its number and a digest of its deal and play) and the
engine. Only a request that computes (a cache
miss) is counted against the limits ``coach-per-session`` (the account, else the browser
session) and ``coach-per-address``: each costs 0.1 to 1 s of a worker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.links import RuleLinks
from games.loo import coach
from games.loo.hand import Action, Hand, setup_from_dict
from games.loo.review import answer_notes, option_line, review, view_seed
from games.loo.view import PlayerView, view_for
from games.models import PracticeHand, PracticeTable
from games.naming import HUMAN, say
from games.table.page import Coach
from loo_site import limits

NOT_HERE: Final = (
    "The coach is not offered here: in laws mode, and at an honest table, you play as at a "
    "real table, with no help."
)
NOT_YOUR_TURN: Final = "The coach answers when it is your turn to decide."
#: How long an answer is kept: a table's decision is rarely asked about after a day.
ANSWER_SECONDS: Final = 24 * 3600
#: A review is fixed once the hand is over: kept for a week.
REVIEW_SECONDS: Final = 7 * 24 * 3600

#: The chart's width (SVG user units): a bar from the middle, right for a gain, left for a loss.
BAR_WIDTH: Final = 200
#: "Look deeper" samples this many times the deals of an answer (its margins about half).
DEEPER: Final = 4


def offered(practice: PracticeTable) -> bool:
    """The coach is offered at this table: learning mode, not an honest table."""
    return not practice.laws and not practice.honest


def deciding(view: PlayerView) -> bool:
    """It is the human's decision, and he may see his cards."""
    return view.options is not None and view.to_act == HUMAN and view.hand is not None


@cache
def engine_digest() -> str:
    """A digest of the engine's code (``games/loo``): a cached figure made by another engine is
    not read. Computed once a process."""
    digest = hashlib.sha256()
    for path in sorted((Path(__file__).resolve().parents[1] / "loo").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _computed(request: HttpRequest, key: str, seconds: int, make: Any) -> Any:
    """The cached value under ``key``, else ``make()`` stored there, counted against the
    limits: a :class:`HttpResponse` (the 429 page) when over them."""
    found = shared_cache.get(key)
    if found is not None:
        return found
    if refused := limits.check(request, "coach-per-session", "coach-per-address"):
        return refused
    value = make()
    shared_cache.set(key, value, seconds)
    return value


# -- Ask the coach ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionRow:
    """One option of an answer: its sentence, and its bar in the chart."""

    text: str
    as_good: bool
    best: bool
    #: The bar: from ``x`` for ``width`` units; the error's whisker from ``low`` to ``high``.
    x: int
    width: int
    low: int
    high: int
    gain: bool


def answer(
    request: HttpRequest, practice: PracticeTable, hand: Hand
) -> dict[str, Any] | HttpResponse:
    """The coach's answer to the human's decision now, for the page (``coach`` in its
    context), or the response to give instead (429); :data:`NOT_HERE` or :data:`NOT_YOUR_TURN`
    as ``refusal`` when it is not his to ask. Against the table's own players (its
    opponents' level); ``deeper=1`` in the request ("Look deeper"): over :data:`DEEPER` times
    the deals, computed and limited as any other answer."""
    if not offered(practice):
        return {"refusal": NOT_HERE}
    view = view_for(hand, HUMAN)
    if not deciding(view):
        return {"refusal": NOT_YOUR_TURN}
    seed = view_seed(view)
    deeper = request.GET.get("deeper") == "1"
    samples = coach.SAMPLES * (DEEPER if deeper else 1)
    level = practice.opponents
    key = (
        f"coach:{practice.pk}:{view.hand_number}:{len(hand.log)}:{seed}:{samples}:{level}:"
        f"{engine_digest()}"
    )
    found = _computed(
        request,
        key,
        ANSWER_SECONDS,
        lambda: _answer(view, seed, practice.players, samples=samples, level=level),
    )
    if isinstance(found, HttpResponse):
        return found
    # Where "Look deeper" asks (the answer is also rendered alone, for htmx).
    urls = {
        "table_url": reverse("games:table", args=[practice.pk]),
        "coach_url": reverse("games:table-coach", args=[practice.pk]),
    }
    return {**found, **urls}


def _answer(
    view: PlayerView, seed: str, players: int, *, samples: int, level: str
) -> dict[str, Any]:
    advice = coach.advise(view, seed=seed, samples=samples, level=level)
    exchange = view.phase == "exchange"
    best = advice.best
    # The scale: the largest figure with its margin fills half the chart.
    reach = max(abs(e.expected_counters) + e.margin95 for e in advice.options) or 1.0
    half = BAR_WIDTH // 2

    def at(value: float) -> int:
        return round(half + value / reach * (half - 2))

    rows = []
    for e in advice.options:
        end = at(e.expected_counters)
        rows.append(
            OptionRow(
                text=say(option_line(e, HUMAN, exchange=exchange), players),
                as_good=e.as_good,
                best=e is best,
                x=min(half, end),
                width=abs(end - half),
                low=at(e.expected_counters - e.margin95),
                high=at(e.expected_counters + e.margin95),
                gain=e.expected_counters >= 0,
            )
        )
    notes = [say(note, players) for note in answer_notes(view, advice)]
    return {
        "rows": rows,
        "notes": notes,
        "samples": advice.samples,
        "width": BAR_WIDTH,
        "exact": advice.exact,
        "close_call": advice.close_call,
        # "Look deeper": offered once, on a sampled answer.
        "deeper": samples == coach.SAMPLES and not advice.exact,
    }


# -- The review of a finished hand ------------------------------------------------------------


@dataclass(frozen=True)
class ReviewRow:
    text: str
    cost: float
    forced: bool
    agrees: bool
    rule: str
    #: The replay's step just before the decision.
    step: int


def review_url(practice: PracticeTable, number: int) -> str:
    """The link to a finished hand's review, where the coach is offered ("" elsewhere)."""
    return reverse("games:hand-review", args=[practice.pk, number]) if offered(practice) else ""


def hand_review(request: HttpRequest, record: PracticeHand) -> dict[str, Any] | HttpResponse:
    """The review of a finished hand for its page, or the 429 page; :data:`NOT_HERE` as
    ``refusal`` where the coach is not offered."""
    practice = record.table
    if not offered(practice):
        return {"refusal": NOT_HERE}
    # The hand's own digest too: a table's number may be given again once it is deleted.
    played = hashlib.sha256(json.dumps([record.setup, record.log]).encode()).hexdigest()[:16]
    key = (
        f"coach-review:{practice.pk}:{record.number}:{played}:{practice.opponents}:"
        f"{engine_digest()}"
    )
    found = _computed(request, key, REVIEW_SECONDS, lambda: _review(record))
    if isinstance(found, HttpResponse):
        return found
    links = RuleLinks.of(practice.rules, practice.game)
    rows = [(row, links.link(row.rule) if row.rule else None) for row in found["rows"]]
    return {**found, "rows": rows}


def _review(record: PracticeHand) -> dict[str, Any]:
    done = review(
        setup_from_dict(record.setup),
        [Action.from_dict(a) for a in record.log],
        HUMAN,
        level=record.table.opponents,
    )
    players = record.table.players
    rows = [
        ReviewRow(
            text=say(d.message, players),
            cost=round(d.cost, 1),
            forced=d.forced,
            agrees=d.agrees,
            rule=d.rule,
            step=d.index,
        )
        for d in done.by_cost()
    ]
    return {"summary": say(done.summary, players), "rows": rows, "samples": done.samples}


# -- the table page ---------------------------------------------------------------------------


def table_part(
    practice: PracticeTable, view: PlayerView, answer: Mapping[str, object] | None
) -> Coach:
    """What the table page shows of the coach: the "Ask the coach" form while the human
    decides (where the coach is offered), the answer when he asked (``answer``: without
    JavaScript, ``?coach=1``). (The review's link, once the hand is over, is
    :func:`review_url`.)"""
    ask = offered(practice) and deciding(view)
    return Coach(
        offered=ask,
        url=reverse("games:table-coach", args=[practice.pk]) if ask else "",
        answer=answer,
    )
