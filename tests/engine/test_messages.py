"""Every sentence the engine can say is a message, and every message reads right from every
point of view: the seat it is about as "you", the third person, and the seats by name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.loo.bots import SensibleBot
from games.loo.cards import card
from games.loo.messages import (
    HAD_TO,
    PLAYER,
    TEMPLATES,
    Message,
    arg_kinds,
    message_from_dict,
    msg,
    remap,
    render,
)
from games.loo.rulesets import RuleSet

ENGINE = Path(__file__).resolve().parents[2] / "games" / "loo"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]

#: Every verb a template conjugates for a seat: its third-person and second-person forms.
VERBS: dict[str, str] = {}
for template in TEMPLATES.values():
    for third, second in re.findall(r"\{\w+:(\w+)/(\w+)\}", template):
        VERBS.setdefault(third, second)
THIRD_PERSON = {third for third, second in VERBS.items() if third != second}


def sample_args(key: str, seats: list[int]) -> dict[str, Any]:
    """Arguments for ``key``'s template: each seat argument one of ``seats`` in turn."""
    args: dict[str, Any] = {}
    free = iter(seats)
    for name, kind in arg_kinds(key).items():
        if kind == "seat":
            args[name] = next(free)
        elif kind == "card":
            args[name] = card("JC") if name == "pam" else card("QH")
        elif kind == "cards":
            args[name] = (card("QH"), card("3H"))
        elif kind == "suit":
            args[name] = "D"
        elif kind == "rules":
            args[name] = ("follow-suit", "head-the-trick")
        elif kind == "msg":
            args[name] = msg("part.a-trump")
        elif kind == "msgs":
            args[name] = (msg("part.flush-of", kind=msg("part.trump-flush"), p=seats[-1]),)
        elif kind == "seats":
            args[name] = tuple(seats)
        else:
            args[name] = 2
    return args


def seat_args(key: str) -> list[str]:
    return [name for name, kind in arg_kinds(key).items() if kind == "seat"]


def named_seats(key: str) -> list[int]:
    """The sample seats (see sample_args) that the template names, not only refers to."""
    named = set(re.findall(r"\{(\w+):(?:S|S's|yours)\}", TEMPLATES[key]))
    return [s for s, name in enumerate(seat_args(key)) if name in named]


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_message_reads_right_in_the_second_and_third_person_and_with_names(
    key: str,
) -> None:
    seats = [0, 1, 2, 3]
    message = Message(key, sample_args(key, seats))
    third = render(message, None)
    named = render(message, None, NAMES)
    assert "{" not in third and "}" not in third, third
    # The third person: nobody is "you", every seat is numbered or named.
    assert not re.search(r"\b[Yy]our?s?\b|\byourself\b", third), third
    assert not re.search(r"\b[Yy]our?\b", named), named
    assert not re.search(r"\bseat \d", named, re.IGNORECASE), named
    for s in named_seats(key):
        assert f"seat {s + 1}" in third.lower(), third
        assert NAMES[s] in named, named
    # Each seat in turn reads it as "you": his verbs agree, and "your" is his alone.
    for s, name in enumerate(seat_args(key)):
        second = render(message, s, NAMES)
        assert re.search(r"\b[Yy]our?s?\b|\byourself\b", second), (name, second)
        assert NAMES[s] not in second, second
        for verb in THIRD_PERSON:
            assert not re.search(rf"\b[Yy]ou {verb}\b", second), second
        assert not re.search(r"\b[Hh](e|is|im)\b", second) or len(seat_args(key)) > 1, second
    # The data survives JSON.
    assert render(message_from_dict(message.to_dict()), 0, NAMES) == render(message, 0, NAMES)


def test_templates_say_you_only_through_a_seat() -> None:
    """ "You", "your" and the second-person verbs come only from a seat placeholder, never from
    the template's own words, so no sentence can call another player "you"."""
    for key, template in TEMPLATES.items():
        words = re.sub(r"\{[^}]*\}", "", template)
        assert not re.search(r"\b[Yy]our?s?\b|\byourself\b", words), key


