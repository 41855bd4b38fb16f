"""What the service of tables for people (:mod:`games.people.service`) says when it refuses
(:class:`Refused`, each sentence as shown to the person) or does a change (:class:`Done`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.loo.hand import IllegalAction
from games.models import PeopleTable
from games.table.forms import ActionForm

# -- refusals ---------------------------------------------------

NO_SUCH_CODE = "No table has that code: check it with whoever invited you."
TABLE_FULL = "Every seat at this table is taken."
TABLE_STARTED = "This table has started: its seats are no longer open."
TABLE_CLOSED = "This table is closed."
ALREADY_SEATED = "You already have a seat at this table."
SEAT_TAKEN = "That seat is taken: choose another."
NO_SUCH_SEAT = "This table has no such seat."
NOT_INVITED = "Only the people the host invited may sit at this table."
HOST_ONLY = "Only the host may do that."
NOT_SEATED = "You have no seat at this table."
NOT_STARTED = "The host has not started this table yet."
NOT_YOUR_TURN = "It is not your turn: nothing was done."
NO_WAITING = "At a table with people everyone declares in turn: there is nothing to wait for."
HAND_NOT_OVER = "This hand is not over yet."
YOU_ARE_AWAY = (
    "Your time ran out, and a computer player is playing your seat: press "
    "“Back to my seat” to play again."
)
YOU_LEFT = "You left this table: a computer player has your seat."
NOT_AWAY = "You are at your seat already."
STARTED = "The table has started: the empty seats are computer players."
BACK = "You are back at your seat."
LEFT = "You left the table: a computer player has your seat for good."
REVEALED = "Every hand of this deal is shown to the table."


class Refused(Exception):
    """What a person asked cannot be done now; ``str(error)`` says why, to him. Nothing was
    changed."""


class ActionRefused(Refused):
    """A decision the form or the engine refused: ``form`` (bound, with its errors) and the
    engine's ``refusal`` (None if the form refused it), for the table page to show."""

    def __init__(self, form: ActionForm, refusal: IllegalAction | None = None) -> None:
        super().__init__(" ".join(str(e) for e in form.non_field_errors()))
        self.form, self.refusal = form, refusal


@dataclass
class Done:
    """What a stored change did, for its page: ``table`` as stored, ``said``, sentences for
    the person who made it."""

    table: PeopleTable
    said: list[str] = field(default_factory=list)
