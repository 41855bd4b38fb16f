"""Worked examples: a rule's example, written in ``content/rules.txt``, worked out by the engine.

An example is a JSON object. Its ``kind`` says what the engine is asked (RULES.md Part 4):

- ``legal`` (the default, for a position as in RULES.md 4.1): which cards may be played, and
  why — :func:`games.loo.play.legal`;
- ``trick``: who takes a trick (4.2) — :func:`games.loo.play.trick_winner`;
- ``flush``: which of several five-card flushes loos the board, and who is excused from paying
  (4.3) — :func:`games.loo.flushes.compare_flushes`;
- ``hand``: a whole hand dealt from a stacked pack and moved step by step — the options and the
  rules that shaped them, the public trace and the settlement (:class:`games.loo.hand.Hand`).

Each is worked out under every rule set that plays its game (or those named in ``presets``,
with the agreed ``options``). Nothing here decides a rule: the results, and the sentences that
explain them, are the engine's. A step of a hand that one rule set does not allow is part of the
example (that is where the sources disagree); an example the engine cannot work out under any
rule set is refused with :class:`ExampleError`, whose message names the problem in one line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.loo.authored import authored_position, cards_field, flag_field
from games.loo.cards import PACK, Card, parse_card, parse_suit
from games.loo.errors import LooError
from games.loo.flushes import FlushResult, compare_flushes
from games.loo.hand import Action, Event, Hand, HandSetup, IllegalAction, Payment, stack_pack
from games.loo.play import LegalMoves, Position, RuleApplication, TrickResult, legal, trick_winner
from games.loo.rulesets import GAME_NAMES, GAMES, HAND_SIZE, OPTION_BY_NAME, PRESETS, RuleSet
from games.loo.table import TableConfig

KINDS = ("legal", "trick", "flush", "hand")

_COMMON = {"kind", "presets", "options"}
_FIELDS: dict[str, set[str]] = {
    "legal": _COMMON
    | {
        "game",
        "trump",
        "turn_up",
        "declared",
        "trick_number",
        "hand",
        "trick",
        "pam_be_civil",
        "played",
    },
    "trick": _COMMON | {"game", "trump", "turn_up", "trick"},
    "flush": _COMMON | {"game", "trump", "turn_up", "hands"},
    "hand": _COMMON
    | {
        "game",
        "players",
        "hands",
        "pack",
        "turn_up",
        "miss",
        "stock",
        "pool",
        "first",
        "prev_no_loo",
        "prev_flush",
        "laws",
        "steps",
    },
}
_REQUIRED: dict[str, tuple[str, ...]] = {
    "legal": ("game", "trump", "declared", "hand"),
    "trick": ("game", "trump", "trick"),
    "flush": ("game", "trump", "hands"),
    "hand": ("game",),
}


class ExampleError(LooError):
    """An example the engine cannot work out, as one line naming the problem."""


# -- seats -----------------------------------------------------------------------------------


def seat_label(seat: int | None, players: int) -> str:
    """How the page names a seat: seat 0 is the elder hand and the last seat deals."""
    if seat is None:
        return "the pool"
    if seat == 0:
        return "Seat 1 (elder hand)"
    if seat == players - 1:
        return f"Seat {players} (dealer)"
    return f"Seat {seat + 1}"


# -- the examples ----------------------------------------------------------------------------


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


def worked_example(data: object) -> WorkedExample:
    """Work out an example under each rule set; raises :class:`ExampleError` (or another
    :class:`LooError`) naming the problem when it cannot be worked out."""
    if not isinstance(data, dict):
        raise ExampleError("the example must be a JSON object")
    kind = data.get("kind", "legal")
    if kind not in KINDS:
        raise ExampleError(f"unknown example kind {kind!r} (kinds: {', '.join(KINDS)})")
    unknown = set(data) - _FIELDS[kind]
    if unknown:
        raise ExampleError(
            f"unknown field(s) in a {kind} example: {', '.join(sorted(unknown))} "
            f"(fields: {', '.join(sorted(_FIELDS[kind]))})"
        )
    missing = [name for name in _REQUIRED[kind] if name not in data]
    if missing:
        raise ExampleError(f"a {kind} example needs {', '.join(repr(m) for m in missing)}")
    game = data["game"]
    if game not in GAMES:
        raise ExampleError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    rulesets = _rulesets(data, str(game))
    if kind == "legal":
        return LegalExample.work_out(data, rulesets)
    if kind == "trick":
        return TrickExample.work_out(data, rulesets)
    if kind == "flush":
        return FlushExample.work_out(data, rulesets)
    return HandExample.work_out(data, rulesets)


def _rulesets(data: dict[str, Any], game: str) -> list[Ruleset]:
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


def _trump(data: dict[str, Any]) -> tuple[str, Card | None]:
    """Trumps, and the turn-up that makes them (optional, shown as a card)."""
    trump = parse_suit(data["trump"])
    turn_up = parse_card(data["turn_up"]) if data.get("turn_up") else None
    if turn_up is not None and turn_up.suit != trump:
        raise ExampleError(f"the turn-up {turn_up.code} does not make {data['trump']} trumps")
    return trump, turn_up


def _cards(value: object, what: str) -> tuple[Card, ...]:
    """A list of card codes, or the codes in one string separated by spaces (as the engine
    reads every authored list of cards)."""
    return cards_field({what: value}, what)


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ExampleError(f"{what} must be a whole number, not {value!r}")
    return value


def _no_repeats(places: Sequence[tuple[str, Sequence[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise ExampleError(f"{c.code} is dealt twice: in {seen[c]} and in {where}")
            seen[c] = where


# -- legal: which cards may be played ----------------------------------------------------------


@dataclass(frozen=True)
class ExampleRow:
    """The cards one rule set allows in a position, and why."""

    ruleset: Ruleset
    hand: tuple[Card, ...]
    moves: LegalMoves

    @property
    def preset(self) -> str:
        return self.ruleset.preset

    @property
    def title(self) -> str:
        return self.ruleset.title

    def key(self) -> object:
        return (self.moves.legal, _apps(self.moves.explanations), _apps(self.moves.notes))


class LegalExample(WorkedExample):
    kind = "legal"

    def __init__(
        self, position: Position, rows: tuple[ExampleRow, ...], options: dict[str, str | int]
    ) -> None:
        self.position = position
        self.game = position.game
        self.rows = rows
        self.options = options

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> LegalExample:
        rows = []
        for ruleset in rulesets:
            position = authored_position(data, game=str(data["game"]), rules=ruleset.rules)
            rows.append(ExampleRow(ruleset, position.hand, legal(position)))
        return cls(rows[0].moves.position, tuple(rows), data.get("options") or {})


def _apps(apps: Sequence[RuleApplication]) -> tuple[tuple[str, str, tuple[Card, ...]], ...]:
    return tuple((a.rule, a.text, a.excluded) for a in apps)


# -- trick: who takes it -------------------------------------------------------------------------


@dataclass(frozen=True)
class TrickRow:
    ruleset: Ruleset
    result: TrickResult

    def key(self) -> object:
        return (self.result.winner, self.result.card, _apps(self.result.explanations))


class TrickExample(WorkedExample):
    kind = "trick"

    def __init__(
        self,
        game: str,
        trump: str,
        turn_up: Card | None,
        trick: tuple[Card, ...],
        rows: tuple[TrickRow, ...],
        options: dict[str, str | int],
    ) -> None:
        self.game, self.trump, self.turn_up, self.trick = game, trump, turn_up, trick
        self.rows = rows
        self.options = options

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> TrickExample:
        game = str(data["game"])
        trump, turn_up = _trump(data)
        trick = _cards(data["trick"], "trick")
        if turn_up is not None:
            _no_repeats([("the turn-up", [turn_up]), ("the trick", trick)])
        rows = tuple(TrickRow(r, trick_winner(game, r.rules, trump, trick)) for r in rulesets)
        return cls(game, trump, turn_up, trick, rows, data.get("options") or {})


# -- flush: which flush loos the board ----------------------------------------------------------


@dataclass(frozen=True)
class FlushRow:
    ruleset: Ruleset
    result: FlushResult
    players: int

    def key(self) -> object:
        r = self.result
        return (r.winner, r.exempt, r.pay, _apps(r.explanations))

    @property
    def winner_name(self) -> str:
        return "nobody" if self.result.winner is None else flush_player(self.result.winner)

    @property
    def exempt_names(self) -> list[str]:
        return [flush_player(p) for p in self.result.exempt]

    @property
    def pay_names(self) -> list[str]:
        return [flush_player(p) for p in self.result.pay]


def flush_player(player: int | None) -> str:
    """The engine counts flush hands from the elder hand: "player 2" is the second hand."""
    if player is None:
        return "nobody"
    return "Player 1 (elder hand)" if player == 0 else f"Player {player + 1}"


class FlushExample(WorkedExample):
    kind = "flush"

    def __init__(
        self,
        game: str,
        trump: str,
        turn_up: Card | None,
        hands: tuple[tuple[Card, ...], ...],
        rows: tuple[FlushRow, ...],
        options: dict[str, str | int],
    ) -> None:
        self.game, self.trump, self.turn_up, self.hands = game, trump, turn_up, hands
        self.rows = rows
        self.options = options

    @property
    def players(self) -> list[tuple[str, tuple[Card, ...]]]:
        return [(flush_player(i), hand) for i, hand in enumerate(self.hands)]

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> FlushExample:
        game = str(data["game"])
        trump, turn_up = _trump(data)
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise ExampleError('"hands" must be a list of hands, from the elder hand')
        cards = tuple(_cards(h, f"hand of {flush_player(i)}") for i, h in enumerate(hands))
        places = [(f"the hand of {flush_player(i)}", h) for i, h in enumerate(cards)]
        _no_repeats([("the turn-up", [turn_up] if turn_up else []), *places])
        rows = tuple(
            FlushRow(r, compare_flushes(game, r.rules, trump, cards), len(cards)) for r in rulesets
        )
        return cls(game, trump, turn_up, cards, rows, data.get("options") or {})


# -- hand: a whole hand, step by step ------------------------------------------------------------

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
            cards = _cards(rest, "discards") if rest else ()
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


@dataclass(frozen=True)
class Moment:
    """What the player to act may do at one point of a hand, and the rules that decided it."""

    seat: int
    kind: str  # "declare", "play" or "replay"
    choices: tuple[str, ...]
    max_discards: int
    cards: tuple[Card, ...]
    explanations: tuple[RuleApplication, ...]
    notes: tuple[RuleApplication, ...]
    civil_call: bool

    @classmethod
    def of(cls, hand: Hand) -> Moment | None:
        options = hand.options()
        if options.kind == "none":
            return None
        moves = options.legal
        return cls(
            options.seat,
            options.kind,
            options.choices,
            options.max_discards,
            moves.legal if moves is not None else (),
            options.explanations,
            moves.notes if moves is not None else (),
            options.civil_call,
        )

    @property
    def verb(self) -> str:
        return {
            "declare": "declare",
            "play": "play a card",
            "replay": "say whether the hand is played again",
        }[self.kind]

    @property
    def choice_words(self) -> list[str]:
        words = [CHOICE_WORDS[c] for c in self.choices]
        if self.max_discards and "play" in self.choices:
            n = self.max_discards
            words[self.choices.index("play")] = (
                f"play, standing or discarding up to {n} card{'s' if n > 1 else ''} to draw"
            )
        return words

    def key(self) -> object:
        return (
            self.seat,
            self.kind,
            self.choices,
            self.max_discards,
            self.cards,
            _apps(self.explanations),
            _apps(self.notes),
        )


@dataclass(frozen=True)
class Refusal:
    """A step the rule set does not allow (``step`` None: it will not deal this table)."""

    step: Step | None
    text: str
    rule: str


@dataclass(frozen=True)
class Fact:
    """Something the engine says of the deal under one rule set that its trace does not:
    whether the pool is a single or a double."""

    text: str
    rule: str


@dataclass(frozen=True)
class HandRow:
    """A hand replayed under one rule set."""

    ruleset: Ruleset
    players: int
    refusal: Refusal | None
    #: The options shown: at each "?" step, at a refusal, and at the end of an unfinished hand.
    moments: tuple[tuple[int, Moment], ...]
    facts: tuple[Fact, ...]
    events: tuple[Event, ...]
    payments: tuple[Payment, ...]
    pool_at_start: int
    pool: int
    looed: tuple[int, ...]
    over: bool
    outcome: str
    #: The numbers of the steps not taken because the hand was already over.
    unplayed: tuple[int, ...]
    #: The cards as dealt under this rule set: the hands, the miss (None: none dealt, or
    #: withdrawn under club law) and the turn-up (None: the deal was refused).
    dealt: tuple[tuple[Card, ...], ...]
    dealt_miss: tuple[Card, ...] | None
    turn_up: Card | None

    def key(self) -> object:
        refusal = self.refusal
        return (
            (refusal.step.number if refusal.step else None, refusal.text, refusal.rule)
            if refusal
            else None,
            tuple((n, m.key()) for n, m in self.moments),
            self.facts,
            self.events,
            self.payments,
            self.pool_at_start,
            self.pool,
            self.looed,
            self.over,
            self.unplayed,
            self.dealt,
            self.dealt_miss,
            self.turn_up,
        )

    @property
    def looed_names(self) -> list[str]:
        return [seat_label(s, self.players) for s in self.looed]

    @property
    def cited(self) -> set[str]:
        """Every rule this hand's trace, options, payments and refusal name."""
        rules = {r for e in self.events for r in e.rules}
        rules |= {a.rule for _, m in self.moments for a in (*m.explanations, *m.notes)}
        rules |= {p.rule for p in self.payments} | {f.rule for f in self.facts}
        if self.refusal:
            rules.add(self.refusal.rule)
        return rules