def test_every_template_is_used_by_the_engine() -> None:
    """... or, for the practice table page's own sentences (sentences/table.py), by the page's
    presenter."""
    presenter = ENGINE.parent / "table" / "presenting.py"
    source = "\n".join(
        p.read_text() for p in [*ENGINE.rglob("*.py"), presenter] if p.name != "messages.py"
    )
    # Families whose key the engine builds from an option's value.
    built = (
        "part.dealer-vs-one.",
        "part.precedence.",
        "part.trump-flush",
        "part.plain-flush",
        "part.game.",
        "question.loo-price.",
        "question.source-says.",
        "table.choice.",
    )
    for key in TEMPLATES:
        if key == "text" or key.startswith(built):
            continue
        # The engine adds "-had" when a rule bound the card, "-brief" for the first dealer
        # without the card that chose him.
        used = key.removesuffix("-had").removesuffix("-brief")
        assert f'"{used}"' in source, key


def test_a_sentence_start_is_capitalised_and_a_nested_piece_only_there() -> None:
    led = msg("part.suit-led", suit="H", card=card("TH"))
    message = msg("follow.suit", p=2, led=led, followers=(card("QH"),), excluded=(card("KS"),))
    assert render(message, None) == (
        "Seat 3 must follow suit: hearts were led (10♥), and he holds Q♥, so the K♠ may not "
        "be played."
    )
    assert render(message, 2) == (
        "You must follow suit: hearts were led (10♥), and you hold Q♥, so the K♠ may not be played."
    )
    assert render(message, 0, ["You", "West", "North"]) == (
        "North must follow suit: hearts were led (10♥), and he holds Q♥, so the K♠ may not be "
        "played."
    )
    assert render(msg("settle.looed", p=0, n=6), 0) == "You are looed and pay 6 to the next pool."
    assert render(msg("trick.taken", p=1, n=2, why=msg("trick.pam", win=card("JC"))), 1) == (
        "You take trick 2. Pam (J♣) is the highest trump, above the ace of trumps: it takes the "
        "trick."
    )


def test_a_bare_position_speaks_to_the_player_and_seats_can_be_renumbered() -> None:
    message = msg("error.not-held", p=PLAYER, card=card("QH"))
    assert render(message) == "You do not hold the Q♥."
    assert render(message, None) == "The player does not hold the Q♥."
    flush = msg("part.exempt-pam", p=0)
    assert render(remap(flush, [3, 1, 2, 0].__getitem__), 3) == "You hold Pam"


def test_the_public_phrases_name_catalogue_rules() -> None:
    from games.loo.catalogue import rule_ids

    assert set(HAD_TO) <= set(rule_ids())


def seeded_messages() -> Iterator[Message]:
    """Every message of three seeded hands of each session of the golden trace: options and
    notes, the computer players' reasons, the trace, payments, offences and flushes."""
    from games.loo.bots import make_bot
    from games.loo.table import Table, TableConfig
    from games.loo.view import view_for
    from tests.engine.golden import sessions

    for game, preset, laws, kind in sessions():
        rules = RuleSet.preset(preset)
        low, high = rules.players(game)
        players = min(max(low, 5), high)
        table = Table(TableConfig(game, rules, players, f"json:{game}:{preset}:{laws}", laws=laws))
        yield table.first_dealer_message
        yield table.first_dealer_brief
        bots = [make_bot(kind, s) for s in range(players)]
        for bot in bots:
            if isinstance(bot, SensibleBot):
                bot.playouts = 4
        for _ in range(3):
            hand = table.deal()
            while not hand.over:
                seat = hand.to_act
                assert seat is not None
                options = hand.options()
                yield from (a.message for a in options.explanations)
                if options.legal is not None:
                    yield from (a.message for a in options.legal.notes)
                decision = bots[seat].decide(view_for(hand, seat))
                yield decision.reason
                table.apply(decision.action)
            yield from (e.message for e in hand.events)
            yield from (p.reason for p in hand.payments)
            yield from (o.message for o in hand.offences)
            if hand.flush is not None:
                yield from (a.message for a in hand.flush.explanations)


def test_every_message_of_seeded_hands_is_typed_and_survives_its_json_form() -> None:
    seen = set()
    for top in seeded_messages():
        assert message_from_dict(top.to_dict()) == top, top
        # A message carries exactly the arguments its template writes, nested ones too.
        stack = [top]
        while stack:
            message = stack.pop()
            seen.add(message.key)
            assert set(message.args) == set(arg_kinds(message.key)), message
            for name, kind in arg_kinds(message.key).items():
                if kind == "msg":
                    stack.append(message.args[name])
                elif kind == "msgs":
                    stack.extend(message.args[name])
    assert len(seen) > 60
