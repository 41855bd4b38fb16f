"""What every kind of worked example shares: the rule sets it is worked out under, its
rows grouped by result, and the checks of the fields every kind reads (trumps, cards, whole
numbers, no card dealt twice)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.loo.authored import cards_field
from games.loo.cards import Card, parse_card, parse_suit
from games.loo.errors import LooError
from games.loo.play import RuleApplication
from games.loo.rulesets import GAME_NAMES, OPTION_BY_NAME, PRESETS, RuleSet

#: The fields every kind of example may give.
COMMON_FIELDS = {"kind", "presets", "options"}


class ExampleError(LooError):
    """An example the engine cannot work out, as one line naming the problem."""


def seat_label(seat: int | None, players: int) -> str:
    """How the page names a seat: seat 0 is the elder hand and the last seat deals."""
    if seat is None:
        return "the pool"
    if seat == 0:
        return "Seat 1 (elder hand)"
    if seat == players - 1:
        return f"Seat {players} (dealer)"
    return f"Seat {seat + 1}"


@dataclass(frozen=True)
class Ruleset:
    """One rule set an example is worked out under: a preset, with any agreed options."""

    preset: str
    title: str
    rules: RuleSet


@dataclass(frozen=True)
class Group:
    """Rule sets that come to the same result, and that result (a row of one of them)."""

    presets: tuple[Ruleset, ...]
    row: Any

    @property
    def names(self) -> str:
        if len(self.presets) == len(PRESETS):
            return "Every rule set"
        return and_list([p.title for p in self.presets])


def and_list(words: Sequence[str]) -> str:
    """``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class WorkedExample:
    """The engine's answer to one example under each rule set; iterating gives the rows."""

    kind = ""
    #: The fields an example of this kind may give, and those it must.
    FIELDS: ClassVar[set[str]] = COMMON_FIELDS
    REQUIRED: ClassVar[tuple[str, ...]] = ()
    game: str
    rows: tuple[Any, ...]
    options: dict[str, str | int]

    @property
    def game_name(self) -> str:
        """The game's name to begin a sentence: Three-card Loo, Five-card Loo, Irish Loo."""
        name = GAME_NAMES[self.game]
        return name[:1].upper() + name[1:]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, preset: str) -> Any:
        return next(r for r in self.rows if r.ruleset.preset == preset)

    def groups(self) -> list[Group]:
        """The rule sets grouped by identical results, in preset order."""
        found: dict[object, list[Any]] = {}
        for row in self.rows:
            found.setdefault(row.key(), []).append(row)
        return [Group(tuple(r.ruleset for r in rows), rows[0]) for rows in found.values()]

    @property
    def shown_under(self) -> str:
        """The rule sets the example is worked out under, when not all five."""
        if len(self.rows) == len(PRESETS):
            return ""
        return and_list([r.ruleset.title for r in self.rows])

    @property
    def agreed(self) -> list[tuple[str, str]]:
        """The options agreed for the example: (label, value in words)."""
        return [
            (OPTION_BY_NAME[name].label, OPTION_BY_NAME[name].phrase(value))
            for name, value in self.options.items()
        ]

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> WorkedExample:
        """The example worked out under each of ``rulesets`` (its fields are known)."""
        raise NotImplementedError


def rulesets_for(data: dict[str, Any], game: str) -> list[Ruleset]:
    """The rule sets an example is shown under: every preset that plays its game, or those
    listed in ``presets``; each with the ``options`` agreed for the example."""
    wanted = data.get("presets")
    if wanted is not None:
        if not isinstance(wanted, list) or not wanted:
            raise ExampleError('"presets" must be a list of rule sets, such as ["britannica"]')
        for name in wanted:
            if name not in PRESETS:
                raise ExampleError(f"unknown rule set {name!r} (rule sets: {', '.join(PRESETS)})")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ExampleError('"options" must be an object, such as {"club-law": "on"}')
    found = []
    for preset in PRESETS.values():
        if wanted is not None and preset.id not in wanted:
            continue
        rules = preset.rules.with_options(options) if options else preset.rules
        if rules.supports(game):
            found.append(Ruleset(preset.id, preset.title, rules))
    if not found:
        raise ExampleError(f"no rule set of this example plays {game} Loo")
    return found


def trump_of(data: dict[str, Any]) -> tuple[str, Card | None]:
    """Trumps, and the turn-up that makes them (optional, shown as a card)."""
    trump = parse_suit(data["trump"])
    turn_up = parse_card(data["turn_up"]) if data.get("turn_up") else None
    if turn_up is not None and turn_up.suit != trump:
        raise ExampleError(f"the turn-up {turn_up.code} does not make {data['trump']} trumps")
    return trump, turn_up


def card_list(value: object, what: str) -> tuple[Card, ...]:
    """A list of card codes, or the codes in one string separated by spaces (as the engine
    reads every authored list of cards)."""
    return cards_field({what: value}, what)


def whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ExampleError(f"{what} must be a whole number, not {value!r}")
    return value


def no_repeats(places: Sequence[tuple[str, Sequence[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise ExampleError(f"{c.code} is dealt twice: in {seen[c]} and in {where}")
            seen[c] = where


def apps_key(apps: Sequence[RuleApplication]) -> tuple[tuple[str, str, tuple[Card, ...]], ...]:
    return tuple((a.rule, a.text, a.excluded) for a in apps)
