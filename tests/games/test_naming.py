"""The practice table's sentences: the engine's messages written for the human at seat 0
("You take trick 2"), the computer players by where they sit ("the player on your left")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.loo.bots import CarelessBot, SensibleBot, make_bot
from games.loo.cards import card
from games.loo.flushes import FlushResult
from games.loo.hand import Hand, IllegalAction
from games.loo.messages import TEMPLATES, Message, arg_kinds, msg, remap, render
from games.loo.rulesets import GAMES, PRESET_IDS, RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import view_for
from games.naming import HUMAN, namer, say, seat_label, seat_name, stored_message


def test_the_human_is_you_and_the_others_are_named_by_where_they_sit() -> None:
    assert [seat_name(s, 5) for s in range(5)] == [
        "You",
        "the player on your left",
        "the second player on your left",
        "the second player on your right",
        "the player on your right",
    ]
    assert [seat_label(s, 5) for s in range(5)] == ["You", "Left", "2nd left", "2nd right", "Right"]
    assert [seat_name(s, 4) for s in range(1, 4)] == [
        "the player on your left",
        "the player opposite you",
        "the player on your right",
    ]
    assert [seat_label(s, 3) for s in range(3)] == ["You", "Left", "Right"]
    assert [seat_label(s, 9) for s in range(1, 9)] == [
        "Left", "2nd left", "3rd left", "4th left", "4th right", "3rd right", "2nd right", "Right"
    ]  # fmt: skip
    assert seat_name(4, 9) == "the fourth player on your left"
    assert seat_name(5, 9) == "the fourth player on your right"
    assert seat_name(None) == "the pool"
    assert seat_name(11, 5) == "seat 12"


def test_every_seat_has_its_own_name_from_three_to_nine_players() -> None:
    for players in range(3, 10):
        names = [seat_name(s, players) for s in range(players)]
        labels = [seat_label(s, players) for s in range(players)]
        assert len(set(names)) == len(set(labels)) == players, names


@pytest.mark.parametrize(
    ("message", "table"),
    [
        (msg("declare.play", p=0), "You play."),
        (msg("declare.play", p=1), "The player on your left plays."),
        (msg("declare.take-miss", p=0), "You take miss, and so must play."),
        (msg("exchange.stand", p=0), "You stand on your cards."),
        (msg("exchange.stand", p=2), "The second player on your left stands on his cards."),
        (msg("exchange.draw", p=0, n=2), "You discard 2 and draw 2, and so must play."),
        (
            msg("play-begins", n=3, players=(0, 2, 1), p=0),
            "3 play: you, the second player on your left, the player on your left. You lead.",
        ),
        (msg("settle.looed", p=0, n=6), "You are looed and pay 6 to the next pool."),
        (
            msg("lone-miss", p=0),
            "You alone have taken miss and everyone else has passed: you take the pool without "
            "play.",
        ),
        (
            msg("error.out-of-turn", turn=4, p=0),
            "It is the player on your right's turn, not yours.",
        ),
        (
            msg("dealer.lowest-cut-brief", p=0),
            "Each player cuts; you cut the lowest card and deal first.",
        ),
        (
            msg(
                "option.dealer-vs-one",
                one=2,
                d=0,
                menu=msg("part.dealer-vs-one.own|miss", d=0),
            ),
            "Only the second player on your left has declared to play, on his own cards, so you, "
            "the dealer, may not pass: you may play your own cards or take miss.",
        ),
        (
            msg("play.lead-civil", p=0, card=card("AH"), had=()),
            'You lead the A♥ and call "Pam, be civil".',
        ),
        (msg("ante.dealer", n=3), "The dealer stakes 3."),
        (msg("declare.play", p=11), "Seat 12 plays."),
        (
            msg("bot.best-card", p=2, card="QH", n=2, samples=8, mean="+1.0"),
            "The second player on your left played the Q♥: "
            "the best of 2 legal cards over 8 sampled deals (+1.0 counters on average)",
        ),
    ],
)
def test_engine_sentences_are_written_for_the_table(message: Message, table: str) -> None:
    assert say(message, 5) == table


def test_a_note_stored_before_sentences_were_data_is_shown_as_it_was() -> None:
    assert say(stored_message("seat 3 played the QH: the only choice")) == (
        "seat 3 played the QH: the only choice"
    )
    assert say(stored_message(msg("declare.pass", p=0).to_dict())) == "You pass."


# -- every sentence of many hands, as the table shows them -------------------------------------

#: Every verb the templates conjugate for a seat, in the third person.
THIRD_PERSON = {
    third
    for template in TEMPLATES.values()
    for third, second in re.findall(r"\{\w+:(\w+)/(\w+)\}", template)
    if third != second
} | {"has", "is", "was", "does"}
SEAT_N = re.compile(r"\b[Ss]eat \d")
YOU_THIRD = re.compile(r"\b[Yy]ou (?:alone )?(" + "|".join(sorted(THIRD_PERSON)) + r")\b")
YOUR = re.compile(r"\b[Yy]ou(r|rs|rself)?\b")


def mentions(message: Message, seat: int) -> bool:
    """Whether ``message`` refers to ``seat`` (in any argument, nested pieces included)."""
    kinds = arg_kinds(message.key)
    for name, value in message.args.items():
        kind = kinds.get(name)
        if kind == "seat" and value == seat:
            return True
        if kind == "seats" and seat in value:
            return True
        if kind == "msg" and value is not None and mentions(value, seat):
            return True
        if kind == "msgs" and any(mentions(m, seat) for m in value):
            return True
    return False


def check(message: Message, where: str, players: int = 5) -> str:
    shown = say(message, players)
    assert not SEAT_N.search(shown), (where, shown)
    assert not YOU_THIRD.search(shown), (where, shown)
    if not mentions(message, HUMAN):
        # "you" and "your" are the human's alone (but for a rule's name, quoted: the only
        # choice, under the rule “follow suit if you can”; and the others' names, which say
        # where they sit from his chair: "the player on your left").
        others = "|".join(re.escape(seat_name(s, players)) for s in range(1, players))
        bare = re.sub(rf"“[^”]*”|(?i:{others})", "", shown)
        assert not YOUR.search(bare), (where, shown)
    return shown


def flush_messages(flush: FlushResult, hand: Hand) -> Iterator[Message]:
    """A flush's explanations with the table's seats, as the trick log shows them."""
    order = hand.seat_order()
    for app in flush.explanations:
        yield remap(app.message, order.__getitem__)


def sessions() -> Iterator[tuple[str, str, bool, str]]:
    for game in GAMES:
        for preset in PRESET_IDS:
            if game in RuleSet.preset(preset).games:
                for laws in (False, True):
                    for bots in ("beginner", "careless", "sensible"):
                        yield game, preset, laws, bots


def play_session(game: str, preset: str, laws: bool, kind: str, hands: int) -> tuple[int, int]:
    """Play ``hands`` hands with the human a careless beginner (so that, in laws mode, he
    meets the laws as an offender too) and check every sentence the table would show him."""
    rules = RuleSet.preset(preset)
    low, high = rules.players(game)
    players = min(max(low, 5), high)
    seed = f"naming:{game}:{preset}:{laws}:{kind}"
    table = Table(TableConfig(game, rules, players, seed, laws=laws))
    check(table.first_dealer_brief, "first dealer", players)
    human = CarelessBot(f"{seed}:human", slip=0.3)
    bots: list[Any] = [human] + [make_bot(kind, f"{seed}:{s}") for s in range(1, players)]
    for bot in bots:
        if isinstance(bot, SensibleBot):
            bot.playouts = 4
    sentences = 0
    for _ in range(hands):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if seat == HUMAN:
                options = view.options
                assert options is not None
                for app in options.explanations:
                    check(app.message, "options", players)
                    sentences += 1
                if options.legal is not None:
                    for note in options.legal.notes:
                        check(note.message, "note", players)
                    for c in view.hand or ():
                        why = options.legal.why_not(c)
                        if why is not None:
                            check(why.message, "why not", players)
                            if not hand.laws_apply():
                                with pytest.raises(IllegalAction) as refusal:
                                    hand.step(c)
                                check(refusal.value.message, "refusal", players)
            decision = bots[seat].decide(view)
            check(decision.reason, "reason", players)
            table.apply(decision.action)
        for event in hand.events:
            check(event.message, event.kind, players)
        for payment in hand.payments:
            check(payment.reason, "payment", players)
        if hand.flush is not None:
            for message in flush_messages(hand.flush, hand):
                check(message, "flush", players)
        sentences += len(hand.events) + len(hand.payments)
    return hands, sentences


def test_no_sentence_at_the_table_says_seat_n_or_miscalls_you() -> None:
    """Over 330 seeded hands (every game and rule set, learning and laws mode, every kind of
    computer player) no sentence the practice table shows says "seat N", puts a third-person
    verb after "You" ("You takes"), or says "you"/"your" of another player."""
    played = said = 0
    for session in sessions():
        hands, sentences = play_session(*session, hands=5)
        played += hands
        said += sentences
    assert played >= 300
    assert said > 10_000


def test_the_check_catches_what_it_looks_for() -> None:
    with pytest.raises(AssertionError):
        check(msg("text", text="You takes trick 1."), "test")
    with pytest.raises(AssertionError):
        check(msg("text", text="seat 2 plays."), "test")
    with pytest.raises(AssertionError):
        check(msg("text", text="The player on your left's your card."), "test")
    assert render(msg("declare.play", p=2), HUMAN, namer(5)) == (
        "The second player on your left plays."
    )
