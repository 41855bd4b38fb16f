"""What the practice table's pages show besides what every table shows (``games.table``):
the chooser's rule sets; at the table, the take-back, Peel's finishes, the session's
standings, a lesson's guided hand and the forms' addresses; a finished hand's replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.contrib.messages.storage.base import Message as StoredMessage
from django.urls import reverse

from games.links import RuleLinks, source_url
from games.loo.hand import Hand, IllegalAction
from games.loo.rulesets import GAME_NAMES, PRESETS
from games.loo.table import Table
from games.loo.view import view_for
from games.models import MAX_PLAYERS, PracticeHand, PracticeTable
from games.naming import HUMAN, say, seat_label
from games.practice import guidance, service
from games.table.forms import ActionForm
from games.table.presenting import linked, log_lines, shown_context, table_context_for

#: Beside the take-back button: how long it is offered.
TAKEBACK_OFFERED: Final = (
    "Offered only until something hidden (the miss, a card drawn, another player's answer) "
    "is shown because of your decision."
)


# -- the chooser ----------------------------------------------------------------------------


def chooser_presets() -> list[dict[str, Any]]:
    """Each rule set with its source's page and the games it plays, with their numbers of
    players at a practice table."""
    return [
        {
            "preset": p,
            "url": source_url(p.id),
            "games": [(GAME_NAMES[g], *_player_range(p.rules.players(g))) for g in p.rules.games],
        }
        for p in PRESETS.values()
    ]


def _player_range(limits: tuple[int, int]) -> tuple[int, int]:
    return limits[0], min(limits[1], MAX_PLAYERS)


# -- the table ------------------------------------------------------------------------------


def table_context(
    practice: PracticeTable,
    table: Table,
    hand: Hand,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    notice: str = "",
    error: str = "",
    done: Sequence[str] = (),
    stored: Iterable[StoredMessage] = (),
) -> dict[str, Any]:
    """The practice table page's context for ``hand`` (the table's current one), for its human
    at seat 0: ``form``, the human's last form (a fresh one unless it has errors),
    ``refusal``, the engine's refusal of it; ``notice`` and ``error``, what the view has to
    say; ``done``, what his decision did; ``stored``, messages left by a redirect (without
    JavaScript). What the view shows is :func:`table_context_for`'s; the practice table adds
    its own: take-back, Peel's finishes, the session, the guided hand, its addresses."""
    view = guidance.held_view(practice.guide, hand) or view_for(hand, HUMAN)
    if table.finish_way is not None and hand.over:
        # Peel's finish (the pool shared, a withdrawal) moved counters after the hand: the
        # table shows where they stand now.
        view = dataclasses.replace(view, balances=tuple(table.balances), pool=table.pool)
    links = RuleLinks.of(practice.rules, practice.game)
    context = table_context_for(
        view,
        hand,
        links,
        notes=practice.notes,
        version=practice.version,
        form=form,
        refusal=refusal,
        laws=practice.laws,
        first_dealer=table.first_dealer_brief if hand.setup.hand_number == 1 else None,
    )
    # Messages left by a redirect (no JavaScript): a refusal carries its rule in its tags.
    flashed = [
        (m.message, m.level_tag, next((t[5:] for t in m.tags.split() if t[:5] == "rule:"), ""))
        for m in stored
    ]
    flashed += [(text, "info", "") for text in done]
    log_earlier = context["log_earlier"]
    context.update(
        {
            "practice": practice,
            "flashed": [
                (text, level, links.link(rule) if rule else None) for text, level, rule in flashed
            ],
            "notice": notice,
            "error": error,
            "urls": {
                "act": reverse("games:table-act", args=[practice.pk]),
                "next": reverse("games:table-next", args=[practice.pk]),
                "takeback": reverse("games:table-takeback", args=[practice.pk]),
                "finish": reverse("games:table-finish", args=[practice.pk]),
                "leave": reverse("games:table-leave", args=[practice.pk]),
            },
            # Peel's ways to finish the game (p. 17, A54), and what ending it now would leave.
            "finishes": table.finishes(),
            "may_withdraw": table.may_withdraw(HUMAN),
            "deals_to_even": table.deals_to_even(),
            "finished": table.finish_way if table.session_over else "",
            "end_counters": table.balances[HUMAN],
            **_take_back(practice, table, hand),
            # A line marked with the lesson's rule is never folded away unseen.
            "earlier_marked": bool(
                practice.guide
                and any(practice.guide["rule"] in line.event.rules for line in log_earlier)
            ),
            "can_deal": hand.over and not table.session_over,
            # A finished hand is shared by its replay (and that deal to play again): nothing
            # about a hand in progress, nor the table's later deals.
            "shareable": PracticeHand.share_url(practice.pk, hand.setup.hand_number)
            if hand.over
            else "",
            "guide_rule": links.link(practice.guide["rule"]) if practice.guide else None,
            **guidance.guide_context(practice.guide, hand, practice.pk),
        }
    )
    context.update(session_context(practice, table, hand))
    if practice.left:
        # The human has left the table: the session is over, and nothing more is done at it.
        context.update(can_deal=False, can_take_back=False, finishes=(), may_withdraw=False)
    return context


