"""How the practice table names its seats, and how it says the engine's sentences.

The human always sits at seat index 0 and the computer players round the table to the left
get fixed names. The engine's sentences are messages (``games.loo.messages``): the table asks
the engine's renderer to write each one for the human, who reads them in the second person
("You take trick 2", "You are looed and pay 6"), the others by their names.
"""

from __future__ import annotations

from typing import Any, Final

from games.loo.messages import Message, message_from_dict, render, text

#: The human's seat index at every practice table.
HUMAN: Final = 0

#: Fixed names, by seat index: the human, then the computer players to the left. (The engine's
#: sentences call a player "he", as the sources do, so the names agree with it.)
SEAT_NAMES: Final = ("You", "West", "North", "East", "Abe", "Ben", "Cal", "Dan", "Eli")


def seat_name(seat: int | None) -> str:
    """``0`` → ``"You"``, ``1`` → ``"West"``; ``None`` is the pool."""
    if seat is None:
        return "the pool"
    if 0 <= seat < len(SEAT_NAMES):
        return SEAT_NAMES[seat]
    return f"Seat {seat + 1}"


def say(message: Message) -> str:
    """An engine sentence as the human reads it at the practice table."""
    return render(message, HUMAN, seat_name)


def stored_message(data: Any) -> Message:
    """A message kept in a table's notes (its JSON form); a note stored before sentences were
    data holds English, shown as it was written."""
    if isinstance(data, dict) and "key" in data:
        return message_from_dict(data)
    return text(str(data))
