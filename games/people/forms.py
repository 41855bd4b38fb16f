"""Forms of the tables for people: a new table, its code, a seat, a phrase, a seat removed."""

from __future__ import annotations

from django import forms

from games.models import MAX_PLAYERS, MIN_PLAYERS, SECONDS_PER_MOVE, Opponents, PeoplePhrase
from games.table.forms import DealForm


class NewPeopleTableForm(DealForm):
    """A table for people: as a practice table (the game, the rule set, how many seats, the
    computer players for the seats no person takes, the mode), with the time each person has
    for a decision; no take-backs (none is fair to the others) and no seed (no deal foretold)."""

    players = forms.IntegerField(
        min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=5, label="Seats, yours included"
    )
    opponents = forms.ChoiceField(
        choices=Opponents.choices,
        initial=Opponents.SENSIBLE,
        label="Computer players, in the seats no person takes",
    )
    seconds_per_move = forms.TypedChoiceField(
        choices=SECONDS_PER_MOVE,
        coerce=int,
        initial=120,
        label="Time for each decision",
        help_text="When it runs out, a computer player decides for him, and plays his seat "
        "until he is back.",
    )

    watch = forms.BooleanField(
        required=False,
        label="I only watch: I take no seat",
        help_text="You see the table as a spectator, without anyone's cards during a hand.",
    )


class JoinForm(forms.Form):
    """The join code a host gave (any case; spaces ignored)."""

    code = forms.CharField(max_length=20, label="Table code")


class SeatForm(forms.Form):
    """The seat a person chooses at a table he joins (none: the first free one)."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, required=False)


class PhraseForm(forms.Form):
    """One of the fixed phrases a person may say at a table (no free text)."""

    phrase = forms.ChoiceField(choices=PeoplePhrase.Phrase.choices)


class RemoveSeatForm(forms.Form):
    """The seat whose person the host gives to a computer player."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)
