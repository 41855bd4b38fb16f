"""Errors raised by the rules engine.

Every error carries a message that names the problem in words a player or an editor can act
on; the command line prints that message as one line on stderr.

This module imports nothing of the engine, so that every other module can raise its errors
(a refusal told as a message is :class:`~games.loo.messages.MessageError`, beside the
messages it renders).
"""

from __future__ import annotations


class LooError(ValueError):
    """Base class of every error the engine raises for bad input."""


class CardError(LooError):
    """A card code could not be read, or a set of cards is inconsistent."""


class PositionError(LooError):
    """A position (hand, trick, trumps, counts) is impossible."""


class RuleSetError(LooError):
    """An unknown preset, option or option value."""
