"""Flushes shown and paid (five-card Loo): RULES.md 1.9.

- ``flush-timing``: at once, a player showing his flush when his turn comes or when he draws
  it (A29); or under peel after everyone has declared, a thrown-up flush still counting;
- ``flush-loos-the-board``: the best flush takes the pool and the other players pay a loo, to
  the pool or to the holder as the rule set says; the hand is not played.

Which flush is best and who is excused from paying (``flush-precedence``, ``flush-tie-break``,
``flush-payment-exemption``) is :func:`~games.loo.flushes.compare_flushes`.
"""

from __future__ import annotations

from typing import Final

from ..flushes import compare_flushes, find_flush
from ..messages import msg, remap
from .state import HandState


class FlushPhase(HandState):
    """Looking for flushes, and showing and paying them."""

    __slots__ = ()

    def _check_flush_at_turn(self) -> None:
        """Immediate flushes (A29): a player holding a flush shows it when his turn comes."""
        seat = self.to_act
        if (
            self._immediate_flush
            and seat is not None
            and find_flush(self.hands[seat], self.trumps, seat) is not None
        ):
            self.declared[seat] = "play"
            self._show_flushes()

    def _show_flushes(self) -> None:
        """The flushes are shown and the best loos the board (RULES.md 1.9, A29).

        Every player's cards count as they stand: his hand, or the cards he threw up. Under
        ``immediate`` timing a passer cannot hold a flush (it would have been shown at his
        turn); under peel's ``after-declaring`` a thrown-up flush still counts and passers pay.
        """
        order = self.seat_order()
        hands = [self.hands[s] or self.thrown.get(s, []) for s in order]
        result = compare_flushes(self.game, self.rules, self.trump, hands, explain=self._trace)
        assert result.winner is not None
        winner = order[result.winner]
        self.flush = result
        self.outcome = "flush"
        for f in result.flushes:
            seat = order[f.seat]
            if self._trace:
                self._event(
                    "flush",
                    msg("flush.shown", p=seat, kind=f.kind_message, cards=f.cards),
                    seat,
                    ["flush-loos-the-board", "flush-timing"],
                    f.cards,
                )
        for app in result.explanations:
            if self._trace:
                self._event("flush", remap(app.message, order.__getitem__), winner, [app.rule])
        self._pay(None, winner, self.pool, "flush-loos-the-board", _PAY_FLUSH)
        loo = self.loo_amount()
        to_holder = self.rules.flush_loos_to == "holder"
        self.looed = [order[i] for i in result.pay]
        for s in self.looed:
            self._pay(
                s,
                winner if to_holder else None,
                loo,
                "flush-loos-the-board",
                _PAY_FLUSH_LOO_HOLDER if to_holder else _PAY_FLUSH_LOO_POOL,
            )
        self.no_loo = False
        self._finish()


_PAY_FLUSH: Final = msg("pay.flush")
_PAY_FLUSH_LOO_HOLDER: Final = msg("pay.flush-loo-holder")
_PAY_FLUSH_LOO_POOL: Final = msg("pay.flush-loo-pool")