class HandExample(WorkedExample):
    kind = "hand"

    def __init__(self, data: dict[str, Any], rows: tuple[HandRow, ...], **setup: Any) -> None:
        self.rows = rows
        self.options = data.get("options") or {}
        self.game: str = setup["game"]
        self.players: int = setup["players"]
        #: The hands stacked for each seat, or None when the example deals a given pack.
        self.hands: tuple[tuple[Card, ...], ...] | None = setup["hands"]
        self.pack: tuple[Card, ...] | None = setup["pack"]
        self.turn_up: Card | None = setup["turn_up"]
        self.miss: tuple[Card, ...] | None = setup["miss"]
        self.stock: tuple[Card, ...] = setup["stock"]
        self.pool: int = setup["pool"]
        self.first: bool = setup["first"]
        self.prev_no_loo: bool = setup["prev_no_loo"]
        self.prev_flush: bool = setup["prev_flush"]
        self.laws: bool = setup["laws"]
        self.steps: tuple[Step, ...] = setup["steps"]

    @property
    def seats(self) -> list[tuple[str, tuple[Card, ...]]]:
        return [(seat_label(s, self.players), hand) for s, hand in enumerate(self.hands or ())]

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> HandExample:
        game = str(data["game"])
        if ("hands" in data) == ("pack" in data):
            raise ExampleError(
                'a hand example gives either "hands" (stacked for each seat) or "pack" (the top '
                "of the pack, dealt as each rule set deals)"
            )
        setup = _stacked(data, game) if "hands" in data else _from_pack(data, game)
        players: int = setup["players"]
        raw_steps = data.get("steps", [])
        if not isinstance(raw_steps, list):
            raise ExampleError('"steps" must be a list, such as ["0 play", "1 pass"]')
        steps = tuple(Step.parse(n, text, players) for n, text in enumerate(raw_steps, 1))
        shown = {r.preset for r in rulesets}
        for step in steps:
            for name in step.presets or ():
                if name not in shown:
                    raise ExampleError(
                        f"step {step.number} ({step.text!r}) is for {name}, which this example "
                        "does not show"
                    )
        setup |= {
            "game": game,
            "pool": _whole(data.get("pool", 0), '"pool"'),
            "first": flag_field(data, "first"),
            "prev_no_loo": flag_field(data, "prev_no_loo"),
            "prev_flush": flag_field(data, "prev_flush"),
            "laws": flag_field(data, "laws"),
            "steps": steps,
        }
        rows = tuple(_replay(ruleset, setup) for ruleset in rulesets)
        _check_playable(rows, steps)
        return cls(data, rows, **setup)


