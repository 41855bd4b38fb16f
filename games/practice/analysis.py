"""The analysis board at the practice table (issue 38): a decision of a finished hand, or a
position the player sets up, weighed by the coach, with its sampled deals, a line of play for
each option in a chosen deal, and what-if. The engine's part is :mod:`games.loo.analysis`; this
module decides which boards may exist, computes their figures once (cached by their inputs,
limited as the coach is) and builds what the page shows.

Which boards exist: a finished hand's (its :class:`~games.models.PracticeHand` row exists only
once the hand is over, and the hand replayed must be over too), for its owner, where the coach
is offered (learning mode, not an honest table); a position set up from nothing, for anyone.
There is no board of a hand in progress: nothing hidden from a hand in play is ever weighed or
shown. A finished hand's board shows every card (the hand is over, as its replay may); a set-up
position shows what the player set, never the filler cards the engine deals the others.

The figures are the coach's, asked about ``view_for(hand, HUMAN)`` with the view's own seed
(:func:`games.loo.review.view_seed`): a finished hand's decision gets the figures "Ask the
coach" and the review gave. They are kept in the shared cache under a digest of that view, the
deals sampled, the other players' level and the engine; only a computation (a cache miss) is
counted, once per :data:`~games.loo.coach.SAMPLES` deals, against the coach's limits
(``coach-per-session``, ``coach-per-address``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from django.core.cache import cache as shared_cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.loo import analysis
from games.loo.cards import PACK, Card
from games.loo.coach import SAMPLES, Advice
from games.loo.errors import LooError
from games.loo.hand import Action, Hand, Trick, setup_from_dict
from games.loo.review import describe, option_line, view_seed
from games.loo.rulesets import GAME_NAMES, PRESETS, RuleSet
from games.loo.view import PlayerView, view_for
from games.loo.worlds import World
from games.models import PracticeHand
from games.naming import HUMAN, say, seat_label, seat_name
from games.practice import coaching
from loo_site import limits

from .analysis_forms import LEVEL_CHOICES, MISS_VALUE, SAMPLE_CHOICES, SetUpForm

#: A board's figures are fixed by their inputs: kept for a day.
BOARD_SECONDS: Final = 24 * 3600
#: Sampled deals shown on a page.
PER_PAGE: Final = 10
#: The board's own query fields (:class:`~.analysis_forms.BoardForm`), which the what-if form
#: sets itself: a set-up position's other fields are carried through it.
WHATIF_NAMES: Final = (
    "samples",
    "level",
    "swap_out",
    "swap_in",
    "other",
    "choice",
    "rules",
    "page",
    "deal",
)
#: How each declaration reads in a line of play.
_DOES: Final = {
    "play": "plays",
    "pass": "passes",
    "take-miss": "takes the miss",
    "defend-miss": "takes the miss to play for the pool",
    "defend-master": "plays for the pool",
    "demand": "demands a replay",
    "decline": "lets the result stand",
}


@dataclass(frozen=True)
class Position:
    """What a board weighs: the hand at the decision, and the human's view of it."""

    hand: Hand
    view: PlayerView
    #: Every card may be shown (a finished hand).
    reveal: bool
    #: Where it came from: a finished hand's record and step, else a set-up position.
    record: PracticeHand | None = None
    step: int = 0
    #: The rule set a finished hand was played under, when it is weighed under another.
    played_under: str = ""


# -- which boards exist ---------------------------------------------------------------------


def finished_hand(record: PracticeHand) -> tuple[Any, list[Action]] | None:
    """A finished hand's setup and log, or None if its hand is not over (no board then)."""
    setup = setup_from_dict(record.setup)
    log = [Action.from_dict(a) for a in record.log]
    if not Hand.replay(setup._replace(trace=False), log).over:
        return None
    return setup, log


def decision_steps(record: PracticeHand) -> list[int]:
    """The steps of a finished hand at which the human had a choice (a board each)."""
    found = finished_hand(record)
    if found is None:
        return []
    return analysis.decisions(found[0], found[1], HUMAN)


def board_url(record: PracticeHand, step: int) -> str:
    return reverse("games:hand-board", args=[record.table_id, record.number, step])


def step_board_url(record: PracticeHand, step: int) -> str:
    """The board of the human's decision at ``step`` of a finished hand, if it is one (with a
    choice) and the coach is offered at its table; "" otherwise."""
    if not coaching.offered(record.table) or step >= record.steps:
        return ""
    return board_url(record, step) if step in decision_steps(record) else ""


