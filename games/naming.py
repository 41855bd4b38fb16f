"""How a table names its seats, and how it says the engine's sentences.

At a practice table the human always sits at seat index 0, at the foot of the table; the
computer players sit round it to his left, seat 1 on his left, the last seat on his right (the
deal and the play pass to the left). At a table for people each person reads the table from
his own chair, ``me``: every function here takes it (default :data:`HUMAN`), and seat
``me + 1`` is the player on his left. A player is named by where he sits, as seen from the
viewer's chair, the same every deal: "the player on your left", "the second player on your
left", "the player opposite you", "the player on your right". One scheme from three players
to nine, that reads in a sentence ("The player on your left takes trick 2"); on the felt,
where each seat is drawn in its place, the same position in short ("Left", "2nd left",
"Opposite", "Right").

The engine's sentences are messages (``games.loo.messages``): the table asks the engine's
renderer to write each one for the viewer, who reads them in the second person ("You take
trick 2", "You are looed and pay 6"), the others by where they sit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final

from games.loo.messages import Message, message_from_dict, render, text

#: The human's seat index at every practice table.
HUMAN: Final = 0

#: The words a lesson's stacked deal names the seats by (``deal: you ...; west (dealer) ...``,
#: read by ``lessons.course.loader``): a notation of the content, by seat index from the
#: learner round to his left, never shown at the table, which names a player by where he sits.
SEAT_NAMES: Final = ("You", "West", "North", "East", "Abe", "Ben", "Cal", "Dan", "Eli")

#: The ordinals of a seat counted from the human's left or right (at most four each way at
#: nine players).
_ORDINALS: Final = ("", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_SHORT: Final = ("", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def _place(seat: int, players: int | None, me: int = HUMAN) -> tuple[str, int]:
    """Where ``seat`` sits for the viewer at seat ``me``: ("left", k) the k-th on his left
    (from 0), ("right", k) the k-th on his right, or ("opposite", 0). Without the number of
    players every seat is counted from the left."""
    if players is not None and 0 <= seat < players:
        seat = (seat - me) % players
    else:
        seat -= me
    if players is None or not 0 < seat < players:
        return "left", seat - 1
    others = players - 1
    half = others // 2
    if others % 2 and seat == half + 1:
        return "opposite", 0
    if seat <= half:
        return "left", seat - 1
    return "right", players - 1 - seat


def seat_name(seat: int | None, players: int | None = None, me: int = HUMAN) -> str:
    """A seat as the table names it in a sentence, for a table of ``players`` read from seat
    ``me``: ``me`` → "You", ``me + 1`` → "the player on your left", at five players ``me + 3``
    → "the second player on your right"; ``None`` is the pool. (The engine capitalises a name
    that begins a sentence.)"""
    if seat is None:
        return "the pool"
    if seat == me:
        return "You"
    side, k = _place(seat, players, me)
    if side == "opposite":
        return "the player opposite you"
    if k >= len(_ORDINALS):
        return f"seat {seat + 1}"
    return f"the {_ORDINALS[k]} player on your {side}".replace("the  player", "the player")


def seat_possessive(seat: int, players: int, me: int = HUMAN) -> str:
    """Whose, for a seat, read from seat ``me``: "your", "the player on your left's"."""
    return "your" if seat == me else f"{seat_name(seat, players, me)}’s"


def seat_label(seat: int, players: int, me: int = HUMAN) -> str:
    """The same position in short, where the seat is drawn in its place on the felt ("Left",
    "2nd left", "Opposite", "Right"; the viewer's own seat, ``me``, is "You")."""
    if seat == me:
        return "You"
    side, k = _place(seat, players, me)
    if side == "opposite":
        return "Opposite"
    return f"{_SHORT[k]} {side}" if k else side.capitalize()


def namer(players: int, me: int = HUMAN) -> Callable[[int | None], str]:
    """``seat_name`` for a table of ``players`` read from seat ``me``, as the engine's renderer
    takes it."""
    return partial(seat_name, players=players, me=me)


def say(message: Message, players: int | None = None, me: int = HUMAN) -> str:
    """An engine sentence as the player at seat ``me`` (the practice table's human unless
    told) reads it at a table of ``players``: he in the second person, the others by where
    they sit from his chair."""
    return render(message, me, partial(seat_name, players=players, me=me))


def stored_message(data: Any) -> Message:
    """A message kept in a table's notes (its JSON form); a note stored before sentences were
    data holds English, shown as it was written."""
    if isinstance(data, dict) and "key" in data:
        return message_from_dict(data)
    return text(str(data))
