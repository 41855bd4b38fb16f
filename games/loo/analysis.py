"""The analysis board (issue 38): a decision weighed by the coach, with the sampled deals behind
its figures, the line of play each option met in a deal, and what-if.

A board is asked about a :class:`~games.loo.view.PlayerView` with a decision in it, as the coach
is; it says nothing the coach would not. What it adds is the coach's own working, shown:

- :func:`deals_for`: the deals the coach sampled of the cards the player cannot see, the very
  ones its figures average over (the same generator, seeded the same way, drawn in the same
  order as :func:`games.loo.coach.advise` draws them: :func:`games.loo.coach.sample_deals`, or
  every deal when the coach counts them all), each with its weight (how likely the others'
  public actions make it);
- :func:`line_of_play`: one option played out in one of those deals by the coach's own
  policy (:func:`games.loo.coach.finish`: the others as the model of the table at their level,
  with the chance the coach gave that deal), trick by trick: a likely line behind the option's
  figure (the figure itself weighs the last cards' every line, where this shows one);
- :func:`held_by` and :data:`MISS`: a filter of the deals ("the miss held the ace of trumps",
  "seat 3 holds the king of trumps");
- what-if on a finished hand's decision: :func:`decision_at` (the hand at one of its decisions),
  :func:`swap_card` (a card of his hand exchanged for one he cannot see),
  :func:`redeclare` (another declaration by a player before him) and :func:`under_rules` (the
  same cards and the same play under another rule set), each checked by the engine again and
  refused in plain words (:class:`BoardError`); a position set up from nothing is
  :func:`set_up` (issue 37's check, :func:`games.loo.possible.check_declaring`, and its table,
  :func:`games.loo.questions.tables.declaring_table`).

:func:`advice` and :func:`deals_for` are the one place the board asks the coach: when the coach
models the other players' level, it is switched there.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from . import coach
from .authored import (
    cards_field,
    count_field,
    declarations_field,
    flag_field,
    seat_field,
    turn_up_field,
)
from .cards import Card
from .errors import LooError
from .hand import Action, Hand, HandSetup, IllegalAction, Trick
from .hand.deal import dealer_out, stack_pack
from .play import Trumps
from .possible import ImpossiblePosition, card_name, check_declaring
from .questions.tables import declaring_table
from .rulesets import GAME_NAMES, PRESETS, RuleSet
from .view import PlayerView, view_for
from .worlds import World, _choices, build_world, voids

#: Where a card may lie in a sampled deal besides a seat's hand: the miss.
MISS: Final = "miss"
#: The most deals a board samples ("Look deeper"), and the fewest (a margin needs two).
MOST_SAMPLES: Final = 480
FEWEST_SAMPLES: Final = 2


class BoardError(LooError):
    """A board cannot be made as asked; the message says why, in plain words."""


# -- the coach, asked in one place ---------------------------------------------------------------


def _takes_level() -> bool:
    return "level" in inspect.signature(coach.advise).parameters


def advice(view: PlayerView, *, samples: int, seed: str, level: str = "") -> coach.Advice:
    """The coach's figures for the decision ``view`` shows (the other seats at ``level``, once
    the coach models them; until then its own model)."""
    extra: dict[str, Any] = {"level": level} if level and _takes_level() else {}
    return coach.advise(view, samples=samples, seed=seed, **extra)


def level_modelled() -> bool:
    """The coach weighs the other players at a level of their own (else by its rule of thumb)."""
    return _takes_level()


def deals_for(
    view: PlayerView, samples: int, seed: str, level: str = "sensible"
) -> list[tuple[World, float]]:
    """The deals the coach's figures for ``view`` (``samples``, ``seed`` and ``level``) average
    over, in its order, each with its weight."""
    every = coach.all_deals(view, level or "sensible")
    if every is not None:
        return every
    return coach.sample_deals(view, samples=samples, seed=seed, level=level or "sensible")


# -- a deal ---------------------------------------------------------------------------------------


def held_by(world: World, where: int | str, c: Card) -> bool:
    """In ``world``, ``c`` lies at ``where``: a seat's hand, or :data:`MISS`."""
    if where == MISS:
        return world.miss is not None and c in world.miss
    assert isinstance(where, int)
    return 0 <= where < len(world.hands) and c in world.hands[where]


