"""The coach (games/loo/coach.py): it answers from the player's view alone, its estimates agree
with the exact expectation where every hidden deal can be counted, and its margin of error
shrinks with the samples as a mean's should."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest

from games.loo import RuleSet
from games.loo.bots import SensibleBot, World, build_world, sample_world, voids
from games.loo.cards import PACK
from games.loo.cli import main
from games.loo.coach import CoachError, advise, outcome
from games.loo.hand import Hand
from games.loo.messages import render
from games.loo.review import option_line
from games.loo.table import Table, TableConfig
from games.loo.table_model import likelihood
from games.loo.view import PlayerView, view_for
from games.loo.view_json import view_from_dict


def _views(game: str, players: int, seed: str, phases: tuple[str, ...]) -> list[PlayerView]:
    """The views of the players to act, at the decisions of a few hands of sensible players."""
    table = Table(TableConfig(game, RuleSet.preset("hoffmann"), players, seed=seed))
    found = []
    for _ in range(3):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if view.options is not None and view.phase in phases and len(_options(view)) > 1:
                found.append(view)
            table.apply(SensibleBot(f"{seed}:{len(hand.log)}", playouts=12).decide(view).action)
    return found


def _options(view: PlayerView) -> tuple[str, ...]:
    assert view.options is not None
    if view.options.legal is not None:
        return tuple(c.code for c in view.options.legal.legal)
    return view.options.choices


@pytest.mark.parametrize(
    ("game", "phases"), [("three-card", ("declare",)), ("five-card", ("exchange", "play"))]
)
def test_the_advice_is_the_same_for_deals_that_differ_only_in_unseen_cards(
    game: str, phases: tuple[str, ...]
) -> None:
    views = _views(game, 5, f"coach:{game}", phases)
    assert len(views) >= 3
    rng = random.Random(3)
    for view in views[:4]:
        # The table's own deal, and two others that agree with everything the adviser sees.
        advice = advise(view, samples=12, seed="same").to_dict()
        others = []
        for _ in range(2):
            other = build_world(view, sample_world(view, rng))
            others.append(other)
            assert view_for(other, view.seat).to_dict()["hand"] == [c.code for c in view.hand or ()]
            assert advise(view_for(other, view.seat), samples=12, seed="same").to_dict() == advice
        # The two deals really differ in what the adviser cannot see.
        assert others[0].hands != others[1].hands or others[0].miss != others[1].miss


def _late_view() -> PlayerView:
    """A three-handed hand at its second trick, the adviser third to play with two cards and a
    choice between them, and no one yet shown out of a suit: each other player holds one card,
    any of the unseen; and the trick is his in some deals and not in others."""
    for n in range(200):
        table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 3, seed=f"late:{n}"))
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if (
                hand.phase == "play"
                and len(hand.tricks) == 1
                and len(hand.in_play) == 3
                and view.trick is not None
                and len(view.trick.plays) == 2
                and len(_options(view)) == 2
                and not voids(view)
                and any(0.1 < e.p_trick < 0.9 for e in advise(view, samples=40, seed=0).options)
            ):
                return view
            table.apply(SensibleBot(f"late:{n}:{len(hand.log)}", playouts=6).decide(view).action)
    raise AssertionError("no such position in 200 deals")


def _every_deal(view: PlayerView) -> list[Hand]:
    """The position in every deal of the unseen cards that can differ in play: each other
    player's last card (the miss and the cards thrown up play no part now)."""
    assert view.hand is not None
    unseen = [c for c in PACK if c not in view.visible_cards()]
    others = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s]]
    assert all(view.hand_sizes[s] == 1 for s in others)
    template = sample_world(view, random.Random(0))
    deals = []
    for cards in itertools.permutations(unseen, len(others)):
        rest = [c for c in unseen if c not in cards]
        hands = [list(view.hand) if s == view.seat else [] for s in range(view.players)]
        for s, c in zip(others, cards, strict=True):
            hands[s] = [c]
        miss = None
        if template.miss is not None:
            miss, rest = rest[: len(template.miss)], rest[len(template.miss) :]
        thrown = {}
        for s, held in template.thrown.items():
            thrown[s], rest = rest[: len(held)], rest[len(held) :]
        deals.append(build_world(view, World(hands, miss, thrown, rest[: view.stock_size])))
    return deals


def test_the_estimates_agree_with_the_exact_expectation_over_every_hidden_deal() -> None:
    """Every deal of the others' last cards, weighed as the coach weighs them (how likely it
    makes the cards they played) and worked out as it works the last cards out (exactly,
    against the model): the sampled estimate lies within three standard errors of it."""
    view = _late_view()
    deals = _every_deal(view)
    advice = advise(view, samples=400, seed="exact")
    assert not advice.exact  # too many deals to count: sampled
    for estimate in advice.options:
        total = gained = took = 0.0
        for deal in deals:
            world = _world_of(deal)
            weight = likelihood(view, world, "sensible")
            hand = build_world(view, world)
            before = hand.balances[view.seat]
            hand.apply(estimate.action)
            end, trick, _ = outcome(hand, random.Random(0), level="sensible", seat=view.seat)
            total += weight
            gained += weight * (end - before)
            took += weight * trick
        exact = gained / total
        error = abs(estimate.expected_counters - exact)
        assert error <= max(3 * estimate.stderr, 1e-9), (estimate, exact)
        # The chance of a trick: within three of its standard errors (its 95% margin / 1.96).
        p = took / total
        assert abs(estimate.p_trick - p) <= 3 * estimate.p_trick_margin95 / 1.96 + 1e-9
    assert len({e.expected_counters for e in advice.options}) > 1  # a choice that matters


