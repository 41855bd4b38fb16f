"""The settlement: RULES.md 1.2 (and the pool won without play, 1.3).

- ``pool-division``: a share of the pool for each trick; ``indivisible-pool-rounding``: the odd
  counters to the earliest tricks;
- ``looed``: a player in the play who takes no trick pays a loo, ``limited-loo`` (fixed),
  ``unlimited-loo`` (the pool) or ``mixed-loo`` (the pool up to a cap) as the rule set says;
- ``dealer-defends-miss`` (and britannica's ``master``, played for the pool too): the shares
  of the defender's tricks stay in the pool, and he cannot be looed; so do the shares of an
  offender's tricks (``penalty-destination``; the penalties themselves are in :mod:`.laws`);
- ``all-pass-dealer-wins``, ``miss-holder-alone-wins``: the one player left takes the pool.
"""

from __future__ import annotations

from typing import Final

from ..messages import msg
from ..rulesets import HAND_SIZE
from .state import HandState, Payment


class SettlePhase(HandState):
    """Paying out the pool and the loos, and reading the result."""

    __slots__ = ()

    def loo_rule(self) -> str:
        """The rule that sets the price of a loo under these rules."""
        return {"fixed": "limited-loo", "pool": "unlimited-loo"}.get(
            self.rules.loo_payment, "mixed-loo"
        )

    def loo_amount(self) -> int:
        """What a loo costs (RULES.md limited-loo, unlimited-loo, mixed-loo; A31)."""
        rules = self.rules
        if rules.loo_payment == "fixed":
            return rules.loo_amount * self.stake
        if rules.loo_payment == "pool":
            return self.pool_at_start
        return min(self.pool_at_start, rules.loo_cap * self.stake)

    def _settle_single_winner(self, seat: int, outcome: str, rule: str) -> None:
        self.phase = "over"
        self.to_act = None
        self.outcome = outcome
        self.in_play = [seat]
        self._pay(None, seat, self.pool, rule, _PAY_WITHOUT_PLAY)
        self.no_loo = True
        self._finish()

    def _settle_tricks(self) -> None:
        self.phase = "over"
        self.to_act = None
        self.outcome = "played"
        tricks = self.tricks
        offences = self.offences
        forfeit = {o.seat for o in offences} if offences and self.rules.penalties != "none" else ()
        defender = self.defender
        pool = self.pool
        share, remainder = divmod(pool, HAND_SIZE[self.game])
        division = "pool-division" if not remainder else "indivisible-pool-rounding"
        for i, trick in enumerate(tricks):
            amount = share + (1 if i < remainder else 0)
            winner = trick.winner
            assert winner is not None
            if amount == 0:
                continue
            if winner != defender and winner not in forfeit:
                self._pay(None, winner, amount, division, _TRICK_REASONS[i])
                continue
            if winner == defender:
                reason = msg("pay.trick-for-pool", n=i + 1)
                if self._trace:
                    self._event(
                        "settle",
                        msg("settle.trick-for-pool", n=i + 1, amount=amount),
                        winner,
                        ["dealer-defends-miss"],
                    )
                self.payments.append(Payment(None, None, amount, "dealer-defends-miss", reason))
                continue
            if winner in forfeit:
                self.payments.append(
                    Payment(
                        None,
                        None,
                        amount,
                        "penalty-destination",
                        msg("pay.trick-offender", n=i + 1),
                    )
                )
        won = dict.fromkeys(self.in_play, 0)
        for trick in tricks:
            if trick.winner in won:
                won[trick.winner] += 1
        loo = self.loo_amount()
        retired = self.retired
        self.looed = [s for s, n in won.items() if n == 0 and s != defender and s not in retired]
        for s in self.looed:
            self._pay(s, None, loo, "looed", _PAY_LOOED)
        if offences:
            self._apply_penalties(loo)
        self.no_loo = not self.looed
        if self._trace:
            for s in self.in_play:
                if won[s]:
                    self._event("settle", msg("settle.took", p=s, n=won[s]), s, ["pool-division"])
            for s in self.looed:
                self._event(
                    "settle", msg("settle.looed", p=s, n=loo), s, ["looed", self.loo_rule()]
                )
        self._finish()

    def _finish(self) -> None:
        self.phase = "over"
        self.to_act = None

    def tricks_won(self) -> dict[int, int]:
        return {s: sum(1 for t in self.tricks if t.winner == s) for s in self.in_play}

    def chips(self) -> int:
        return sum(self.balances) + self.pool


# The reasons of payments, made once (a message is never changed once made).
_TRICK_REASONS: Final = tuple(msg("pay.trick", n=i + 1) for i in range(max(HAND_SIZE.values())))
_PAY_WITHOUT_PLAY: Final = msg("pay.without-play")
_PAY_LOOED: Final = msg("pay.looed")
