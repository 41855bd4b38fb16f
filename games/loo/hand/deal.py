"""The stake and the deal: RULES.md 1.1, 1.2 and 1.10.

- ``ante``, ``stake-divisible``: the dealer puts up the stake, or everyone does to a fresh pool
  (a pool a loo fills again needs none);
- ``double``: the pool holds more than the fresh stake, carried from the last deal;
  ``single``: after a hand with no loo (and the first deal), or whenever the pool holds only
  the fresh stake, as the rule set defines it;
- ``must``: a three-card hand nobody may pass (with a miss, or without one); peel's single, a
  deal of one card face up to each player, is dealt by :mod:`.single`;
- ``deal-order``: one card at a time from the dealer's left, the miss straight after the
  dealer's own card, five-card Loo in the batches the rule set names (or a stacked pack,
  :func:`stack_pack`); ``turn-up-trump``: the next card fixes trumps;
- ``club-law``: clubs trumps, everyone plays; the miss is withdrawn to the stock unseen.

The exchange of five-card and Irish Loo begins at once (a flush shown at once is looked for
at the first turn: :mod:`.showing`); three-card Loo's declarations follow (:mod:`.declare`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import itemgetter
from typing import Any, Final

from ..cards import PACK, Card, card
from ..errors import LooError
from ..messages import msg
from ..play import Trumps
from ..rng import deal_rng, shuffled_pack
from ..rulesets import HAND_SIZE, RuleSet
from .state import HandState


class DealPhase(HandState):
    """The stake, the deal and the turn-up."""

    __slots__ = ()

    def _deal(self) -> None:
        s = self.setup
        rules = self.rules
        # The stake (RULES.md 1.2, ante).
        fresh = s.first or s.prev_no_loo or (s.prev_flush and rules.flush_loos_to == "holder")
        if rules.ante == "all-players-fresh-pool":
            if fresh:
                for seat in self.seat_order():
                    self._pay(seat, None, self.stake, "ante", _PAY_FRESH)
                if self._trace:
                    self._event(
                        "ante",
                        msg("ante.fresh", n=self.stake),
                        None,
                        ["ante", "stake-divisible"],
                    )
            else:
                if self._trace:
                    self._event("ante", msg("ante.loos"), None, ["ante"])
        else:
            self._pay(self.dealer, None, self.stake, "ante", _PAY_DEALER_STAKE)
            if self._trace:
                self._event(
                    "ante",
                    msg("ante.dealer", n=self.stake),
                    self.dealer,
                    ["ante", "stake-divisible"],
                )
        # RULES.md double: the pool holds more than the fresh stake, carried from the last deal.
        self.double = s.pool > 0
        # RULES.md single: after a hand with no loo (and the first deal), or whenever the pool
        # holds only the fresh stake, as the rule set defines it.
        fresh_stake = (
            self.stake * self.players if rules.ante == "all-players-fresh-pool" else self.stake
        )
        if rules.single_definition == "after-no-loo":
            self.single = s.first or s.prev_no_loo
        else:
            self.single = self.pool == fresh_stake
        if s.prev_flush:
            # After a flush "the next deal becomes a single" (peel p. 28; A52), where the rule
            # set says so.
            self.single = self.single or rules.flush_next_deal == "single"
        single = self.single
        if self.single_deal_applies():
            # Peel's single: one card face up to each player (A39; :mod:`.single`).
            self._single_deal(
                shuffled_pack(deal_rng(s.seed, s.hand_number))
                if not s.pack
                else [card(c) for c in s.pack]
            )
            return
        # A must (RULES.md 1.10): a three-card device.
        must = rules.must
        self.must = self.game == "three-card" and (
            (must == "after-no-loo" and s.prev_no_loo)
            or (must == "first-deal+after-no-loo" and (s.first or s.prev_no_loo))
            or (must == "pool-is-single" and single)
            or (
                # The reconstruction of peel's single withdrawn in 2026 (A39), kept for the
                # questions of versions 2 and 3 (questions.base.rules_at).
                must == "first-deal+after-no-loo+after-flush"
                and (s.first or s.prev_no_loo or s.prev_flush)
            )
        )
        self._deal_cards(shuffled_pack(deal_rng(s.seed, s.hand_number)) if not s.pack else None)

    def _deal_cards(self, pack: list[Card] | None) -> None:
        """The cards (RULES.md 1.1, deal-order): ``pack`` shuffled, or the setup's stacked
        pack (None); then the turn-up, club law, and the first turn."""
        s = self.setup
        rules = self.rules
        deal_miss = (
            self.game == "three-card"
            and not (self.must and rules.must_miss == "none")
            and not s.last_round
        )
        if pack is None:
            assert s.pack is not None
            pack = [card(c) for c in s.pack]
        size = HAND_SIZE[self.game]
        out = dealer_out(self.game, rules, self.players)
        seats, to_miss, i = _deal_plan(
            self.game, rules.deal_5c, self.players, self.dealer, deal_miss, out
        )
        if len(pack) > i:
            hands = [list(take(pack)) for take in seats]
            miss = list(to_miss(pack)) if deal_miss else []
        else:  # a short stacked pack: deal what there is (the turn-up is then missing)
            hands = [[] for _ in range(self.players)]
            miss = []
            receivers = deal_order(self.game, rules, self.players, self.dealer, deal_miss)
            for c, receiver in zip(pack, receivers, strict=False):
                (miss if receiver is None else hands[receiver]).append(c)
        self.turn_up = pack[i]
        self.stock = pack[i + 1 :]
        self.hands = hands
        self.dealt = list(map(list, self.hands))
        self.miss = miss if deal_miss else None
        trump = self.turn_up.suit
        self.trumps = Trumps.of(self.game, rules, trump)
        self.pool_at_start = self.pool
        if self._trace:
            self._event(
                "deal",
                msg(
                    "deal.miss" if deal_miss else "deal.cards",
                    n=size,
                    turn_up=self.turn_up,
                    suit=trump,
                ),
                self.dealer,
                ["deal-order", "turn-up-trump"],
                [self.turn_up],
            )
        if self.must and self._trace:
            self._event("must", msg("must.miss" if deal_miss else "must.no-miss"), None, ["must"])
        if s.last_round and self._trace:
            # A54: "all 'stand' on the last round, and there is no 'miss'" (p. 17).
            self._event("last-round", msg("last-round"), None, ["round-continues-until-no-loo"])
        if out:
            # A54: he deals, but takes no part in the declaring or the play.
            self.declared[self.dealer] = "out"
            if self._trace:
                self._event(
                    "dealer-out", msg("dealer.stands-out", d=self.dealer), None, ["players"]
                )
        club_games = rules.club_law_games
        if (
            rules.club_law == "on"
            and trump == "C"
            and (club_games == "both" or (club_games == "five-card") == (self.game == "five-card"))
        ):
            self.club_law = True
            if self.miss is not None:
                # The miss is withdrawn to the stock unseen (peel p. 26).
                self.stock.extend(self.miss)
                self.miss = None
                self.miss_withdrawn = True
            if self._trace:
                # A53: the miss was dealt before the turn-up showed clubs; the trace says it goes.
                key = "club-law.miss-withdrawn" if self.miss_withdrawn else "club-law"
                self._event("club-law", msg(key), None, ["club-law"])
        self.phase = "declare" if self.game == "three-card" else "exchange"
        self.to_act = (self.dealer + 1) % self.players
        if self.phase == "exchange":
            self._check_flush_at_turn()


_PAY_FRESH: Final = msg("pay.fresh-pool")
_PAY_DEALER_STAKE: Final = msg("pay.dealer-stake")


def dealer_out(game: str, rules: RuleSet, players: int) -> bool:
    """A54: above five players the dealer stands out of his deal, where the table agrees
    (``dealer-sits-out-over-five``; peel p. 16, a three-card description): he deals himself no
    cards and neither pays nor receives on the tricks."""
    return game == "three-card" and rules.dealer_sits_out_over_five == "on" and players > 5


def deal_order(
    game: str, rules: RuleSet, players: int, dealer: int, with_miss: bool
) -> list[int | None]:
    """Who receives each card of the pack, top first (None: the miss), before the turn-up.

    One at a time from the dealer's left, the miss served straight after the dealer's own card
    (peel p. 23; A37; where the dealer stands out, in its place); five-card Loo in the batches
    the rule set names.
    """
    out = dealer_out(game, rules, players)
    return list(_deal_order(game, rules.deal_5c, players, dealer, with_miss, out))


@cache
def _deal_order(
    game: str, deal_5c: str, players: int, dealer: int, with_miss: bool, out: bool = False
) -> tuple[int | None, ...]:
    size = HAND_SIZE[game]
    pattern = [1] * size
    if game == "five-card" and deal_5c == "3-then-2":
        pattern = [3, 2]
    elif game == "five-card" and deal_5c == "2-and-3":
        pattern = [2, 3]
    order = [(dealer + 1 + k) % players for k in range(players)]
    receivers: list[int | None] = []
    for batch in pattern:
        for seat in order:
            if not (out and seat == dealer):
                receivers.extend([seat] * batch)
            if seat == dealer and with_miss:
                receivers.extend([None] * batch)
    return tuple(receivers)


@cache
def _deal_plan(
    game: str, deal_5c: str, players: int, dealer: int, with_miss: bool, out: bool = False
) -> tuple[tuple[itemgetter[Any], ...], itemgetter[Any], int]:
    """:func:`deal_order` as one getter per seat (and one for the miss) of the places in the
    pack each receives, and how many cards are dealt before the turn-up. Every hand holds at
    least three cards, so each getter returns a tuple (a dealer standing out: an empty one)."""
    receivers = _deal_order(game, deal_5c, players, dealer, with_miss, out)
    none = itemgetter(slice(0, 0))
    seats = tuple(
        itemgetter(*[i for i, r in enumerate(receivers) if r == seat])
        if not (out and seat == dealer)
        else none
        for seat in range(players)
    )
    miss = [i for i, r in enumerate(receivers) if r is None]
    return seats, itemgetter(*miss) if len(miss) > 1 else itemgetter(slice(0, 0)), len(receivers)


def stack_pack(
    game: str,
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[str]],
    turn_up: str,
    miss: Sequence[str] | None = None,
    stock: Sequence[str] = (),
) -> tuple[str, ...]:
    """A pack that deals exactly these hands (by seat), miss and turn-up; ``stock`` gives the
    top of the stock, and the rest of the pack follows in the usual order."""
    per_seat = [list(h) for h in hands]  # a dealer standing out (A54): no cards
    miss_cards = list(miss or ())
    pack: list[str] = []
    for seat in deal_order(game, rules, players, dealer, miss is not None):
        pack.append(miss_cards.pop(0) if seat is None else per_seat[seat].pop(0))
    pack.append(turn_up)
    pack.extend(stock)
    used = set(pack)
    if len(used) != len(pack):
        raise LooError("a card is stacked twice")
    pack.extend(c.code for c in PACK if c.code not in used)
    return tuple(pack)