def finished_position(record: PracticeHand, step: int, whatif: Mapping[str, Any]) -> Position:
    """The human's decision ``step`` of a finished hand, changed as ``whatif`` asks (a card
    swapped, another player's declaration): :class:`~games.loo.analysis.BoardError` if it is
    not one of his decisions or the change cannot be made; LookupError if the hand is not over."""
    found = finished_hand(record)
    if found is None:
        raise LookupError("the hand is not over")
    setup, log = found
    played_under = ""
    wanted = whatif.get("rules") or ""
    if wanted and wanted != setup.rules.name:
        played_under = analysis.rules_title(setup.rules)
        setup = analysis.under_rules(setup, log, step, HUMAN, RuleSet.preset(wanted))
        hand = analysis.replay_as_seen(setup, log[:step], HUMAN)
    else:
        hand = analysis.decision_at(setup, log, step, HUMAN)
    if whatif.get("other"):
        hand = analysis.redeclare(
            setup, log, step, HUMAN, whatif["other"] % record.table.players, whatif["choice"]
        )
    if whatif.get("swap_out"):
        hand = analysis.swap_card(hand, HUMAN, whatif["swap_out"], whatif["swap_in"])
    return Position(
        hand,
        view_for(hand, HUMAN),
        reveal=True,
        record=record,
        step=step,
        played_under=played_under,
    )


def other_rule_sets(position: Position, set_up: SetUpForm | None = None) -> RuleSetChoices:
    """The rule sets the what-if may weigh this decision under besides the one it was played
    (or set up) under, and those it may not, each with the reason in plain words: for a
    finished hand, the same cards and the same play
    (:func:`games.loo.analysis.under_rules`); for a set-up position, the same fields checked
    under that rule set (:func:`games.loo.analysis.set_up`), a decision with a choice."""
    view = position.view
    held: list[tuple[str, str]] = []
    refused: list[str] = []
    found = finished_hand(position.record) if position.record is not None else None
    played = found[0].rules.name if found is not None else view.rules.name
    for pid, preset in PRESETS.items():
        if pid == played:
            continue
        rules = RuleSet.preset(pid)
        try:
            if found is not None:
                analysis.under_rules(found[0], found[1], position.step, HUMAN, rules)
            elif set_up is not None:
                _set_up_holds(set_up, rules)
            else:
                continue
        except LooError as error:
            text = str(error).removeprefix(f"under {preset.title} ").removeprefix(preset.title)
            refused.append(f"{preset.title}: {text.strip()[:1].lower()}{text.strip()[1:]}.")
            continue
        held.append((pid, preset.title))
    return RuleSetChoices(tuple(held), tuple(refused))


def _set_up_holds(set_up: SetUpForm, rules: RuleSet) -> None:
    """The set-up position can be weighed under ``rules`` (a LooError says why not)."""
    hand = analysis.set_up(set_up.position(), game=set_up.cleaned_data["game"], rules=rules)
    if len(analysis.coach_choices(view_for(hand, HUMAN))) < 2:
        raise analysis.BoardError(f"under {analysis.rules_title(rules)} you would have no choice")


@dataclass(frozen=True)
class RuleSetChoices:
    """The what-if's other rule sets: (id, title) of those that hold the position, and a
    sentence for each that does not."""

    held: tuple[tuple[str, str], ...]
    refused: tuple[str, ...]


def set_up_position(form: SetUpForm) -> Position:
    """The moment of the declaring ``form`` describes: ImpossiblePosition (or another
    LooError) says in plain words why it cannot be."""
    data = form.cleaned_data
    hand = analysis.set_up(form.position(), game=data["game"], rules=RuleSet.preset(data["rules"]))
    return Position(hand, view_for(hand, HUMAN), reveal=False)


# -- the figures, cached and limited ----------------------------------------------------------


