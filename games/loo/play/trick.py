"""Who takes a trick, and why (RULES.md 1.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import SUIT_NAMES, Card
from ..errors import PositionError
from ..messages import msg
from ..rulesets import GAMES, RuleSet
from .core import (
    RuleApplication,
    Trumps,
    winning_index,
)


@dataclass(frozen=True)
class TrickResult:
    winner: int
    card: Card
    explanations: tuple[RuleApplication, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "card": self.card.code,
            "explanations": [a.to_dict() for a in self.explanations],
        }


def trick_winner(
    game: str, rules: RuleSet, trump: str, trick: Sequence[Card], *, explain: bool = True
) -> TrickResult:
    """Who takes a complete (or partial) trick, and why."""
    if game not in GAMES:
        raise PositionError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    if trump not in SUIT_NAMES:
        raise PositionError(f"unknown trump suit {trump!r}: use one of S, H, D, C")
    if len(trick) < 2:
        raise PositionError("a trick needs at least two cards to have a winner")
    most = 16 if game != "five-card" else 10
    if len(trick) > most:
        raise PositionError(f"a trick of {game} Loo holds at most {most} cards")
    if len(set(trick)) != len(trick):
        dup = next(c for c in trick if trick.count(c) > 1)
        raise PositionError(f"{dup.code} appears twice in the trick")
    t = Trumps.of(game, rules, trump)
    i = winning_index(trick, t)
    win = trick[i]
    led = t.suit_of(trick[0])
    apps: list[RuleApplication] = []
    if not explain:
        return TrickResult(i, win, ())
    if win is t.pam:
        apps.append(RuleApplication("pam-highest-trump", msg("trick.pam", win=win)))
    elif t.is_trump(win):
        key = "trick.trumps-led" if led == t.suit else "trick.trumped"
        apps.append(RuleApplication("trick-winner", msg(key, win=win)))
    else:
        apps.append(RuleApplication("trick-winner", msg("trick.highest", led=led, win=win)))
    if t.pam is not None and t.pam in trick and led == t.pam.suit != t.suit:
        apps.append(
            RuleApplication("pam-identity", msg("trick.pam-identity", pam=t.pam, suit=t.pam.suit))
        )
    return TrickResult(i, win, tuple(apps))
