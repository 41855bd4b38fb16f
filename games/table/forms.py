"""The forms every table shares: a new table's deal, the decision at the table, its version,
the step of a replay. Every choice a form offers comes from the engine: the rule set's
games and player counts, and at the table the options and legal cards of ``hand.options()``.
The engine has the last word: what it refuses becomes a form error."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from games.loo.cards import Card
from games.loo.hand import Action
from games.loo.play import RuleApplication
from games.loo.rulesets import DEFAULT_PRESET, GAME_NAMES, PRESETS, RuleSet
from games.loo.view import PlayerView
from games.models import (
    GAME_CHOICES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_CHOICES,
    Opponents,
)

KINDS = [
    ("declare", "Declare"),
    ("play", "Play a card"),
    ("replay", "Answer the revoke"),
    ("wait", "Let the others declare"),
    ("irregular", "Break a law"),
]
MODES = [
    ("learning", "Learning: an illegal card is refused, with the rule that forbids it"),
    ("laws", "Laws: an irregular play stands and the source's penalty is applied"),
]

#: How each declaring choice reads on its button.
CHOICE_LABELS = {
    "play": "Play",
    "pass": "Pass",
    "take-miss": "Take miss",
    "defend-miss": "Play miss for the pool",
    "defend-master": "Defend with master",
    "demand": "Demand a replay",
    "decline": "Let the result stand",
}

#: What each choice means, beside its button.
CHOICE_HELP = {
    "play": "Play the hand you hold.",
    "pass": "Throw in your cards: you neither win nor pay this deal.",
    "take-miss": "Take the miss, sight unseen, in place of your own cards; you must then play.",
    "defend-miss": "Take the miss and play for the pool: any trick you win stays in the pool.",
    "defend-master": "Face the lone player with master, the three cards below the turn-up.",
    "demand": "The cards are taken up and the hand is played again in proper order.",
    "decline": "The result stands, and the offender pays the penalty.",
}


#: The irregularities the table offers the human in laws mode (where the engine says they
#: would stand), each as its button reads. Only what the page can do honestly: it can take a
#: declaration before his turn and show a card of his to the table, but it cannot let him look
#: at the miss or at another's cards without showing him what he should not see.
IRREGULAR_LABELS = {
    "declare-early": "Declare before your turn",
    "expose": "Expose this card",
}
NOT_OFFERED = (
    "That cannot be done here: at this table, in laws mode, you may declare before your turn "
    "while the others declare, or expose a card of yours during the play."
)
#: Why an irregularity the table offers is not open to the human now.
NOT_NOW = {
    "declare-early": "You can declare before your turn only while others are to declare first.",
    "expose": "You can expose a card only during the play, while you hold cards.",
}


class DealForm(forms.Form):
    """What every new table is dealt with: the game, the rule set, how many play, the
    computer players and the mode (a practice table's, and a table for people's)."""

    game = forms.ChoiceField(choices=GAME_CHOICES, initial="three-card")
    rules = forms.ChoiceField(choices=RULES_CHOICES, initial=DEFAULT_PRESET, label="Rule set")
    players = forms.IntegerField(
        min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=5, label="Players, you included"
    )
    opponents = forms.ChoiceField(choices=Opponents.choices, initial=Opponents.SENSIBLE)
    mode = forms.ChoiceField(choices=MODES, initial="learning", widget=forms.RadioSelect)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game, rules, players = data.get("game"), data.get("rules"), data.get("players")
        if game and rules:
            ruleset = RuleSet.preset(rules)
            if not ruleset.supports(game):
                self.add_error(
                    "rules",
                    f"{PRESETS[rules].title} describes no {GAME_NAMES[game]}: choose another "
                    "rule set or game.",
                )
            elif players is not None:
                low, high = ruleset.players(game)
                high = min(high, MAX_PLAYERS)
                if not low <= players <= high:
                    self.add_error(
                        "players",
                        f"{GAME_NAMES[game][:1].upper()}{GAME_NAMES[game][1:]} under "
                        f"{PRESETS[rules].title} is for {low} to {high} players here.",
                    )
        return data


class VersionForm(forms.Form):
    """What every table POST carries: the version of the table the page showed."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


@dataclass(frozen=True)
class CardChoice:
    """One of the human's cards on his turn to play: may it be played, and if not, why."""

    card: Card
    legal: bool
    why: RuleApplication | None
    #: Leading the ace of trumps at five-card Loo: the "Pam, be civil" call is offered.
    civil_call: bool


