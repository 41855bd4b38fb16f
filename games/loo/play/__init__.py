"""Card play: which cards are legal, and why; who wins a trick.

One function, :func:`legal`, answers for the practice table, the bots, the lessons and the quiz
grader. It returns the legal cards and the rule applications that narrowed them, each with the
rule id, a plain sentence naming the concrete cards, and the cards that rule excluded.

Which rules are cited (``explanations``): on a lead, every lead obligation that binds the leader
(he holds the cards that trigger it), even when it excludes nothing more than another rule
does; when the ace (or king) must be led, the rules that ask for "a trump" or "the highest
trump" are satisfied by it and not cited separately (RULES.md A6). When following, a rule is
cited when it excludes a card. ``notes`` carry rules that were considered and did *not* bind
("the trick is trumped, so no diamond can head it") — useful to a learner, never a restriction.

A package, one module per part: :mod:`.core` (trumps, positions, rule applications, legal
moves), :mod:`.leading` (:func:`lead_cards`), :mod:`.following` (:func:`follow_cards`) and
:mod:`.trick` (:func:`trick_winner`); this module answers :func:`legal` from them.
"""

from __future__ import annotations

from ..cards import Card
from ..messages import PLAYER
from .core import (
    PAM_VALUE,
    IllegalPlay,
    LegalMoves,
    Position,
    Reasons,
    RuleApplication,
    Trumps,
    quiet_moves,
    validate_position,
    winning_index,
)
from .following import follow_cards
from .leading import lead_cards, top_sequence
from .trick import TrickResult, trick_winner


def legal(position: Position, *, explain: bool = True, seat: int = PLAYER) -> LegalMoves:
    """The cards the player to move may play, and the rules that decided it (``explain``: the
    sentences too; without them the legal cards are the same). ``seat``: the player's seat,
    for the sentences to name him (by default, "the player": "You" as he reads them)."""
    if position.trick:
        return _legal_follow(position, explain, seat)
    return _legal_lead(position, explain, seat)


# The rules themselves are in :func:`lead_cards` and :func:`follow_cards`, which take plain
# arguments: :func:`legal` calls them with a Position's fields, and the engine's quiet path
# (Hand.choices, thousands of decisions a second in the bots' playouts) calls them with its
# own state, without building a Position or a LegalMoves.


def _legal_lead(p: Position, explain: bool, seat: int = PLAYER) -> LegalMoves:
    why = Reasons(p, seat) if explain else None
    cards = lead_cards(
        p.trumps, p.rules, p.game, p.hand, p.turn_up, p.declared, p.trick_number, p.played, why
    )
    return quiet_moves(p, cards) if why is None else why.moves(cards)


def _legal_follow(p: Position, explain: bool, seat: int = PLAYER) -> LegalMoves:
    why = Reasons(p, seat) if explain else None
    cards = follow_cards(p.trumps, p.rules, p.hand, p.trick, p.pam_be_civil, why)
    return quiet_moves(p, cards) if why is None else why.moves(cards)


def check_play(position: Position, played: Card) -> LegalMoves:
    """Raise :class:`IllegalPlay` if ``played`` is illegal; return the legal moves otherwise."""
    moves = legal(position)
    moves.check(played)
    return moves


__all__ = [
    "PAM_VALUE",
    "IllegalPlay",
    "LegalMoves",
    "Position",
    "Reasons",
    "RuleApplication",
    "TrickResult",
    "Trumps",
    "check_play",
    "follow_cards",
    "lead_cards",
    "legal",
    "top_sequence",
    "trick_winner",
    "validate_position",
    "winning_index",
]
