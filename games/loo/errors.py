"""Errors raised by the rules engine.

Every error carries a message that names the problem in words a player or an editor can act
on; the command line prints that message as one line on stderr.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .messages import Message, Names


class LooError(ValueError):
    """Base class of every error the engine raises for bad input."""


class CardError(LooError):
    """A card code could not be read, or a set of cards is inconsistent."""


class PositionError(LooError):
    """A position (hand, trick, trumps, counts) is impossible."""


class RuleSetError(LooError):
    """An unknown preset, option or option value."""


class MessageError(LooError):
    """A refusal told as a :class:`~games.loo.messages.Message`, so that it can be shown from
    any point of view (:meth:`render`); ``str()`` gives it as the player to move reads it."""

    def __init__(self, message: Message | str) -> None:
        from .messages import Message, text

        self.message: Message = message if isinstance(message, Message) else text(message)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.render()

    def render(self, viewer: int | None = -1, names: Names = None) -> str:
        from .messages import render

        return render(self.message, viewer, names)