class ActionForm(VersionForm):
    """One decision of the human. The choices are the engine's options for the human now;
    the cards are the human's own (any of them may be attempted: the engine refuses an
    illegal one, or in laws mode lets it stand)."""

    kind = forms.ChoiceField(
        choices=KINDS, error_messages={"invalid_choice": "That is not a move in this game."}
    )
    choice = forms.ChoiceField(
        required=False,
        error_messages={"invalid_choice": "That choice is not open to you now."},
    )
    card = forms.ChoiceField(
        required=False, error_messages={"invalid_choice": "You do not hold that card."}
    )
    discards = forms.MultipleChoiceField(
        required=False, error_messages={"invalid_choice": "You may only discard your own cards."}
    )
    civil = forms.BooleanField(required=False)
    #: Laws mode: the irregularity he commits (``kind`` "irregular"), from IRREGULAR_LABELS.
    irregularity = forms.ChoiceField(required=False, error_messages={"invalid_choice": NOT_OFFERED})

    def __init__(self, view: PlayerView, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.view = view
        #: The seat of the player deciding: the view's (a practice table's human, or a person
        #: at any seat of a table for people).
        self.seat = seat = view.seat
        self.options = view.options
        options = self.options
        #: Others are to act before him, and the table waits for him to let them (it stops
        #: only at the start of the declarations, when he could declare before his turn).
        self.waiting = view.phase in ("declare", "exchange") and view.to_act not in (None, seat)
        #: The irregularities offered him now: those the engine says would stand.
        self.irregularities = [w for w in IRREGULAR_LABELS if w in view.irregularities]
        held = [(c.code, c.label) for c in view.hand or ()]
        if options is not None and options.kind in ("declare", "replay"):
            self._choice_field("choice").choices = [
                (c, CHOICE_LABELS.get(c, c)) for c in options.choices
            ]
        if options is not None and options.kind == "play" or self.data.get("kind") == "irregular":
            self._choice_field("card").choices = held
        if options is not None and view.phase == "exchange":
            self._choice_field("discards").choices = held
        self._choice_field("irregularity").choices = list(IRREGULAR_LABELS.items())

    def _choice_field(self, name: str) -> forms.ChoiceField:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    # -- what the template shows ----------------------------------------------------------------

    @property
    def choice_buttons(self) -> list[tuple[str, str]]:
        # Set in __init__ to a list of pairs (django-stubs types choices more loosely).
        return list(cast(list[tuple[str, str]], self._choice_field("choice").choices))

    @cached_property
    def card_choices(self) -> list[CardChoice]:
        """Every card the human holds on his turn to play, legal or not, with the reason."""
        options = self.options
        if options is None or options.kind != "play" or options.legal is None:
            return []
        moves = options.legal
        ace = "A" + self.view.trump
        return [
            CardChoice(c, c in moves.legal, moves.why_not(c), options.civil_call and c.code == ace)
            for c in self.view.hand or ()
        ]

    # -- validation -----------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        options = self.options
        kind = data.get("kind")
        if kind == "wait" and not self.waiting:
            raise ValidationError("Nobody declares before you now: there is nothing to wait for.")
        if kind == "irregular":
            self._clean_irregular(data)
        if kind in ("wait", "irregular"):
            return data
        if options is None or options.kind == "none":
            raise ValidationError("It is not your turn: there is nothing to decide now.")
        if kind and kind != options.kind:
            wanted = dict(KINDS)[options.kind].lower()
            raise ValidationError(f"That cannot be done now: it is time to {wanted}.")
        if kind in ("declare", "replay") and not data.get("choice"):
            self.add_error("choice", "Choose one of the buttons.")
        if kind == "play" and not data.get("card"):
            self.add_error("card", "Choose a card to play.")
        if data.get("discards") and data.get("choice") == "pass":
            # Throwing in the hand draws nothing: the ticked cards are simply ignored.
            data["discards"] = []
        if data.get("civil") and not (kind == "play" and options.civil_call):
            raise ValidationError("“Pam, be civil” is called only when leading the ace of trumps.")
        return data

    def _clean_irregular(self, data: dict[str, Any]) -> None:
        """An irregularity: one the table offers, which the engine says would stand now."""
        what = data.get("irregularity")
        if not self.view.irregular_stands:
            raise ValidationError(
                "An irregularity stands only in laws mode, under rules that state its penalty "
                "(Hoffmann, Peel): nothing was done."
            )
        if not what:
            if "irregularity" not in self.errors:
                self.add_error("irregularity", "Choose what to do.")
        elif what not in self.irregularities:
            raise ValidationError(NOT_NOW[what] + " Nothing was done.")
        elif what == "expose" and not data.get("card") and "card" not in self.errors:
            self.add_error("card", "Choose the card to expose.")

    def action(self) -> Action | None:
        """The engine's action for the (valid) form; None when he lets the others declare."""
        data = self.cleaned_data
        if data["kind"] == "wait":
            return None
        if data["kind"] == "irregular":
            what = data["irregularity"]
            return Action("irregular", self.seat, what, (data["card"],) if what == "expose" else ())
        if data["kind"] == "play":
            return Action.play(self.seat, data["card"], civil=bool(data.get("civil")))
        if data["kind"] == "replay":
            return Action("replay", self.seat, data["choice"])
        return Action.declare(self.seat, data["choice"], data.get("discards") or ())


class ReplayStepForm(forms.Form):
    """Which step of a finished hand to show."""

    step = forms.IntegerField(min_value=0, required=False)
