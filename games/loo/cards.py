"""Cards and their notation.

A card is written rank + suit: ranks ``A K Q J T 9 8 7 6 5 4 3 2`` (ace high), suits ``S H D C``.
``AS`` is the ace of spades, ``TH`` the ten of hearts, ``JC`` the knave of clubs (Pam in
five-card Loo). There are exactly 52 card objects; parsing returns the shared instance, so cards
compare and hash cheaply.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .errors import CardError

RANKS: Final = "AKQJT98765432"
SUITS: Final = "SHDC"

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SINGULAR: Final = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES: Final = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "knave",
    "T": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
    "5": "five",
    "4": "four",
    "3": "three",
    "2": "two",
}
RANK_SHORT: Final = {"T": "10"}
RED_SUITS: Final = frozenset("HD")


class Card:
    """One of the 52 cards. Use :func:`card` or :func:`parse_card` to get one."""

    __slots__ = ("rank", "suit", "code", "value")

    rank: str
    suit: str
    code: str
    value: int

    def __init__(self, rank: str, suit: str) -> None:
        self.rank = rank
        self.suit = suit
        self.code = rank + suit
        # A = 14 down to 2 = 2.
        self.value = 14 - RANKS.index(rank)

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.code,))

    @property
    def display(self) -> str:
        """Short form for templates: ``Q♥``, ``10♠``."""
        return RANK_SHORT.get(self.rank, self.rank) + SUIT_SYMBOLS[self.suit]

    @property
    def label(self) -> str:
        """Spoken form for screen readers and sentences: ``queen of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS


_PACK: Final = {r + s: Card(r, s) for s in SUITS for r in RANKS}

#: The 52-card pack in a fixed order (spades, hearts, diamonds, clubs; ace to two).
PACK: Final[tuple[Card, ...]] = tuple(_PACK.values())

#: Each card by its exact code (``"QH"``): a quick look-up for codes the engine wrote itself.
#: Anything else goes through :func:`card`. Read-only.
BY_CODE: Final[dict[str, Card]] = _PACK


def card(code: str) -> Card:
    """The card written ``code`` (``"QH"``); raises :class:`CardError` if there is none."""
    found = _PACK.get(code)
    if found is None:
        return parse_card(code)
    return found


def parse_card(text: object) -> Card:
    """Read a card code such as ``"QH"``, ``"th"`` or ``"10H"``, with a clear error."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be written as text such as 'QH', not {text!r}")
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    found = _PACK.get(code)
    if found is not None:
        return found
    if len(code) != 2:
        raise CardError(
            f"unknown card {text!r}: write rank then suit, like 'QH' or 'TS' "
            f"(ranks {' '.join(RANKS)}, suits {' '.join(SUITS)})"
        )
    rank, suit = code[0], code[1]
    if rank not in RANKS:
        raise CardError(f"unknown card {text!r}: {rank!r} is not a rank ({' '.join(RANKS)})")
    raise CardError(f"unknown card {text!r}: {suit!r} is not a suit ({' '.join(SUITS)})")


def parse_cards(items: Iterable[object], *, what: str = "cards") -> tuple[Card, ...]:
    """Read a list of card codes; refuses a card that appears twice."""
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise CardError(f'{what} must be a list of cards such as ["QH", "3S"]')
    cards = tuple(parse_card(item) for item in items)
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"{c.code} appears twice in the {what}")
        seen.add(c)
    return cards


def parse_suit(text: object) -> str:
    """Read a suit letter (``"H"``) or name (``"hearts"``)."""
    if isinstance(text, str):
        s = text.strip().upper()
        if s in SUITS:
            return s
        for letter, name in SUIT_NAMES.items():
            if s.lower() in (name, SUIT_SINGULAR[letter]) or s == SUIT_SYMBOLS[letter]:
                return letter
    raise CardError(f"unknown suit {text!r}: use one of {', '.join(SUITS)}")


def codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def displays(cards: Sequence[Card]) -> str:
    """``Q♥, 3♥ and K♠``: cards listed in a sentence."""
    shown = [c.display for c in cards]
    if not shown:
        return "no card"
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]
