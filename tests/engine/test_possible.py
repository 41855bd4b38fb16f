"""A position written by hand is checked to be one that can happen before the engine answers
(issue 37): every refusal, in the words a teacher reads, through ``question_at`` (what the
lessons and the teachers' questions call) and the ``legal`` command."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from games.loo import RuleSet
from games.loo.cli import main
from games.loo.possible import ImpossiblePosition, check
from games.loo.questions import AUTHORED_FIELDS, AUTHORED_KINDS, FIELD_TYPES, QuestionError
from games.loo.questions import question_at as asked

PLAY: dict[str, Any] = {
    "trump": "S",
    "turn_up": "2S",
    "declared": 3,
    "trick_number": 1,
    "hand": ["QH", "3S", "7D"],
    "trick": ["TH"],
}
TABLE: dict[str, Any] = {
    "players": 4,
    "dealer": 3,
    "pool": 9,
    "in_play": [0, 1, 3],
    "tricks": [1, 1, 3],
}
MOMENT: dict[str, Any] = {
    "players": 4,
    "dealer": 1,
    "hand": ["AH", "7S", "2C"],
    "turn_up": "9H",
    "declarations": ["pass", "play"],
}
FLUSHES = {
    "trump": "H",
    "hands": [["AS", "KS", "9S", "5S", "2S"], ["QH", "9H", "4D", "8C", "3S"]],
}

Refusal = tuple[str, str, str, dict[str, Any], str]


def play(said: str, preset: str = "hoffmann", game: str = "three-card", **changed: Any) -> Refusal:
    """A ``legal-cards`` position, :data:`PLAY` changed, and what the teacher is told."""
    return ("legal-cards", preset, game, {**PLAY, **changed}, said)


def table(said: str, game: str = "three-card", **changed: Any) -> Refusal:
    """A settlement under hoffmann, :data:`TABLE` changed."""
    return ("settlement", "hoffmann", game, {**TABLE, **changed}, said)


def moment(
    said: str, preset: str = "hoffmann", game: str = "three-card", **changed: Any
) -> Refusal:
    """A declaring moment, :data:`MOMENT` changed."""
    return ("declaration", preset, game, {**MOMENT, **changed}, said)


def hands(said: str, *written: list[str], preset: str = "hoffmann") -> Refusal:
    return ("flush", preset, "five-card", {"trump": "H", "hands": list(written)}, said)


def trick(said: str, cards: str, preset: str = "peel") -> Refusal:
    return ("trick-winner", preset, "three-card", {"trump": "H", "trick": cards}, said)


SPADES, MIXED = FLUSHES["hands"]
BEFORE = {"trick": [], "hand": ["QH", "3S"], "trick_number": 2}

#: (kind, preset, game, position, what the teacher is told).
REFUSALS: list[Refusal] = [
    # Cards in two places.
    play("the queen of hearts is in your hand and in the trick", trick=["QH"]),
    play("the queen of hearts is twice in your hand", hand=["QH", "QH", "3S"]),
    play("the three of spades is in your hand and the turn-up", turn_up="3S"),
    play(
        "the queen of hearts is in your hand and among the cards played earlier",
        **BEFORE,
        played=["2H", "QH", "4D"],
    ),
    (
        "why-not",
        "peel",
        "three-card",
        {**PLAY, "trick": ["TH", "TH"]},
        "the ten of hearts is twice in the trick",
    ),
    hands(
        "the knave of clubs is in two hands (hand 2 and hand 3)",
        SPADES,
        ["JC", "3S", "3D", "4C", "5H"],
        ["JC", "9D", "8D", "7D", "6C"],
    ),
    hands("the ace of spades is twice in hand 1", ["AS", "AS", "9S", "5S", "2S"], MIXED),
    (
        "flush",
        "hoffmann",
        "three-card",
        FLUSHES,
        "flushes are shown only in five-card Loo, not three-card Loo",
    ),
    trick("the king of spades is twice in the trick", "KS KS 2H"),
    moment("the ace of hearts is in your hand and the turn-up", turn_up="AH"),
    # Trumps and the turn-up.
    play("the turn-up, the two of diamonds, makes diamonds trumps, not spades", turn_up="2D"),
    moment("the turn-up, the nine of hearts, makes hearts trumps, not spades", trump="S"),
    moment("no turn-up", turn_up=None),
    # The size of a hand and the number of a trick.
    play(
        "a hand of four cards at three-card Loo, where a hand is three cards",
        hand=["QH", "3S", "7D", "8C"],
    ),
    play(
        "a hand of three cards at the first trick: at five-card Loo a player holds five cards "
        "until the first is played",
        game="five-card",
    ),
    play(
        "a hand of three cards at the second trick: at three-card Loo a player holds two cards "
        "by then (one trick played)",
        trick_number=2,
    ),
    play(
        "a fourth trick at three-card Loo, where a hand is three cards and so three tricks",
        trick_number=4,
        hand=[],
    ),
    play("trick number 0: the tricks are counted from 1", trick_number=0),
    moment(
        "a hand of three cards: at five-card Loo a player holds five cards until the first is "
        "played",
        game="five-card",
    ),
    hands("hand 2 holds four cards: at five-card Loo a hand is five cards", SPADES, MIXED[:4]),
    # The players in the play, and the trick.
    play(
        "one player in the play: a player left alone takes the pool without playing a card",
        declared=1,
        trick=[],
    ),
    play(
        "ten players in the play, but the whiteknuckle rules seat at most nine players at "
        "three-card Loo",
        preset="whiteknuckle",
        declared=10,
    ),
    play(
        "a trick of three cards, but only two players are in the play",
        declared=2,
        trick=["TH", "2H", "4H"],
    ),
    play(
        "a trick of two cards with two players in the play is complete: nobody is still to play "
        "to it",
        declared=2,
        trick=["TH", "2H"],
    ),
    trick("a trick of one card", "KS"),
    trick(
        "a trick of ten cards, but the whiteknuckle rules seat at most nine players",
        "AS KS QS JS TS 9S 8S 7S 6S 5S",
        preset="whiteknuckle",
    ),
    hands("one hand: a flush loos the board", SPADES),
    hands(
        "seven hands, but the peel rules seat at most six players at five-card Loo",
        *([r + s for r in "AKQJT"] for s in "SHDC"),
        ["2S", "3H", "4D", "5C", "6S"],
        ["2H", "3D", "4C", "5S", "6H"],
        ["2D", "3C", "4S", "5H", "6D"],
        preset="peel",
    ),
    # The cards played earlier against the trick number.
    play(
        "cards played earlier at the first trick: no trick has been played before it",
        played=["2H", "4D", "5C"],
    ),
    play(
        "a third trick before the second is complete",
        trick_number=3,
        hand=["3S"],
        trick=[],
        played=["2H", "4D", "5C", "6C"],
    ),
    play(
        "four cards played earlier, but the one trick before the second hold only three",
        **BEFORE,
        played=["2H", "4D", "5C", "6C"],
    ),
    # "Pam, be civil".
    play('"Pam, be civil" is called only at five-card Loo', trick=["AS"], pam_be_civil=True),
    play(
        '"Pam, be civil" is called only when the ace of trumps is led',
        game="five-card",
        hand=["QH", "3S", "7D", "8C", "9C"],
        pam_be_civil=True,
    ),
    # A table: the number of players, and a hand played out.
    (
        "settlement",
        "parlett",
        "five-card",
        {**TABLE, "tricks": [1, 1, 3, 0, 0]},
        "a table of four players, but the parlett rules seat five to ten players at five-card Loo",
    ),
    moment("a table of ten players", preset="whiteknuckle", players=10),
    table("an empty pool", pool=0),
    table("seat 2 is listed twice among those in the play", in_play=[0, 1, 1]),
    table("nobody in the play", in_play=[], tricks=[]),
    table(
        "two tricks taken, but a hand of three-card Loo is played out to three tricks",
        tricks=[1, 1],
    ),
    table("seat 3 takes the second trick but is not in the play", tricks=[1, 2, 3]),
    table(
        "tricks played with one player in the play: seat 4 alone takes the pool without play",
        in_play=[3],
        tricks=[3, 3, 3],
    ),
    table("seat 2 plays for the pool, but only the dealer (seat 4) may", defender=1),
    table(
        "the dealer plays for the pool only against one player, and two other players are in "
        "the play",
        defender=3,
    ),
    table(
        "seat 4 plays for the pool but is not in the play",
        in_play=[0, 1],
        tricks=[0, 1, 1],
        defender=3,
    ),
    table(
        "a miss taken at five-card Loo, which has no miss",
        game="five-card",
        tricks=[1, 1, 3, 0, 0],
        miss_holder=1,
    ),
    table(
        "seat 3 took the miss but is not in the play: whoever takes the miss must play",
        miss_holder=2,
    ),
    # What the rule set forbids in the declaring: the engine's own refusal.
    table(
        "seat 4 passes, which the rules do not allow there: Only you have declared to play, on "
        "your own cards, so seat 4, the dealer, may not pass",
        in_play=[0],
        tricks=[],
    ),
    table(
        "a deal with one counter in the pool: no deal of three-card Loo under the hoffmann rules "
        "begins so (the stake is three counters)",
        pool=1,
    ),
    moment(
        "a must at five-card Loo: a must is a three-card device",
        game="five-card",
        hand="AH 7S 2C 3D 4D",
        must=True,
    ),
    moment("a must under the britannica rules, which play none", preset="britannica", must=True),
    moment(
        "a declaration 'take-miss' at irish Loo, where a player plays (drawing or standing) or "
        "passes: there is no miss",
        preset="britannica",
        game="irish",
        declarations=["pass", "take-miss"],
    ),
    moment(
        "seat 4 takes the miss, which the rules do not allow there",
        declarations=["take-miss", "take-miss"],
    ),
    moment(
        "the hand ends before your turn: Everyone before the dealer has passed: you take the "
        "pool without play",
        dealer=0,
        players=3,
        declarations=["pass", "pass"],
    ),
    # The declarations before the learner.
    moment(
        "two declarations before yours, but with the dealer at seat 3 one player declare before "
        "you",
        dealer=2,
    ),
    moment(
        "four declarations before yours at a table of four players",
        dealer=None,
        declarations=["pass"] * 4,
    ),
    moment(
        "the players declare in turn from the dealer's left: seat 3 declares next, not seat 4",
        declarations=[[3, "pass"], [2, "play"]],
    ),
    moment("an empty pool", pool=0),
]


@pytest.mark.parametrize(("kind", "preset", "game", "position", "said"), REFUSALS)
def test_an_impossible_position_is_refused_with_its_reason(
    kind: str, preset: str, game: str, position: dict[str, Any], said: str
) -> None:
    with pytest.raises(QuestionError) as refused:
        asked(kind, preset, game=game, position=position, seed=1)
    assert str(refused.value).startswith(f"this position cannot happen: {said}")


def test_every_refusal_is_the_possible_modules_own() -> None:
    """The check alone refuses each position (nothing the kinds do afterwards is needed), and
    each kind that may be asked about a position of one's own is refused at least once."""
    refused = set()
    for kind, preset, game, position, _ in REFUSALS:
        try:
            check(kind, position, game=game, rules=RuleSet.preset(preset))
        except ImpossiblePosition:
            refused.add(kind)
    assert refused == set(AUTHORED_KINDS)