def _world_of(hand: Hand) -> World:
    return World(
        [list(h) for h in hand.hands],
        None if hand.miss is None else list(hand.miss),
        {s: list(h) for s, h in hand.thrown.items()},
        list(hand.stock),
    )


def test_the_margin_of_error_shrinks_as_one_over_the_root_of_the_samples() -> None:
    view = next(v for v in _views("three-card", 5, "coach:shrink", ("declare",)))
    few = advise(view, samples=50, seed="shrink")
    many = advise(view, samples=800, seed="shrink")
    for small, large in zip(few.options, many.options, strict=True):
        if small.stderr == 0:  # passing wins and loses nothing, in (nearly) every deal
            # (not always nothing: a flush, in a deal the model finds unlikely)
            assert large.stderr < 0.05
            continue
        # Sixteen times the samples: a quarter of the error, within the noise of the estimate.
        assert 2.5 < small.stderr / large.stderr < 6.5, (small, large)
        assert abs(small.expected_counters - large.expected_counters) <= 3 * small.stderr


def test_the_coach_answers_the_same_way_twice_and_refuses_a_view_without_a_decision() -> None:
    view = _views("three-card", 5, "coach:twice", ("declare",))[0]
    assert advise(view, samples=20, seed=9) == advise(view, samples=20, seed=9)
    best = advise(view, samples=20, seed=9).best
    assert best.as_good
    table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 5, seed="idle"))
    hand = table.deal()
    waiting = next(s for s in range(5) if s != hand.to_act)
    with pytest.raises(CoachError):
        advise(view_for(hand, waiting), seed=1)


def test_the_command_line_advises_from_a_view_as_json_as_the_coach_does() -> None:
    view = _views("three-card", 5, "coach:cli", ("declare",))[0]
    out, err = io.StringIO(), io.StringIO()
    text = json.dumps(view.to_dict())
    argv = ["advise", "--rules", "hoffmann", "--samples", "30", "--seed", "4", "-"]
    assert main(argv, stdin=io.StringIO(text), stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue()) == advise(view, samples=30, seed=4).to_dict()


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"hand": ["AS", "AS", "2C"]}, "a card appears twice"),
        ({"turn_up": "1X"}, "1X"),
        ({"balances": [0]}, "must fit 5 players"),
        ({"seat": "two"}, "field 'seat' must be a whole number"),
    ],
)
def test_the_command_line_refuses_a_bad_view_with_one_line(
    change: dict[str, object], error: str
) -> None:
    view = _views("three-card", 5, "coach:cli", ("declare",))[0]
    data = view.to_dict() | change
    out, err = io.StringIO(), io.StringIO()
    argv = ["advise", "--rules", "hoffmann", "-"]
    assert main(argv, stdin=io.StringIO(json.dumps(data)), stdout=out, stderr=err) == 2
    assert error in err.getvalue() and out.getvalue() == ""


def test_a_view_read_back_from_its_json_offers_what_the_table_offered() -> None:
    for view in _views("five-card", 5, "coach:json", ("exchange", "play"))[:6]:
        back = view_from_dict(json.loads(json.dumps(view.to_dict())), view.rules)
        assert back.options is not None and view.options is not None
        assert back.options.choices == view.options.choices
        assert back.options.max_discards == view.options.max_discards
        assert _options(back) == _options(view)
        unread = {"events": [], "payments": [], "options": None}
        assert back.to_dict() | unread == view.to_dict() | unread


def test_the_pool_won_with_nobody_playing_is_counted_apart_from_tricks() -> None:
    """At three players, whoever takes the miss first often finds the others passing: he
    wins the pool without a trick being played. "Take the miss: 18% to take a trick, +3.5
    counters on average" read as a fault; the estimate now says how often it is won so, and
    the table's line says it."""
    seen = 0
    for n in range(40):
        table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 3, seed=f"alone{n}"))
        hand = table.deal()
        seat = hand.to_act
        assert seat is not None
        view = view_for(hand, seat)
        if view.options is None or "take-miss" not in view.options.choices:
            continue
        advice = advise(view, samples=60, seed=n)
        for e in advice.options:
            assert e.p_unopposed >= 0 and e.p_trick + e.p_unopposed <= 1
            line = render(option_line(e, seat, exchange=False), seat)
            assert ("to win the pool with nobody playing against you" in line) == (
                round(100 * e.p_unopposed) > 0
            ), line
        miss = next(e for e in advice.options if e.action.choice == "take-miss")
        seen += miss.p_unopposed > 0
        if seen >= 3:
            break
    assert seen >= 3
