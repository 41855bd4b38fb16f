"""The card-play rule code with plain arguments (``lead_cards``, ``follow_cards``), which the
quiet path of the engine calls without a Position, against :func:`legal`; and the trick's cards
that :class:`Trick` keeps beside its plays for it."""

from __future__ import annotations

import random

import pytest

from games.loo import PRESET_IDS, Card, RuleSet, legal
from games.loo.hand import Action, Hand, IllegalAction, Trick
from games.loo.play import Position, follow_cards, lead_cards
from games.loo.table import Table, TableConfig

COMBOS = [(game, preset) for preset in PRESET_IDS for game in RuleSet.preset(preset).games]


def core_answer(p: Position) -> tuple[Card, ...]:
    if p.trick:
        return follow_cards(p.trumps, p.rules, p.hand, p.trick, p.pam_be_civil)
    return lead_cards(
        p.trumps, p.rules, p.game, p.hand, p.turn_up, p.declared, p.trick_number, p.played
    )


def play_positions(game: str, preset: str, players: int, seed: str) -> list[tuple[Hand, int]]:
    """Every play decision of a few random hands, checked as it comes."""
    rules = RuleSet.preset(preset).with_options({"players-3c": "2-16", "players-5c": "2-10"})
    table = Table(TableConfig(game, rules, players, seed, trace=False))
    rng = random.Random(seed)
    seen: list[tuple[Hand, int]] = []
    played = 0
    # Four hands that reach the play (heads-up, many end when a player and the dealer pass).
    for _ in range(40):
        if played == 4:
            break
        hand = table.deal()
        while not hand.over:
            offered = hand.choices()
            if hand.phase == "play":
                seat = hand.to_act
                assert seat is not None
                seen.append((hand, seat))
                p = hand.position(seat)
                assert core_answer(p) == legal(p).legal == legal(p, explain=False).legal
                assert offered == legal(p, explain=False).legal
                trick = hand.trick
                assert trick is not None
                assert trick.laid == [c for _, c in trick.plays] == trick.cards
            # (In the exchange, "play" stands: no discards.)
            table.step(offered[int(rng.random() * len(offered))])
        played += bool(hand.tricks)
    return seen


@pytest.mark.parametrize(("game", "preset"), COMBOS)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_plain_rule_code_is_what_legal_answers(game: str, preset: str, players: int) -> None:
    assert play_positions(game, preset, players, f"core:{game}:{preset}:{players}")


def test_legal_moves_of_a_seat_not_to_act_is_legal_of_its_position() -> None:
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 4, "others", trace=False))
    for _ in range(10):
        hand = table.deal()
        while not hand.over:
            if hand.phase == "play":
                for seat in hand.in_play:
                    if hand.hands[seat]:
                        moves = hand.legal_moves(seat, explain=False)
                        assert moves.legal == legal(hand.position(seat), explain=False).legal
            table.step(hand.choices()[0])


def test_a_trick_built_with_plays_knows_its_cards() -> None:
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 3, "built", trace=False))
    hand = table.deal()
    while hand.phase != "play" or not hand.trick or len(hand.trick.plays) < 2:
        if hand.over:
            hand = table.deal()
            continue
        table.step(hand.choices()[0])
    trick = hand.trick
    copy = Trick(trick.leader, list(trick.plays), trick.civil, trick.winner)
    assert copy == trick
    assert copy.laid == trick.laid == [c for _, c in trick.plays]
    assert Trick(2).plays == [] and Trick(2).laid == [] and Trick(2).winner is None


def test_what_choices_answered_is_forgotten_at_the_next_action() -> None:
    """Hand.step checks a card against what choices() answered for the player to act; an
    action taken by apply() in between makes that answer stale, and it must not be used."""
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 3, "forget", trace=False))
    hand = table.deal()
    # The first lead of a hand whose leader may lead more than one card.
    while hand.phase != "play" or hand.tricks or hand.trick_cards() or len(hand.choices()) < 2:
        if hand.over:
            hand = table.deal()
        elif hand.phase == "play":
            hand.step(hand.choices()[0])
        else:
            hand.step("play")
    first = hand.to_act
    assert first is not None
    offered = hand.choices()
    hand.apply(Action.play(first, offered[0]))
    second = hand.to_act
    assert second is not None and second != first
    done = len(hand.log)
    # Cards the first player was offered and still holds: not the second player's to play.
    stale = [c for c in hand.hands[first] if c in offered]
    assert stale
    for c in stale:
        with pytest.raises(IllegalAction):
            hand.step(c)
    assert hand.to_act == second and len(hand.log) == done
    hand.step(hand.choices()[0])
    assert hand.log[-1].seat == second
