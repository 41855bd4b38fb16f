"""Property tests over thousands of seeded hands: every game x preset x 2-9 players, in
learning mode and laws mode, each a session of 50 hands with random decisions."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.loo import PACK, PRESET_IDS, RuleSet, legal
from games.loo.catalogue import rule_ids
from games.loo.hand import Action, Hand, IllegalAction
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
    if hand.flush is not None:
        known |= {c for f in hand.flush.flushes for c in f.cards}
    hidden = set(PACK) - known
    view = view_for(hand, seat)
    assert view.visible_cards() <= known
    hidden_words = re.compile("|".join(re.escape(c.display) for c in hidden) or "$^")
    for text in strings(view.to_dict()):
        assert CODES.get(text) not in hidden, (seat, text)
        assert not hidden_words.search(text), (seat, text)


@settings(max_examples=max(60, settings().max_examples), deadline=None)
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
    for n in range(50):
        hand = table.deal()
        steps = 0
        while not hand.over:
            if n < 2:
                for seat in range(players):
                    assert_view_hides(hand, seat)
            action = random_action(hand, rng, laws)
            try:
                table.apply(action)
            except IllegalAction:
                assert laws and hand.rules.penalties == "none" or hand.replaying
                continue
            steps += 1
            assert steps < 400, "the hand is stuck"
            cards = all_cards(hand)
            assert len(cards) == 52 and set(cards) == set(PACK)
        assert table.chips() == total, "a settlement created or lost counters"
        # Nothing outside the catalogue is cited: not in the trace, not in the settlement.
        cited = {r for e in hand.events for r in e.rules} | {p.rule for p in hand.payments}
        cited |= {o.rule for o in hand.offences} | {o.penalty for o in hand.offences}
        assert cited <= RULE_IDS, cited - RULE_IDS
        if n < 3:
            assert Hand.replay(hand.setup, hand.log).to_dict() == hand.to_dict()
            for seat in range(players):
                assert_view_hides(hand, seat)


@settings(max_examples=max(40, settings().max_examples), deadline=None)
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