def _stacked(data: dict[str, Any], game: str) -> dict[str, Any]:
    """The hands, miss, turn-up and top of the stock of a stacked deal, checked."""
    raw_hands = data["hands"]
    if not isinstance(raw_hands, list) or len(raw_hands) < 2:
        raise ExampleError('"hands" must list every seat\'s cards, from the elder hand')
    players = len(raw_hands)
    if "players" in data and data["players"] != players:
        raise ExampleError(f'"players" is {data["players"]!r} but {players} hands are dealt')
    hands = tuple(_cards(h, f"hand of {seat_label(s, players)}") for s, h in enumerate(raw_hands))
    size = HAND_SIZE[game]
    for s, hand in enumerate(hands):
        if len(hand) != size:
            raise ExampleError(
                f"{seat_label(s, players)} is dealt {len(hand)} cards; a {game} hand holds {size}"
            )
    if not data.get("turn_up"):
        raise ExampleError('a stacked hand needs its "turn_up"')
    turn_up = parse_card(data["turn_up"])
    miss = _cards(data["miss"], "miss") if data.get("miss") is not None else None
    if game == "three-card" and miss is None:
        raise ExampleError('a three-card hand needs its "miss" (three cards)')
    if game != "three-card" and miss is not None:
        raise ExampleError(f"{game} Loo deals no miss")
    if miss is not None and len(miss) != 3:
        raise ExampleError(f"the miss holds three cards, not {len(miss)}")
    stock = _cards(data.get("stock", []), "stock")
    _no_repeats(
        [
            *[(f"the hand of {seat_label(s, players)}", h) for s, h in enumerate(hands)],
            ("the miss", miss or ()),
            ("the turn-up", [turn_up]),
            ("the stock", stock),
        ]
    )
    if (players + (1 if miss else 0)) * size + 1 + len(stock) > 52:
        raise ExampleError(f"a pack of 52 cannot deal {players} hands and this stock")
    return {
        "players": players,
        "hands": hands,
        "pack": None,
        "turn_up": turn_up,
        "miss": miss,
        "stock": stock,
    }


