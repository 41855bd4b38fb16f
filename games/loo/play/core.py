"""What card play is about: the trumps of a deal and the order of the cards, a position (one
player about to play), the rule applications that narrow his cards, his legal moves, and the
notebook the explaining path writes them in. The rules themselves are in :mod:`.leading` and
:mod:`.following`; the words they share are here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, NamedTuple

from ..cards import PACK, SUIT_NAMES, Card, card
from ..catalogue import rule as catalogue_rule
from ..errors import PositionError
from ..messages import PLAYER, Message, MessageError, Names, message_from_dict, msg, render
from ..messages import text as plain
from ..rulesets import HAND_SIZE, RuleSet

PAM_VALUE: Final = 15


class Trumps:
    """What is a trump in one hand: the trump suit and, in five-card Loo, Pam.

    One instance per (game, Pam option, trump suit), with per-card tables for the hot paths.
    """

    __slots__ = (
        "suit",
        "pam",
        "suit_of_card",
        "rank_of_card",
        "power_by_led",
        "members",
        "above",
        "stronger",
        "ace",
        "king",
        "_order",
        "following",
    )

    suit: str
    pam: Card | None
    #: The suit each card belongs to for following and trumping (Pam is a trump).
    suit_of_card: dict[Card, str]
    #: Rank within its suit, Pam above the ace.
    rank_of_card: dict[Card, int]
    #: For each suit that can be led, every card's :meth:`power` in a trick led in it.
    power_by_led: dict[str, dict[Card, int]]
    #: The cards that belong to each suit for following and trumping (Pam with the trumps).
    members: dict[str, frozenset[Card]]
    #: For each card, the cards of its suit (as ``members`` has it) that rank above it.
    above: dict[Card, frozenset[Card]]
    #: For each suit led and each power a card can have in it, the cards of greater power.
    stronger: dict[str, dict[int, frozenset[Card]]]
    #: The ace and king of the trump suit (the lead rules name them).
    ace: Card
    king: Card
    _order: tuple[Card, ...]
    #: For each suit led, what following reads at every decision, in one look-up:
    #: ``(power_by_led[led], members[led], stronger[led])``.
    following: dict[str, tuple[dict[Card, int], frozenset[Card], dict[int, frozenset[Card]]]]

    def __init__(self, suit: str, pam: Card | None) -> None:
        self.suit = suit
        self.pam = pam
        self.suit_of_card = {c: suit if c is pam else c.suit for c in PACK}
        self.rank_of_card = {c: PAM_VALUE if c is pam else c.value for c in PACK}
        self.power_by_led = {led: {c: self._power(c, led) for c in PACK} for led in SUIT_NAMES}
        suit_of, rank = self.suit_of_card, self.rank_of_card
        self.members = {s: frozenset(c for c in PACK if suit_of[c] == s) for s in SUIT_NAMES}
        self.above = {
            c: frozenset(d for d in self.members[suit_of[c]] if rank[d] > rank[c]) for c in PACK
        }
        self.stronger = {
            led: {v: frozenset(c for c in PACK if power[c] > v) for v in set(power.values())}
            for led, power in self.power_by_led.items()
        }
        self.ace = card("A" + suit)
        self.king = card("K" + suit)
        ranked = [card(r + suit) for r in "AKQJT98765432"]
        if pam is not None:
            ranked = [pam] + [c for c in ranked if c is not pam]
        self._order = tuple(ranked)
        self.following = {
            led: (self.power_by_led[led], self.members[led], self.stronger[led])
            for led in SUIT_NAMES
        }

    def __repr__(self) -> str:
        return f"Trumps({self.suit!r}, pam={self.pam!r})"

    @staticmethod
    def of(game: str, rules: RuleSet, trump: str) -> Trumps:
        if game != "five-card":
            return _trumps(trump, None)
        return _trumps(trump, "JC" if rules.pam == "club-knave" else "J" + trump)

    def suit_of(self, c: Card) -> str:
        """The suit a card belongs to for following and trumping (Pam is a trump)."""
        return self.suit_of_card[c]

    def is_trump(self, c: Card) -> bool:
        return self.suit_of_card[c] == self.suit

    def rank(self, c: Card) -> int:
        """Rank within its suit, Pam above the ace."""
        return self.rank_of_card[c]

    def power(self, c: Card, led: str) -> int:
        """How strongly ``c`` plays in a trick whose led suit is ``led`` (0: cannot win)."""
        return self.power_by_led[led][c]

    def _power(self, c: Card, led: str) -> int:
        suit = self.suit_of_card[c]
        if suit == self.suit:
            return 100 + self.rank_of_card[c]
        if suit == led:
            return self.rank_of_card[c]
        return 0

    def order(self) -> list[Card]:
        """Every trump of the pack, highest first (Pam, then the ace of trumps, ...)."""
        return list(self._order)

    def name(self, c: Card) -> str:
        return f"Pam ({c.display})" if c is self.pam else c.display


@cache
def _trumps(suit: str, pam: str | None) -> Trumps:
    return Trumps(suit, card(pam) if pam else None)


def winning_index(trick: Sequence[Card], trumps: Trumps) -> int:
    """Index of the card now winning ``trick`` (the first card if it is alone)."""
    power = trumps.power_by_led[trumps.suit_of_card[trick[0]]]
    # The first card has power in its own suit, so it beats 0. (A plain loop with a counter:
    # cheaper than range and indexing for a handful of cards; called once a trick.)
    best = i = best_power = 0
    for c in trick:
        p = power[c]
        if p > best_power:
            best = i
            best_power = p
        i += 1  # noqa: SIM113 (enumerate costs more here, see above)
    return best


@dataclass(slots=True)
class RuleApplication:
    """One rule applied to a position: its id, the sentence that says so (a
    :class:`~games.loo.messages.Message`), and the cards it excluded."""

    rule: str
    message: Message
    excluded: tuple[Card, ...] = ()

    @property
    def text(self) -> str:
        """The sentence as the player to move of a bare position reads it ("You must …"); a
        hand's seats are in the third person (:meth:`render` for another point of view)."""
        return render(self.message)

    def render(self, viewer: int | None = PLAYER, names: Names = None) -> str:
        return render(self.message, viewer, names)

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "text": self.text,
            "excluded": [c.code for c in self.excluded],
            "message": self.message.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleApplication:
        """What :meth:`to_dict` wrote; an old form without ``message`` keeps its text."""
        message = (
            message_from_dict(data["message"]) if "message" in data else plain(str(data["text"]))
        )
        return cls(str(data["rule"]), message, tuple(card(c) for c in data.get("excluded", ())))

    @property
    def rule_name(self) -> str:
        return catalogue_rule(self.rule).name


