"""The trainer's forms: what to practise (:class:`DrillForm`) and an answer to a stored
question (:class:`AnswerForm`, whose choices are the question's own)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.html import format_html

from games.loo import catalogue
from games.loo.catalogue import UnknownRule
from games.loo.questions import Question
from games.loo.rulesets import DEFAULT_PRESET, GAME_NAMES, GAMES, PRESETS
from lessons.trainer import bank

RULES_CHOICES = [(p.id, p.title) for p in PRESETS.values()]
GAME_CHOICES = [(g, GAME_NAMES[g][:1].upper() + GAME_NAMES[g][1:]) for g in GAMES]


class PlacedSelect(forms.Select):
    """A select whose options each say where they may be chosen: ``data-where``, the
    "rule set/game" pairs (space-separated) where the option makes a drill, for the page's
    script to disable the others as the rule set and the game change (static/js/trainer.js).
    Without the script the labels say it ("— under Hoffmann (1909) and Peel (1891) only")."""

    def __init__(self, where: dict[str, tuple[tuple[str, str], ...]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.where = where

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(name, value, *args, **kwargs)
        places = self.where.get(str(value))
        if places is not None:
            option["attrs"]["data-where"] = " ".join(f"{p}/{g}" for p, g in places)
        return option


def _marked(label: str, places: tuple[tuple[str, str], ...]) -> str:
    """An option's label, with where it may be chosen if not everywhere."""
    only = bank.only_where(places)
    return f"{label} — {only}" if only else label


def _game_places(game: str) -> tuple[tuple[str, str], ...]:
    return tuple((p, g) for p, g in bank.places() if g == game)


def _game_choices() -> list[tuple[str, str]]:
    """The games, each marked with the rule sets that describe it where not all do."""
    marked: list[tuple[str, str]] = []
    for game, label in GAME_CHOICES:
        presets = [p for p, _ in _game_places(game)]
        only = [PRESETS[p].title for p in presets]
        if len(presets) < len(PRESETS):
            label = f"{label} — under {' and '.join(only)} only"
        marked.append((game, label))
    return marked


@cache
def askable_rules() -> frozenset[str]:
    """Every rule some kind of question asks about, under some rule set at some game."""
    return frozenset(
        rule_id
        for preset in PRESETS
        for game in bank.games_of(preset)
        for ids in bank.coverage(preset, game).values()
        for rule_id in ids
    )


@cache
def scope_places() -> dict[str, tuple[tuple[str, str], ...]]:
    """For each group and rule, the (rule set, game) pairs where a drill of any kind about
    the play asks about it (what the form accepts with no kind named): the chooser marks
    the others (Parlett's three-card Loo asks nothing of "Forced deals and variants", which
    was offered and refused only after Start)."""
    scopes = [bank.GROUP + g for g, _ in catalogue.GROUPS]
    scopes += [bank.RULE + r.id for r in catalogue.rules()]
    return {
        scope: tuple((p, g) for p, g in bank.places() if bank.Drill(scope, p, g).askable())
        for scope in scopes
    }


def _about_the_play(label: str, scope: str) -> str:
    """A group's or a rule's label, with where questions about the play ask about it if not
    everywhere (a kind named, the source questions say, may ask about it elsewhere)."""
    only = bank.only_where(scope_places()[scope])
    return f"{label} — about the play: {only}" if only else label


