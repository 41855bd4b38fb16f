"""A player's statistics across his practice sessions (issue 38, the player's side): hands
played, net counters and times looed, by rule set and game, with two charts that show the
same numbers as the table beside them.

Computed from the finished hands the practice table keeps (``PracticeHand``: each row has
the human's ``net`` counters over the hand and whether he was ``looed``), in one aggregating
query however many hands there are. Only the player's own: the hands of his tables
(``PracticeHand.objects.for_request``: an account's, or for someone not logged in this
browser session's, as the tables themselves). Nothing is counted that he did not see: a
hand's net and loo are his own, shown on the table when the hand ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.db.models import Count, Q, Sum
from django.http import HttpRequest

from games.loo.rulesets import GAME_NAMES, GAMES, PRESETS
from games.models import PracticeHand


@dataclass(frozen=True)
class Group:
    """The player's hands under one rule set at one game (or all of them: ``rules`` "")."""

    rules: str
    game: str
    #: How many tables (sessions) the hands were played at.
    tables: int
    hands: int
    net: int
    looed: int

    @property
    def title(self) -> str:
        """The group as a page names it: "Three-card Loo, Hoffmann (1909)", or "All hands"."""
        if not self.rules:
            return "All hands"
        game = GAME_NAMES.get(self.game, self.game)
        rules = PRESETS[self.rules].title if self.rules in PRESETS else self.rules
        return f"{game[:1].upper()}{game[1:]}, {rules}"

    @property
    def looed_percent(self) -> int:
        """The share of his hands he was looed in, in whole per cent (0 for no hands)."""
        return round(100 * self.looed / self.hands) if self.hands else 0

    @property
    def net_per_hand(self) -> str:
        """His net counters per hand, to one decimal place, signed ("+0.4", "−1.2", "0.0")."""
        value = round(self.net / self.hands, 1) if self.hands else 0.0
        return _signed(value, "{:.1f}")


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: where it is (user units) and what it says at its end."""

    x: float
    y: float
    width: float
    value_x: float
    text: str
    kind: str

    @property
    def height(self) -> int:
        return _BAR

    @property
    def bottom(self) -> float:
        """A little below the bar: where the zero line beside it ends."""
        return self.y + _BAR + 2

    @property
    def text_y(self) -> float:
        """The baseline of its number, level with the bar's middle."""
        return round(self.y + _BAR - 3, 1)


@dataclass(frozen=True)
class GroupRow:
    """A group's place in a chart: its label's baseline and its bars."""

    label: str
    label_y: float
    bars: list[Bar]


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart as SVG: its size (user units), a row a group, and where the
    bars grow from (``zero``, an x: a line beside each bar)."""

    width: int
    height: int
    rows: list[GroupRow]
    zero: float


@dataclass(frozen=True)
class Statistics:
    """The groups (rule set and game, in the chooser's order), their total, and the charts;
    no group and no chart when the player has finished no hand."""

    groups: list[Group]
    total: Group
    counts: BarChart | None = None
    nets: BarChart | None = None
    logged_in: bool = False


def of(request: HttpRequest) -> Statistics:
    """The statistics of whoever made ``request``: his own finished hands, grouped by rule set
    and game in one query (none at all for a browser without a session)."""
    rows = (
        PracticeHand.objects.for_request(request)
        .values("table__rules", "table__game")
        .annotate(
            tables=Count("table", distinct=True),
            hands=Count("pk"),
            net=Sum("net"),
            looed=Count("pk", filter=Q(looed=True)),
        )
        .order_by()
    )
    groups = sorted(
        (
            Group(
                rules=row["table__rules"],
                game=row["table__game"],
                tables=row["tables"],
                hands=row["hands"],
                net=row["net"] or 0,
                looed=row["looed"],
            )
            for row in rows
        ),
        key=_order,
    )
    total = Group(
        rules="",
        game="",
        tables=sum(g.tables for g in groups),
        hands=sum(g.hands for g in groups),
        net=sum(g.net for g in groups),
        looed=sum(g.looed for g in groups),
    )
    logged_in = bool(request.user.is_authenticated)
    if not groups:
        return Statistics([], total, logged_in=logged_in)
    return Statistics(groups, total, counts_chart(groups), nets_chart(groups), logged_in)


def _order(group: Group) -> tuple[int, int, str, str]:
    presets, games = list(PRESETS), list(GAMES)
    rules = presets.index(group.rules) if group.rules in presets else len(presets)
    game = games.index(group.game) if group.game in games else len(games)
    return rules, game, group.rules, group.game


# -- the charts -----------------------------------------------------------------------------

#: The charts' width (user units; the SVG scales to its box), the room kept at the right of
#: the longest bar for its number, and the heights of a group's label and of a bar.
CHART_WIDTH: Final = 320
_VALUE_ROOM: Final = 100
_LABEL: Final = 16
_BAR: Final = 12
_GAP: Final = 3
_GROUP_GAP: Final = 9
_TOP: Final = 4


def counts_chart(groups: list[Group]) -> BarChart:
    """Hands played and times looed, two bars a group on one scale (counts)."""
    most = max(g.hands for g in groups) or 1
    room = CHART_WIDTH - _VALUE_ROOM
    rows, y = [], float(_TOP)
    for g in groups:
        label_y = y + _LABEL - 3
        bars = []
        top = y + _LABEL
        for kind, value, words in (
            ("hands", g.hands, _plural(g.hands, "hand", "hands")),
            ("looed", g.looed, f"looed {_plural(g.looed, 'time', 'times')}"),
        ):
            width = round(room * value / most, 1)
            bars.append(Bar(0, top, width, width + 4, words, kind))
            top += _BAR + _GAP
        rows.append(GroupRow(g.title, label_y, bars))
        y = top - _GAP + _GROUP_GAP
    return BarChart(CHART_WIDTH, round(y - _GROUP_GAP + _TOP), rows, 0)


def nets_chart(groups: list[Group]) -> BarChart:
    """Net counters, a bar a group growing from zero: rightwards for a gain, leftwards for a
    loss (its number is written right of the zero line)."""
    gain = max(max(g.net for g in groups), 0)
    loss = max(-min(g.net for g in groups), 0)
    room = CHART_WIDTH - _VALUE_ROOM
    span = (gain + loss) or 1
    zero = round(room * loss / span, 1)
    rows, y = [], float(_TOP)
    for g in groups:
        top = y + _LABEL
        width = round(room * abs(g.net) / span, 1)
        x = zero - width if g.net < 0 else zero
        text = f"{_signed(g.net, '{}')} counter{'' if abs(g.net) == 1 else 's'}"
        value_x = zero + (width if g.net > 0 else 0) + 4
        kind = "gain" if g.net > 0 else "loss" if g.net < 0 else "even"
        rows.append(GroupRow(g.title, y + _LABEL - 3, [Bar(x, top, width, value_x, text, kind)]))
        y = top + _BAR + _GROUP_GAP
    return BarChart(CHART_WIDTH, round(y - _GROUP_GAP + _TOP), rows, zero)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _signed(value: float, form: str) -> str:
    """``value`` with its sign: "+3", "−2" (a true minus), "0"."""
    text = form.format(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"\u2212{text}"
    return text
