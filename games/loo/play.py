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
from typing import Final, NamedTuple

from .cards import PACK, SUIT_NAMES, SUIT_SINGULAR, Card, card, displays
from .catalogue import rule as catalogue_rule
from .errors import LooError, PositionError
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
    """One rule applied to a position: its id, a plain sentence, and the cards it excluded."""

    rule: str
    text: str
    excluded: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "text": self.text, "excluded": [c.code for c in self.excluded]}

    @property
    def rule_name(self) -> str:
        return catalogue_rule(self.rule).name


class IllegalPlay(LooError):
    """A card that may not be played; ``application`` is the rule that forbids it."""

    def __init__(self, played: Card, application: RuleApplication | None, message: str) -> None:
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
            raise IllegalPlay(c, None, f"You do not hold the {c.display}.")
        app = self.why_not(c)
        if app is not None:
            raise IllegalPlay(c, app, f"The {c.display} may not be played. {app.text}")

    def to_dict(self) -> dict[str, object]:
        return {
            "legal": [c.code for c in self.legal],
            "explanations": [a.to_dict() for a in self.explanations],
            "notes": [{"rule": a.rule, "text": a.text} for a in self.notes],
        }


def _quiet(p: Position, cards: tuple[Card, ...]) -> LegalMoves:
    """``LegalMoves(p, cards, (), ())``, filled field by field (the quiet path's answer)."""
    moves = _new_object(LegalMoves)
    moves.position = p
    moves.legal = cards
    moves.explanations = moves.notes = ()
    return moves


#: ``object.__new__``: a slotted dataclass filled field by field, without its ``__init__``.
_new_object: Final = object.__new__


class Reasons:
    """The explaining path's notebook: the position (its sentences name the cards) and the rule
    applications found so far. The quiet path passes None instead and builds no sentence."""

    __slots__ = ("p", "apps", "notes")

    def __init__(self, p: Position) -> None:
        self.p = p
        self.apps: list[RuleApplication] = []
        self.notes: list[RuleApplication] = []

    def moves(self, cards: tuple[Card, ...]) -> LegalMoves:
        return LegalMoves(self.p, cards, tuple(self.apps), tuple(self.notes))


def legal(position: Position, *, explain: bool = True) -> LegalMoves:
    """The cards the player to move may play, and the rules that decided it (``explain``: the
    sentences too; without them the legal cards are the same)."""
    if position.trick:
        return _legal_follow(position, explain)
    return _legal_lead(position, explain)


# The rules themselves are in :func:`lead_cards` and :func:`follow_cards`, which take plain
# arguments: :func:`legal` calls them with a Position's fields, and the engine's quiet path
# (Hand.choices, thousands of decisions a second in the bots' playouts) calls them with its
# own state, without building a Position or a LegalMoves.


def _legal_lead(p: Position, explain: bool) -> LegalMoves:
    why = Reasons(p) if explain else None
    cards = lead_cards(
        p.trumps, p.rules, p.game, p.hand, p.turn_up, p.declared, p.trick_number, p.played, why
    )
    return _quiet(p, cards) if why is None else why.moves(cards)


