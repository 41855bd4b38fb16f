"""The expert computer player (games.loo.bots.ExpertBot, games.loo.expert): it declares by its
own weighing and plays the coach's best card, from its own view alone, the same way twice; it
declares as anyone must where the choice is certain; it plays whole hands at both games, and
says why in its figures."""

from __future__ import annotations

import random
from typing import cast

import pytest

from games.loo import RuleSet
from games.loo.autoplay import EXPERT, EXPERT_SAMPLES, Autoplay, BotNote
from games.loo.bots import Decision, ExpertBot, build_world, make_bot, sample_world
from games.loo.coach import advise
from games.loo.expert import POOL_WEIGHT, judge
from games.loo.hand import Action, Hand
from games.loo.hand.deal import stack_pack
from games.loo.messages import render
from games.loo.rng import rng_for
from games.loo.simulate import simulate
from games.loo.table import Table, TableConfig
from games.loo.view import PlayerView, view_for
from tests.engine.test_coach import _views

#: The reasons an expert gives for a decision it weighed (the only choices are the sensible
#: player's).
WEIGHED = {
    "bot.expert-card",
    "bot.expert-pass",
    "bot.expert-take-miss",
    "bot.expert-draw",
    "bot.expert-choice",
}
ONLY = {
    "bot.last-card",
    "bot.only-card",
    "bot.only-card-rule",
    "bot.only-choice",
    "bot.only-choice-rule",
}


def _decisions(game: str, seed: str, wanted: int) -> list[PlayerView]:
    """Views of the player to act, with more than one option, from hands of sensible players."""
    views = _views(game, 5, seed, ("declare", "exchange", "play"))
    assert len(views) >= wanted
    return views[:wanted]


@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_the_expert_takes_its_best_option_the_same_way_twice(game: str) -> None:
    views = _decisions(game, f"expert:{game}", 6)
    assert {v.phase == "play" for v in views} == {True, False}, "declarations and cards both"
    for view in views:
        decision = ExpertBot("same", samples=12).decide(view)
        assert ExpertBot("same", samples=12).decide(view) == decision
        seed = rng_for("same", "expert").getrandbits(64)
        if view.phase == "play":
            # A card: the coach's best, asked with the seed the expert draws.
            advice = advise(view, samples=12, seed=seed)
            assert decision.action == advice.best.action
            assert str(advice.samples) in render(decision.reason)
        else:
            # A declaration: the best of its own weighing over twice the samples, scored by
            # the counters each option comes to and, at POOL_WEIGHT, those it wins.
            judgement = judge(view, seed, samples=24)
            assert decision.action == judgement.best.action
            best = judgement.best
            assert best.score == best.counters + POOL_WEIGHT * best.won
            assert all(w.score <= best.score for w in judgement.options)
            assert "24 sampled deals" in render(decision.reason)
        assert decision.reason.key in WEIGHED


def _expert_at(game: str, hands: list[list[str]], before: list[str], miss: bool) -> Decision:
    """The expert's decision at a five-player hoffmann table (hearts trumps), ``hands`` given
    from the dealer round to his left, once the players after the dealer declared ``before``:
    the expert is the next to declare."""
    rules = RuleSet.preset("hoffmann")
    dealer = Table(TableConfig(game, rules, 5, seed="certain")).deal().dealer
    by_seat = [hands[(seat - dealer) % 5] for seat in range(5)]
    spare = [c for c in ["2D", "3D", "4D", "6D", "7D"] if all(c not in h for h in hands)]
    size = len(hands[0])
    pack = stack_pack(game, rules, 5, dealer, by_seat, "5H", spare[:size] if miss else None)
    table = Table(TableConfig(game, rules, 5, seed="certain", first_pack=pack))
    hand = table.deal()
    assert hand.dealer == dealer
    for choice in before:
        seat = hand.to_act
        assert seat is not None
        table.apply(Action.declare(seat, choice))
    seat = hand.to_act
    assert seat == (dealer + 1 + len(before)) % 5
    return ExpertBot(f"certain:{game}", samples=12).decide(view_for(hand, seat))


OTHERS_3 = [["9C", "TC", "JC"], ["9S", "TS", "JS"], ["QC", "KC", "AC"], ["QS", "KS", "AS"]]


def test_the_expert_plays_the_three_best_trumps() -> None:
    hands = [OTHERS_3[0], ["AH", "KH", "QH"], *OTHERS_3[1:]]
    decision = _expert_at("three-card", hands, [], miss=True)
    assert decision.action.choice == "play", render(decision.reason)


def test_the_expert_passes_three_low_cards_against_three_players() -> None:
    # Three players in before him (one took the miss); he holds no trump and no card above
    # a four: he cannot hope for a trick, and a loo would cost him.
    hands = [OTHERS_3[0], OTHERS_3[1], OTHERS_3[2], OTHERS_3[3], ["2C", "3S", "4C"]]
    decision = _expert_at("three-card", hands, ["take-miss", "play", "play"], miss=True)
    assert decision.action.choice == "pass", render(decision.reason)