class IllegalPlay(MessageError):
    """A card that may not be played; ``application`` is the rule that forbids it."""

    def __init__(self, played: Card, application: RuleApplication | None, message: Message) -> None:
        super().__init__(message)
        self.card = played
        self.application = application


class _PositionFields(NamedTuple):
    game: str
    rules: RuleSet
    trump: str
    hand: tuple[Card, ...]
    trick: tuple[Card, ...] = ()
    turn_up: Card | None = None
    declared: int = 2
    trick_number: int = 1
    pam_be_civil: bool = False
    #: Cards played to earlier tricks of this hand (they stay face up; RULES.md A9).
    played: tuple[Card, ...] = ()
    #: What is a trump here: derived from the game, the rules and the trump suit.
    trumps: Trumps = None  # type: ignore[assignment]  # always set by Position


class Position(_PositionFields):
    """One player about to play a card. ``trick`` holds the cards already played to it.

    Immutable. A tuple underneath, so that the engine can make one at every decision cheaply
    (:meth:`trusted`); build one by keyword, as a dataclass: ``Position(game=..., ...)``.
    """

    __slots__ = ()

    def __new__(
        cls,
        game: str,
        rules: RuleSet,
        trump: str,
        hand: tuple[Card, ...],
        trick: tuple[Card, ...] = (),
        turn_up: Card | None = None,
        declared: int = 2,
        trick_number: int = 1,
        pam_be_civil: bool = False,
        played: tuple[Card, ...] = (),
        trumps: Trumps | None = None,  # ignored: derived again (for copy and pickle)
    ) -> Position:
        fields = (game, rules, trump, hand, trick, turn_up, declared, trick_number, pam_be_civil)
        validate_position(_new_tuple(cls, (*fields, played, None)))
        return _new_tuple(cls, (*fields, played, Trumps.of(game, rules, trump)))

    def __repr__(self) -> str:
        return (
            f"Position(game={self.game!r}, rules={self.rules!r}, trump={self.trump!r}, "
            f"hand={self.hand!r}, trick={self.trick!r}, turn_up={self.turn_up!r}, "
            f"declared={self.declared!r}, trick_number={self.trick_number!r}, "
            f"pam_be_civil={self.pam_be_civil!r}, played={self.played!r})"
        )

    @classmethod
    def trusted(
        cls,
        game: str,
        rules: RuleSet,
        trumps: Trumps,
        hand: tuple[Card, ...],
        trick: tuple[Card, ...],
        turn_up: Card | None,
        declared: int,
        trick_number: int,
        pam_be_civil: bool,
        played: tuple[Card, ...],
    ) -> Position:
        """A position the engine built itself from a consistent hand: not validated again."""
        return _new_tuple(
            cls,
            (
                game,
                rules,
                trumps.suit,
                hand,
                trick,
                turn_up,
                declared,
                trick_number,
                pam_be_civil,
                played,
                trumps,
            ),
        )

    @property
    def leading(self) -> bool:
        return not self.trick


