"""Finding a flush (RULES.md flush-loos-the-board, A26): five cards of one suit, or four of one
suit and Pam, whichever card Pam is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.loo import PACK, Card, RuleSet, card
from games.loo.flushes import find_flush
from games.loo.play import Trumps

HOFFMANN = RuleSet.preset("hoffmann")
KNAVE_OF_TRUMPS = HOFFMANN.with_options({"pam": "trump-knave"})


def trumps(game: str, rules: RuleSet, suit: str) -> Trumps:
    return Trumps.of(game, rules, suit)


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], Trumps]:
    """Trumps, and five cards: any five, or four or five of one suit with another card, often
    Pam, added (flushes are rare among random hands)."""
    game, rules = draw(
        st.sampled_from(
            [
                ("five-card", HOFFMANN),
                ("five-card", KNAVE_OF_TRUMPS),
                ("irish", RuleSet.preset("britannica")),
            ]
        )
    )
    t = Trumps.of(game, rules, draw(st.sampled_from("SHDC")))
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(PACK), min_size=5, max_size=5, unique=True)), t
    suit = draw(st.sampled_from("SHDC"))
    same = [c for c in PACK if c.suit == suit and c is not t.pam]
    count = draw(st.integers(4, 5))
    hand = draw(st.lists(st.sampled_from(same), min_size=count, max_size=count, unique=True))
    if count == 4:
        others = [c for c in PACK if c not in hand]
        pam = [t.pam] if t.pam is not None else others
        extra = draw(st.one_of(st.sampled_from(pam), st.sampled_from(others)))
        hand.insert(draw(st.integers(0, 4)), extra)
    return hand, t


@given(deals(), st.integers(0, 8))
def test_a_flush_is_five_of_a_suit_or_four_and_pam(
    deal: tuple[list[Card], Trumps], seat: int
) -> None:
    cards, t = deal
    pam = t.pam
    others = [c for c in cards if c is not pam]
    suits = {c.suit for c in others}
    found = find_flush(cards, t, seat)
    if len(suits) != 1:
        assert found is None
        return
    (flush_suit,) = suits
    assert found is not None
    assert (found.seat, found.suit, found.cards) == (seat, flush_suit, tuple(cards))
    assert found.trump == (flush_suit == t.suit)
    assert found.pam == (pam is not None and pam in cards)


def test_examples() -> None:
    clubs = trumps("five-card", HOFFMANN, "C")
    hearts = trumps("five-card", HOFFMANN, "H")
    hand = [card(c) for c in ("AH", "KH", "9H", "3H", "JC")]
    # Four hearts and Pam (the knave of clubs): a flush, with Pam, whatever the trumps.
    flush = find_flush(hand, hearts)
    assert flush is not None and flush.kind == "trump flush with Pam"
    flush = find_flush(hand, clubs)
    assert flush is not None and flush.kind == "plain flush with Pam"
    # With Pam the knave of trumps, the knave of clubs is a plain club: no flush.
    assert find_flush(hand, trumps("five-card", KNAVE_OF_TRUMPS, "H")) is None
    # At Irish Loo there is no Pam.
    assert find_flush(hand, trumps("irish", RuleSet.preset("britannica"), "H")) is None
    assert find_flush([card(c) for c in ("AS", "KS", "QS", "2S", "5S")], hearts) is not None
    assert find_flush([card(c) for c in ("AS", "KS", "QS", "2S")], hearts) is None
