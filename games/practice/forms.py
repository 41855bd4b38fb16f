"""Forms of the practice table: a new table, and the computer players' pace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from games.table.forms import DealForm
from games.variations import VARIATIONS, options_for, refusal

#: Whether the table offers take-backs (``NewTableForm.takebacks``); "" or missing: as the
#: mode suggests (:meth:`NewTableForm.honest`).
TAKEBACKS = [
    ("", "As the mode suggests: take-backs in learning mode, an honest table in laws mode"),
    ("offered", "Take-backs offered, until something hidden is shown because of a decision"),
    ("honest", "An honest table: no decision is ever taken back"),
]


class NewTableForm(DealForm):
    """A new practice table: the game, the rule set, how many play, the opponents and the
    mode; whether it offers take-backs; the variations agreed on the rule set (club law,
    unlimited loo: ``games.variations``, refused in plain words where the rule set or the
    game does not offer them); a shareable link's seed."""

    takebacks = forms.ChoiceField(
        choices=TAKEBACKS, required=False, initial="", widget=forms.RadioSelect
    )
    #: Only from a shareable link: deal the first hand of that seed.
    seed = forms.IntegerField(min_value=0, max_value=10**12, required=False)
    variations = forms.MultipleChoiceField(
        choices=[(v.id, v.label) for v in VARIATIONS.values()],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": "That variation is not offered here: choose club law or "
            "unlimited loo."
        },
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game, rules = data.get("game"), data.get("rules")
        if game and rules and "rules" not in self.errors:
            for variation in data.get("variations") or ():
                if why := refusal(variation, rules, game):
                    self.add_error("variations", why)
        return data

    def options(self) -> dict[str, Any]:
        """The rule set's options the chosen variations agree (none: the preset as it is)."""
        return options_for(self.cleaned_data.get("variations") or ())

    def honest(self) -> bool:
        """Whether the table is honest (no take-backs): as chosen, or by default in laws mode,
        where a decision stands as at a real table."""
        data = self.cleaned_data
        if data.get("takebacks"):
            return bool(data["takebacks"] == "honest")
        return bool(data["mode"] == "laws")


@dataclass(frozen=True)
class Pace:
    """How fast the computer players' cards arrive on the felt (play.js): ``pause`` before
    each card and ``hold``, how long a finished trick stays, in milliseconds (unless the
    player asks to keep it until he presses "Next trick": PaceForm's ``wait``). Without
    JavaScript, or with prefers-reduced-motion, every card is shown at once."""

    name: str
    label: str
    pause: int
    hold: int


#: The paces offered, slowest last; "normal" is the pace the table always had.
PACES = {
    pace.name: pace
    for pace in (
        Pace("instant", "Instant", 0, 0),
        Pace("fast", "Fast", 200, 600),
        Pace("normal", "Normal", 450, 1200),
        Pace("slow", "Slow", 900, 2400),
    )
}
DEFAULT_PACE = "normal"


class PaceForm(forms.Form):
    """The pace of the computer players at the table, kept for the browser session."""

    pace = forms.ChoiceField(
        choices=[(p.name, p.label) for p in PACES.values()],
        initial=DEFAULT_PACE,
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose a pace: instant, fast, normal or slow.",
            "invalid_choice": "Choose a pace: instant, fast, normal or slow.",
        },
    )
    wait = forms.BooleanField(
        required=False, label="Keep each finished trick on the table until I press “Next trick”"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "pace-%s")  # ids of their own on the table page
        super().__init__(*args, **kwargs)
