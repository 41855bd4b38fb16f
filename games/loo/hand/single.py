"""Peel's single deal: RULES.md ``single``, read as A39 (revised 2026-11-25 from p. 18).

"The first dealer … proceeds to distribute the cards for what is termed a single, a term
denoting that merely the dealer's stake is to be played for. … the dealer turns the top card
face upwards in the middle of the table, and then distributes one card, similarly exposed, to
each player. If either of the players receives a higher card of the same suit as the one turned
up, he wins the amount in the pool. If two or more receive superior cards, the higher takes the
stake. The others are looed … It is usually agreed that the penalty for a loo on the single
shall be half the amount of the ordinary loo, or the same amount as for a deal. If neither
player receives a higher card of the same suit as that turned up all are looed, and the amount
in the pool remains" (peel p. 18).

Where the rule set plays it (``single-deal`` = ``one-card``): three-card Loo, on the first deal
and after every hand in which nobody was looed ("it becomes a single again, and the cards are
dealt as already described for that round (see p. 18)", p. 21). Never at five-card Loo (A52:
there "the next deal becomes a single" means only the dealer's stake is in the pool).

The hand has no decision: the dealer has staked (:mod:`.deal`), the cards fall face up, the
pool is won or stays, and the loos go to the pool for the next deal (``single-loo``: half the
full loo, or the price of a deal). Someone is always looed on a single deal, so the deal after
it is an ordinary one with the miss. With ``dealer-sits-out-over-five`` (A54) and more than five
players, the dealer deals no card to himself and is not looed: he stands out of his deal.
"""

from __future__ import annotations

from typing import Final

from ..cards import Card
from ..messages import msg
from ..play import Trumps
from .deal import dealer_out
from .state import HandState

#: The rule every line of a single deal applies.
RULE: Final = "single"


class SingleDealPhase(HandState):
    """Peel's single deal, from the turn-up to the loos."""

    __slots__ = ()

    def single_deal_applies(self) -> bool:
        """Whether this hand is a single deal under its rule set (see the module)."""
        s = self.setup
        return (
            self.rules.single_deal == "one-card"
            and self.game == "three-card"
            and (s.first or s.prev_no_loo)
            and not s.last_round
        )

    def single_loo(self) -> int:
        """The price of a loo on the single (``single-loo``): half the full loo (rounded
        down), or the price of a deal."""
        if self.rules.single_loo == "deal-amount":
            return self.stake
        return self.loo_amount() // 2

    def _single_deal(self, pack: list[Card]) -> None:
        receivers = self.seat_order()
        if dealer_out(self.game, self.rules, self.players):
            receivers.remove(self.dealer)
        self.turn_up = turn_up = pack[0]
        trump = turn_up.suit
        self.trumps = Trumps.of(self.game, self.rules, trump)
        self.hands = [[] for _ in range(self.players)]
        for seat, c in zip(receivers, pack[1:], strict=False):
            self.hands[seat].append(c)
        self.dealt = [list(h) for h in self.hands]
        self.stock = pack[1 + len(receivers) :]
        self.miss = None
        self.seen = [c for seat in receivers for c in self.hands[seat]]
        self.pool_at_start = self.pool
        trace = self._trace
        if trace:
            self._event(
                "single-deal",
                msg("single.deal", turn_up=turn_up, suit=trump),
                self.dealer,
                [RULE],
                [turn_up],
            )
            for seat in receivers:
                self._event(
                    "single-card",
                    msg("single.card", p=seat, card=self.hands[seat][0]),
                    seat,
                    [RULE],
                    self.hands[seat],
                )
        above = [
            (c.value, seat)
            for seat in receivers
            for c in self.hands[seat]
            if c.suit == trump and c.value > turn_up.value
        ]
        loo = self.single_loo()
        self.phase = "over"
        self.to_act = None
        self.outcome = "single-deal"
        if above:
            winner = max(above)[1]
            takes = self.pool
            self._pay(None, winner, takes, RULE, _PAY_SINGLE_WIN)
            self.in_play = [winner]
            looed = [seat for seat in receivers if seat != winner]
            if trace:
                self._event(
                    "settle",
                    msg("single.wins", p=winner, card=self.hands[winner][0], suit=trump, n=takes),
                    winner,
                    [RULE],
                    self.hands[winner],
                )
        else:
            looed = list(receivers)
            if trace:
                self._event(
                    "settle",
                    msg("single.none", turn_up=turn_up, suit=trump, n=self.pool),
                    None,
                    [RULE],
                )
        for seat in looed:
            self._pay(seat, None, loo, RULE, _PAY_SINGLE_LOO)
            if trace:
                self._event("settle", msg("single.looed", p=seat, n=loo), seat, [RULE])
        self.looed = looed
        self.no_loo = not looed
        self._finish()


_PAY_SINGLE_WIN: Final = msg("pay.single-win")
_PAY_SINGLE_LOO: Final = msg("pay.single-loo")
