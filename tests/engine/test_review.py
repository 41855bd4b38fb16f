"""The review of a finished hand (games/loo/review.py): a decision the coach agrees with costs
nothing, a pass with a strong hand costs something, a forced play names its rule, and the review
never depends on a card the reviewed player never saw."""

from __future__ import annotations

import random

import pytest

from games.loo import RuleSet
from games.loo.bots import SensibleBot, _choices
from games.loo.coach import Estimate, advise
from games.loo.hand import Action, Hand, IllegalAction
from games.loo.messages import render
from games.loo.play import Trumps
from games.loo.review import counters, margin, option_line, review, view_seed
from games.loo.rng import deal_rng, shuffled_pack
from games.loo.table import Table, TableConfig
from games.loo.view import PlayerView, view_for

SAMPLES = 24


def _play(game: str, seed: str, choose: object = None) -> Hand:
    """A hand of five players played out by sensible bots; seat 0 by ``choose(view)`` where it
    gives an action."""
    table = Table(TableConfig(game, RuleSet.preset("hoffmann"), 5, seed=seed))
    hand = table.deal()
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        view = view_for(hand, seat)
        action = choose(view) if seat == 0 and callable(choose) else None
        if action is None:
            action = SensibleBot(f"{seed}:{len(hand.log)}", playouts=6).decide(view).action
        table.apply(action)
    return hand


def _coach_choice(view: PlayerView) -> Action:
    return advise(view, samples=SAMPLES, seed=view_seed(view)).best.action


@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_a_decision_the_coach_agrees_with_costs_nothing(game: str) -> None:
    hand = _play(game, f"agree:{game}", _coach_choice)
    found = review(hand.setup, hand.log, 0, samples=SAMPLES)
    assert found.decisions
    weighed = [d for d in found.decisions if not d.forced]
    assert weighed
    for d in weighed:
        assert d.agrees and d.cost == 0
        assert d.message.key in ("coach.agrees", "coach.agrees-sure")
    assert found.cost == 0 and found.summary.key == "coach.summary-agrees"


def _strong(view: PlayerView) -> bool:
    assert view.hand is not None
    trumps = Trumps.of(view.game, view.rules, view.trump)
    held = [c for c in view.hand if trumps.is_trump(c)]
    return len(held) >= 2 and max(c.value for c in held) >= 13


def test_a_pass_with_a_strong_hand_costs_something() -> None:
    # He passes only a strong hand: two trumps, the king or the ace among them (else the bots
    # decide for him).
    def pass_strong(view: PlayerView) -> Action | None:
        options = view.options
        if options and options.kind == "declare" and "pass" in options.choices and _strong(view):
            return Action.declare(0, "pass")
        return None

    passed: list[str] = []
    for n in range(200):
        hand = _play("three-card", f"strong:{n}", pass_strong)
        if Action.declare(0, "pass") in hand.log:
            before = Hand.replay(hand.setup, hand.log[: hand.log.index(Action.declare(0, "pass"))])
            if _strong(view_for(before, 0)):
                passed.append(f"strong:{n}")
                if len(passed) == 3:
                    break
    assert len(passed) == 3, passed
    # Most strong hands passed gave something up (a hand with two high trumps can still be
    # worth passing where three others play before him).
    costly = 0
    for seed in passed:
        hand = _play("three-card", seed, pass_strong)
        found = review(hand.setup, hand.log, 0, samples=SAMPLES)
        (decision,) = found.decisions
        assert decision.action.choice == "pass"
        if decision.cost > 0:
            costly += 1
            assert not decision.agrees and decision.message.key == "coach.cost"
            text = render(decision.message, 0)
            assert text.startswith(f"Passing gave up about {decision.cost:.1f} counters here: ")
            assert found.by_cost()[0] is decision
            assert found.summary.key == "coach.summary"
    assert costly >= 2, passed


def test_the_decisions_that_cost_most_come_first_and_forced_ones_name_their_rule() -> None:
    for n in range(20):
        hand = _play("five-card", f"order:{n}")
        found = review(hand.setup, hand.log, 0, samples=SAMPLES)
        if len(found.decisions) >= 4:
            break
    costs = [d.cost for d in found.by_cost()]
    assert costs == sorted(costs, reverse=True)
    forced = [d for d in found.decisions if d.forced]
    assert forced
    for d in forced:
        assert d.advice is None and d.cost == 0
        assert d.message.key == ("coach.forced" if d.rule else "coach.only")


