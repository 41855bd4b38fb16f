"""Property tests over thousands of seeded hands: every game x preset x 2-9 players, in
learning mode and laws mode, each a session of 50 hands with random decisions (in laws mode
forbidden cards and cards out of turn among them); and laws-mode sessions of careless
players under the sources that state penalties."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.loo import PACK, PRESET_IDS, RuleSet, legal
from games.loo.bots import CarelessBot
from games.loo.catalogue import rule_ids
from games.loo.hand import Action, Hand, IllegalAction
from games.loo.hand.laws import offence_part
from games.loo.messages import render
from games.loo.table import Table, TableConfig
from games.loo.view import may_look, view_for

COMBOS = [(game, preset) for preset in PRESET_IDS for game in RuleSet.preset(preset).games]
CODES = {c.code: c for c in PACK}
RULE_IDS = rule_ids()


def all_cards(hand: Hand) -> list[Any]:
    cards = [c for h in hand.hands for c in h] + hand.stock + hand.discards + [hand.turn_up]
    cards += hand.miss or []
    cards += [c for t in hand.tricks for _, c in t.plays]
    if hand.trick is not None:
        cards += hand.trick.cards
    return cards


def random_action(hand: Hand, rng: random.Random, laws: bool) -> Action:
    options = hand.options(explain=False)
    seat = options.seat
    if options.kind == "play":
        assert options.legal is not None and options.legal.legal
        if laws and rng.random() < 0.05:
            # Out of turn: another player in the play lays a card (hoffmann's Law 15, peel).
            others = [s for s in hand.active() if s != seat and hand.hands[s]]
            if others:
                other = rng.choice(others)
                return Action.play(other, rng.choice(hand.hands[other]))
        pool = hand.hands[seat] if laws and rng.random() < 0.2 else options.legal.legal
        return Action.play(seat, rng.choice(pool))
    if options.kind == "replay":
        assert options.choices
        return Action("replay", seat, rng.choice(options.choices))
    assert options.kind == "declare" and options.choices, "a player must act but cannot"
    choice = rng.choice(options.choices)
    if choice == "play" and options.max_discards:
        discards = rng.sample(hand.hands[seat], rng.randint(0, options.max_discards))
        return Action.declare(seat, choice, discards)
    return Action.declare(seat, choice)


def play_hand(
    table: Table,
    choose: Callable[[Hand], Action],
    may_refuse: Callable[[Hand, Action], bool],
    look: Callable[[Hand], None] | None = None,
) -> Hand:
    """Deal ``table``'s next hand and play it out, each action chosen by ``choose``; a refusal
    must be one ``may_refuse`` allows; ``look`` checks the hand before each action. After
    every action each of the 52 cards is somewhere, once."""
    hand = table.deal()
    steps = 0
    while not hand.over:
        if look is not None:
            look(hand)
        action = choose(hand)
        try:
            table.apply(action)
        except IllegalAction:
            assert may_refuse(hand, action), action
            continue
        steps += 1
        assert steps < 400, "the hand is stuck"
        cards = all_cards(hand)
        assert len(cards) == 52 and set(cards) == set(PACK)
    return hand


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in strings(k) + strings(v)]
    if isinstance(data, list | tuple):
        return [s for v in data for s in strings(v)]
    return []


def assert_view_hides(hand: Hand, seat: int) -> None:
    known = {hand.turn_up}
    if may_look(hand, seat):
        known |= set(hand.hands[seat])
    known |= set(hand.thrown.get(seat, ())) | set(hand.exchanged.get(seat, ()))
    known |= set(hand.seen)
    if hand.irregular is not None:
        # What he looked at where he should not (laws mode): he saw it, and paid for it.
        known |= set(hand.irregular.peeked.get(seat, ()))
        # A deal given up for a fresh one: what everyone saw of it tells nothing now.
        known |= set(hand.irregular.shown_before)
    if hand.flush is not None:
        known |= {c for f in hand.flush.flushes for c in f.cards}
    hidden = set(PACK) - known
    view = view_for(hand, seat)
    assert view.visible_cards() <= known
    hidden_words = re.compile("|".join(re.escape(c.display) for c in hidden) or "$^")
    for text in strings(view.to_dict()):
        assert CODES.get(text) not in hidden, (seat, text)
        assert not hidden_words.search(text), (seat, text)


@given(
    st.sampled_from(COMBOS),
    st.integers(2, 9),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_sessions_of_random_hands_keep_every_invariant(
    combo: tuple[str, str], players: int, seed: int, laws: bool
) -> None:
    game, preset = combo
    # Widen the preset's table size where needed: the engine plays 2 to 16 (10) players.
    rules = RuleSet.preset(preset).with_options({"players-3c": "2-16", "players-5c": "2-10"})
    table = Table(TableConfig(game, rules, players, seed, laws=laws))
    rng = random.Random(seed)
    total = table.chips()

    def look(hand: Hand) -> None:
        for seat in range(players):
            assert_view_hides(hand, seat)

    for n in range(50):
        hand = play_hand(
            table,
            lambda hand: random_action(hand, rng, laws),
            lambda hand, _: laws and hand.rules.penalties == "none" or hand.replaying,
            look if n < 2 else None,
        )
        assert table.chips() == total, "a settlement created or lost counters"
        # Nothing outside the catalogue is cited: not in the trace, not in the settlement.
        cited = {r for e in hand.events for r in e.rules} | {p.rule for p in hand.payments}
        cited |= {o.rule for o in hand.offences} | {o.penalty for o in hand.offences}
        assert cited <= RULE_IDS, cited - RULE_IDS
        if n < 3:
            assert Hand.replay(hand.setup, hand.log).to_dict() == hand.to_dict()
            for seat in range(players):
                assert_view_hides(hand, seat)


@given(
    st.sampled_from(COMBOS),
    st.integers(2, 9),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_the_quiet_options_are_the_explained_options_without_the_words(
    combo: tuple[str, str], players: int, seed: int, laws: bool
) -> None:
    """The fast path the bots, simulations and benchmark take (``explain=False``) offers
    exactly what the explaining path offers, at every decision of whole random hands."""
    game, preset = combo
    rules = RuleSet.preset(preset).with_options({"players-3c": "2-16", "players-5c": "2-10"})
    table = Table(TableConfig(game, rules, players, seed, laws=laws, trace=seed % 2 == 0))
    rng = random.Random(seed)
    for _ in range(8):
        hand = table.deal()
        while not hand.over:
            # Both orders: each answer is remembered until the next action.
            quiet = hand.options(explain=False)
            explained = hand.options()
            again = hand.options(explain=False)
            for o in (quiet, again):
                assert (o.seat, o.kind, o.choices, o.max_discards, o.civil_call) == (
                    explained.seat,
                    explained.kind,
                    explained.choices,
                    explained.max_discards,
                    explained.civil_call,
                )
            if explained.kind == "play":
                assert quiet.legal is not None and explained.legal is not None
                fresh = legal(hand.position(explained.seat), explain=False)
                assert quiet.legal.legal == explained.legal.legal == fresh.legal
                # A quiet answer has no words, or the very ones already worked out (the hand
                # remembers the explained answer until the next action).
                assert (quiet.legal.explanations, quiet.legal.notes) in (
                    ((), ()),
                    (explained.legal.explanations, explained.legal.notes),
                )
                assert quiet.legal.position == explained.legal.position
            else:
                assert quiet.explanations == explained.explanations
            try:
                table.apply(random_action(hand, rng, laws))
            except IllegalAction:
                assert laws


LAWS_COMBOS = [
    (game, preset) for preset in ("hoffmann", "peel") for game in RuleSet.preset(preset).games
]


def assert_offences_told(hand: Hand) -> None:
    """Every offence is one line of the trace, and the settlement names each (issue 12)."""
    assert sum(1 for e in hand.events if e.kind == "offence") == len(hand.offences)
    penalties = " ".join(e.text for e in hand.events if e.kind == "penalty")
    for offence in hand.offences:
        assert render(offence_part(offence), None) in penalties, offence
    # Nobody retired under Law 15 is looed (A50); nobody pays two loos in a hand.
    assert not set(hand.looed) & set(hand.retired)
    loo_rules = {"looed"} | (
        {o.penalty for o in hand.offences} if hand.rules.penalties == "peel-looed-replay" else set()
    )
    for seat in range(hand.players):
        loos = [p for p in hand.payments if p.payer == seat and p.rule in loo_rules]
        assert len(loos) <= 1, loos


@given(st.sampled_from(LAWS_COMBOS), st.integers(3, 7), st.integers(0, 2**32))
def test_laws_mode_sessions_of_careless_players_keep_every_invariant(
    combo: tuple[str, str], players: int, seed: int
) -> None:
    """Careless players (slipping often) and now and then a card played out of turn: counters
    are conserved, every card is somewhere, a replay of the log equals the state, each view
    hides what it must, and every offence is told once and named at the settlement."""
    game, preset = combo
    rules = RuleSet.preset(preset).with_options({"players-3c": "2-16", "players-5c": "2-10"})
    table = Table(TableConfig(game, rules, players, seed, laws=True))
    bots = [CarelessBot(f"{seed}:{s}", slip=0.4) for s in range(players)]
    rng = random.Random(seed)
    total = table.chips()

    def choose(hand: Hand) -> Action:
        seat = hand.to_act
        assert seat is not None
        others = [s for s in hand.active() if s != seat and hand.hands[s]]
        if hand.phase == "play" and others and rng.random() < 0.05:
            other = rng.choice(others)
            return Action.play(other, rng.choice(hand.hands[other]))
        if hand.phase == "replay":
            # Law 16: a careless player lets the result stand; demand it now and then.
            return Action("replay", seat, rng.choice(("demand", "decline")))
        return bots[seat].decide(view_for(hand, seat)).action

    def look(hand: Hand) -> None:
        assert_view_hides(hand, rng.randrange(players))

    for n in range(20):
        # Only a card out of turn in a replay is refused (the laws apply to the first play).
        hand = play_hand(
            table,
            choose,
            lambda hand, action: hand.replaying and action.seat != hand.to_act,
            look if n < 3 else None,
        )
        assert table.chips() == total, "a settlement created or lost counters"
        assert_offences_told(hand)
        if n < 5:
            assert Hand.replay(hand.setup, hand.log).to_dict() == hand.to_dict()
            assert Hand.from_dict(hand.to_dict()).to_dict() == hand.to_dict()
            for s in range(players):
                assert_view_hides(hand, s)