@dataclass(frozen=True)
class Line:
    """One option played out in one sampled deal, as the coach's figures played it."""

    action: Action
    #: What every player did after the option, in order (declarations, draws, cards).
    steps: tuple[Action, ...]
    #: The tricks of the play after the option (the trick on the table completed first).
    tricks: tuple[Trick, ...]
    #: The player's counters won (or lost) by it: this deal's share of the option's figure.
    gain: int
    #: Every seat's counters at the end.
    balances: tuple[int, ...]
    outcome: str


def line_of_play(
    view: PlayerView,
    world: World,
    action: Action,
    *,
    seed: str,
    index: int,
    level: str = "sensible",
) -> Line:
    """``action`` played out in ``world``, the ``index``-th deal of :func:`deals_for`, by the
    coach's policy with the chance it gave that deal: the playout behind its figure."""
    hand = coach_world(view, world)
    before = hand.balances[view.seat]
    done = len(hand.tricks)
    start = len(hand.log)
    hand.apply(action)
    coach.finish(hand, random.Random(f"{seed}:{index}"), level=level or "sensible", seat=view.seat)
    return Line(
        action=action,
        steps=tuple(hand.log[start + 1 :]),
        tricks=tuple(hand.tricks[done:]),
        gain=hand.balances[view.seat] - before,
        balances=tuple(hand.balances),
        outcome=hand.outcome,
    )


def coach_world(view: PlayerView, world: World) -> Hand:
    """The hand of ``world`` at the point ``view`` shows, as the coach builds it."""
    return build_world(view, world)


# -- a finished hand's decision, and what-if -----------------------------------------------------


def decision_at(setup: HandSetup, log: Sequence[Action], step: int, seat: int) -> Hand:
    """The hand ``setup`` deals after the first ``step`` actions of ``log``, where ``seat``
    decides; :class:`BoardError` if he has no decision to make there."""
    if not 0 <= step < len(log):
        raise BoardError(f"step {step} is not a decision of this hand")
    # The hand as stored (its trace too): the view, and so the coach's seed, are those the
    # table and the review had at that decision.
    hand = Hand.replay(setup, log[:step])
    if not _decides(hand, seat) or log[step].seat != seat:
        raise BoardError("that step is not one of your decisions")
    return hand


def _decides(hand: Hand, seat: int) -> bool:
    view = view_for(hand, seat)
    return view.options is not None and view.to_act == seat and view.hand is not None


def decisions(setup: HandSetup, log: Sequence[Action], seat: int) -> list[int]:
    """The steps of ``log`` at which ``seat`` made a decision with more than one option."""
    hand = Hand.deal(setup._replace(trace=False))
    found = []
    for index, action in enumerate(log):
        if action.seat == seat and action.kind in ("declare", "play", "replay"):
            view = view_for(hand, seat)
            if (
                view.options is not None
                and view.to_act == seat
                and view.hand is not None
                and len(coach_choices(view)) > 1
            ):
                found.append(index)
        hand.apply(action)
    return found


def coach_choices(view: PlayerView) -> list[Action]:
    """The options the coach weighs at ``view``'s decision."""
    return _choices(view)


def swap_card(hand: Hand, seat: int, out: Card, into: Card) -> Hand:
    """``hand`` with ``out`` of ``seat``'s cards exchanged for ``into``, a card he cannot see
    (from wherever it lay: another hand, the miss, the stock, the discards)."""
    view = view_for(hand, seat)
    if view.hand is None or out not in view.hand:
        raise BoardError(f"{card_name(out)} is not in your hand")
    if into in view.visible_cards():
        raise BoardError(
            f"{card_name(into)} is one you can see (in your hand, turned up or played): "
            "choose a card you cannot see"
        )
    shown = voids(view)
    trumps = Trumps.of(view.game, view.rules, view.trump)
    if trumps.suit_of(into) in shown.get(seat, ()):
        raise BoardError(
            f"{card_name(into)} is of a suit you showed you lacked (you did not follow it)"
        )
    holder = next((s for s, held in enumerate(hand.hands) if into in held), None)
    if holder is not None and trumps.suit_of(out) in shown.get(holder, ()):
        raise BoardError(
            f"{card_name(into)} is held by a player who showed he lacked the suit of "
            f"{card_name(out)}, which he would get for it"
        )
    changed = _clone(hand)
    places: list[list[Card]] = [*changed.hands, *changed.thrown.values(), changed.stock]
    if changed.miss is not None:
        places.append(changed.miss)
    for place in places:
        if into in place:
            place[place.index(into)] = out
            break
    else:  # a card out of the deal (never dealt): simply his now
        pass
    mine = changed.hands[seat]
    mine[mine.index(out)] = into
    changed._offer = changed._exchange_cache = None
    changed._moves = None
    return changed