def test_the_expert_keeps_its_trumps_and_aces_at_five_card_loo() -> None:
    others = [
        ["9C", "TC", "JC", "8C", "7C"],
        ["9S", "TS", "JS", "8S", "7S"],
        ["QC", "KC", "AC", "6C", "5C"],
        ["QS", "KS", "6S", "5S", "4S"],
    ]
    hands = [others[0], ["AH", "KH", "QH", "AS", "AD"], *others[1:]]
    decision = _expert_at("five-card", hands, [], miss=False)
    assert decision.action.choice == "play", render(decision.reason)
    assert not set(decision.action.cards) & {"AH", "KH", "QH"}


def test_the_expert_decides_the_same_in_deals_that_differ_only_in_cards_it_cannot_see() -> None:
    rng = random.Random(5)
    for view in _decisions("three-card", "expert:unseen", 4):
        decision = ExpertBot("unseen", samples=10).decide(view)
        deals: list[Hand] = [build_world(view, sample_world(view, rng)) for _ in range(2)]
        assert deals[0].hands != deals[1].hands or deals[0].miss != deals[1].miss
        for deal in deals:
            other = view_for(deal, view.seat)
            assert ExpertBot("unseen", samples=10).decide(other) == decision


def test_a_single_choice_is_made_at_once_with_the_sensible_players_reason() -> None:
    # One player holds the ace, king and queen of trumps (hearts): he must lead the ace, and
    # his last card, like everyone's, is no decision; the declarations and the rest weigh.
    rules = RuleSet.preset("hoffmann")
    pack = stack_pack(
        "three-card",
        rules,
        3,
        0,
        [["2C", "3C", "4C"], ["AH", "KH", "QH"], ["2S", "3S", "4S"]],
        turn_up="5H",
        miss=["2D", "3D", "4D"],
    )
    table = Table(TableConfig("three-card", rules, 3, seed="only", first_pack=pack))
    hand = table.deal()
    strong = next(s for s, held in enumerate(hand.hands) if "AH" in {c.code for c in held})
    reasons = []
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        decision = ExpertBot(f"only:{len(hand.log)}", samples=8).decide(view_for(hand, seat))
        reasons.append((seat, decision))
        table.apply(decision.action)
    keys = [d.reason.key for _, d in reasons]
    assert set(keys) <= WEIGHED | ONLY
    # Every player's last card is the only card he holds, said so; and the player with the
    # three best trumps played them.
    assert keys.count("bot.last-card") == len(hand.in_play)
    assert any(
        d.action.kind == "declare" and d.action.choice == "play" for s, d in reasons if s == strong
    )
    assert hand.tricks_won().get(strong) == 3
    ace = next(d for s, d in reasons if s == strong and d.action.kind == "play")
    assert ace.action.cards == ("AH",) and ace.reason.key == "bot.only-card-rule"


@pytest.mark.parametrize("game", ["three-card", "five-card"])
def test_experts_play_whole_hands_and_lose_no_counters(game: str) -> None:
    table = Table(
        TableConfig(game, RuleSet.preset("hoffmann"), 5, seed=f"whole:{game}", trace=False)
    )
    bots = [make_bot("expert", f"whole:{s}") for s in range(5)]
    assert all(isinstance(b, ExpertBot) for b in bots)
    weighed = 0
    for _ in range(3):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            decision = bots[seat].decide(view_for(hand, seat))
            assert decision.reason.key in WEIGHED | ONLY
            weighed += decision.reason.key in WEIGHED
            table.apply(decision.action)
    table.deal()
    assert weighed > 0
    assert table.chips() == 5 * table.config.chips


def test_a_table_of_experts_builds_them_with_the_tables_samples() -> None:
    weighed = 0
    for n in range(4):
        table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 5, seed=f"auto:{n}"))
        table.deal()
        bot = Autoplay(EXPERT).bot(table, 2)
        assert isinstance(bot, ExpertBot) and bot.samples == EXPERT_SAMPLES
        # The computer players act until the human (seat 0) is to act, each noting why.
        notes = [cast(BotNote, note) for note in Autoplay(EXPERT).run(table, [])]
        hand = table.hand
        assert hand is not None and (hand.over or hand.to_act == 0)
        keys = [note["reason"]["key"] for note in notes]
        assert set(keys) <= WEIGHED | ONLY and all(note["seat"] != 0 for note in notes)
        weighed += sum(key in WEIGHED for key in keys)
    assert weighed > 0


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
def test_an_expert_plays_on_in_laws_mode_among_careless_players(preset: str) -> None:
    # Their slips stand and are punished, and the expert plays on through those hands (the
    # simulation checks that no counter is made or lost).
    bots = ["expert", "careless", "careless", "careless", "careless"]
    result = simulate("three-card", 5, RuleSet.preset(preset), 12, "laws", bots=bots, laws=True)

    assert result["counts"]["offences"] > 0
    assert result["results"][0]["bot"] == "expert"