def _from_pack(data: dict[str, Any], game: str) -> dict[str, Any]:
    """A pack whose top cards are given, the rest following in the usual order: each rule set
    deals it as it deals (RULES.md deal-order)."""
    for name in ("turn_up", "miss", "stock"):
        if name in data:
            raise ExampleError(f'"{name}" is dealt from the "pack"; give one or the other')
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ExampleError('a hand dealt from a "pack" needs "players": how many are dealt to')
    top = _cards(data["pack"], "pack")
    if len(top) > 52:
        raise ExampleError("a pack holds 52 cards")
    return {
        "players": players,
        "hands": None,
        "pack": top,
        "turn_up": None,
        "miss": None,
        "stock": (),
    }


def _deal(ruleset: Ruleset, setup: dict[str, Any], miss: tuple[Card, ...] | None) -> Hand:
    players: int = setup["players"]
    if setup["pack"] is not None:
        top = [c.code for c in setup["pack"]]
        pack = (*top, *(c.code for c in PACK if c.code not in top))
    else:
        pack = stack_pack(
            setup["game"],
            ruleset.rules,
            players,
            players - 1,
            [[c.code for c in h] for h in setup["hands"]],
            setup["turn_up"].code,
            [c.code for c in miss] if miss is not None else None,
            [c.code for c in setup["stock"]],
        )
    return Hand.deal(
        HandSetup(
            game=setup["game"],
            rules=ruleset.rules,
            players=players,
            dealer=players - 1,
            hand_number=1 if setup["first"] else 2,
            seed=0,
            balances=(100,) * players,
            pool=setup["pool"],
            first=setup["first"],
            prev_no_loo=setup["prev_no_loo"],
            prev_flush=setup["prev_flush"],
            laws=setup["laws"],
            pack=pack,
        )
    )


