"""The steps of a ``hand`` example, as written (``"0 play"``, ``"1 QH"``, ``"2 expose 5C"``,
``"hoffmann: 1 demand"``) and in words."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.loo.cards import Card, parse_card
from games.loo.errors import LooError
from games.loo.hand import Action
from games.loo.rulesets import PRESETS
from lessons.examples.base import ExampleError, and_list, card_list, seat_label

_DECLARE = ("play", "pass", "take-miss", "defend-miss", "defend-master")
_REPLAY = ("demand", "decline")

#: An irregularity committed in laws mode (:mod:`games.loo.hand.irregular`), in words: ``who``
#: commits it, ``cards_of`` names the hand he sees, ``card`` the card he shows.
IRREGULAR_WORDS = {
    "misdeal": "{who} misdeals",
    "faced-card": "{who} finds a card face up in the pack",
    "interfere": "{who} interferes with the cards during the deal",
    "declare-early": "{who} declares before his turn",
    "look-early": "{who} looks at his cards before his turn",
    "look-miss": "{who} looks at the miss without taking it",
    "look-hand": "{who} looks at {cards_of}",
    "expose": "{who} exposes the {card}",
    "play-early": "{who} plays the {card} before all have declared",
}
#: The irregularities that name one card of the offender's own: "2 expose 5C".
_WITH_CARD = ("expose", "play-early")

#: A declaration or a replay answer, in words.
CHOICE_WORDS = {
    "play": "play",
    "pass": "pass",
    "take-miss": "take the miss",
    "defend-miss": "play the miss for the pool",
    "defend-master": "defend with master for the pool",
    "demand": "demand that the hand be played again",
    "decline": "let the result stand",
}


@dataclass(frozen=True)
class Step:
    """One step of a hand, as written: ``"0 play"``, ``"1 pass"``, ``"2 take-miss"``,
    ``"0 play 3S 4S"`` (five-card: the discards), ``"0 QH"`` (a card), ``"0 AH civil"``,
    ``"1 demand"``; an irregularity in laws mode (:data:`IRREGULAR_WORDS`): ``"3 misdeal"``,
    ``"1 faced-card"``, ``"1 interfere"``, ``"2 declare-early"``, ``"2 look-early"``,
    ``"1 look-miss"``, ``"0 look-hand 2"`` (seat 0 sees seat 2's cards), ``"2 expose 5C"``,
    ``"0 play-early AS"``; ``"?"`` shows the options of the player to act; a step that begins
    ``"hoffmann, peel: "`` is taken only under those rule sets."""

    number: int
    text: str
    presets: tuple[str, ...] | None
    seat: int
    word: str
    cards: tuple[Card, ...]
    civil: bool
    #: The step in words: "Seat 4 (dealer) plays the Q♥".
    said: str = ""
    #: The seat whose cards are looked at (``look-hand``).
    other: int | None = None

    @classmethod
    def parse(cls, number: int, text: object, players: int) -> Step:
        if not isinstance(text, str):
            raise ExampleError(f'step {number} must be text such as "0 play", not {text!r}')
        where = f"step {number} ({text!r})"
        presets: tuple[str, ...] | None = None
        body = text
        if ":" in text:
            names, _, body = text.partition(":")
            presets = tuple(n.strip() for n in names.split(",") if n.strip())
            for name in presets:
                if name not in PRESETS:
                    raise ExampleError(f"{where}: unknown rule set {name!r}")
        if body.strip() == "?":
            return cls(number, text, presets, -1, "?", (), False, "(show the options)")
        words = body.split()
        if len(words) < 2 or not words[0].isdigit():
            raise ExampleError(
                f'{where}: write a seat (0 is the elder hand) and what he does, e.g. "0 play"'
            )
        seat, word, rest = int(words[0]), words[1], words[2:]
        if seat >= players:
            raise ExampleError(f"{where}: there is no seat {seat} at a table of {players}")
        civil = False
        other = None
        if word in _DECLARE:
            cards = card_list(rest, "discards") if rest else ()
        elif word in _REPLAY:
            if rest:
                raise ExampleError(f"{where}: {word} takes no cards")
            cards = ()
        elif word in IRREGULAR_WORDS:
            cards, other = _irregular_args(where, seat, word, rest, players)
        else:
            civil = rest == ["civil"]
            if rest and not civil:
                raise ExampleError(f'{where}: a card is played alone (or with "civil")')
            try:
                cards = (parse_card(word),)
            except LooError as error:
                raise ExampleError(
                    f"{where}: not a declaration ({', '.join(_DECLARE + _REPLAY)}), an "
                    f"irregularity ({', '.join(IRREGULAR_WORDS)}) or a card: {error}"
                ) from None
            word = "card"
        step = cls(number, text, presets, seat, word, cards, civil, other=other)
        return dataclasses.replace(step, said=step.words(players))

    @property
    def only_under(self) -> str:
        """The rule sets a step is taken under, when not all: "Hoffmann (1909)"."""
        return and_list([PRESETS[p].title for p in self.presets or ()])

    def applies(self, preset: str) -> bool:
        return self.presets is None or preset in self.presets

    def action(self) -> Action:
        if self.word in _DECLARE:
            return Action.declare(self.seat, self.word, self.cards)
        if self.word in _REPLAY:
            return Action("replay", self.seat, self.word)
        if self.word in IRREGULAR_WORDS:
            what = self.word if self.other is None else f"{self.word}:{self.other}"
            return Action("irregular", self.seat, what, tuple(c.code for c in self.cards))
        return Action.play(self.seat, self.cards[0], civil=self.civil)

    def words(self, players: int) -> str:
        """The step in words: "Seat 4 (dealer) plays the Q♥"."""
        who = seat_label(self.seat, players)
        if self.word in IRREGULAR_WORDS:
            seen = seat_label(self.other, players) if self.other is not None else ""
            card = self.cards[0].display if self.cards else ""
            return IRREGULAR_WORDS[self.word].format(who=who, cards_of=_cards_of(seen), card=card)
        if self.word == "card":
            said = ' and calls "Pam, be civil"' if self.civil else ""
            return f"{who} plays the {self.cards[0].display}{said}"
        if self.word == "play" and self.cards:
            shown = ", ".join(c.display for c in self.cards)
            return f"{who} plays, discarding {shown} to draw {len(self.cards)}"
        return f"{who} chooses to {CHOICE_WORDS[self.word]}"


def _cards_of(label: str) -> str:
    """A seat's cards: "Seat 3's cards", "the cards of Seat 4 (dealer)"."""
    return f"the cards of {label}" if label.endswith(")") else f"{label}'s cards"


def _irregular_args(
    where: str, seat: int, word: str, rest: list[str], players: int
) -> tuple[tuple[Card, ...], int | None]:
    """The card an ``expose`` or ``play-early`` step names, or the seat a ``look-hand`` step
    looks at; the other irregularities take neither."""
    if word in _WITH_CARD:
        if len(rest) != 1:
            raise ExampleError(
                f'{where}: {word} names one card of his own, e.g. "{seat} {word} 5C"'
            )
        try:
            return (parse_card(rest[0]),), None
        except LooError as error:
            raise ExampleError(f"{where}: {error}") from None
    if word == "look-hand":
        if len(rest) != 1 or not rest[0].isdigit():
            raise ExampleError(
                f'{where}: look-hand names the seat whose cards he sees, e.g. "{seat} look-hand '
                f'{(seat + 1) % players}"'
            )
        other = int(rest[0])
        if other >= players:
            raise ExampleError(f"{where}: there is no seat {other} at a table of {players}")
        if other == seat:
            raise ExampleError(f"{where}: look-hand names another seat than his own")
        return (), other
    if rest:
        raise ExampleError(f"{where}: {word} takes no cards")
    return (), None
