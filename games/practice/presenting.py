"""What the practice table's pages show besides what every table shows (``games.table``):
the chooser's rule sets; at the table, the take-back, Peel's finishes, the session's
standings, a lesson's guided hand and the forms' addresses; a finished hand's replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from django.contrib.messages.storage.base import Message as StoredMessage
from django.urls import reverse

from games import variations
from games.links import RuleLinks, rule_url, source_url
from games.loo.hand import Hand, IllegalAction
from games.loo.rulesets import GAME_NAMES, PRESETS
from games.loo.table import Table
from games.loo.view import view_for
from games.models import MAX_PLAYERS, PracticeHand, PracticeTable
from games.naming import HUMAN, say, seat_label
from games.practice import coaching, guidance, service
from games.table import presenting
from games.table.forms import ActionForm
from games.table.page import (
    Alerts,
    Chart,
    ChartLine,
    Offers,
    PaceShown,
    PracticePart,
    ReplayPage,
    Session,
    Standing,
    TablePage,
    TableUrls,
    TakeBack,
)

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


def chooser_variations() -> list[dict[str, str]]:
    """Each variation a table may agree (``games.variations``): what it does, which rule
    sets offer it for which games, and its rule's page."""
    return [
        {
            "id": v.id,
            "label": v.label,
            "help": v.help,
            "where": variations.where_offered(v.id),
            "url": rule_url(v.id),
        }
        for v in variations.VARIATIONS.values()
    ]


def _player_range(limits: tuple[int, int]) -> tuple[int, int]:
    return limits[0], min(limits[1], MAX_PLAYERS)


# -- the table ------------------------------------------------------------------------------


def table_page(
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
    coach: Mapping[str, object] | None = None,
    pace: PaceShown | None = None,
) -> TablePage:
    """The practice table's page for ``hand`` (the table's current one), for its human at
    seat 0: ``form``, the human's last form (a fresh one unless it has errors),
    ``refusal``, the engine's refusal of it; ``notice`` and ``error``, what the view has to
    say; ``done``, what his decision did; ``stored``, messages left by a redirect (without
    JavaScript); ``coach``, the coach's answer he asked for; ``pace``, the computer players'
    pace. The page is :func:`games.table.presenting.table_page`'s, with what the practice
    table offers: take-back, Peel's finishes, the session, the guided hand, the coach, its
    addresses."""
    view = guidance.held_view(practice.guide, hand) or view_for(hand, HUMAN)
    if table.finish_way is not None and hand.over:
        # Peel's finish (the pool shared, a withdrawal) moved counters after the hand: the
        # table shows where they stand now.
        view = dataclasses.replace(view, balances=tuple(table.balances), pool=table.pool)
    links = RuleLinks.of(practice.rules, practice.game)
    # Messages left by a redirect (no JavaScript): a refusal carries its rule in its tags.
    flashed = [
        (m.message, m.level_tag, next((t[5:] for t in m.tags.split() if t[:5] == "rule:"), ""))
        for m in stored
    ]
    flashed += [(text, "info", "") for text in done]
    # The human has left the table: the session is over, and nothing more is done at it.
    left = practice.left
    pk, number = practice.pk, hand.setup.hand_number
    offers = Offers(
        urls=TableUrls(
            act=reverse("games:table-act", args=[pk]),
            next=reverse("games:table-next", args=[pk]),
            takeback=reverse("games:table-takeback", args=[pk]),
            finish=reverse("games:table-finish", args=[pk]),
            leave=reverse("games:table-leave", args=[pk]),
        ),
        deals_on=not table.session_over and not left,
        may_leave=not left,
        # Peel's ways to finish the game (p. 17, A54), and what ending it now would leave.
        finishes=() if left else tuple(table.finishes()),
        may_withdraw=table.may_withdraw(HUMAN) and not left,
        deals_to_even=table.deals_to_even(),
        finished=(table.finish_way or "") if table.session_over else "",
        end_counters=table.balances[HUMAN],
        take_back=_take_back(practice, table, hand),
        replay_url=reverse("games:hand-replay", args=[pk, view.hand_number]),
        review_url=coaching.review_url(practice, view.hand_number) if view.phase == "over" else "",
        # A finished hand is shared by its replay (and that deal to play again): nothing
        # about a hand in progress, nor the table's later deals.
        shareable=PracticeHand.share_url(pk, number) if hand.over else "",
    )
    return presenting.table_page(
        view,
        hand,
        links,
        notes=practice.notes,
        version=practice.version,
        offers=offers,
        form=form,
        refusal=refusal,
        laws=practice.laws,
        first_dealer=table.first_dealer_brief if number == 1 else None,
        alerts=Alerts(
            flashed=[
                (text, level, links.link(rule) if rule else None) for text, level, rule in flashed
            ],
            notice=notice,
            error=error,
        ),
        # The page opens at the coach's answer (#coach), not at the decision.
        focus=not coach,
        practice=PracticePart(
            table=practice,
            guide=guidance.guide(practice.guide, hand, pk, links),
            session=session(practice, table, hand),
            coach=coaching.table_part(practice, view, coach),
            pace=pace,
        ),
    )