def _deal_single(ruleset: Ruleset, setup: dict[str, Any]) -> Hand:
    """A stacked example dealt as peel's single: its turn-up turned up, and each seat, from
    the dealer's left (seat 0) round to the dealer, given the first card of its hand."""
    top = (setup["turn_up"], *(h[0] for h in setup["hands"]))
    return _deal(ruleset, {**setup, "pack": top, "hands": None}, None)


def _replay(ruleset: Ruleset, setup: dict[str, Any]) -> HandRow:
    """Deal the hand under one rule set and take its steps until one is refused."""
    game, players = setup["game"], setup["players"]
    try:
        TableConfig(game, ruleset.rules, players, seed=0)
    except LooError as error:
        return _refused_deal(ruleset, players, str(error))
    hand = _deal(ruleset, setup, setup["miss"])
    if setup["miss"] is not None and hand.miss is None and not hand.miss_withdrawn:
        # A must without a miss (hoffmann, peel): the miss is not dealt, so neither is it
        # stacked; its cards stay in the pack.
        hand = _deal(ruleset, setup, None)
    stacked = setup["hands"]
    if stacked is not None and hand.outcome == "single-deal":
        # peel's single (A39): one card face up to each player, not the hands of three. The
        # same deal, told as the single: the turn-up first, then each seat's first card.
        hand = _deal_single(ruleset, setup)
        stacked = tuple(h[:1] for h in stacked)
    if stacked is not None and tuple(tuple(h) for h in hand.dealt) != stacked:
        raise ExampleError(f"the pack stacked for {ruleset.preset} does not deal these hands")
    dealt = tuple(tuple(h) for h in hand.dealt)
    dealt_miss = tuple(hand.miss) if hand.miss is not None else None
    moments: list[tuple[int, Moment]] = []
    refusal = None
    unplayed: list[int] = []
    taken = 0
    for step in setup["steps"]:
        if not step.applies(ruleset.preset):
            continue
        if hand.over:
            if step.word != "?":
                unplayed.append(step.number)
            continue
        if step.word == "?":
            moment = Moment.of(hand)
            if moment is not None:
                moments.append((taken, moment))
            continue
        try:
            hand.apply(step.action())
        except IllegalAction as error:
            why = error.application
            moment = Moment.of(hand)
            if moment is not None and (taken, moment) not in moments:
                moments.append((taken, moment))
            refusal = Refusal(step, why.text if why else str(error), why.rule if why else "")
            break
        taken += 1
    if refusal is None and not hand.over and not any(n == taken for n, _ in moments):
        moment = Moment.of(hand)
        if moment is not None:
            moments.append((taken, moment))
    return HandRow(
        ruleset=ruleset,
        players=players,
        refusal=refusal,
        moments=tuple(moments),
        facts=_facts(hand),
        events=tuple(hand.events),
        payments=tuple(hand.payments),
        pool_at_start=hand.pool_at_start,
        pool=hand.pool,
        looed=tuple(hand.looed),
        over=hand.over,
        outcome=hand.outcome,
        unplayed=tuple(unplayed),
        dealt=dealt,
        dealt_miss=dealt_miss,
        turn_up=hand.turn_up,
    )