def test_the_positions_the_refusals_change_are_asked() -> None:
    """Each base position, before a field is made impossible, is answered: the refusals are
    the changes', not the base's."""
    assert asked("legal-cards", "hoffmann", game="three-card", position=PLAY, seed=1).answer == (
        "QH",
    )
    assert asked("settlement", "hoffmann", game="three-card", position=TABLE, seed=1).answer
    assert asked("declaration", "hoffmann", game="three-card", position=MOMENT, seed=1).answer
    assert asked("flush", "hoffmann", game="five-card", position=FLUSHES, seed=1).answer
    assert asked(
        "trick-winner",
        "peel",
        game="three-card",
        position={"trump": "H", "trick": "KS AS 2H"},
        seed=1,
    ).answer == ("2",)


def test_every_authored_kind_names_its_fields_and_each_field_its_type() -> None:
    assert set(AUTHORED_FIELDS) == set(AUTHORED_KINDS)
    assert {"settlement", "declaration"} <= set(AUTHORED_KINDS)
    named = {f for fields in AUTHORED_FIELDS.values() for f in fields}
    assert named == set(FIELD_TYPES)
    assert set(FIELD_TYPES.values()) <= {
        "suit",
        "card",
        "cards",
        "hands",
        "count",
        "flag",
        "seat",
        "seats",
        "declarations",
    }


def test_the_legal_command_refuses_as_the_questions_do() -> None:
    data = {"game": "three-card", "rules": "hoffmann", **PLAY, "hand": ["QH", "3S", "7D", "8C"]}
    out, err = io.StringIO(), io.StringIO()
    code = main(["legal", "-"], stdin=io.StringIO(json.dumps(data)), stdout=out, stderr=err)
    assert (code, out.getvalue()) == (2, "")
    assert err.getvalue() == (
        "error: a hand of four cards at three-card Loo, where a hand is three cards\n"
    )
