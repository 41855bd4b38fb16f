"""How the practice table names its seats: the one place where the engine's "seat N" becomes
"You", "West", "North", …

The engine writes its trace in the third person with numbered seats ("seat 1 takes trick 2").
At the practice table the human always sits at seat index 0 (the engine's "seat 1") and the
computer players round the table to the left get fixed names. Sentences whose subject is the
human are turned into the second person ("You take trick 2", "You are looed and pay 6").
"""

from __future__ import annotations

import re
from typing import Final

#: The human's seat index at every practice table.
HUMAN: Final = 0

#: Fixed names, by seat index: the human, then the computer players to the left.
SEAT_NAMES: Final = ("You", "West", "North", "East", "Ada", "Bea", "Cal", "Dot", "Eli")

_SEAT = re.compile(r"\b[Ss]eat (\d+)('s)?")
_HUMAN_SUBJECT = re.compile(r"^(Only )?[Ss]eat 1\b(?!')")
_PIECES = re.compile(r"((?<=[.:;!?])\s+)")
_CODE = re.compile(r"\b([AKQJT98765432])([SHDC])\b")

#: Third-person verbs of the engine's sentences and their second-person forms.
_VERBS: Final = {
    "calls": "call",
    "cuts": "cut",
    "deals": "deal",
    "discards": "discard",
    "does": "do",
    "draws": "draw",
    "forfeits": "forfeit",
    "has": "have",
    "holds": "hold",
    "is": "are",
    "leads": "lead",
    "leaves": "leave",
    "lets": "let",
    "passes": "pass",
    "pays": "pay",
    "plays": "play",
    "receives": "receive",
    "requires": "require",
    "shows": "show",
    "sits": "sit",
    "stands": "stand",
    "takes": "take",
    "was": "were",
    "wins": "win",
}
_PRONOUNS: Final = {"he": "you", "him": "you", "his": "your", "himself": "yourself"}
#: Words after which a verb still has the human as its subject.
_VERB_FOLLOWS: Final = frozenset({"", "alone", "and", "he", "you"})


def seat_name(seat: int | None) -> str:
    """``0`` → ``"You"``, ``1`` → ``"West"``; ``None`` is the pool."""
    if seat is None:
        return "the pool"
    if 0 <= seat < len(SEAT_NAMES):
        return SEAT_NAMES[seat]
    return f"Seat {seat + 1}"


def name_seats(text: str) -> str:
    """An engine sentence with its seats named for the practice table."""
    if "eat " not in text:
        return text
    out: list[str] = []
    capital = True
    # Within a sentence about the human, a later clause's "he" is the human too.
    about_human = False
    for piece in _PIECES.split(text):
        if not piece or piece.isspace():
            out.append(piece)
            continue
        if about_human and not _HUMAN_SUBJECT.match(piece):
            piece = _second_person(piece)
        else:
            about_human = bool(_HUMAN_SUBJECT.match(piece))
        out.append(_name_clause(piece, capital))
        capital = piece.endswith((".", "!", "?"))
        if capital:
            about_human = False
    return "".join(out)


def name_cards(text: str) -> str:
    """Card codes in a computer player's reason (``QH``) written as the table shows them."""
    from games.loo.cards import card

    return _CODE.sub(lambda m: card(m.group(0)).display, text)


def _name_clause(clause: str, capital: bool) -> str:
    subject = _HUMAN_SUBJECT.match(clause)
    if subject:
        only = subject.group(1) or ""
        you = "you" if only or not capital else "You"
        rest = _second_person(clause[subject.end() :])
        clause = f"{only}{you}{rest}"

    def replace(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        possessive = bool(match.group(2))
        if seat == HUMAN:
            start = match.start() == 0 and capital
            alone = match.end() == len(clause) or not clause[match.end()].isspace()
            word = ("yours" if alone else "your") if possessive else "you"
            return word.capitalize() if start else word
        return seat_name(seat) + ("'s" if possessive else "")

    return _SEAT.sub(replace, clause)


def _second_person(rest: str) -> str:
    """The rest of a clause whose subject is now "you": verbs and pronouns to match."""
    words = rest.split(" ")
    previous = ""
    for i, word in enumerate(words):
        core = word.rstrip(",.;:!?)")
        tail = word[len(core) :]
        if core in _PRONOUNS:
            words[i] = _PRONOUNS[core] + tail
        elif core in _VERBS and previous in _VERB_FOLLOWS:
            words[i] = _VERBS[core] + tail
        if word:
            previous = _PRONOUNS.get(core, core)
    return " ".join(words)
