"""The forms of a teacher's questions of his own: the editor's first step (:class:`StartForm`:
the rule set, the game, what to ask), its second (:class:`PositionForm`: the cards, each field
the kind reads, from card pickers grouped by suit), the name a question is saved under, and a
quiz with questions of one's own (:class:`OwnQuizForm`).

Every field is a choice among the pack's cards, suits and counts, so what can be posted is
bounded; the engine judges the position itself (:meth:`lessons.quizzes.own.Draft.question`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms

from games.links import rule_name
from games.loo.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, card
from games.loo.options import HAND_SIZE
from games.loo.questions import KIND_BY_NAME
from games.loo.rulesets import DEFAULT_PRESET, GAME_NAMES, PRESETS, RuleSet
from lessons.quizzes import own, own_seats
from lessons.quizzes.forms import QuizForm
from lessons.quizzes.models import MAX_QUESTIONS, QuizVersion
from lessons.trainer import bank
from lessons.trainer.forms import GAME_CHOICES, RULES_CHOICES

#: Cards of a trick the editor draws (the tables of people seat at most 9; a trick of a larger
#: table is rare enough to leave to the command line).
TRICK_SLOTS = 9
#: Hands of a flush question (the engine's own flush questions show at most six).
HAND_SLOTS = 6

LABELS = {
    "trump": "Trumps",
    "turn_up": "The turn-up",
    "declared": "Players in the play",
    "trick_number": "Which trick this is",
    "trick": "The trick so far, in the order played",
    "pam_be_civil": "The ace of trumps was led with the call “Pam, be civil”",
    "hand": "Your cards: the student is the player to play",
    "played": "Cards played in earlier tricks",
    "card": "The card asked about",
    "hands": "The hands, from the student (the elder hand) round to the left",
    "players": "Players at the table",
    "dealer": "The dealer",
    "pool": "Counters in the pool",
    "in_play": "Who played to the end (the others passed)",
    "tricks": "Who took each trick",
    "defender": "Who played for the pool (the dealer, against one player)",
    "miss_holder": "Who took the miss",
    "asked": "Whose settlement the question asks",
    "declarations": "What the players before you declared, in turn from the dealer's left",
    "must": "The deal is a must: nobody may pass",
}
#: A kind's own words for a field, where they differ.
KIND_LABELS = {
    ("trick-winner", "trick"): "The trick, every card in the order played",
    ("declaration", "hand"): "Your cards, as dealt: the student is the player to declare",
}
HELP = {
    "turn_up": "None: the question does not show one.",
    "declared": "Those who stood in and play the hand, the student among them.",
    "trick": "Leave the rest empty. The student plays next.",
    "played": "Tick any you want the question to show; none is fine.",
    "card": "One of the student's cards. None: one that the rule asked about forbids.",
    "hands": "Fill the hands from the first; leave the rest empty. Each holds five cards.",
    "tricks": "In turn, from the first trick. Leave them all empty if one player alone took "
    "the pool without play.",
    "asked": "The answer is what this seat receives or pays.",
}
KIND_HELP = {
    ("trick-winner", "trick"): "One card for each player in the play; leave the rest empty.",
    ("declaration", "turn_up"): "It makes its suit trumps.",
    ("declaration", "pool"): "Once the stake is put up. Empty: as the engine deals it, a pool "
    "carried over from a loo.",
    ("settlement", "pool"): "Once the stake is put up: the counters the hand is played for.",
}
#: A card a kind cannot do without, and what the editor says when it is missing.
REQUIRED = {("declaration", "turn_up"): "Choose the turn-up: it makes its suit trumps."}
#: Fields drawn folded: none is fine, and each is 52 checkboxes a phone would scroll past.
FOLDED = {"played"}
ORDINALS = ["Card led"] + [
    f"{n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'} card" for n in range(2, 11)
]


def card_words(c: Card) -> str:
    return f"{RANK_NAMES[c.rank].capitalize()} of {SUIT_NAMES[c.suit]}"


def card_choices(none: str = "None") -> list[tuple[str, Any]]:
    """A select's choices: none, then the pack grouped by suit."""
    return [("", none)] + [
        (SUIT_NAMES[s].capitalize(), [(r + s, card_words(card(r + s))) for r in RANKS])
        for s in SUITS
    ]


PACK_CODES = [(r + s, r + s) for s in SUITS for r in RANKS]


# -- step 1 ----------------------------------------------------------------------------------------


