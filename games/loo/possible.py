"""Whether a position written by hand can happen, under its rule set and game (issue 37).

A teacher (or a lesson, or the command line's ``legal``) writes a position; before the engine
answers a question about it, :func:`check` says whether such a moment can come about at a real
table, and if not, raises :class:`ImpossiblePosition` naming what cannot, in plain words with
the cards named as the site names them: "the knave of clubs is in two hands", "a hand of four
cards at three-card Loo", "a third trick before the second is complete".

The checks, by what a position shows:

- **cards** (``legal-cards``, ``why-not``, the ``legal`` command): each card in one place only
  (the hand, the trick, the turn-up, the cards played earlier); the turn-up of the trump suit;
  the trick number within the hand, the hand holding as many cards as are left at that trick;
  the players in the play within what the rule set seats (and two at least: one alone takes
  the pool without play); the trick not complete before the player to move has played to it;
  the cards played earlier, if shown, filling the earlier tricks exactly; "Pam, be civil" only
  at five-card Loo, with the ace of trumps led;
- **a trick** (``trick-winner``): two cards at least, no more than the rule set seats, each
  card once;
- **hands** (``flush``): two hands at least, no more than the rule set seats at five-card Loo,
  five cards each, each card in one hand;
- **a table** (``settlement``, ``declaration``): the number of players the rule set seats, the
  seats named within it; the settlement's players in the play, the tricks of a hand played out
  and who took them, the defender and the miss; the declaring moment's hand, turn-up and the
  declarations of the players before the learner. What the rule set allows in the declaring
  (may the dealer pass against one? is there a miss?) is then the engine's own answer, given
  by playing the declarations at a table (:mod:`games.loo.questions.tables`), whose refusal is
  told as its reason.

Every game uses the whole pack of 52 (hoffmann ¶2: "The full pack of fifty-two cards"), so a
card the game's pack lacks is only a code that names no card (a :class:`~.errors.CardError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from .authored import (
    card_list,
    count_field,
    declarations_field,
    flag_field,
    seat_field,
    seats_field,
    trump_field,
    turn_up_field,
    whole_field,
)
from .cards import SUIT_NAMES, Card, card
from .errors import PositionError
from .rulesets import HAND_SIZE, RuleSet


class ImpossiblePosition(PositionError):
    """A position that cannot happen under its rule set and game; the message says why."""


_NUMBERS: Final = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
)
_ORDINALS: Final = (
    "",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)


def number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def counted(n: int, one: str, many: str | None = None) -> str:
    """``"four cards"``, ``"one card"``, ``"no card"``."""
    word = one if n == 1 or n == 0 else (many or one + "s")
    return f"{number(n)} {word}"


def ordinal(n: int) -> str:
    return _ORDINALS[n] if 0 < n < len(_ORDINALS) else f"{n}th"


def card_name(c: Card) -> str:
    """A card as a sentence names it: "the knave of clubs"."""
    return f"the {c.label}"


def seat_name(seat: int) -> str:
    """A seat counted from the learner: "you", "seat 3" (as a question's seats read)."""
    return "you" if seat == 0 else f"seat {seat + 1}"


def _game(game: str) -> str:
    return f"{game} Loo"


def _seats(rules: RuleSet, game: str, n: int, what: str) -> None:
    """``n`` players, hands, cards of a trick (``what`` says them) fit the rule set's table."""
    high = rules.players(game)[1]
    if n > high:
        raise ImpossiblePosition(
            f"{what}, but the {rules.source} rules seat at most {number(high)} "
            f"players at {_game(game)}"
        )


def _table(rules: RuleSet, game: str, players: int) -> None:
    low, high = rules.players(game)
    if not low <= players <= high:
        raise ImpossiblePosition(
            f"a table of {counted(players, 'player')}, but the {rules.source} rules seat "
            f"{number(low)} to {number(high)} players at {_game(game)}"
        )


# -- each card in one place ----------------------------------------------------------------


def one_place(places: Sequence[tuple[str, Sequence[Card]]], *, hands: bool = False) -> None:
    """Each card in one place: ``places`` are (where, cards), where a phrase that follows "is"
    ("in your hand", "the turn-up"); ``hands``: the places are hands, and a card in two of them
    is "in two hands"."""
    seen: dict[Card, str] = {}
    for where, cards in places:
        for c in cards:
            if c not in seen:
                seen[c] = where
                continue
            if seen[c] == where:
                raise ImpossiblePosition(f"{card_name(c)} is twice {where}")
            if hands:
                first, second = seen[c].removeprefix("in "), where.removeprefix("in ")
                raise ImpossiblePosition(f"{card_name(c)} is in two hands ({first} and {second})")
            raise ImpossiblePosition(f"{card_name(c)} is {seen[c]} and {where}")


def _turn_up(data: Mapping[str, object], trump: str | None) -> Card | None:
    turn_up = turn_up_field(data)
    if turn_up is not None and trump is not None and turn_up.suit != trump:
        raise ImpossiblePosition(
            f"the turn-up, {card_name(turn_up)}, makes {SUIT_NAMES[turn_up.suit]} trumps, "
            f"not {SUIT_NAMES[trump]}"
        )
    return turn_up


def _hand_size(game: str, held: int, expected: int, trick: int | None = None) -> None:
    """A hand of ``held`` cards where ``expected`` are held (at trick ``trick``, if the
    play has begun)."""
    size = HAND_SIZE[game]
    if held > size:
        raise ImpossiblePosition(
            f"a hand of {counted(held, 'card')} at {_game(game)}, where a hand is "
            f"{counted(size, 'card')}"
        )
    if held != expected:
        at = "" if trick is None else f" at the {ordinal(trick)} trick"
        by = (
            "until the first is played"
            if trick == 1 or trick is None
            else f"by then ({counted(trick - 1, 'trick')} played)"
        )
        raise ImpossiblePosition(
            f"a hand of {counted(held, 'card')}{at}: at {_game(game)} a player holds "
            f"{counted(expected, 'card')} {by}"
        )


# -- a position of the play ----------------------------------------------------------------


def check_play(data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """A player about to play a card (the ``legal`` command's fields)."""
    trump = trump_field(data)
    hand = card_list(data, "hand")
    trick = card_list(data, "trick")
    played = card_list(data, "played")
    turn_up = _turn_up(data, trump)
    one_place(
        [
            ("in your hand", hand),
            ("in the trick", trick),
            ("the turn-up", [turn_up] if turn_up is not None else []),
            ("among the cards played earlier", played),
        ]
    )
    size = HAND_SIZE[game]
    number_of = whole_field(data, "trick_number", 1)
    if number_of < 1:
        raise ImpossiblePosition(f"trick number {number_of}: the tricks are counted from 1")
    if number_of > size:
        raise ImpossiblePosition(
            f"a {ordinal(number_of)} trick at {_game(game)}, where a hand is "
            f"{counted(size, 'card')} and so {counted(size, 'trick')}"
        )
    if "hand" in data:
        _hand_size(game, len(hand), size - (number_of - 1), number_of)
    declared = whole_field(data, "declared", 2)
    if declared < 2:
        raise ImpossiblePosition(
            f"{counted(declared, 'player')} in the play: a player left alone takes the pool "
            "without playing a card"
        )
    _seats(rules, game, declared, f"{counted(declared, 'player')} in the play")
    if len(trick) > declared:
        raise ImpossiblePosition(
            f"a trick of {counted(len(trick), 'card')}, but only "
            f"{counted(declared, 'player')} are in the play"
        )
    if len(trick) == declared:
        raise ImpossiblePosition(
            f"a trick of {counted(len(trick), 'card')} with {counted(declared, 'player')} in "
            "the play is complete: nobody is still to play to it"
        )
    before = (number_of - 1) * declared
    if played and number_of == 1:
        raise ImpossiblePosition(
            "cards played earlier at the first trick: no trick has been played before it"
        )
    if len(played) > before:
        raise ImpossiblePosition(
            f"{counted(len(played), 'card')} played earlier, but the "
            f"{counted(number_of - 1, 'trick')} before the {ordinal(number_of)} hold only "
            f"{number(before)} ({counted(declared, 'player')} in the play)"
        )
    if played and len(played) < before:
        complete = len(played) // declared
        raise ImpossiblePosition(
            f"a {ordinal(number_of)} trick before the {ordinal(complete + 1)} is complete: "
            f"the cards played earlier are {number(len(played))}, and "
            f"{counted(number_of - 1, 'trick')} of {counted(declared, 'player')} are "
            f"{number(before)} (leave them out, or show them all)"
        )
    if flag_field(data, "pam_be_civil"):
        if game != "five-card":
            raise ImpossiblePosition('"Pam, be civil" is called only at five-card Loo')
        if not trick or trick[0] != card("A" + trump):
            raise ImpossiblePosition(
                '"Pam, be civil" is called only when the ace of trumps is led to the trick'
            )


# -- a trick, hands -------------------------------------------------------------------------


def check_trick(data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """A complete trick (``trick-winner``)."""
    trump_field(data)
    trick = card_list(data, "trick")
    one_place([("in the trick", trick)])
    if len(trick) < 2:
        raise ImpossiblePosition(
            f"a trick of {counted(len(trick), 'card')}: a trick is complete when every player "
            "in the play has played to it, and two at least are in the play"
        )
    _seats(rules, game, len(trick), f"a trick of {counted(len(trick), 'card')}")


def check_hands(data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """Five-card hands shown for flushes (``flush``)."""
    trump_field(data)
    if game != "five-card":
        raise ImpossiblePosition(f"flushes are shown only in five-card Loo, not {_game(game)}")
    hands = data.get("hands")
    if not isinstance(hands, list):
        return  # the kind's own reading says what the field must be
    cards = [card_list({"hand": h}, "hand") for h in hands]
    one_place([(f"in hand {i + 1}", h) for i, h in enumerate(cards)], hands=True)
    if len(cards) < 2:
        raise ImpossiblePosition(
            f"{counted(len(cards), 'hand')}: a flush loos the board, the other hands at the "
            "table, so two hands at least are shown"
        )
    # No more than the rule set seats. Fewer than its smallest table are allowed: a lesson may
    # show four hands under every rule set, parlett's five-card table of five to ten too.
    _seats(rules, game, len(cards), counted(len(cards), "hand"))
    size = HAND_SIZE[game]
    for i, h in enumerate(cards):
        if len(h) != size:
            raise ImpossiblePosition(
                f"hand {i + 1} holds {counted(len(h), 'card')}: at {_game(game)} a hand is "
                f"{counted(size, 'card')}"
            )


# -- a table: the settlement and the declaring ------------------------------------------------


def check_settlement(data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """A hand played out (or won without play), as a teacher describes it."""
    players = count_field(data, "players")
    _table(rules, game, players)
    dealer = seat_field(data, "dealer", players, players - 1) or 0
    seat_field(data, "asked", players)
    in_play = seats_field(data, "in_play", players)
    tricks = seats_field(data, "tricks", players)
    defender = seat_field(data, "defender", players)
    holder = seat_field(data, "miss_holder", players)
    pool = count_field(data, "pool")
    if pool == 0:
        raise ImpossiblePosition("an empty pool: a stake is put up before every deal")
    for seat in in_play:
        if in_play.count(seat) > 1:
            raise ImpossiblePosition(f"{seat_name(seat)} is listed twice among those in the play")
    if not in_play:
        raise ImpossiblePosition(
            "nobody in the play: when all the others pass, the dealer takes the pool, so he "
            "at least is in it"
        )
    size = HAND_SIZE[game]
    if len(in_play) == 1 and tricks:
        raise ImpossiblePosition(
            f"tricks played with one player in the play: {seat_name(in_play[0])} alone "
            "takes the pool without play"
        )
    if len(in_play) > 1 and len(tricks) != size:
        raise ImpossiblePosition(
            f"{counted(len(tricks), 'trick')} taken, but a hand of {_game(game)} is played "
            f"out to {counted(size, 'trick')}"
        )
    for i, seat in enumerate(tricks):
        if seat not in in_play:
            raise ImpossiblePosition(
                f"{seat_name(seat)} takes the {ordinal(i + 1)} trick but is not in the play"
            )
    if defender is not None:
        if defender != dealer:
            raise ImpossiblePosition(
                f"{seat_name(defender)} plays for the pool, but only the dealer "
                f"({seat_name(dealer)}) may, against one player"
            )
        if defender not in in_play:
            raise ImpossiblePosition(
                f"{seat_name(defender)} plays for the pool but is not in the play"
            )
        if len(in_play) != 2:
            raise ImpossiblePosition(
                "the dealer plays for the pool only against one player, and "
                f"{counted(len(in_play) - 1, 'other player')} are in the play"
            )
    if holder is not None:
        if game != "three-card":
            raise ImpossiblePosition(f"a miss taken at {_game(game)}, which has no miss")
        if holder not in in_play:
            raise ImpossiblePosition(
                f"{seat_name(holder)} took the miss but is not in the play: whoever takes "
                "the miss must play"
            )


def check_declaring(data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """A moment of the declaring: the learner (seat 0) is to declare."""
    players = count_field(data, "players")
    _table(rules, game, players)
    trump = None if data.get("trump") in (None, "") else trump_field(data)
    turn_up = _turn_up(data, trump)
    if turn_up is None:
        raise ImpossiblePosition("no turn-up: the card turned up after the deal fixes trumps")
    hand = card_list(data, "hand")
    one_place([("in your hand", hand), ("the turn-up", [turn_up])])
    _hand_size(game, len(hand), HAND_SIZE[game])
    made = declarations_field(data, players)
    if game != "three-card":
        for _, choice in made:
            if choice not in ("play", "pass"):
                raise ImpossiblePosition(
                    f"a declaration {choice!r} at {_game(game)}, where a player plays (drawing "
                    "or standing) or passes: there is no miss"
                )
    dealer = seat_field(data, "dealer", players)
    if dealer is None:
        if len(made) > players - 1:
            raise ImpossiblePosition(
                f"{counted(len(made), 'declaration')} before yours at a table of "
                f"{counted(players, 'player')}"
            )
        return
    before = players - 1 - dealer if dealer else players - 1
    if len(made) != before:
        raise ImpossiblePosition(
            f"{counted(len(made), 'declaration')} before yours, but with the dealer at "
            f"{seat_name(dealer)} {counted(before, 'player')} declare before you, in turn from "
            "his left"
        )
    pool = data.get("pool")
    if pool is not None and count_field(data, "pool") == 0:
        raise ImpossiblePosition("an empty pool: a stake is put up before every deal")


#: The check of each kind of question that may be asked about a written position.
CHECKS: Final[Mapping[str, Callable[..., None]]] = {
    "legal-cards": check_play,
    "why-not": check_play,
    "trick-winner": check_trick,
    "flush": check_hands,
    "settlement": check_settlement,
    "declaration": check_declaring,
}


def check(kind: str, data: Mapping[str, object], *, game: str, rules: RuleSet) -> None:
    """Raise :class:`ImpossiblePosition` if the position ``data`` of a ``kind`` question
    cannot happen at ``game`` under ``rules`` (a kind without a check: nothing to say)."""
    found = CHECKS.get(kind)
    if found is not None:
        found(data, game=game, rules=rules)


__all__ = [
    "CHECKS",
    "ImpossiblePosition",
    "card_name",
    "check",
    "check_declaring",
    "check_hands",
    "check_play",
    "check_settlement",
    "check_trick",
    "counted",
    "one_place",
    "ordinal",
    "seat_name",
]
