"""Lanterloo's rules engine for Loo: pure Python, no Django.

The one source of truth for the rules: the practice table, the bots, the lessons and the quiz
grader all ask :func:`legal` which cards may be played, and why. ``../shared/RULES.md`` is the
specification; rule ids come only from :mod:`games.loo.catalogue`.
"""

from .cards import PACK, Card, card, parse_card, parse_cards
from .catalogue import rule, rules
from .errors import CardError, LooError, PositionError, RuleSetError
from .flushes import Flush, FlushResult, compare_flushes, find_flush
from .play import (
    IllegalPlay,
    LegalMoves,
    Position,
    RuleApplication,
    TrickResult,
    Trumps,
    check_play,
    legal,
    trick_winner,
)
from .rulesets import (
    DEFAULT_PRESET,
    GAMES,
    OPTIONS,
    PRESET_IDS,
    PRESETS,
    Preset,
    RuleSet,
    preset,
)

__all__ = [
    "DEFAULT_PRESET",
    "GAMES",
    "OPTIONS",
    "PACK",
    "PRESETS",
    "PRESET_IDS",
    "Card",
    "CardError",
    "Flush",
    "FlushResult",
    "IllegalPlay",
    "LegalMoves",
    "LooError",
    "Position",
    "PositionError",
    "Preset",
    "RuleApplication",
    "RuleSet",
    "RuleSetError",
    "TrickResult",
    "Trumps",
    "card",
    "check_play",
    "compare_flushes",
    "find_flush",
    "legal",
    "parse_card",
    "parse_cards",
    "preset",
    "rule",
    "rules",
    "trick_winner",
]