def _clone(hand: Hand) -> Hand:
    """A copy of ``hand`` to change (the coach's field-by-field copy)."""
    return coach._clone(hand)


def redeclare(
    setup: HandSetup, log: Sequence[Action], step: int, seat: int, other: int, choice: str
) -> Hand:
    """The hand at ``seat``'s decision ``step``, had ``other`` (a player who declared before it)
    declared ``choice``; the others' declarations as they were, each checked again (the
    others' cards laid as ``seat`` saw them: :func:`replay_as_seen`)."""
    hand = Hand.deal(setup)
    changed = False
    for action in log[:step]:
        if action.kind == "declare" and action.seat == other and not changed:
            action = Action.declare(other, choice)
            changed = True
        try:
            if not _laid_as_seen(hand, action, seat):
                hand.apply(action)
        except IllegalAction as e:
            why = e.application.render(0) if e.application is not None else e.render(0)
            raise BoardError(
                f"after that declaration the hand cannot go on as it did: {why}"
            ) from None
    if not changed:
        raise BoardError("that player made no declaration before your decision")
    if not _decides(hand, seat):
        raise BoardError("after that declaration the decision is no longer yours to make")
    return hand


def rules_title(rules: RuleSet) -> str:
    """A rule set as the pages name it ("Peel (1891)")."""
    return PRESETS[rules.name].title if rules.name in PRESETS else rules.name


def under_rules(
    setup: HandSetup, log: Sequence[Action], step: int, seat: int, rules: RuleSet
) -> HandSetup:
    """The setup of the hand ``setup`` deals, dealt the very same cards (a stacked pack) under
    ``rules``, in which the first ``step`` actions of ``log`` can be made again and ``seat``
    then has the same decision to make, with a choice; :class:`BoardError` says in plain
    words why not (the rule set does not cover the game or seat so many players, it would
    deal otherwise, an action could not be made, the decision is not his or has one option).

    What the rule set decides from what everybody saw is checked again by the engine: the
    deal, the declarations, the exchange, who leads, and his own cards' plays. The others'
    plays are taken as they were made, as he saw them: whether a rule of ``rules`` would
    have forbidden one of them depends on cards he could not see, and nothing on the board
    may (the coach weighs the position from his view, as always)."""
    title = rules_title(rules)
    game, players = setup.game, setup.players
    if not rules.supports(game):
        covered = " and ".join(GAME_NAMES[g] for g in rules.games)
        raise BoardError(
            f"{title} covers {covered} only: a position of {GAME_NAMES[game]} cannot be "
            "played under it"
        )
    low, high = rules.players(game)
    if not low <= players <= high:
        raise BoardError(
            f"{title} seats {low} to {high} players at {GAME_NAMES[game]}, not {players}"
        )
    if not 0 <= step < len(log) or log[step].seat != seat:
        raise BoardError("that step is not one of your decisions")
    dealt = Hand.deal(setup._replace(trace=False))
    if dealt.single_deal_applies():
        raise BoardError(f"this deal was a single, one card to each player: not so under {title}")
    if dealer_out(game, rules, players) != dealer_out(game, dealt.rules, players):
        raise BoardError(
            f"the dealer {'stands out of' if dealer_out(game, rules, players) else 'plays in'} "
            f"his deal at a table of {players} under {title}: the cards would be dealt otherwise"
        )
    pack = stack_pack(
        game,
        rules,
        players,
        setup.dealer,
        [[c.code for c in h] for h in dealt.hands],
        dealt.turn_up.code,
        None if dealt.miss is None else [c.code for c in dealt.miss],
        [c.code for c in dealt.stock],
    )
    changed = setup._replace(rules=rules, pack=pack)
    hand = Hand.deal(changed._replace(trace=False))
    if hand.single_deal_applies():
        raise BoardError(f"under {title} this deal would be a single, one card to each player")
    if (hand.miss is None) != (dealt.miss is None):
        raise BoardError(
            f"under {title} this deal would be a must with no miss"
            if hand.miss is None
            else f"under {title} this deal would have a miss"
        )
    if hand.club_law != dealt.club_law:
        law = "make it club law: everybody plays" if hand.club_law else "do not make it club law"
        raise BoardError(f"under {title} clubs turned up {law}")
    if hand.hands != dealt.hands or hand.miss != dealt.miss or hand.turn_up != dealt.turn_up:
        raise BoardError(f"under {title} the cards would be dealt otherwise")
    try:
        hand = replay_as_seen(changed._replace(trace=False), log[:step], seat)
    except IllegalAction as e:
        why = e.application.render(0) if e.application is not None else e.render(0)
        raise BoardError(f"under {title} the hand cannot go as it did: {why}") from None
    if not _decides(hand, seat):
        raise BoardError(f"under {title} that decision would not be yours to make")
    if len(coach_choices(view_for(hand, seat))) < 2:
        raise BoardError(f"under {title} you would have no choice there")
    return changed