def _legal_follow(p: Position, explain: bool) -> LegalMoves:
    why = Reasons(p) if explain else None
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
    scope_words = " (the lead rules bind every lead)" if later and bind else ""

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
                why.apps.append(
                    RuleApplication(
                        rule, _forced_text(why.p, forced, keep, scope_words), _others(hand, keep)
                    )
                )

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
                why.apps.append(
                    RuleApplication(
                        "lead-highest-of-two-or-three",
                        f"You hold {len(trumps_held)} trumps ({displays(trumps_held)}), so you "
                        f"must lead the highest, {t.name(highest)}{scope_words}.",
                        _others(hand, [highest]),
                    )
                )
        elif two == "any-trump" or (two == "heads-up-only" and declared == 2):
            allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
            if why is not None:
                why.apps.append(
                    RuleApplication(
                        "lead-trump-holding-two",
                        f"You hold two or more trumps ({displays(trumps_held)}), so you must "
                        f"lead one of them{scope_words}.",
                        _others(hand, trumps_held),
                    )
                )
        elif why is not None:  # heads-up-only, more than two in the play
            why.notes.append(
                RuleApplication(
                    "irish-loo",
                    "At Irish Loo two trumps oblige a trump lead only when two players are in; "
                    f"{declared} are, so you may lead any card.",
                )
            )
        threshold = rules.heads_up_threshold
        if two != "highest" and threshold != "n/a" and declared <= int(threshold):
            if rules.heads_up_sequence_exception == "on":
                seq = _top_sequence(t, played, turn_up, trumps_held)
            else:
                seq = [highest]
            allowed = set(seq) if allowed is None else allowed & set(seq)
            if why is not None:
                who = "Only two players are" if declared == 2 else f"Only {declared} players are"
                text = (
                    f"{who} in the play and you hold two or more trumps, so you must lead your "
                    f"highest, {t.name(highest)}"
                )
                if len(seq) > 1:
                    text += _equal_value_words(why.p, seq)
                why.apps.append(
                    RuleApplication("lead-highest-trump-heads-up", text + ".", _others(hand, seq))
                )

    # Trump after trick (RULES.md 1.5): from trick 2 on, independent of the lead scope.
    if later and trumps_held and rules.trump_after_trick != "off":
        if rules.trump_after_trick == "highest" and forced is None:
            highest = trumps_held[0]
            allowed = {highest} if allowed is None else allowed & {highest}
            if why is not None:
                why.apps.append(
                    RuleApplication(
                        "trump-after-trick",
                        f"Trump after trick: you won the last trick and hold "
                        f"{_trump_count(trumps_held)}, so you must lead your highest trump, "
                        f"{t.name(highest)}.",
                        _others(hand, [highest]),
                    )
                )
        else:
            allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
            if why is not None:
                why.apps.append(
                    RuleApplication(
                        "trump-after-trick",
                        f"Trump after trick: you won the last trick and hold "
                        f"{_trump_count(trumps_held)} ({displays(trumps_held)}), so you must lead "
                        "a trump.",
                        _others(hand, trumps_held),
                    )
                )
    elif later and trumps_held and not bind and why is not None:
        why.notes.append(
            RuleApplication(
                "trump-after-trick",
                "These rules have no trump after trick, and their lead rules do not bind this "
                "lead, so you may lead any card.",
            )
        )
    if why is not None and not bind and not later and scope == "none":
        why.notes.append(
            RuleApplication(
                "lead-rules-scope",
                f"These rules put no obligation on the first lead at {game} Loo: you may lead "
                "any card.",
            )
        )

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
        why.apps.append(
            RuleApplication(
                "elder-leads-first",
                f"You won the last trick, so you lead; the {hand[0].display} is your last card.",
            )
        )
    return legal_cards


def _forced_text(p: Position, forced: Card, keep: set[Card], scope_words: str) -> str:
    t = p.trumps
    if forced.rank == "A":
        text = f"You hold the ace of trumps ({forced.display}), so you must lead it{scope_words}."
    else:
        text = (
            f"The ace of trumps ({card('A' + t.suit).display}) is the turn-up and you hold the "
            f"king ({forced.display}), so you must lead it{scope_words}."
        )
    if t.pam is not None and t.pam in keep:
        return text[:-1] + f", or Pam ({t.pam.display}) instead."
    if t.pam is not None and t.pam in p.hand:
        text += (
            f" It must be led even though Pam ({t.pam.display}) ranks higher: the ace rule "
            "prevails over the rules that ask for the highest trump."
        )
    return text


def _trump_count(trumps_held: Sequence[Card]) -> str:
    return "a trump" if len(trumps_held) == 1 else f"{len(trumps_held)} trumps"


