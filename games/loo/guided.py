"""Guided hands: whether a rule comes up when a hand is played sensibly.

A lesson deals a practice hand so that its rule comes up (issue 14), and marks the lines of the
trick log that apply it. :func:`comes_up` plays a hand with the decisions it is given (the
practice table's computer players, and a sensible player in the learner's seat) and says
whether a line of the hand's trace names the rule: a card a rule forced, a declaration, a
flush, a line of the settlement; as the learner sees it during the hand, where a rule that
bound another player is told only once the hand is over.
"""

from __future__ import annotations

from collections.abc import Callable

from .hand import Action, Hand
from .view import public_events

#: Who decides, at each turn: the seat to act → the action.
Decide = Callable[[Hand, int], Action]


def comes_up(hand: Hand, rule: str, decide: Decide, viewer: int | None = None) -> bool:
    """Play ``hand`` on with ``decide`` until a line of its trace names ``rule`` (True) or
    the hand is over without one (False); ``viewer``: a line of the trace as that seat sees
    it while the hand is played (:func:`~games.loo.view.public_events`)."""
    told = 0
    while True:
        events = hand.events if viewer is None else public_events(hand, viewer)
        if any(rule in e.rules for e in events[told:]):
            return True
        if hand.over:
            return False
        told = len(events)
        seat = hand.to_act
        assert seat is not None
        hand.apply(decide(hand, seat))


__all__ = ["Decide", "comes_up"]