# -- the session ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A player's standing in the session: his counters now, his net since the first deal,
    how many times he was looed, and his counters after each finished deal."""

    seat: int
    label: str
    counters: int
    net: int
    looed: int
    after: list[int]


@dataclass
class ChartLine:
    """A player's line on the running score's chart, and where its label is written."""

    you: bool
    points: str
    label: str
    end: float
    label_y: float = 0.0


#: The running score's chart: its size (the SVG's user units) and its margins.
CHART_WIDTH: Final = 320
CHART_HEIGHT: Final = 150
_CHART_LEFT, _CHART_RIGHT, _CHART_TOP, _CHART_BOTTOM = 34, 70, 8, 20


def session_context(practice: PracticeTable, table: Table, hand: Hand) -> dict[str, Any]:
    """The session so far (issue 26, item 8): every player's counters after each finished deal
    (a small chart and its table), how often each was looed, the standing now; whether the
    human has left the table. Built from the finished hands' rows, which keep what the table
    showed when each was over."""
    n = table.config.players
    # No hand is finished before the first is over: no query for that.
    first = hand.setup.hand_number == 1 and not hand.over
    records = [] if first else list(PracticeHand.objects.filter(table=practice).order_by("number"))
    after = [record.standing() for record in records]
    chips = table.config.chips
    now = list(table.balances) if hand.over else (after[-1][0] if after else [chips] * n)
    standings = [
        Standing(
            seat=s,
            label=seat_label(s, n),
            counters=now[s],
            net=now[s] - chips,
            looed=sum(s in looed for _, looed in after),
            after=[balances[s] for balances, _ in after],
        )
        for s in range(n)
    ]
    return {
        "deals_played": len(records),
        "standings": standings,
        "deal_numbers": [record.number for record in records],
        "chart": _chart(standings, chips) if records else None,
        "left": practice.left,
    }


def _chart(standings: list[Standing], chips: int) -> dict[str, Any]:
    """The running score as SVG lines, one a player from the counters he began with, each
    labelled at its end (the labels spread so that none covers another); the table beside
    it says the same in numbers."""
    deals = len(standings[0].after)
    values = [chips, *(v for row in standings for v in row.after)]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    width = CHART_WIDTH - _CHART_LEFT - _CHART_RIGHT
    height = CHART_HEIGHT - _CHART_TOP - _CHART_BOTTOM

    def x(i: int) -> float:
        return round(_CHART_LEFT + width * i / max(deals, 1), 1)

    def y(v: int) -> float:
        return round(_CHART_TOP + height * (high - v) / span, 1)

    lines = [
        ChartLine(
            you=row.seat == HUMAN,
            points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate([chips, *row.after])),
            label=row.label,
            end=y(row.after[-1]),
        )
        for row in standings
    ]
    # The end labels, top to bottom, at least 10 units apart.
    placed = -10.0
    for line in sorted(lines, key=lambda line: line.end):
        line.label_y = placed = max(line.end + 3, placed + 10)
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "lines": lines,
        "label_x": x(deals) + 4,
        "axis": [(y(high), high), (y(low), low)] if high != low else [(y(high), high)],
        "left": _CHART_LEFT,
        "right": x(deals),
        "bottom": CHART_HEIGHT - _CHART_BOTTOM,
        "ticks": [(x(i), i) for i in range(deals + 1)],
    }


def _take_back(practice: PracticeTable, table: Table, hand: Hand) -> dict[str, Any]:
    """Whether the human's last decision may be taken back (``can_take_back``), and if it may
    not, why not, beside where the button would be: at an honest table
    (``honest_table``), none ever; else none once something hidden was shown because of it
    (``takeback_refused``, the engine's reason: ``Table.takeback_refusal``). Nothing is said
    before he has decided anything in this deal, nor of a lesson's finished guided hand."""
    if practice.honest:
        return {
            "can_take_back": False,
            "honest_table": service.HONEST_TABLE,
            "takeback_refused": "",
            "takeback_offered": "",
        }
    refusal = table.takeback_refusal(HUMAN)
    said = (
        ""
        if refusal is None
        or refusal.key in service.TAKEBACK_UNSAID
        or practice.guided_hand_over(hand)
        else say(refusal)
    )
    return {
        "can_take_back": refusal is None and service.his_own_last(practice, hand),
        "honest_table": "",
        "takeback_refused": f"{service.TAKEBACK_REFUSED} {said}" if said else "",
        "takeback_offered": TAKEBACK_OFFERED,
    }


# -- a finished hand ------------------------------------------------------------------------


def replay_context(record: PracticeHand, step: int, *, here: str, share_url: str) -> dict[str, Any]:
    """A finished hand after its first ``step`` actions (at most its number of actions), as
    the human saw it, with its trace up to there: ``here``, the page's own address;
    ``share_url``, the link that shares it ("" on a shared replay)."""
    steps = record.steps
    hand = record.replay(step)
    view = view_for(hand, HUMAN)
    log = log_lines(view, [n for n in record.notes if n["action"] < step])
    # The lines this step added to the trace.
    first_new = len(record.replay(step - 1).events) if step else len(log)
    links = RuleLinks.of(record.table.rules, record.table.game)
    return {
        "record": record,
        "practice": record.table,
        "view": view,
        "step": step,
        "steps": steps,
        "log": linked(log, links),
        "flush_lines": [line for line in log if line.event.kind == "flush"],
        "first_new": first_new,
        "in_replay": True,
        "here": here,
        "share_url": share_url,
        "shared": not share_url,
        "links": links,
        **shown_context(view, hand, links),
    }
