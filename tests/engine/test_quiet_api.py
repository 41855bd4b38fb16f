"""The quiet API (``Hand.choices``, ``Hand.discard_limit``, ``Hand.step``, ``Table.step``)
against the full one (``Hand.options``, ``legal``, ``Table.apply``), at every decision of
whole random sessions: every game x preset, 2-9 players, learning and laws mode."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.loo import PACK, PRESET_IDS, RuleSet, legal
from games.loo.cards import Card
from games.loo.hand import Action, Hand, IllegalAction
from games.loo.table import Table, TableConfig

COMBOS = [(game, preset) for preset in PRESET_IDS for game in RuleSet.preset(preset).games]


def random_decision(hand: Hand, rng: random.Random, laws: bool) -> Action:
    """A random decision, as tests/engine/test_hand_properties.py draws them (in laws mode
    sometimes an irregular card; sometimes "Pam, be civil" with the ace of trumps led)."""
    options = hand.options(explain=False)
    seat = options.seat
    if options.kind == "play":
        assert options.legal is not None
        pool = hand.hands[seat] if laws and rng.random() < 0.2 else options.legal.legal
        played = rng.choice(pool)
        civil = options.civil_call and played is hand.trumps.ace and rng.random() < 0.5
        return Action.play(seat, played, civil)
    choice = rng.choice(options.choices)
    if choice == "play" and options.max_discards:
        discards = rng.sample(hand.hands[seat], rng.randint(0, options.max_discards))
        return Action.declare(seat, choice, discards)
    if options.kind == "replay":
        return Action("replay", seat, choice)
    return Action.declare(seat, choice)


def quiet_form(hand: Hand, action: Action) -> tuple[Card | str, list[Card]] | None:
    """``action`` as a choice and discards for :meth:`Hand.step`, if it is one of
    :meth:`Hand.choices` (not a "Pam, be civil" call, not an irregular play)."""
    offered = hand.choices()
    if action.seat != hand.to_act or action.civil:
        return None
    if action.kind == "play":
        played = next(c for c in PACK if c.code == action.cards[0])
        return (played, []) if played in offered else None
    if action.choice not in offered:
        return None
    return action.choice, [next(c for c in PACK if c.code == code) for code in action.cards]


def assert_choices_agree(hand: Hand) -> None:
    quiet = hand.choices()
    explained = hand.options()
    if explained.kind == "none":
        assert quiet == () and hand.discard_limit() == 0
    elif explained.kind == "play":
        assert explained.legal is not None
        fresh = legal(hand.position(explained.seat), explain=False)
        assert quiet == explained.legal.legal == fresh.legal
        assert hand.discard_limit() == 0
    else:
        assert quiet == explained.choices
        assert hand.discard_limit() == explained.max_discards
    # Asked again, or after the explained options: the same answer.
    assert hand.choices() == quiet


def refused_leaves_unchanged(hand: Hand, choice: Card | str, discards: list[Card]) -> None:
    before = hand.to_dict()
    with pytest.raises(IllegalAction):
        hand.step(choice, discards)
    assert hand.to_dict() == before


def try_something_not_offered(hand: Hand, rng: random.Random) -> None:
    """``step`` refuses what :meth:`Hand.choices` does not offer, and changes nothing."""
    offered = hand.choices()
    seat = hand.to_act
    assert seat is not None
    if hand.phase == "play":
        not_offered = [c for c in PACK if c not in offered]
        refused_leaves_unchanged(hand, rng.choice(not_offered), [])
        held_illegal = [c for c in hand.hands[seat] if c not in offered]
        if held_illegal:
            # Refused with the rule that excludes it, as the explained legal moves give it.
            with pytest.raises(IllegalAction) as refused:
                hand.step(held_illegal[0])
            assert refused.value.application is not None
            why = hand.legal_moves(seat).why_not(held_illegal[0])
            assert refused.value.application == why
        first = offered[0]
        assert isinstance(first, Card)
        refused_leaves_unchanged(hand, first, [first])  # a card play has no discards
        refused_leaves_unchanged(hand, first.code, [])  # a card, not its code
        return
    words = ["play", "pass", "take-miss", "defend-miss", "defend-master", "demand", "decline"]
    others = [w for w in words if w not in offered]
    if others:
        refused_leaves_unchanged(hand, rng.choice(others), [])
    refused_leaves_unchanged(hand, rng.choice(PACK), [])
    held = hand.hands[seat]
    if hand.phase == "exchange" and "play" in offered:
        unheld = [c for c in PACK if c not in held]
        refused_leaves_unchanged(hand, "play", [rng.choice(unheld)])
        if held:
            refused_leaves_unchanged(hand, "play", [held[0], held[0]])
        if hand.discard_limit() < len(held):
            refused_leaves_unchanged(hand, "play", held[: hand.discard_limit() + 1])
    elif held and "pass" in offered:
        refused_leaves_unchanged(hand, "pass", held[:1])


@given(
    st.sampled_from(COMBOS),
    st.integers(2, 9),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_the_quiet_api_offers_and_does_what_the_full_api_does(
    combo: tuple[str, str], players: int, seed: int, laws: bool
) -> None:
    """Two tables with the same seed: one moved by ``Table.step`` wherever the decision is
    among ``Hand.choices()``, the other always by ``Table.apply``. At every decision the
    quiet choices are the options' (and ``legal()``'s), and the hands' states, logs and
    traces stay identical; at every hand's end, so do the tables'."""
    game, preset = combo
    rules = RuleSet.preset(preset).with_options({"players-3c": "2-16", "players-5c": "2-10"})
    config = TableConfig(game, rules, players, seed, laws=laws, trace=seed % 3 != 0)
    quiet, full = Table(config), Table(config)
    rng = random.Random(seed)
    stepped = 0
    for _ in range(6):
        hand, twin = quiet.deal(), full.deal()
        while not twin.over:
            assert_choices_agree(twin)
            if rng.random() < 0.2:
                try_something_not_offered(hand, rng)
            # Sometimes ask for the choices first (they are remembered), sometimes not.
            if rng.random() < 0.5:
                hand.choices()
            action = random_decision(twin, rng, laws)
            form = quiet_form(twin, action)
            try:
                full.apply(action)
            except IllegalAction:
                assert form is None
                with pytest.raises(IllegalAction):
                    quiet.apply(action)
                continue
            if form is None:
                quiet.apply(action)
            else:
                quiet.step(*form)
                stepped += 1
            assert hand.to_dict() == twin.to_dict()
            assert hand.log == twin.log
        assert hand.over and hand.choices() == () and hand.discard_limit() == 0
        with pytest.raises(IllegalAction):
            hand.step("pass")
        assert quiet.to_dict() == full.to_dict()
    assert stepped > 0