def _equal_value_words(p: Position, seq: Sequence[Card]) -> str:
    t = p.trumps
    order = t.order()
    rest = seq[1:]
    gaps = [c for c in order[order.index(seq[0]) : order.index(seq[-1]) + 1] if c not in set(seq)]
    if not gaps:
        why = "they are in sequence"
    else:
        parts = []
        if p.turn_up in gaps and p.turn_up is not None:
            parts.append(f"the {p.turn_up.display} between them is the turn-up")
        played = [c for c in gaps if c is not p.turn_up]
        if played:
            parts.append(f"the {displays(played)} between them {_was(played)} played")
        why = "they are of equal value: " + " and ".join(parts)
    names = [t.name(c) for c in rest]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" — or {listed}, since {why}"


def _was(cards: Sequence[Card]) -> str:
    return "was" if len(cards) == 1 else "were"


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
        apps = why.apps
        # A club led, clubs not trumps: Pam belongs to the trumps, not to clubs (RULES.md A3).
        pam_excluded = pam is not None and pam in hand and pam.suit == led and led != t.suit
        if pam_excluded and pam is not None:
            apps.append(
                RuleApplication(
                    "pam-identity",
                    f"Pam ({pam.display}) belongs to the trump suit, not to {SUIT_NAMES[led]}: "
                    f"it does not follow the {lead_card.display} led, and you hold "
                    f"{displays(followers)}, so you must follow with a real {SUIT_SINGULAR[led]}.",
                    (pam,),
                )
            )
        plain_excluded = tuple(
            c for c in hand if suit_of[c] != led and not (pam_excluded and c is pam)
        )
        if plain_excluded:
            led_words = _led_words(t, lead_card)
            if lead_card is pam and _source_states(rules, "pam-led-trump-must-be-played"):
                apps.append(
                    RuleApplication(
                        "pam-led-trump-must-be-played",
                        f"{led_words[0].upper()}{led_words[1:]}: you must play a trump if you can "
                        f"({displays(followers)}).",
                        plain_excluded,
                    )
                )
            apps.append(
                RuleApplication(
                    "follow-suit",
                    f"You must follow suit: {led_words}, and you hold {displays(followers)}, "
                    f"so the {displays(plain_excluded)} may not be played.",
                    plain_excluded,
                )
            )

    candidates = followers
    if pam_be_civil and pam is not None and pam in followers:
        others = [c for c in followers if c is not pam]
        if others:
            candidates = others
            if why is not None:
                why.apps.append(RuleApplication("pam-be-civil", _civil_text(why.p, others), (pam,)))
        elif why is not None:
            why.notes.append(
                RuleApplication(
                    "pam-be-civil",
                    f"“Pam, be civil” was called, but Pam ({pam.display}) is your only trump, "
                    "so you must play it — and it wins the trick.",
                )
            )
    elif heading and len(heading) < len(followers):
        candidates = heading
        if why is not None:
            # Untrumped, the card to head is the winning one.
            if not trumped:
                target = trick[winning_index(trick, t)]
            beaten = _others(followers, heading)
            why.apps.append(
                RuleApplication(
                    "head-the-trick", _head_text(why.p, heading, beaten, target), beaten
                )
            )
    elif why is not None and trumped and rules.head_scope != "beat-led-suit":
        win = trick[winning_index(trick, t)]
        why.notes.append(
            RuleApplication(
                "head-the-trick",
                f"The trick has been trumped ({win.display}), so no {SUIT_SINGULAR[led]} "
                f"can head it: you may play any {SUIT_SINGULAR[led]}.",
            )
        )

    if why is not None and len(hand) == 1 and not why.apps:
        why.apps.append(
            RuleApplication(
                "follow-suit",
                f"You must follow suit: the {hand[0].display} is your last card and it "
                f"follows the {lead_card.display} led.",
            )
        )
    return tuple(candidates)


#: No card: what heads a trick that no card of the suit led can head.
_NOTHING: Final[frozenset[Card]] = frozenset()


def _led_words(t: Trumps, lead_card: Card) -> str:
    if lead_card is t.pam:
        return f"Pam ({lead_card.display}) was led, which is a trump lead"
    suit = t.suit_of_card[lead_card]
    suit_words = "trumps" if suit == t.suit else SUIT_NAMES[suit]
    return f"{suit_words} were led ({lead_card.display})"


