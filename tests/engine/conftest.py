"""Helpers for the engine tests: deal a particular hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from games.loo import RuleSet
from games.loo.hand import Action, Hand, HandSetup, stack_pack


def make_hand(
    preset: str,
    hands: Sequence[str],
    turn_up: str,
    *,
    game: str = "three-card",
    miss: str | None = None,
    stock: str = "",
    pool: int = 0,
    first: bool = False,
    prev_no_loo: bool = False,
    prev_flush: bool = False,
    laws: bool = False,
    options: dict[str, Any] | None = None,
    chips: int = 100,
) -> Hand:
    """A hand with these cards. Seats are 0..n-1 and the dealer is the last seat, so seat 0
    is the elder hand. ``hands``, ``miss`` and ``stock`` are space-separated card codes."""
    rules = RuleSet.preset(preset)
    if options:
        rules = rules.with_options(options)
    players = len(hands)
    dealer = players - 1
    pack = stack_pack(
        game,
        rules,
        players,
        dealer,
        [h.split() for h in hands],
        turn_up,
        miss.split() if miss is not None else None,
        stock.split(),
    )
    setup = HandSetup(
        game=game,
        rules=rules,
        players=players,
        dealer=dealer,
        hand_number=1 if first else 2,
        seed=0,
        balances=(chips,) * players,
        pool=pool,
        first=first,
        prev_no_loo=prev_no_loo,
        prev_flush=prev_flush,
        laws=laws,
        pack=pack,
    )
    hand = Hand.deal(setup)
    if miss is not None and not hand.miss_withdrawn:
        assert hand.miss is not None and [c.code for c in hand.miss] == miss.split(), (
            "this hand deals no miss: pass miss=None"
        )
    return hand


def run(hand: Hand, *steps: str) -> Hand:
    """Apply steps written ``"0 play"``, ``"1 pass"``, ``"2 take-miss"``, ``"0 play 3S 4S"``
    (five-card: discards), ``"0 QH"`` (a card), ``"0 AH civil"``, ``"1 demand"``."""
    for step in steps:
        seat_text, word, *rest = step.split()
        seat = int(seat_text)
        if word in ("play", "pass", "take-miss", "defend-miss", "defend-master"):
            hand.apply(Action.declare(seat, word, rest))
        elif word in ("demand", "decline"):
            hand.apply(Action("replay", seat, word))
        else:
            hand.apply(Action.play(seat, word, civil=rest == ["civil"]))
    return hand


@pytest.fixture
def deal() -> Callable[..., Hand]:
    return make_hand


@pytest.fixture
def steps() -> Callable[..., Hand]:
    return run