def _unseen_swaps(hand: Hand, rng: random.Random) -> list[list[str]]:
    """Packs that deal the same hand but for two cards seat 0 never saw, swapped."""
    pack = [c.code for c in shuffled_pack(deal_rng(hand.setup.seed, hand.setup.hand_number))]
    seen = {c.code for c in view_for(hand, 0).visible_cards()}
    unseen = sorted(set(pack) - seen)
    packs = []
    for _ in range(40):
        a, b = rng.sample(unseen, 2)
        swapped = list(pack)
        i, j = swapped.index(a), swapped.index(b)
        swapped[i], swapped[j] = b, a
        packs.append(swapped)
    return packs


@pytest.mark.parametrize(("game", "seed"), [("three-card", "hid:1"), ("five-card", "hid:2")])
def test_the_review_is_the_same_for_deals_that_differ_only_in_unseen_cards(
    game: str, seed: str
) -> None:
    hand = _play(game, seed)
    mine = review(hand.setup, hand.log, 0, samples=SAMPLES).to_dict()
    assert mine["decisions"]
    compared = 0
    for pack in _unseen_swaps(hand, random.Random(seed)):
        try:
            other = Hand.replay(hand.setup._replace(pack=tuple(pack)), hand.log)
        except IllegalAction:
            continue  # the swap changed what another player could do
        assert other.hands != hand.hands or other.miss != hand.miss or other.stock != hand.stock
        theirs = review(other.setup, other.log, 0, samples=SAMPLES).to_dict()
        assert theirs == mine
        compared += 1
        if compared == 2:
            break
    assert compared == 2


def test_a_draw_the_coach_does_not_weigh_is_told_so_and_costs_nothing() -> None:

    def odd_draw(view: PlayerView) -> Action | None:
        options = view.options
        if view.phase != "exchange" or options is None or not options.max_discards:
            return None
        assert view.hand is not None
        weighed = {frozenset(a.cards) for a in _choices(view)}
        for i in range(len(view.hand)):
            for j in range(i + 1, len(view.hand)):
                pair = frozenset({view.hand[i].code, view.hand[j].code})
                if pair not in weighed:
                    return Action.declare(0, "play", sorted(pair))
        return None

    for n in range(30):
        hand = _play("five-card", f"odd:{n}", odd_draw)
        found = review(hand.setup, hand.log, 0, samples=SAMPLES)
        odd = [d for d in found.decisions if d.exchange and not d.forced and d.chosen is None]
        if odd:
            break
    else:
        raise AssertionError("no draw outside the coach's ways")
    (decision,) = odd
    assert decision.cost == 0 and decision.message.key == "coach.unweighed"
    assert render(decision.message, 0).startswith("Throwing out the ")


@pytest.mark.parametrize(("error", "shown"), [(0.02, "0.02"), (0.06, "0.1"), (0.0, "")])
def test_a_margin_is_shown_unless_every_deal_came_to_the_same(error: float, shown: str) -> None:
    """Every figure with its 95% margin, a small one to a hundredth ("± 0.02": a pass at
    five-card pays for another's flush now and then, and says so); none where every deal came
    to the same (a margin of 0), for a pass and for a play alike."""
    for action in (Action.declare(1, "pass"), Action.declare(1, "play")):
        estimate = Estimate(
            action, 0.5, -1.0, error / 1.96, True, margin95=error, p_trick_margin95=error
        )
        line = render(option_line(estimate, 1, exchange=False))
        assert ("±" in line) == bool(shown), line
        if shown:
            assert f"-1.0 counters on average (±\u00a0{shown})" in line, line


def test_a_figure_that_is_not_zero_does_not_read_zero() -> None:
    assert counters(-0.04) == "-0.04" and counters(0.0) == "0" and counters(0.004) == "0"
    assert counters(1.44) == "+1.4"
    assert margin(0.3) == "0.3" and margin(0.02) == "0.02" and margin(0.001) == "under 0.01"


def test_a_decision_is_reviewed_with_the_figures_the_coach_showed_at_the_table() -> None:
    """The table's answer (coach.SAMPLES deals, seeded by the view) and the review's are the
    same computation: a learner who asked sees the same numbers again afterwards."""
    table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 5, seed="same-figures"))
    hand = table.deal()
    asked = []
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        view = view_for(hand, seat)
        if seat == 0 and view.options is not None and len(_choices(view)) > 1:
            asked.append(advise(view, seed=view_seed(view)).to_dict())
        table.apply(SensibleBot(len(hand.log), playouts=16).decide(view).action)
    reviewed = [d.advice.to_dict() for d in review(hand.setup, hand.log, 0).decisions if d.advice]
    assert asked and reviewed == asked