def _civil_text(p: Position, others: Sequence[Card]) -> str:
    pam = p.trumps.pam
    assert pam is not None
    ace = p.trick[0].display
    if p.rules.pam_be_civil == "pass-without-revoke":
        return (
            f"“Pam, be civil”: the {ace} was led with the call, so you must pass the trick with "
            f"another trump ({displays(others)}) and may not play Pam ({pam.display}). The call "
            "overrides heading the trick."
        )
    return (
        f"“Pam, be civil” was called on the {ace}: you may not play Pam ({pam.display}) while "
        f"you hold another trump ({displays(others)})."
    )


def _head_text(p: Position, heading: Sequence[Card], beaten: Sequence[Card], target: Card) -> str:
    t = p.trumps
    lead_card = p.trick[0]
    what = f"the {t.name(target)}" + (" led" if target is lead_card else "")
    beats = "beats" if len(heading) == 1 else "beat"
    text = (
        f"You must head the trick: your {displays(heading)} {beats} {what}, "
        f"so the {displays(beaten)} may not be played."
    )
    led = t.suit_of_card[lead_card]
    if led != t.suit and any(t.is_trump(c) for c in p.trick):
        text += (
            " Under these rules heading means beating every card of the suit led, even though "
            "the trick has been trumped."
        )
    return text


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
    apps = why.apps
    no_suit = f"You have no {SUIT_NAMES[led]}"
    excluded = _others(hand, legal_cards)
    if excluded and rule == "must-overtrump":
        text = (
            f"{no_suit} and the trick has been trumped with the {t.name(win)}: you must "
            f"overtrump with a higher trump ({displays(legal_cards)})."
        )
    elif excluded and legal_cards is trumps_held:
        text = (
            f"{no_suit} and you hold {_trump_count(trumps_held)} ({displays(trumps_held)}), "
            f"so you must play a trump even though it cannot beat the {t.name(win)}."
        )
    elif excluded:
        heads = "heads" if len(legal_cards) == 1 else "head"
        text = f"{no_suit}, so you must trump: your {displays(legal_cards)} {heads} the trick."
    if excluded:
        apps.append(RuleApplication(rule, text, excluded))
    elif trumps_held and not rule:
        why.notes.append(
            RuleApplication(
                "must-trump",
                f"{no_suit}, and your {'trump' if len(trumps_held) == 1 else 'trumps'} "
                f"({displays(trumps_held)}) cannot beat the {t.name(win)}: you are not bound "
                "to trump, so you may play any card.",
            )
        )
    if len(hand) == 1 and not apps:
        apps.append(
            RuleApplication(
                "follow-suit",
                f"{no_suit} to follow with; the {hand[0].display} is your last card, so you "
                "play it.",
            )
        )


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
    if win is t.pam:
        if explain:
            apps.append(
                RuleApplication(
                    "pam-highest-trump",
                    f"Pam ({win.display}) is the highest trump, above the ace of trumps: it takes "
                    "the trick.",
                )
            )
    elif t.is_trump(win):
        if led == t.suit:
            text = f"Trumps were led; the highest trump, the {win.display}, takes the trick."
        else:
            text = f"The trick was trumped: the highest trump played, the {win.display}, takes it."
        if explain:
            apps.append(RuleApplication("trick-winner", text))
    else:
        if explain:
            apps.append(
                RuleApplication(
                    "trick-winner",
                    f"No trump was played: the highest {SUIT_SINGULAR[led]}, the {win.display}, "
                    "takes the trick.",
                )
            )
    if explain and t.pam is not None and t.pam in trick and led == t.pam.suit != t.suit:
        apps.append(
            RuleApplication(
                "pam-identity",
                f"Pam ({t.pam.display}) is a trump, not a {SUIT_SINGULAR[t.pam.suit]}.",
            )
        )
    return TrickResult(i, win, tuple(apps))
