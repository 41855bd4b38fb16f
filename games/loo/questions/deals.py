"""Searching seeded deals for a moment where a rule binds: the deal, random play, and the card
plays where a rule narrows the cards that may be played (shared by several kinds)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from ..hand import Action, Hand, HandSetup
from ..play import LegalMoves, RuleApplication, legal
from ..rulesets import RuleSet
from .base import (
    Ask,
    bound_by,
)


def deal_hand(
    rules: RuleSet,
    game: str,
    rng: random.Random,
    attempt: int,
    *,
    laws: bool = False,
    played_before: bool = False,
    session: list[tuple[HandSetup, tuple[Action, ...]]] | None = None,
) -> Hand:
    """A seeded deal at a table of a size the rule set allows: the first deal of a session or
    a later one (after a loo, or a hand nobody was looed in, whose pool is carried); with
    ``laws``, at a table where an irregularity stands and is punished.

    With ``played_before`` (the generator of version 5 on), a later deal follows hands played
    at random from the first deal of the session (:func:`after_play`), so that what it carries
    is what a loo can leave: before, the pool "after a loo" was drawn at random, nothing
    carried among its values, and under the britannica (whose pool after a loo is the loos
    alone, s. 34) a looed player then paid a loo of 0, which no source allows (issue 25).

    ``session``, if given, is filled with the hands played before this one (each its setup and
    its actions), so that a question can show where its pool came from (A56)."""
    low, high = rules.players(game)
    players = rng.randint(max(low, 3), min(high, 6))
    first = rng.random() < 0.4
    if session is not None:
        session.clear()
    if played_before and not first:
        return Hand.deal(after_play(rules, game, players, rng, attempt, laws=laws, session=session))
    no_loo = not first and rng.random() < 0.3
    carried = 0 if first or no_loo else rules.stake(game) * rng.randint(0, players)
    setup = HandSetup(
        game=game,
        rules=rules,
        players=players,
        dealer=rng.randrange(players),
        hand_number=1 if first else 2,
        seed=f"q:{rng.random()}:{attempt}",
        balances=(0,) * players,
        pool=carried,
        first=first,
        prev_no_loo=no_loo,
        trace=True,
        laws=laws,
    )
    return Hand.deal(setup)


#: At most how many hands are played before the one a question is about (each one more the
#: pool a loo can grow to under an unlimited or mixed loo).
HANDS_BEFORE: Final = 3


def after_play(
    rules: RuleSet,
    game: str,
    players: int,
    rng: random.Random,
    attempt: int,
    *,
    laws: bool,
    session: list[tuple[HandSetup, tuple[Action, ...]]] | None = None,
) -> HandSetup:
    """The setup of a deal that follows one to :data:`HANDS_BEFORE` hands played with random
    choices from the first deal of a session (the dealer passing to the left), carrying what
    they left: the pool, whether the last had a loo, and whether it ended in a flush. Every
    such deal can happen at a table, because one did. ``session``, if given, receives each hand
    played (its setup and actions)."""
    before = rng.randint(1, HANDS_BEFORE)
    dealer = rng.randrange(players)
    # One session: its seed, its dealer passing to the left, its hands numbered from 1.
    table = HandSetup(
        game=game,
        rules=rules,
        players=players,
        dealer=dealer,
        hand_number=before + 1,
        seed=f"q:{rng.random()}:{attempt}",
        balances=(0,) * players,
        pool=0,
        first=False,
        laws=laws,
    )
    for number in range(1, before + 1):
        hand = Hand.deal(
            table._replace(
                dealer=(dealer - before - 1 + number) % players,
                hand_number=number,
                first=number == 1,
                trace=False,
                laws=False,
            )
        )
        while not hand.over:
            random_step(hand, rng)
        if session is not None:
            session.append((hand.setup, tuple(hand.log)))
        table = table._replace(
            pool=hand.pool, prev_no_loo=hand.no_loo, prev_flush=hand.outcome == "flush"
        )
    return table


def random_step(hand: Hand, rng: random.Random) -> None:
    offered = hand.choices()
    hand.step(offered[int(rng.random() * len(offered))])


def play_decisions(hand: Hand, rng: random.Random) -> Iterator[int]:
    """Play ``hand`` with random choices, yielding the seat to play before each card is played
    (the caller looks at the position; it changes nothing)."""
    while not hand.over:
        if hand.phase == "play":
            seat = hand.to_act
            assert seat is not None
            yield seat
        random_step(hand, rng)


def _civil_play_decisions(hand: Hand, rng: random.Random) -> Iterator[int]:
    """As :func:`play_decisions`, but a leader who holds the ace of trumps (five-card Loo)
    leads it calling "Pam, be civil": the only way that rule binds, and a call that
    :meth:`Hand.choices` never makes. Only the search for that rule plays so (the rest of the
    play is the seed's, as ever), which leaves every other question what it was."""
    while not hand.over:
        if hand.phase == "play":
            seat = hand.to_act
            assert seat is not None
            yield seat
            trick = hand.trick
            ace = hand.trumps.ace
            leading = trick is None or not trick.plays
            if leading and ace in hand.hands[seat]:
                hand.apply(Action.play(seat, ace, civil=True))
                continue
        random_step(hand, rng)


def bound_positions(
    ask: Ask, rng: random.Random, attempt: int
) -> Iterator[tuple[Hand, int, LegalMoves, list[RuleApplication]]]:
    """The card plays of a seeded deal where a rule binds (the target rule, if asked): the
    hand, the seat to play, his legal moves and the rules that bound them."""
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    decisions = (
        _civil_play_decisions(hand, rng)
        if ask.rule == "pam-be-civil" and ask.game == "five-card"
        else play_decisions(hand, rng)
    )
    for seat in decisions:
        if len(hand.choices()) == len(hand.hands[seat]):
            continue  # nothing binds: every card may be played
        moves = legal(hand.position(seat), seat=seat)
        binding = bound_by(moves, ask.rule)
        if binding:
            yield hand, seat, moves, binding