#: ``tuple.__new__``: a Position from its fields at once, without a Python call.
_new_tuple: Final = tuple.__new__


def validate_position(p: Position) -> None:
    p.rules.require_game(p.game)
    if p.trump not in SUIT_NAMES:
        raise PositionError(f"unknown trump suit {p.trump!r}: use one of S, H, D, C")
    if p.turn_up is not None and p.turn_up.suit != p.trump:
        raise PositionError(
            f"the turn-up {p.turn_up.code} fixes trumps as {SUIT_NAMES[p.turn_up.suit]}, "
            f"not {SUIT_NAMES[p.trump]}"
        )
    size = HAND_SIZE[p.game]
    if not 1 <= p.trick_number <= size:
        raise PositionError(
            f"trick_number must be between 1 and {size} in {p.game} Loo, not {p.trick_number}"
        )
    expected = size - (p.trick_number - 1)
    if len(p.hand) != expected:
        raise PositionError(
            f"at trick {p.trick_number} of {p.game} Loo a hand holds {expected} "
            f"card{'s' if expected != 1 else ''}, not {len(p.hand)}"
        )
    most = 16 if p.game != "five-card" else 10
    if not 2 <= p.declared <= most:
        raise PositionError(
            f"declared must count the players in the play: between 2 and {most}, not {p.declared}"
        )
    if len(p.trick) >= p.declared:
        raise PositionError(
            f"the trick already holds {len(p.trick)} cards but only {p.declared} players "
            "are in the play"
        )
    if len(p.played) > (p.trick_number - 1) * p.declared:
        raise PositionError(
            f"{len(p.played)} cards cannot have been played before trick {p.trick_number} "
            f"by {p.declared} players"
        )
    seen: dict[Card, str] = {}
    places: list[tuple[str, Iterable[Card]]] = [
        ("hand", p.hand),
        ("trick", p.trick),
        ("turn-up", [p.turn_up] if p.turn_up else []),
        ("cards played earlier", p.played),
    ]
    for where, cards in places:
        for c in cards:
            if c in seen:
                if seen[c] == where:
                    raise PositionError(f"{c.code} appears twice in the {where}")
                raise PositionError(f"{c.code} cannot be both in the {seen[c]} and the {where}")
            seen[c] = where
    if p.pam_be_civil:
        if p.game != "five-card":
            raise PositionError('"Pam, be civil" is called only in five-card Loo')
        if not p.trick or p.trick[0] != card("A" + p.trump):
            raise PositionError(
                '"Pam, be civil" is called only when the ace of trumps is led to this trick'
            )