def _refused_deal(ruleset: Ruleset, players: int, text: str) -> HandRow:
    return HandRow(
        ruleset=ruleset,
        players=players,
        refusal=Refusal(None, text[:1].upper() + text[1:] + ".", "players"),
        moments=(),
        facts=(),
        events=(),
        payments=(),
        pool_at_start=0,
        pool=0,
        looed=(),
        over=False,
        outcome="",
        unplayed=(),
        dealt=(),
        dealt_miss=None,
        turn_up=None,
    )


def _facts(hand: Hand) -> tuple[Fact, ...]:
    facts = []
    if hand.single:
        facts.append(Fact("The pool holds the fresh stake alone: it is a single.", "single"))
    if hand.double:
        facts.append(
            Fact("The pool holds counters carried over from the last hand: a double.", "double")
        )
    return tuple(facts)


def _check_playable(rows: Sequence[HandRow], steps: Sequence[Step]) -> None:
    """An example must be playable under at least one of its rule sets, to its last step."""
    if all(row.refusal is not None for row in rows):
        first = rows[0].refusal
        assert first is not None
        where = f"step {first.step.number} ({first.step.text!r})" if first.step else "the deal"
        raise ExampleError(
            f"the engine refuses this hand under every rule set: under {rows[0].ruleset.preset}, "
            f"{where}: {first.text}"
        )
    for step in steps:
        if step.word == "?":
            continue
        shown = [r for r in rows if step.applies(r.ruleset.preset)]
        if shown and all(step.number in r.unplayed for r in shown):
            raise ExampleError(
                f"step {step.number} ({step.text!r}) comes after the end of the hand under every "
                "rule set"
            )