def figures(
    request: HttpRequest, view: PlayerView, *, samples: int, level: str
) -> Advice | HttpResponse:
    """The coach's figures for the decision ``view`` shows, or the 429 page."""
    seed = view_seed(view)
    digest = hashlib.sha256(f"{seed}:{samples}:{level}".encode()).hexdigest()[:24]
    key = f"board:{digest}:{coaching.engine_digest()}"
    found = shared_cache.get(key)
    if isinstance(found, Advice):
        return found
    for _ in range(-(-samples // SAMPLES)):  # "look deeper" counts as the work it is
        if refused := limits.check(request, "coach-per-session", "coach-per-address"):
            return refused
    made = analysis.advice(view, samples=samples, seed=seed, level=level)
    shared_cache.set(key, made, BOARD_SECONDS)
    return made


# -- what the page shows ----------------------------------------------------------------------


@dataclass(frozen=True)
class OptionShown:
    index: int
    text: str
    best: bool
    as_good: bool


@dataclass(frozen=True)
class Holding:
    """A seat's cards (or the miss's) in a deal."""

    who: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DealShown:
    number: int
    weight: float
    holdings: tuple[Holding, ...]
    #: The board with this deal's lines of play.
    url: str


@dataclass(frozen=True)
class TrickShown:
    number: int
    plays: tuple[tuple[str, Card], ...]
    winner: str


@dataclass(frozen=True)
class LineShown:
    option: str
    steps: tuple[str, ...]
    tricks: tuple[TrickShown, ...]
    result: str


def board_page(
    position: Position,
    advice: Advice,
    options: Mapping[str, Any],
    *,
    here: str,
    query: Mapping[str, Any],
) -> dict[str, Any]:
    """The board's context: the options' figures, the deals (filtered, a page of them), the
    lines of play in the chosen deal, the what-if choices; ``here`` is the page's address
    with the query that made it (the deals' links keep it)."""
    view = position.view
    players = view.players
    exchange = view.phase == "exchange"
    best = advice.best
    rows = [
        OptionShown(
            index=i,
            text=say(option_line(e, HUMAN, exchange=exchange), players),
            best=e is best,
            as_good=e.as_good,
        )
        for i, e in enumerate(advice.options)
    ]
    seed = str(advice.seed)
    deals = analysis.deals_for(view, advice.samples, seed, advice.level)
    where, wanted = options.get("where"), options.get("card")
    chosen = [
        (i, world, weight)
        for i, (world, weight) in enumerate(deals)
        if where is None
        or wanted is None
        or analysis.held_by(world, analysis.MISS if where == MISS_VALUE else where, wanted)
    ]
    page = Paginator(chosen, PER_PAGE).get_page(options.get("page"))
    shown = [
        _deal(i, world, weight, players, f"{here}?{pages_query(query, deal=i + 1)}#lines")
        for i, world, weight in page.object_list
    ]
    pages = {
        "previous": f"{here}?{pages_query(query, page=page.number - 1)}#deals"
        if page.has_previous()
        else "",
        "next": f"{here}?{pages_query(query, page=page.number + 1)}#deals"
        if page.has_next()
        else "",
    }
    lines: list[LineShown] = []
    number = options.get("deal")
    if number is not None and 1 <= number <= len(deals):
        world = deals[number - 1][0]
        lines = [
            _line(
                analysis.line_of_play(
                    view, world, e.action, seed=seed, index=number - 1, level=advice.level
                ),
                view,
            )
            for e in advice.options
        ]
    unseen = [c for c in PACK if c not in view.visible_cards()]
    return {
        "position": position,
        "view": view,
        "rows": rows,
        "samples": advice.samples,
        "deeper": advice.samples < SAMPLE_CHOICES[-1][0],
        "deals_page": page,
        "deals": shown,
        "pages": pages,
        "deeper_url": f"{here}?{pages_query(query, samples=SAMPLE_CHOICES[-1][0])}#figures",
        "matching": len(chosen),
        "lines": lines,
        "line_deal": number if lines else None,
        "actual": _actual(position) if position.reveal else (),
        "where_choices": _where_choices(view, deals),
        "card_choices": unseen,
        "swap_choices": unseen,
        "declared_before": _declared_before(position),
        "choice_choices": [(c, _DECLARE[c]) for c in _declaring_choices(view)],
        "levels": LEVEL_CHOICES,
        "level_modelled": analysis.level_modelled(),
        "set_up_query": _set_up_query(position),
        "game_name": GAME_NAMES[view.game],
        "rules_title": PRESETS[view.rules.name].title if view.rules.name in PRESETS else "",
        "here": here,
        "whatif_names": WHATIF_NAMES,
    }


def pages_query(query: Mapping[str, Any], **changes: object) -> str:
    """``query`` (a GET's items) with ``changes`` made, as a URL query."""
    merged = {k: v for k, v in query.items() if v not in ("", None)}
    for k, v in changes.items():
        if v is None:
            merged.pop(k, None)
        else:
            merged[k] = v
    return urlencode(merged)


def _deal(index: int, world: World, weight: float, players: int, url: str) -> DealShown:
    holdings = [
        Holding(seat_label(s, players), tuple(world.hands[s]))
        for s in range(players)
        if s != HUMAN and world.hands[s]
    ]
    if world.miss:
        holdings.append(Holding("The miss", tuple(world.miss)))
    return DealShown(index + 1, weight, tuple(holdings), url)


def _actual(position: Position) -> tuple[Holding, ...]:
    """Every card at the decision, the hand being over: each seat's, the miss."""
    hand = position.hand
    held = [
        Holding(seat_label(s, hand.players), tuple(hand.hands[s]))
        for s in range(hand.players)
        if hand.hands[s]
    ]
    if hand.miss:
        held.append(Holding("The miss", tuple(hand.miss)))
    return tuple(held)


def _line(line: analysis.Line, view: PlayerView) -> LineShown:
    players = view.players
    steps = []
    for action in line.steps:
        if action.kind == "play":
            continue  # shown trick by trick
        who = seat_name(action.seat, players)
        if view.phase in ("exchange",) or action.cards:
            what = (
                f"draws {len(action.cards)} card{'s' if len(action.cards) != 1 else ''}"
                if action.choice == "play" and action.cards
                else ("stands" if action.choice == "play" else _DOES.get(action.choice, ""))
            )
        else:
            what = _DOES.get(action.choice, action.choice)
        steps.append(f"{who[:1].upper()}{who[1:]} {what}.")
    first = len(view.tricks) + 1
    tricks = tuple(_trick(first + i, t, players) for i, t in enumerate(line.tricks))
    gain = line.gain
    result = (
        f"You win {gain} counter{'s' if gain != 1 else ''}."
        if gain > 0
        else f"You lose {-gain} counter{'s' if gain != -1 else ''}."
        if gain < 0
        else "You win and lose nothing."
    )
    did = say(describe(line.action, exchange=view.phase == "exchange"), players)
    return LineShown(f"{did[:1].upper()}{did[1:]}", tuple(steps), tricks, result)


def _trick(number: int, trick: Trick, players: int) -> TrickShown:
    winner = seat_name(trick.winner, players) if trick.winner is not None else ""
    return TrickShown(
        number,
        tuple((seat_label(s, players), c) for s, c in trick.plays),
        f"{winner[:1].upper()}{winner[1:]}",
    )


def _where_choices(view: PlayerView, deals: Sequence[tuple[World, float]]) -> list[tuple[str, str]]:
    """Where the filter may look: each other seat holding cards, and the miss if there is one."""
    players = view.players
    holding = {s for world, _ in deals[:1] for s in range(players) if world.hands[s]}
    found = [
        (str(s), seat_label(s, players)) for s in range(players) if s != HUMAN and s in holding
    ]
    if deals and deals[0][0].miss:
        found.append((MISS_VALUE, "The miss"))
    return found


def _declared_before(position: Position) -> list[tuple[int, str]]:
    """The players who declared before the human's decision, for "had he declared…": a
    finished hand's only (a set-up position changes its own declarations)."""
    if position.record is None:
        return []
    view = position.view
    return [
        (s, seat_label(s, view.players))
        for s in range(view.players)
        if s != HUMAN and view.declared[s] is not None
    ]


def _declaring_choices(view: PlayerView) -> list[str]:
    if view.game == "three-card":
        return ["play", "pass", "take-miss", "defend-miss", "defend-master"]
    return ["play", "pass"]


#: Each declaration as "Had … declared …" names it.
_DECLARE: Final = {
    "play": "play",
    "pass": "pass",
    "take-miss": "take the miss",
    "defend-miss": "take the miss for the pool",
    "defend-master": "play for the pool (master)",
}
#: A declaration as the hand keeps it (``Hand.declared``), as the set-up form writes it.
_AS_DECLARED: Final = {"play": "play", "pass": "pass", "miss": "take-miss"}


def _set_up_query(position: Position) -> str:
    """The set-up board's query for this decision, if it is a moment of the declaring (so
    that its cards, declarations or rule set can be changed there): "" otherwise."""
    view = position.view
    if view.phase != "declare" or view.tricks or view.hand is None:
        return ""
    players = view.players
    order = [(view.dealer + 1 + k) % players for k in range(players)]
    before = order[: order.index(HUMAN)]
    made = [_AS_DECLARED.get(view.declared[s] or "") for s in before]
    if any(m is None for m in made):
        return ""
    return urlencode(
        {
            "game": view.game,
            "rules": view.rules.name,
            "players": players,
            "dealer": view.dealer,
            "hand": " ".join(c.code for c in view.hand),
            "turn_up": view.turn_up.code,
            "declarations": " ".join(str(m) for m in made),
            "pool": view.pool,
            **({"must": "on"} if view.must else {}),
        }
    )
