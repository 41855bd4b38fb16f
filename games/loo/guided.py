"""Guided hands: a deal in which a rule comes up when the hand is played sensibly.

A lesson deals a practice hand so that its rule binds (issue 14): the deal is the first hand of
a table of ``players`` seeded by ``seed``, exactly as the practice table deals it. Whether the
rule comes up is found by playing that hand with a sensible computer player in every seat, the
learner's too (:func:`play_sensibly`), and looking for the rule in what the hand applied
(:func:`rules_applied`): the rules named by its trace (a card a rule forced, a declaration, a
flush, the settlement) and those that shaped a decision (a player who could not pass, a card he
could not play). :func:`find_seed` searches seeds for one under a rule set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .bots import SensibleBot
from .hand import Hand
from .rulesets import RuleSet
from .table import Table, TableConfig
from .view import view_for

#: Playouts per decision of the sensible players of a check: fewer than at the practice table
#: (48), which changes some close decisions but keeps a check quick.
PLAYOUTS: Final = 16


def first_hand(game: str, rules: RuleSet, players: int, seed: int | str) -> Hand:
    """The first hand of a practice table of ``players`` seeded by ``seed``, as dealt."""
    return Table(TableConfig(game, rules, players, seed)).deal()


def play_sensibly(hand: Hand, playouts: int = PLAYOUTS, until: str | None = None) -> set[str]:
    """Play ``hand`` with a sensible player in every seat, to its end or until the rule
    ``until`` has come up; the rules that shaped a decision on the way (see
    :func:`rules_applied` for the rest)."""
    bots = [SensibleBot(seed=f"guided:{seat}", playouts=playouts) for seat in range(hand.players)]
    shaped: set[str] = set()
    told = 0
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        options = hand.options()
        shaped.update(a.rule for a in options.explanations if options.kind != "play" or a.excluded)
        if until is not None:
            events = hand.events
            if until in shaped or any(until in e.rules for e in events[told:]):
                return shaped | {until}
            told = len(events)
        hand.apply(bots[seat].decide(view_for(hand, seat)).action)
    return shaped


def rules_applied(hand: Hand, shaped: Iterable[str] = ()) -> set[str]:
    """The rules ``hand`` applied: those its trace names, its payments cite, and ``shaped``."""
    applied = set(shaped)
    for event in hand.events:
        applied.update(event.rules)
    applied.update(p.rule for p in hand.payments)
    return applied


def comes_up(game: str, rules: RuleSet, players: int, seed: int | str, rule: str) -> bool:
    """Whether ``rule`` comes up when the first hand of this table is played sensibly."""
    hand = first_hand(game, rules, players, seed)
    return rule in rules_applied(hand, play_sensibly(hand, until=rule))


def find_seed(
    game: str, rules: RuleSet, players: int, rule: str, prefix: str, tries: int = 200
) -> str | None:
    """The first seed ``prefix-1``, ``prefix-2``, … under which ``rule`` comes up, or None
    within ``tries`` (a lesson's guided hand finds its deal so, under each rule set)."""
    for n in range(1, tries + 1):
        seed = f"{prefix}-{n}"
        if comes_up(game, rules, players, seed, rule):
            return seed
    return None


__all__ = ["PLAYOUTS", "comes_up", "find_seed", "first_hand", "play_sensibly", "rules_applied"]