def replay_as_seen(setup: HandSetup, actions: Sequence[Action], seat: int) -> Hand:
    """The hand ``setup`` deals after ``actions``, each checked by the engine but the others'
    cards, laid as ``seat`` saw them laid (:func:`under_rules`); IllegalAction if one cannot
    be made."""
    hand = Hand.deal(setup)
    for action in actions:
        if not _laid_as_seen(hand, action, seat):
            hand.apply(action)
    return hand


def _laid_as_seen(hand: Hand, action: Action, seat: int) -> bool:
    """Another player's card laid as he laid it, if it is his turn in the play, he holds it
    and only a rule about what he held forbids it (:func:`under_rules`); False otherwise (the
    engine applies the action and checks it)."""
    if hand.phase != "play" or action.kind != "play" or action.seat == seat or action.civil:
        return False
    if action.seat != hand.to_act or len(action.cards) != 1:
        return False
    played = next((c for c in hand.hands[action.seat] if c.code == action.cards[0]), None)
    if played is None or played in hand.legal_moves(action.seat, False).legal:
        return False
    hand._lay(action.seat, played, (), False, False)
    hand.log.append(action)
    hand._offer = hand._exchange_cache = None
    return True


def set_up(data: Mapping[str, object], *, game: str, rules: RuleSet) -> Hand:
    """A moment of the declaring the player writes (issue 37's fields: ``players``,
    ``dealer``, ``hand``, ``turn_up``, ``declarations``, ``pool``, ``must``), checked to be
    possible (:class:`~games.loo.possible.ImpossiblePosition` says why not), made a hand."""
    check_declaring(data, game=game, rules=rules)
    players = count_field(data, "players")
    turn_up = turn_up_field(data)
    if turn_up is None:  # check_declaring refuses it first
        raise ImpossiblePosition("no turn-up")
    must = data.get("must")
    hand = declaring_table(
        game,
        rules,
        players,
        seat_field(data, "dealer", players),
        own=cards_field(data, "hand"),
        turn_up=turn_up,
        declarations=declarations_field(data, players),
        pool=None if data.get("pool") is None else count_field(data, "pool"),
        must=None if must is None else flag_field(data, "must"),
    )
    return hand


__all__ = [
    "MISS",
    "BoardError",
    "Line",
    "advice",
    "deals_for",
    "decision_at",
    "decisions",
    "held_by",
    "line_of_play",
    "redeclare",
    "replay_as_seen",
    "set_up",
    "rules_title",
    "swap_card",
    "under_rules",
]
