"""Card play: which cards are legal, and why; who wins a trick.

One function, :func:`legal`, answers for the practice table, the bots, the lessons and the quiz
grader. It returns the legal cards and the rule applications that narrowed them, each with the
rule id, a plain sentence naming the concrete cards, and the cards that rule excluded.

Which rules are cited (``explanations``): on a lead, every lead obligation that binds the leader
(he holds the cards that trigger it), even when it excludes nothing more than another rule
does; when the ace (or king) must be led, the rules that ask for "a trump" or "the highest
trump" are satisfied by it and not cited separately (RULES.md A6). When following, a rule is
cited when it excludes a card. ``notes`` carry rules that were considered and did *not* bind
("the trick is trumped, so no diamond can head it") — useful to a learner, never a restriction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, NamedTuple

from .cards import PACK, SUIT_NAMES, Card, card
from .catalogue import rule as catalogue_rule
from .errors import PositionError
from .messages import PLAYER, Message, MessageError, Names, message_from_dict, msg, render
from .messages import text as plain
from .rulesets import GAMES, HAND_SIZE, RuleSet

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


def _quiet(p: Position, cards: tuple[Card, ...]) -> LegalMoves:
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


def legal(position: Position, *, explain: bool = True, seat: int = PLAYER) -> LegalMoves:
    """The cards the player to move may play, and the rules that decided it (``explain``: the
    sentences too; without them the legal cards are the same). ``seat``: the player's seat,
    for the sentences to name him (by default, "the player": "You" as he reads them)."""
    if position.trick:
        return _legal_follow(position, explain, seat)
    return _legal_lead(position, explain, seat)


# The rules themselves are in :func:`lead_cards` and :func:`follow_cards`, which take plain
# arguments: :func:`legal` calls them with a Position's fields, and the engine's quiet path
# (Hand.choices, thousands of decisions a second in the bots' playouts) calls them with its
# own state, without building a Position or a LegalMoves.


def _legal_lead(p: Position, explain: bool, seat: int = PLAYER) -> LegalMoves:
    why = Reasons(p, seat) if explain else None
    cards = lead_cards(
        p.trumps, p.rules, p.game, p.hand, p.turn_up, p.declared, p.trick_number, p.played, why
    )
    return _quiet(p, cards) if why is None else why.moves(cards)


def _legal_follow(p: Position, explain: bool, seat: int = PLAYER) -> LegalMoves:
    why = Reasons(p, seat) if explain else None
    cards = follow_cards(p.trumps, p.rules, p.hand, p.trick, p.pam_be_civil, why)
    return _quiet(p, cards) if why is None else why.moves(cards)


def check_play(position: Position, played: Card) -> LegalMoves:
    """Raise :class:`IllegalPlay` if ``played`` is illegal; return the legal moves otherwise."""
    moves = legal(position)
    moves.check(played)
    return moves


# -- leading --------------------------------------------------------------------------------


def _others(hand: Sequence[Card], keep: Iterable[Card]) -> tuple[Card, ...]:
    kept = set(keep)
    return tuple(c for c in hand if c not in kept)


def top_sequence(p: Position, trumps_held: Sequence[Card]) -> list[Card]:
    """The leader's highest trump and every held trump of equal value to it (RULES.md A9).

    Two trumps are of equal value when every trump ranked between them is out of play: the
    turn-up, or a card played to an earlier trick.
    """
    return _top_sequence(p.trumps, p.played, p.turn_up, trumps_held)


def _top_sequence(
    t: Trumps, played: Sequence[Card], turn_up: Card | None, trumps_held: Sequence[Card]
) -> list[Card]:
    held = set(trumps_held)
    out = set(played)
    if turn_up is not None:
        out.add(turn_up)
    sequence: list[Card] = []
    for c in t._order:
        if c in held:
            sequence.append(c)
        elif sequence and c not in out:
            break
    return sequence


def lead_cards(
    t: Trumps,
    rules: RuleSet,
    game: str,
    hand: Sequence[Card],
    turn_up: Card | None,
    declared: int,
    trick_number: int,
    played: Sequence[Card],
    why: Reasons | None = None,
) -> tuple[Card, ...]:
    """The cards the leader may lead, in the order of ``hand`` (the fields of a Position without
    a trick); ``why``, on the explaining path, collects the rules that decided it."""
    if len(hand) == 1 and why is None:
        # A last card is always playable (no rule can leave a player nothing to play): the
        # last trick of every hand, without the rules that would say so.
        return tuple(hand)
    trumps = t.members[t.suit]
    trumps_held = []
    for c in hand:
        if c in trumps:
            trumps_held.append(c)
    if not trumps_held and why is None:
        # Every lead rule asks for a trump: without one, any card may be led.
        return tuple(hand)
    if len(trumps_held) > 1:
        trumps_held.sort(key=t.rank_of_card.__getitem__, reverse=True)
    # Each rule narrows the cards allowed to some of the trumps held (None: any card yet).
    allowed: set[Card] | None = None
    scope = rules.lead_scope(game)
    later = trick_number > 1
    bind = scope == "every-lead" or (scope == "first-lead-only" and not later)
    # The sentences' words for a later lead (only on the explaining path).
    scope_words = _EVERY_LEAD if later and bind else _NONE

    # The ace of trumps, or the king when the ace is the turn-up (RULES.md 1.5).
    forced: Card | None = None
    if bind and trumps_held:
        # (Held trumps: the few cards to look through for the ace or the king.)
        ace = t.ace
        if ace in trumps_held:
            forced, rule = ace, "lead-ace-of-trumps"
        elif turn_up is ace and t.king in trumps_held:
            forced, rule = t.king, "lead-king-when-ace-turned"
        if forced is not None:
            keep = {forced}
            if rules.pam_ace_lead == "either" and t.pam is not None and t.pam in hand:
                keep.add(t.pam)
            allowed = keep
            if why is not None:
                _explain_forced(why, rule, forced, keep, scope_words)

    # Two or more trumps; heads-up, the highest (RULES.md 1.5).
    if bind and forced is None and len(trumps_held) >= 2:
        two = rules.two_trumps_rule(game)
        if later and rules.trump_after_trick == "highest" and two == "any-trump":
            # peel's "lead one" replaces "the highest" on the original lead only (A41); trump
            # after trick asks for the highest from trick 2 on.
            two = "highest"
        highest = trumps_held[0]
        if two == "highest":
            allowed = {highest} if allowed is None else allowed & {highest}
            if why is not None:
                why.add(
                    "lead-highest-of-two-or-three",
                    "lead.highest-of-two",
                    _others(hand, [highest]),
                    n=len(trumps_held),
                    held=tuple(trumps_held),
                    highest=highest,
                    pam=_pam(t, *trumps_held),
                    scope=scope_words,
                )
        elif two == "any-trump" or (two == "heads-up-only" and declared == 2):
            allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
            if why is not None:
                why.add(
                    "lead-trump-holding-two",
                    "lead.trump-holding-two",
                    _others(hand, trumps_held),
                    held=tuple(trumps_held),
                    pam=_pam(t, *trumps_held),
                    scope=scope_words,
                )
        elif why is not None:  # heads-up-only, more than two in the play
            why.note("irish-loo", "note.irish-two-trumps", n=declared)
        threshold = rules.heads_up_threshold
        if two != "highest" and threshold != "n/a" and declared <= int(threshold):
            if rules.heads_up_sequence_exception == "on":
                seq = _top_sequence(t, played, turn_up, trumps_held)
            else:
                seq = [highest]
            allowed = set(seq) if allowed is None else allowed & set(seq)
            if why is not None:
                counted = {"n": declared} if declared != 2 else {}
                why.add(
                    "lead-highest-trump-heads-up",
                    "lead.heads-up-two" if declared == 2 else "lead.heads-up",
                    _others(hand, seq),
                    **counted,
                    highest=highest,
                    pam=_pam(t, highest),
                    equal=_equal_value_words(why.p, seq) if len(seq) > 1 else msg("part.none"),
                )

    # Trump after trick (RULES.md 1.5): from trick 2 on, independent of the lead scope.
    if later and trumps_held and rules.trump_after_trick != "off":
        if rules.trump_after_trick == "highest" and forced is None:
            highest = trumps_held[0]
            allowed = {highest} if allowed is None else allowed & {highest}
            if why is not None:
                _explain_trump_after_trick(why, t, hand, trumps_held, True)
        else:
            allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
            if why is not None:
                _explain_trump_after_trick(why, t, hand, trumps_held, False)
    elif later and trumps_held and not bind and why is not None:
        why.note("trump-after-trick", "note.no-trump-after-trick")
    if why is not None and not bind and not later and scope == "none":
        why.note("lead-rules-scope", "note.first-lead-free", game=game)

    if allowed is None:
        legal_cards = tuple(hand)
    else:
        # (A plain loop: filter with a set's __contains__ costs more for a handful of cards.)
        kept = []
        for c in hand:
            if c in allowed:
                kept.append(c)
        legal_cards = tuple(kept)
    if why is not None and len(hand) == 1 and not why.apps:
        why.add("elder-leads-first", "lead.last-card", card=hand[0])
    return legal_cards


def _explain_trump_after_trick(
    why: Reasons, t: Trumps, hand: Sequence[Card], trumps_held: list[Card], highest: bool
) -> None:
    """Trump after trick: lead the highest trump (``highest``) or any trump; with one trump
    they are the same card."""
    if len(trumps_held) == 1:
        (only,) = trumps_held
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick-one",
            _others(hand, trumps_held),
            trump=only,
            pam=_pam(t, only),
        )
    elif highest:
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick-highest",
            _others(hand, trumps_held[:1]),
            count=_trump_count(trumps_held),
            highest=trumps_held[0],
            pam=_pam(t, trumps_held[0]),
        )
    else:
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick",
            _others(hand, trumps_held),
            count=_trump_count(trumps_held),
            held=tuple(trumps_held),
            pam=_pam(t, *trumps_held),
        )


def _explain_forced(why: Reasons, rule: str, forced: Card, keep: set[Card], scope: Message) -> None:
    t = why.p.trumps
    pam = t.pam
    if pam is not None and pam in keep:
        tail = msg("part.or-pam", pam=pam)
    elif pam is not None and pam in why.p.hand:
        tail = msg("part.ace-over-pam", pam=pam)
    else:
        tail = msg("part.end")
    excluded = _others(why.p.hand, keep)
    if forced.rank == "A":
        why.add(rule, "lead.ace", excluded, card=forced, scope=scope, tail=tail)
    else:
        why.add(
            rule, "lead.king-ace-turned", excluded, card=forced, ace=t.ace, scope=scope, tail=tail
        )


_EVERY_LEAD: Final = msg("part.every-lead")
_NONE: Final = msg("part.none")


def _pam(t: Trumps, *cards: Card) -> Card | None:
    """Pam, if it is among ``cards`` (a message names a card "Pam (J♣)" when it is; it names
    Pam only then, so as to name no card the sentence does not show)."""
    return t.pam if t.pam is not None and t.pam in cards else None


def _trump_count(trumps_held: Sequence[Card]) -> Message:
    if len(trumps_held) == 1:
        return msg("part.a-trump")
    return msg("part.n-trumps", n=len(trumps_held))


def _equal_value_words(p: Position, seq: Sequence[Card]) -> Message:
    t = p.trumps
    order = t.order()
    rest = seq[1:]
    gaps = [c for c in order[order.index(seq[0]) : order.index(seq[-1]) + 1] if c not in set(seq)]
    if not gaps:
        why = msg("part.in-sequence")
    else:
        turned = p.turn_up is not None and p.turn_up in gaps
        played = tuple(c for c in gaps if c is not p.turn_up)
        if turned and played:
            why = msg("part.equal-turn-up-played", turn_up=p.turn_up, played=played)
        elif turned:
            why = msg("part.equal-turn-up", turn_up=p.turn_up)
        else:
            why = msg("part.equal-played", played=played)
    return msg("part.equal-value", rest=tuple(rest), pam=_pam(t, *rest), why=why)


# -- following ------------------------------------------------------------------------------


def follow_cards(
    t: Trumps,
    rules: RuleSet,
    hand: Sequence[Card],
    trick: Sequence[Card],
    pam_be_civil: bool = False,
    why: Reasons | None = None,
) -> tuple[Card, ...]:
    """The cards the player may play to ``trick`` (not empty), in the order of ``hand`` (the
    fields of a Position); ``why``, on the explaining path, collects the rules that decided it."""
    if len(hand) == 1 and why is None:
        return tuple(hand)  # a last card is always playable (as in lead_cards)
    suit_of = t.suit_of_card
    lead_card = trick[0]
    led = suit_of[lead_card]
    power, of_led, stronger_than = t.following[led]
    # The power of the card now winning the trick (see winning_index), and what beats it.
    # (Plain loops: for a handful of cards they cost less than map, filter or a comprehension.)
    to_beat = 0
    for c in trick:
        v = power[c]
        if v > to_beat:
            to_beat = v
    stronger = stronger_than[to_beat]
    # Trumped: a plain suit led and a trump played (every trump outranks every plain card).
    trumped = to_beat > 100 and led != t.suit
    # Heading: beat every card of the suit led (which, untrumped, is the winning card); once
    # the trick is trumped, only under beat-led-suit (beat-winning-card: no card of the suit led
    # can head it).
    target = lead_card
    if not trumped:
        beats = stronger
    elif rules.head_scope == "beat-led-suit":
        target = max((c for c in trick if suit_of[c] == led), key=power.__getitem__)
        beats = t.above[target]
    else:
        beats = _NOTHING
    followers = []
    heading = []
    for c in hand:
        if c in of_led:
            followers.append(c)
            if c in beats:
                heading.append(c)
    if not followers:
        # No card of the suit led: must he trump, or overtrump? (A trump heads the trick when
        # it beats the winning card.)
        trumps = t.members[t.suit]
        trumps_held = []
        heading = []
        for c in hand:
            if c in trumps:
                trumps_held.append(c)
                if c in stronger:
                    heading.append(c)
        legal_cards: Sequence[Card] = hand
        rule = ""
        if trumps_held:
            if heading:
                legal_cards = heading
                rule = "must-overtrump" if trumped else "must-trump"
            elif rules.void_trump == "always":
                legal_cards = trumps_held
                rule = "must-trump"
        if why is not None:
            _explain_void(why, t, hand, trick, led, legal_cards, trumps_held, rule)
        return tuple(legal_cards)

    pam = t.pam
    if why is not None:
        # A club led, clubs not trumps: Pam belongs to the trumps, not to clubs (RULES.md A3).
        pam_excluded = pam is not None and pam in hand and pam.suit == led and led != t.suit
        if pam_excluded and pam is not None:
            why.add(
                "pam-identity",
                "follow.pam-identity",
                (pam,),
                pam=pam,
                led=led,
                lead=lead_card,
                followers=tuple(followers),
            )
        plain_excluded = tuple(
            c for c in hand if suit_of[c] != led and not (pam_excluded and c is pam)
        )
        if plain_excluded:
            led_words = _led_words(t, lead_card)
            if lead_card is pam and _source_states(rules, "pam-led-trump-must-be-played"):
                why.add(
                    "pam-led-trump-must-be-played",
                    "follow.trump-to-pam",
                    plain_excluded,
                    led=led_words,
                    followers=tuple(followers),
                )
            why.add(
                "follow-suit",
                "follow.suit",
                plain_excluded,
                led=led_words,
                followers=tuple(followers),
                excluded=plain_excluded,
            )

    candidates = followers
    if pam_be_civil and pam is not None and pam in followers:
        others = [c for c in followers if c is not pam]
        if others:
            candidates = others
            if why is not None:
                key = (
                    "follow.civil-pass"
                    if rules.pam_be_civil == "pass-without-revoke"
                    else "follow.civil"
                )
                why.add("pam-be-civil", key, (pam,), ace=trick[0], pam=pam, others=tuple(others))
        elif why is not None:
            why.note("pam-be-civil", "note.civil-only-trump", pam=pam)
    elif heading and len(heading) < len(followers):
        candidates = heading
        if why is not None:
            # Untrumped, the card to head is the winning one.
            if not trumped:
                target = trick[winning_index(trick, t)]
            beaten = _others(followers, heading)
            why.add(
                "head-the-trick",
                "follow.head" if target is lead_card else "follow.head-card",
                beaten,
                heading=tuple(heading),
                target=target,
                pam=_pam(t, target, *heading),
                beaten=beaten,
                tail=msg("part.head-trumped" if trumped else "part.end"),
            )
    elif why is not None and trumped and rules.head_scope != "beat-led-suit":
        win = trick[winning_index(trick, t)]
        why.note("head-the-trick", "note.trumped-no-head", win=win, led=led)

    if why is not None and len(hand) == 1 and not why.apps:
        why.add("follow-suit", "follow.last-card", card=hand[0], lead=lead_card)
    return tuple(candidates)


#: No card: what heads a trick that no card of the suit led can head.
_NOTHING: Final[frozenset[Card]] = frozenset()


def _led_words(t: Trumps, lead_card: Card) -> Message:
    if lead_card is t.pam:
        return msg("part.pam-led", card=lead_card)
    suit = t.suit_of_card[lead_card]
    if suit == t.suit:
        return msg("part.trumps-led", card=lead_card)
    return msg("part.suit-led", suit=suit, card=lead_card)


def _explain_void(
    why: Reasons,
    t: Trumps,
    hand: Sequence[Card],
    trick: Sequence[Card],
    led: str,
    legal_cards: Sequence[Card],
    trumps_held: list[Card],
    rule: str,
) -> None:
    """The sentences for a player who holds no card of the suit led (:func:`follow_cards` has
    decided ``legal_cards`` and the ``rule`` that bound him, if any)."""
    win = trick[winning_index(trick, t)]
    excluded = _others(hand, legal_cards)
    always = legal_cards is trumps_held
    legal_cards = tuple(legal_cards)
    held = tuple(trumps_held)
    # Holding Pam of the suit led, he has "no clubs" because Pam is a trump: say so (A3).
    pam = t.pam
    if pam is not None and pam in hand and pam.suit == led and led != t.suit:
        aside = msg("part.pam-is-trump", pam=pam, suit=led)
    else:
        aside = _NONE
    if excluded and rule == "must-overtrump":
        why.add(
            rule,
            "void.overtrump",
            excluded,
            led=led,
            aside=aside,
            win=win,
            pam=_pam(t, win, *legal_cards),
            legal=legal_cards,
        )
    elif excluded and always:
        count = _trump_count(trumps_held)
        why.add(
            rule,
            "void.trump-always",
            excluded,
            led=led,
            aside=aside,
            count=count,
            held=held,
            win=win,
            pam=_pam(t, win, *held),
        )
    elif excluded:
        why.add(
            rule,
            "void.must-trump",
            excluded,
            led=led,
            aside=aside,
            legal=legal_cards,
            pam=_pam(t, *legal_cards),
        )
    elif trumps_held and not rule:
        why.note(
            "must-trump",
            "note.void-trumps-too-low",
            led=led,
            aside=aside,
            held=held,
            win=win,
            pam=_pam(t, win, *held),
        )
    if len(hand) == 1 and not why.apps:
        why.add("follow-suit", "void.last-card", led=led, aside=aside, card=hand[0])


def _source_states(rules: RuleSet, rule_id: str) -> bool:
    """Whether the source a rule set follows states ``rule_id`` (not merely implies it)."""
    return catalogue_rule(rule_id).source(rules.source).status == "states"


# -- the trick ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrickResult:
    winner: int
    card: Card
    explanations: tuple[RuleApplication, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "card": self.card.code,
            "explanations": [a.to_dict() for a in self.explanations],
        }


def trick_winner(
    game: str, rules: RuleSet, trump: str, trick: Sequence[Card], *, explain: bool = True
) -> TrickResult:
    """Who takes a complete (or partial) trick, and why."""
    if game not in GAMES:
        raise PositionError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    if trump not in SUIT_NAMES:
        raise PositionError(f"unknown trump suit {trump!r}: use one of S, H, D, C")
    if len(trick) < 2:
        raise PositionError("a trick needs at least two cards to have a winner")
    most = 16 if game != "five-card" else 10
    if len(trick) > most:
        raise PositionError(f"a trick of {game} Loo holds at most {most} cards")
    if len(set(trick)) != len(trick):
        dup = next(c for c in trick if trick.count(c) > 1)
        raise PositionError(f"{dup.code} appears twice in the trick")
    t = Trumps.of(game, rules, trump)
    i = winning_index(trick, t)
    win = trick[i]
    led = t.suit_of(trick[0])
    apps: list[RuleApplication] = []
    if not explain:
        return TrickResult(i, win, ())
    if win is t.pam:
        apps.append(RuleApplication("pam-highest-trump", msg("trick.pam", win=win)))
    elif t.is_trump(win):
        key = "trick.trumps-led" if led == t.suit else "trick.trumped"
        apps.append(RuleApplication("trick-winner", msg(key, win=win)))
    else:
        apps.append(RuleApplication("trick-winner", msg("trick.highest", led=led, win=win)))
    if t.pam is not None and t.pam in trick and led == t.pam.suit != t.suit:
        apps.append(
            RuleApplication("pam-identity", msg("trick.pam-identity", pam=t.pam, suit=t.pam.suit))
        )
    return TrickResult(i, win, tuple(apps))