@dataclass(slots=True)
class LegalMoves:
    """The answer of :func:`legal`."""

    position: Position
    legal: tuple[Card, ...]
    explanations: tuple[RuleApplication, ...]
    notes: tuple[RuleApplication, ...] = ()
    #: The seat of the player these moves are for (:data:`PLAYER`: a bare position's).
    seat: int = PLAYER

    def why_not(self, c: Card) -> RuleApplication | None:
        """The first rule application that excluded ``c`` (None if ``c`` is legal)."""
        if c in self.legal:
            return None
        for app in self.explanations:
            if c in app.excluded:
                return app
        return None

    def check(self, c: Card) -> None:
        """Raise :class:`IllegalPlay` if ``c`` may not be played."""
        if c not in self.position.hand:
            raise IllegalPlay(c, None, msg("error.not-held", p=self.seat, card=c))
        app = self.why_not(c)
        if app is not None:
            raise IllegalPlay(c, app, msg("error.forbidden", card=c, why=app.message))

    def to_dict(self) -> dict[str, object]:
        return {
            "legal": [c.code for c in self.legal],
            "explanations": [a.to_dict() for a in self.explanations],
            "notes": [
                {"rule": a.rule, "text": a.text, "message": a.message.to_dict()} for a in self.notes
            ],
        }


def quiet_moves(p: Position, cards: tuple[Card, ...]) -> LegalMoves:
    """``LegalMoves(p, cards, (), ())``, filled field by field (the quiet path's answer)."""
    moves = _new_object(LegalMoves)
    moves.position = p
    moves.legal = cards
    moves.explanations = moves.notes = ()
    moves.seat = PLAYER
    return moves


#: ``object.__new__``: a slotted dataclass filled field by field, without its ``__init__``.
_new_object: Final = object.__new__


class Reasons:
    """The explaining path's notebook: the position (its sentences name the cards) and the rule
    applications found so far. The quiet path passes None instead and builds no sentence."""

    __slots__ = ("p", "seat", "apps", "notes")

    def __init__(self, p: Position, seat: int = PLAYER) -> None:
        self.p = p
        #: Whose choice it is: the seat the sentences name (:data:`PLAYER` for a bare position).
        self.seat = seat
        self.apps: list[RuleApplication] = []
        self.notes: list[RuleApplication] = []

    def add(self, rule: str, key: str, excluded: tuple[Card, ...] = (), /, **args: Any) -> None:
        """A rule that bound the player: ``key``'s sentence, about him."""
        self.apps.append(RuleApplication(rule, msg(key, p=self.seat, **args), excluded))

    def note(self, rule: str, key: str, /, **args: Any) -> None:
        """A rule considered that did not bind him."""
        self.notes.append(RuleApplication(rule, msg(key, p=self.seat, **args)))

    def moves(self, cards: tuple[Card, ...]) -> LegalMoves:
        return LegalMoves(self.p, cards, tuple(self.apps), tuple(self.notes), self.seat)


# -- the words the rules of leading and following share ---------------------------------------


def cards_but(hand: Sequence[Card], keep: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of ``hand`` a rule excludes: all but the cards in ``keep``, in hand order."""
    kept = set(keep)
    return tuple(c for c in hand if c not in kept)


#: A sentence's optional piece, left out.
NO_WORDS: Final = msg("part.none")


def pam_among(t: Trumps, *cards: Card) -> Card | None:
    """Pam, if it is among ``cards`` (a message names a card "Pam (J♣)" when it is; it names
    Pam only then, so as to name no card the sentence does not show)."""
    return t.pam if t.pam is not None and t.pam in cards else None


def trump_count(trumps_held: Sequence[Card]) -> Message:
    if len(trumps_held) == 1:
        return msg("part.a-trump")
    return msg("part.n-trumps", n=len(trumps_held))