def scope_choices() -> list[tuple[str, Any]]:
    """Any rule; the groups of the catalogue; the rules, by group: those the bank asks about,
    each marked with where questions about the play ask about it if not everywhere."""
    askable = askable_rules()
    by_group = [
        (
            label,
            [
                (bank.RULE + r.id, _about_the_play(_capital(r.name), bank.RULE + r.id))
                for r in catalogue.rules()
                if r.group == g
            ],
        )
        for g, label in catalogue.GROUPS
    ]
    groups = [
        (bank.GROUP + g, _about_the_play(label, bank.GROUP + g))
        for g, label in catalogue.GROUPS
        if any(r.id in askable for r in catalogue.rules() if r.group == g)
    ]
    rules = [
        (f"Rules: {label}", [(v, name) for v, name in ids if v[len(bank.RULE) :] in askable])
        for label, ids in by_group
    ]
    return [
        (bank.ANY, "Any rule"),
        ("Groups of rules", groups),
        *[(label, ids) for label, ids in rules if ids],
    ]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class DrillForm(forms.Form):
    """What to practise: a rule, a group or any rule, under a rule set at a game. Every part
    is checked against the engine: the rule or group must exist, the rule set must describe
    the game, and some kind of question must ask about the rules chosen there."""

    # Where first (the rule set and the game), then what: the games and the kinds offered
    # depend on where (the page's script disables the others as it changes).
    rules = forms.ChoiceField(
        label="Rule set",
        choices=RULES_CHOICES,
        initial=DEFAULT_PRESET,
        error_messages={"invalid_choice": "There is no rule set called “%(value)s”."},
    )
    game = forms.ChoiceField(
        label="Game",
        choices=GAME_CHOICES,
        initial="three-card",
        error_messages={"invalid_choice": "There is no game called “%(value)s”."},
    )
    scope = forms.CharField(
        label="Rules to practise",
        max_length=80,
        initial=bank.ANY,
        error_messages={"required": "Choose a rule, a group of rules or any rule."},
    )
    kind = forms.ChoiceField(
        label="Kind of question",
        required=False,
        error_messages={"invalid_choice": "There is no kind of question called “%(value)s”."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each group and rule says where questions about the play ask about it (the
        # script disables it elsewhere while no kind is named).
        self.fields["scope"].widget = PlacedSelect(scope_places(), choices=scope_choices())
        # Only the kinds and games that exist under the rule set chosen can be had: each is
        # marked with where it is asked (and the page's script disables the others).
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [("", "Any kind about the play")] + [
            (k, _marked(bank.kind_name(k), bank.kind_places(k))) for k in bank.kinds()
        ]
        kind.widget = PlacedSelect({k: bank.kind_places(k) for k in bank.kinds()})
        kind.widget.choices = kind.choices
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = _game_choices()
        game.widget = PlacedSelect({g: _game_places(g) for g in GAMES})
        game.widget.choices = game.choices

    def clean_scope(self) -> str:
        scope: str = self.cleaned_data["scope"]
        try:
            bank.scope_rules(scope)
        except UnknownRule:
            raise forms.ValidationError(
                "There is no rule called “%(rule)s” in the catalogue.",
                params={"rule": scope[len(bank.RULE) :]},
            ) from None
        except KeyError:
            raise forms.ValidationError(
                "“%(scope)s” is not a rule, a group of rules or “any rule”.",
                params={"scope": scope},
            ) from None
        return scope

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset, game, scope = data.get("rules"), data.get("game"), data.get("scope")
        kind = data.get("kind") or ""
        if preset and game and game not in bank.games_of(preset):
            self.add_error(
                "game",
                f"{PRESETS[preset].title} describes no {GAME_NAMES[game]}: choose "
                + " or ".join(GAME_NAMES[g] for g in bank.games_of(preset))
                + ".",
            )
        elif preset and game and kind and (preset, game) not in bank.kind_places(kind):
            # A kind that asks nothing here whatever the rules chosen: where it is asked.
            self.add_error(
                "kind",
                f"There are no questions of the kind “{bank.kind_name(kind)}” under "
                f"{PRESETS[preset].title} at {GAME_NAMES[game]}: they are asked "
                f"{bank.only_where(bank.kind_places(kind))}. Choose another kind of question, "
                "or a rule set and game where they are asked.",
            )
        elif preset and game and scope and not bank.Drill(scope, preset, game, kind).askable():
            self.add_error(
                "scope",
                format_html(
                    "No {} asks about {} under {} at {} yet: see "
                    '<a href="{}">which rules each kind of question asks about</a>.',
                    f"question of the kind “{bank.kind_name(kind)}”" if kind else "question",
                    bank.scope_name(scope),
                    PRESETS[preset].title,
                    GAME_NAMES[game],
                    reverse("trainer:coverage"),
                ),
            )
        return data

    def drill(self) -> bank.Drill:
        data = self.cleaned_data
        return bank.Drill(data["scope"], data["rules"], data["game"], data.get("kind") or "")


class AnswerForm(forms.Form):
    """An answer to ``q``: one of its choices, or for a select-all question those that apply.
    The choices are the question's own ids; anything else is refused."""

    def __init__(self, q: Question, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.question = q
        choices = [(c.id, c.label) for c in q.choices]
        messages = {
            "invalid_choice": "“%(value)s” is not one of this question's choices.",
            "required": "Tick every choice that applies (at least one)."
            if q.multiple
            else "Choose an answer.",
        }
        field: forms.Field
        if q.multiple:
            field = forms.MultipleChoiceField(choices=choices, error_messages=messages)
        else:
            field = forms.ChoiceField(choices=choices, error_messages=messages)
        field.label = "Your answer"
        self.fields["response"] = field

    def clean_response(self) -> Any:
        """A one-answer question takes one answer: a form carries one value (a radio button),
        so more is a forged request (Django would keep the last)."""
        if not self.question.multiple and len(self.chosen()) > 1:
            raise forms.ValidationError("Choose one answer only: this question has one.")
        return self.cleaned_data["response"]

    def chosen(self) -> set[str]:
        """The choices ticked in the data posted (to tick them again beside its errors)."""
        if not self.is_bound or not hasattr(self.data, "getlist"):
            return set()
        return {str(v) for v in self.data.getlist("response")}

    def response(self) -> list[str]:
        value = self.cleaned_data["response"]
        return list(value) if isinstance(value, list) else [value]


class CoverageForm(forms.Form):
    """Which rule set's coverage to show."""

    rules = forms.ChoiceField(
        choices=RULES_CHOICES,
        required=False,
        error_messages={"invalid_choice": "There is no rule set called “%(value)s”."},
    )

    def preset(self) -> str:
        return (self.is_valid() and self.cleaned_data["rules"]) or DEFAULT_PRESET
