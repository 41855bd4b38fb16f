"""Property tests over random positions, for every game under every preset that plays it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.loo import PACK, PRESET_IDS, Card, Position, RuleSet, legal, rule, trick_winner
from games.loo.catalogue import rule_ids
from games.loo.play import IllegalPlay
from games.loo.rulesets import HAND_SIZE

RANK_ORDER = "23456789TJQKA"  # low to high, written out independently of the engine

COMBOS = [(game, preset) for preset in PRESET_IDS for game in RuleSet.preset(preset).games]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    game, preset = draw(st.sampled_from(COMBOS))
    rules = RuleSet.preset(preset)
    trump = draw(st.sampled_from("SHDC"))
    size = HAND_SIZE[game]
    trick_number = draw(st.integers(1, size))
    declared = draw(st.integers(2, 6))
    pack = draw(st.permutations(PACK))
    turn_up_candidates = [c for c in pack if c.suit == trump]
    turn_up = turn_up_candidates[0]
    rest = [c for c in pack if c is not turn_up]
    hand_size = size - (trick_number - 1)
    hand = tuple(rest[:hand_size])
    trick_len = draw(st.integers(0, declared - 1))
    trick = tuple(rest[hand_size : hand_size + trick_len])
    played_len = draw(st.integers(0, (trick_number - 1) * declared))
    played = tuple(rest[hand_size + trick_len : hand_size + trick_len + played_len])
    civil = (
        game == "five-card" and bool(trick) and trick[0].code == "A" + trump and draw(st.booleans())
    )
    return Position(
        game=game,
        rules=rules,
        trump=trump,
        hand=hand,
        trick=trick,
        turn_up=turn_up,
        declared=declared,
        trick_number=trick_number,
        pam_be_civil=civil,
        played=played,
    )


def pam_of(p: Position) -> str | None:
    if p.game != "five-card":
        return None
    return "JC" if p.rules.pam == "club-knave" else "J" + p.trump


def suit_for_play(c: Card, p: Position) -> str:
    return p.trump if c.code == pam_of(p) else c.suit


@given(positions())
def test_the_legal_set_is_never_empty_and_lies_within_the_hand(p: Position) -> None:
    moves = legal(p)
    assert moves.legal
    assert set(moves.legal) <= set(p.hand)
    assert len(set(moves.legal)) == len(moves.legal)
    # The fast path the bots and simulations take gives the same cards, without the words.
    quiet = legal(p, explain=False)
    assert quiet.legal == moves.legal
    assert quiet.explanations == quiet.notes == ()


@given(positions())
def test_a_card_is_excluded_only_by_an_explanation_naming_a_rule(p: Position) -> None:
    moves = legal(p)
    known = rule_ids()
    for app in moves.explanations + moves.notes:
        assert app.rule in known
        assert app.text
        assert not set(app.excluded) & set(moves.legal)
    for c in p.hand:
        if c in moves.legal:
            moves.check(c)
        else:
            reasons = [a for a in moves.explanations if c in a.excluded]
            assert reasons, f"{c.code} excluded without a reason"
            try:
                moves.check(c)
            except IllegalPlay as e:
                assert e.application is not None
                assert c in e.application.excluded
                assert e.application.text in str(e)
            else:
                raise AssertionError(f"{c.code} is illegal but check() let it through")


@given(positions())
def test_a_player_who_can_follow_suit_plays_only_cards_that_follow(p: Position) -> None:
    if not p.trick:
        return
    led = suit_for_play(p.trick[0], p)
    if any(suit_for_play(c, p) == led for c in p.hand):
        assert all(suit_for_play(c, p) == led for c in legal(p).legal)


@given(positions())
def test_a_card_that_can_win_the_trick_is_not_passed_over(p: Position) -> None:
    """Heading and trumping: if some card would take the trick, only such cards are legal
    (the "Pam, be civil" call aside)."""
    if not p.trick or p.pam_be_civil:
        return
    moves = legal(p)
    led = suit_for_play(p.trick[0], p)
    followers = [c for c in p.hand if suit_for_play(c, p) == led]
    options = followers or list(p.hand)
    winners = [
        c for c in options if oracle_winner([*p.trick, c], p.trump, pam_of(p)) == len(p.trick)
    ]
    if winners:
        assert set(moves.legal) <= set(winners), (moves.legal, winners)


@given(positions())
def test_the_ace_of_trumps_is_led_whenever_a_lead_rule_binds(p: Position) -> None:
    if p.trick:
        return
    ace = "A" + p.trump
    scope = p.rules.lead_scope(p.game)
    binds = scope == "every-lead" or (scope == "first-lead-only" and p.trick_number == 1)
    if binds and ace in [c.code for c in p.hand] and p.rules.pam_ace_lead == "ace":
        assert [c.code for c in legal(p).legal] == [ace]


def oracle_winner(trick: list[Card], trump: str, pam: str | None) -> int:
    """Brute force: Pam first, then the highest trump, then the highest card of the suit led."""
    codes = [c.code for c in trick]
    if pam in codes:
        return codes.index(pam)
    led = trick[0].suit if trick[0].code != pam else trump
    best = -1
    best_key = (-1, -1)
    for i, c in enumerate(trick):
        if c.suit == trump:
            key = (2, RANK_ORDER.index(c.rank))
        elif c.suit == led:
            key = (1, RANK_ORDER.index(c.rank))
        else:
            key = (0, 0)
        if key > best_key:
            best, best_key = i, key
    return best


@given(positions(), st.data())
def test_the_trick_winner_agrees_with_a_brute_force_oracle(
    p: Position, data: st.DataObject
) -> None:
    others = [c for c in PACK if c not in p.hand and c is not p.turn_up]
    n = data.draw(st.integers(2, 6))
    trick = data.draw(st.permutations(others))[:n]
    result = trick_winner(p.game, p.rules, p.trump, trick)
    assert result.winner == oracle_winner(trick, p.trump, pam_of(p))
    assert result.card is trick[result.winner]
    assert all(rule(a.rule) for a in result.explanations)