# -- the session ----------------------------------------------------------------------------


#: The running score's chart: its size (the SVG's user units) and its margins.
CHART_WIDTH: Final = 320
CHART_HEIGHT: Final = 150
_CHART_LEFT, _CHART_RIGHT, _CHART_TOP, _CHART_BOTTOM = 34, 70, 8, 20


def session(practice: PracticeTable, table: Table, hand: Hand) -> Session:
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
    return Session(
        deals_played=len(records),
        standings=standings,
        deal_numbers=[record.number for record in records],
        chart=_chart(standings, chips) if records else None,
        left=practice.left is not None,
    )


def _chart(standings: list[Standing], chips: int) -> Chart:
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
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        lines=lines,
        label_x=x(deals) + 4,
        axis=[(y(high), high), (y(low), low)] if high != low else [(y(high), high)],
        left=_CHART_LEFT,
        right=x(deals),
        bottom=CHART_HEIGHT - _CHART_BOTTOM,
        ticks=[(x(i), i) for i in range(deals + 1)],
    )


def _take_back(practice: PracticeTable, table: Table, hand: Hand) -> TakeBack:
    """Whether the human's last decision may be taken back (``may``), and if it may
    not, why not, beside where the button would be: at an honest table
    (``honest``), none ever; else none once something hidden was shown because of it
    (``refused``, the engine's reason: ``Table.takeback_refusal``). Nothing is said
    before he has decided anything in this deal, nor once the hand is over or he has left
    the table: there is no decision of a hand in play to speak of."""
    if hand.over or practice.left:
        return TakeBack()
    if practice.honest:
        return TakeBack(honest=service.HONEST_TABLE)
    refusal = table.takeback_refusal(HUMAN)
    said = "" if refusal is None or refusal.key in service.TAKEBACK_UNSAID else say(refusal)
    return TakeBack(
        may=refusal is None and service.his_own_last(practice, hand),
        refused=f"{service.TAKEBACK_REFUSED} {said}" if said else "",
        offered=TAKEBACK_OFFERED,
    )


# -- a finished hand ------------------------------------------------------------------------


def replay_page(record: PracticeHand, step: int, *, here: str) -> ReplayPage:
    """A finished hand after its first ``step`` actions (at most its number of actions), as
    the human saw it, with its trace up to there: ``here``, the page's own address."""
    hand = record.replay(step)
    guide = record.table.guide
    return presenting.replay_page(
        view_for(hand, HUMAN),
        hand,
        RuleLinks.of(record.table.rules, record.table.game),
        notes=[n for n in record.notes if n["action"] < step],
        step=step,
        steps=record.steps,
        # The lines this step added to the trace.
        first_new=len(record.replay(step - 1).events) if step else None,
        here=here,
        watched=guide["rule"] if guide else "",
    )
