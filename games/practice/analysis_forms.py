"""The analysis board's forms (issue 38): GET forms, so that every state of a board is a URL
and works without JavaScript. What a board shows (:class:`BoardForm`: the deals' filter and
page, the deal whose lines of play are shown, "Look deeper", what-if), and a position set up
from nothing (:class:`SetUpForm`: issue 37's fields of a moment of the declaring)."""

from __future__ import annotations

from typing import Any, Final

from django import forms

from games.loo.cards import Card, parse_card
from games.loo.coach import SAMPLES
from games.loo.errors import LooError
from games.loo.rulesets import PRESETS
from games.table.forms import DealForm

#: "Look deeper": four times the coach's deals.
DEEPER: Final = 4 * SAMPLES
SAMPLE_CHOICES: Final = [(SAMPLES, f"{SAMPLES} deals"), (DEEPER, f"{DEEPER} deals (look deeper)")]
#: The other players' level, for the coach's figures (its model of the table: games.loo.coach);
#: "" is the table's own players (sensible players for a position set up).
LEVEL_CHOICES: Final = [
    ("", "As at the table (sensible players for a position you set up)"),
    ("beginner", "Beginners"),
    ("careless", "Careless players"),
    ("sensible", "Sensible players"),
    ("expert", "Experts"),
]
#: Where a card lies in a deal, as the filter asks it: a seat's number, or the miss.
MISS_VALUE: Final = "miss"


def _card(value: str, what: str) -> Card | None:
    """A card code ("QH") as typed or chosen, or None if blank; a ValidationError naming
    ``what`` otherwise."""
    value = value.strip()
    if not value:
        return None
    try:
        return parse_card(value.upper())
    except LooError as error:
        raise forms.ValidationError(f"{what}: {error}") from None


class BoardForm(forms.Form):
    """What a board shows: all optional (a bare board URL is the coach's figures, first page)."""

    samples = forms.TypedChoiceField(
        choices=SAMPLE_CHOICES, coerce=int, required=False, empty_value=None, label="Deals"
    )
    level = forms.ChoiceField(
        choices=LEVEL_CHOICES, required=False, label="The other players decide as"
    )
    where = forms.CharField(required=False, max_length=4, label="Show the deals where")
    card = forms.CharField(required=False, max_length=3, label="holds")
    page = forms.IntegerField(min_value=1, required=False)
    deal = forms.IntegerField(min_value=1, required=False, label="Deal")
    swap_out = forms.CharField(required=False, max_length=3, label="Change your")
    swap_in = forms.CharField(required=False, max_length=3, label="for")
    other = forms.IntegerField(min_value=1, required=False, label="Had")
    choice = forms.CharField(required=False, max_length=14, label="declared")
    #: Another rule set for a finished hand's decision ("": as it was played); a set-up
    #: position's rule set is its own form's.
    rules = forms.ChoiceField(
        choices=[("", "As played"), *((pid, p.title) for pid, p in PRESETS.items())],
        required=False,
        label="Under the rule set",
    )

    def clean_card(self) -> Card | None:
        return _card(self.cleaned_data.get("card") or "", "The card to look for")

    def clean_swap_out(self) -> Card | None:
        return _card(self.cleaned_data.get("swap_out") or "", "Your card")

    def clean_swap_in(self) -> Card | None:
        return _card(self.cleaned_data.get("swap_in") or "", "The card instead")

    def clean_where(self) -> int | str | None:
        value = (self.cleaned_data.get("where") or "").strip()
        if not value:
            return None
        if value == MISS_VALUE:
            return value
        if not value.isdigit():
            raise forms.ValidationError("Choose a player or the miss.")
        return int(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["samples"] = data.get("samples") or SAMPLES
        if bool(data.get("swap_out")) != bool(data.get("swap_in")):
            self.add_error("swap_in", "To change a card, choose yours and the one instead.")
        if bool(data.get("other")) != bool(data.get("choice")):
            self.add_error("choice", "To change a declaration, choose the player and his choice.")
        return data


class SetUpForm(DealForm):
    """A moment of the declaring, set up by the player (issue 37's fields); the seats counted
    from him (0) round to his left."""

    dealer = forms.IntegerField(
        min_value=0, required=False, label="Dealer (seat from you, 0, round to your left)"
    )
    hand = forms.CharField(max_length=40, label="Your cards", help_text="Card codes, e.g. QH 7S 2C")
    turn_up = forms.CharField(max_length=3, label="The turn-up", help_text="e.g. 9H")
    declarations = forms.CharField(
        max_length=120,
        required=False,
        label="Declared before you",
        help_text="In turn from the dealer's left: play, pass, take-miss, ... e.g. pass play",
    )
    pool = forms.IntegerField(min_value=0, required=False, label="Counters in the pool")
    must = forms.BooleanField(required=False, label="A must (nobody may pass)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A set-up board has no table to seat computer players at, nor a mode.
        del self.fields["opponents"]
        del self.fields["mode"]

    def position(self) -> dict[str, object]:
        """The position as issue 37's fields (:func:`games.loo.analysis.set_up` reads them)."""
        data = self.cleaned_data
        position: dict[str, object] = {
            "players": data["players"],
            "hand": data["hand"].upper().split(),
            "turn_up": data["turn_up"].strip().upper(),
            "declarations": (data.get("declarations") or "").lower().split(),
        }
        if data.get("dealer") is not None:
            position["dealer"] = data["dealer"]
        if data.get("pool") is not None:
            position["pool"] = data["pool"]
        if data.get("must"):
            position["must"] = True
        return position