class StartForm(forms.Form):
    """The rule set, the game and what to ask (the editor's first step; its fields travel on
    with the later steps, and each step checks them again)."""

    rules = forms.ChoiceField(label="Rule set", choices=RULES_CHOICES, initial=DEFAULT_PRESET)
    game = forms.ChoiceField(choices=GAME_CHOICES, initial="three-card")
    kind = forms.ChoiceField(label="What to ask", widget=forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)  # type: ignore[misc]
        self.fields["kind"].choices = [  # type: ignore[attr-defined]
            (k, f"{bank.kind_name(k)}: “{own.ASKS[k]}”") for k in own.kinds()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset, game, kind = data.get("rules"), data.get("game"), data.get("kind")
        if not (preset and game and kind):
            return data
        games = bank.games_of(preset)
        if game not in games:
            self.add_error(
                "game",
                f"{PRESETS[preset].title} describes no {GAME_NAMES[game]}: choose "
                + " or ".join(GAME_NAMES[g] for g in games)
                + ".",
            )
        only = KIND_BY_NAME[kind].game
        if only is not None and game != only:
            self.add_error(
                "kind",
                f"{bank.kind_name(kind)}: asked only at {GAME_NAMES[only]}, "
                f"not {GAME_NAMES[game]}.",
            )
        return data


# -- step 2 ----------------------------------------------------------------------------------------


@dataclass
class SuitGroup:
    name: str
    symbol: str
    red: bool
    #: (code, what is drawn, its words, ticked)
    cards: list[tuple[str, str, str, bool]]


@dataclass
class Picker:
    """One field of the position as the editor draws it."""

    name: str
    type: str
    label: str
    help: str = ""
    errors: list[str] = field(default_factory=list)
    #: A field drawn by Django (a suit, a card, a count, a flag).
    bound: Any = None
    #: Cards in no order: the pack, suit by suit.
    suits: list[SuitGroup] = field(default_factory=list)
    #: Cards in order (a trick): a select each; hands: (label, selects) each.
    slots: list[Any] = field(default_factory=list)
    hands: list[tuple[str, list[Any]]] = field(default_factory=list)
    #: Drawn folded (a disclosure, open when something is chosen): a field none is fine for.
    folded: bool = False
    opened: bool = False


class PositionForm(forms.Form):
    """The position, as far as ``kind`` needs it at ``game`` under ``preset``, and the rule
    asked about; :meth:`draft` is what the engine is asked."""

    rule = forms.ChoiceField(label="The rule the question is about", required=False)

    def __init__(self, kind: str, preset: str, game: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)  # type: ignore[misc]
        self.kind, self.preset, self.game = kind, preset, game
        self.names = own.fields_of(kind, game)
        rules = RuleSet.preset(preset)
        #: The table the seats are drawn for (a question about a whole table).
        self.table = own_seats.table_of(rules, game, kwargs.get("data") or kwargs.get("initial"))
        self.fields["rule"].choices = [("", "Any rule that decides it there")] + [  # type: ignore[attr-defined]
            (r, capital_name(r)) for r in KIND_BY_NAME[kind].family()
        ]
        low, high = rules.players(game)
        size = HAND_SIZE[game]
        table = self.table
        for name in self.names:
            kind_of = own.TYPES[name]
            label = KIND_LABELS.get((kind, name), LABELS[name])
            if name == "players":
                self.fields[name] = own_seats.players_field(rules, game, table, label)
            elif name == "pool":
                required = kind == "settlement"
                self.fields[name] = own_seats.pool_field(
                    rules, game, table, label, required=required
                )
            elif kind_of == own.SEAT:
                self.fields[name] = own_seats.seat_field(name, table, label)
            elif kind_of == own.SEATS:
                self.fields[name] = own_seats.seats_field(table, label)
            elif kind_of == own.TAKERS:
                self.fields.update(own_seats.taker_fields(name, game, table))
            elif kind_of == own.DECLARATIONS:
                self.fields.update(own_seats.declaration_fields(name, game, table))
            elif kind_of == own.SUIT:
                self.fields[name] = forms.ChoiceField(
                    label=label,
                    choices=[(s, SUIT_NAMES[s].capitalize()) for s in SUITS],
                    widget=forms.RadioSelect,
                )
            elif kind_of == own.CARD:
                needed = (kind, name) in REQUIRED
                self.fields[name] = forms.ChoiceField(
                    label=label,
                    choices=card_choices("Choose" if needed else "None"),
                    required=needed,
                    error_messages={"required": REQUIRED.get((kind, name), "")},
                )
            elif kind_of == own.COUNT:
                top = high if name == "declared" else size
                self.fields[name] = forms.TypedChoiceField(
                    label=label,
                    coerce=int,
                    choices=[(n, str(n)) for n in range(2 if name == "declared" else 1, top + 1)],
                    initial=low if name == "declared" else 1,
                )
            elif kind_of == own.FLAG:
                self.fields[name] = forms.BooleanField(label=label, required=False)
            elif kind_of == own.CARDS:
                self.fields[name] = forms.MultipleChoiceField(
                    label=label, choices=PACK_CODES, required=False
                )
            elif kind_of == own.ORDERED:
                for i in range(min(TRICK_SLOTS, high)):
                    self.fields[f"{name}-{i + 1}"] = forms.ChoiceField(
                        label=ORDINALS[i], choices=card_choices("Not played yet"), required=False
                    )
            elif kind_of == own.HANDS:
                for h in range(HAND_SLOTS):
                    for i in range(size):
                        self.fields[f"{name}-{h + 1}-{i + 1}"] = forms.ChoiceField(
                            label=f"Card {i + 1}", choices=card_choices("—"), required=False
                        )

    def table_fields(self) -> list[Any]:
        """The fields that set the table, drawn first in a form of their own (none for a kind
        about a moment of the play, a trick or flushes)."""
        return [self[n] for n in own.TABLE.get(self.kind, ())]

    def table_pairs(self) -> list[tuple[str, str]]:
        """The table the other fields are drawn for, as the cards' form sends it on."""
        drawn = {"players": self.table.players, "dealer": self.table.dealer}
        return [(n, str(drawn[n])) for n in own.TABLE.get(self.kind, ())]

    @property
    def preset_title(self) -> str:
        return PRESETS[self.preset].title

    @property
    def game_name(self) -> str:
        return GAME_NAMES[self.game]

    # -- reading it --------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in self.names:
            kind_of = own.TYPES[name]
            if kind_of == own.ORDERED:
                data[name] = self._in_order(name)
            elif kind_of == own.HANDS:
                data[name] = self._hands(name)
            elif kind_of == own.TAKERS:
                data[name], wrong = own_seats.takers(self.cleaned_data, name, self.game)
                if wrong:
                    self.add_error(None, wrong)
            elif kind_of == own.DECLARATIONS:
                data[name] = own_seats.declarations(self.cleaned_data, name, self.table)
        return data

    def _in_order(self, name: str) -> list[str]:
        slots = [self.cleaned_data.get(n) or "" for n in self.fields if n.startswith(f"{name}-")]
        filled = [c for c in slots if c]
        if filled and max(i for i, c in enumerate(slots) if c) >= len(filled):
            self.add_error(
                None, f"{LABELS[name].split(',')[0]}: fill it from the card led, with no gap."
            )
        return filled

    def _hands(self, name: str) -> list[list[str]]:
        size = HAND_SIZE[self.game]
        hands = [
            [self.cleaned_data.get(f"{name}-{h + 1}-{i + 1}") or "" for i in range(size)]
            for h in range(HAND_SLOTS)
        ]
        filled = [[c for c in hand if c] for hand in hands]
        while filled and not filled[-1]:
            filled.pop()
        for number, cards in enumerate(filled, start=1):
            if len(cards) != size:
                self.add_error(
                    None, f"Hand {number} holds {len(cards)} cards: each hand holds {size}."
                )
        return filled

    def draft(self) -> own.Draft:
        """The question the form describes (the form must be valid)."""
        data = self.cleaned_data
        position: dict[str, Any] = {}
        card_asked = ""
        for name in self.names:
            value = data.get(name)
            if name == "card":
                card_asked = value or ""
            elif own.TYPES[name] == own.CARD:
                position[name] = value or None
            elif own.TYPES[name] in (own.CARDS, own.SEATS):
                position[name] = list(value or [])
            else:
                position[name] = value
        return own.Draft(
            self.kind, self.preset, self.game, data.get("rule") or "", position, card_asked
        )

    # -- drawing it --------------------------------------------------------------------------------

    def pickers(self) -> list[Picker]:
        """Each field as the editor draws it, in the kind's order."""
        found = []
        for name in self.names:
            if name in own.TABLE.get(self.kind, ()):
                continue  # drawn first, in the table's form
            kind_of = own.TYPES[name]
            p = Picker(
                name,
                kind_of,
                KIND_LABELS.get((self.kind, name), LABELS[name]),
                KIND_HELP.get((self.kind, name), HELP.get(name, "")),
            )
            if kind_of == own.CARDS:
                ticked = set(self[name].value() or [])
                p.folded, p.opened = name in FOLDED, bool(ticked or self[name].errors)
                p.errors = [str(e) for e in self[name].errors]
                p.suits = [
                    SuitGroup(
                        SUIT_NAMES[s].capitalize(),
                        SUIT_SYMBOLS[s],
                        s in "HD",
                        [
                            (r + s, card(r + s).display, card_words(card(r + s)), r + s in ticked)
                            for r in RANKS
                        ],
                    )
                    for s in SUITS
                ]
            elif kind_of in (own.ORDERED, own.TAKERS, own.DECLARATIONS):
                p.slots = [self[n] for n in self.fields if n.startswith(f"{name}-")]
                p.errors = [
                    str(e) for n in self.fields if n.startswith(f"{name}-") for e in self[n].errors
                ]
            elif kind_of == own.HANDS:
                size = HAND_SIZE[self.game]
                p.hands = [
                    (
                        "Your hand (the elder hand)" if h == 0 else f"Hand {h + 1}",
                        [self[f"{name}-{h + 1}-{i + 1}"] for i in range(size)],
                    )
                    for h in range(HAND_SLOTS)
                ]
            else:
                p.bound = self[name]
                p.errors = [str(e) for e in self[name].errors]
            found.append(p)
        return found


def capital_name(rule: str) -> str:
    words = rule_name(rule)
    return words[:1].upper() + words[1:]


def pairs_of(draft: own.Draft) -> list[tuple[str, str]]:
    """The draft as the editor's forms post it (query strings, hidden fields), so that each
    step sends on what the earlier ones chose, and an edit starts from a stored version."""
    pairs = [("rules", draft.rules), ("game", draft.game), ("kind", draft.kind)]
    if draft.rule:
        pairs.append(("rule", draft.rule))
    if draft.card:
        pairs.append(("card", draft.card))
    for name, value in draft.position.items():
        kind_of = own.TYPES.get(name)
        if kind_of in (own.CARDS, own.SEATS):
            pairs += [(name, str(c)) for c in value or ()]
        elif kind_of in (own.ORDERED, own.TAKERS, own.DECLARATIONS):
            pairs += [(f"{name}-{i + 1}", str(c)) for i, c in enumerate(value or ())]
        elif kind_of == own.HANDS:
            pairs += [
                (f"{name}-{h + 1}-{i + 1}", c)
                for h, hand in enumerate(value or ())
                for i, c in enumerate(hand)
            ]
        elif kind_of == own.FLAG:
            pairs += [(name, "on")] if value else []
        elif value is not None:
            pairs.append((name, str(value)))
    return pairs


class TitleForm(forms.Form):
    title = forms.CharField(
        label="Its name on your list",
        max_length=120,
        required=False,
        help_text="Only teachers see it. Left empty: the kind of question and the rule set.",
    )


# -- a quiz with questions of one's own ------------------------------------------------------------


class OwnQuizForm(QuizForm):
    """A quiz: the engine's questions (now as few as none) and questions of one's own or of
    one's co-teachers', at the quiz's rule set and game."""

    own = forms.MultipleChoiceField(
        label="Questions of your own",
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Yours and your co-teachers', asked after the engine's questions, each "
        "attempt with its choices in an order of its own.",
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["count"] = forms.IntegerField(
            label="Number of the engine's questions",
            min_value=0,
            max_value=MAX_QUESTIONS,
            initial=10,
            help_text="None (0) is fine when the quiz asks questions of your own.",
        )
        self.own_questions = {str(q.pk): q for q in own.visible(user)}
        self.fields["own"].choices = [  # type: ignore[attr-defined]
            (pk, f"{q} ({q.current.rules_title}, {q.current.game_name})")
            for pk, q in self.own_questions.items()
            if q.current is not None
        ]

    @classmethod
    def for_quiz(cls, version: QuizVersion, user: Any) -> OwnQuizForm:
        form = cls(initial=QuizForm.for_version(version).initial, user=user)
        form.initial["own"] = [str(q.pk) for q in own.quiz_questions(version)]
        return form

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [self.own_questions[pk] for pk in data.get("own") or ()]
        data["own_questions"] = chosen
        preset, game, count = data.get("rules"), data.get("game"), data.get("count")
        for q in chosen:
            v = q.current
            if v is not None and (v.rules, v.game) != (preset, game):
                self.add_error(
                    "own",
                    f"“{v.title}” is a question under {v.rules_title} at {v.game_name}: a quiz "
                    "asks all its questions under its own rule set and game.",
                )
        if count is not None:
            if count + len(chosen) < 1:
                self.add_error(
                    "count", "A quiz asks one question at least: the engine's or your own."
                )
            elif count + len(chosen) > MAX_QUESTIONS:
                self.add_error(
                    "count", f"A quiz asks {MAX_QUESTIONS} questions at most, your own included."
                )
        return data
