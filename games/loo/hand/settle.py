"""The settlement: RULES.md 1.2 (and the pool won without play, 1.3).

- ``pool-division``: a share of the pool for each trick; ``indivisible-pool-rounding``: the odd
  counters to the earliest tricks;
- ``looed``: a player in the play who takes no trick pays a loo, ``limited-loo`` (fixed),
  ``unlimited-loo`` (the pool) or ``mixed-loo`` (the pool up to a cap) as the rule set says;
- ``dealer-defends-miss`` (and britannica's ``master``, played for the pool too): the shares
  of the defender's tricks stay in the pool, and he cannot be looed; so do the shares of an
  offender's tricks (``penalty-destination``; the penalties themselves are in :mod:`.laws`).
  The line of each player who took a trick says what became of its shares, and cites the rule
  that sent them where they went;
- ``all-pass-dealer-wins``, ``miss-holder-alone-wins``: the one player left takes the pool;
  so does the one left in the play when the others have thrown up their cards under
  hoffmann's Law 15 (reading A49), but for the shares of the tricks they had won (A51);
- an offender wins nothing (``offender-winnings``): under peel "In any case the player who
  transgressed the law does not win anything" (p. 22), so one left alone to take the pool
  without play leaves it for the next hand, and is looed; under hoffmann a player made to
  retire during the play by Law 6 (exposing another's cards) leaves in the pool the shares of
  the tricks he had won, as under Law 15 (A51). Under peel that is so for every offence but
  looking at the hands, declaring out of turn and a misdeal (A55): a player who interfered
  with the deal plays on, and the shares of the tricks he takes stay in the pool for the next
  deal (``interfering-winnings``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..messages import msg
from ..rulesets import HAND_SIZE
from .state import HandState, Payment, Trick


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
        if (
            self.rules.offender_winnings == "none"
            and self.rules.penalties == "peel-looed-replay"
            and (any(o.seat == seat for o in self.offences) or seat in self._no_winnings())
        ):
            # Peel p. 22: the offender wins nothing, and is looed (p. 24, 25).
            self.outcome = "offender"
            loo = self.loo_amount()
            self.looed = self._apply_penalties((), loo)
            self.no_loo = not self.looed
            if self._trace:
                rules = [rule, *(o.penalty for o in self.offences if o.seat == seat)]
                rules += [r for s, r in self._no_winnings().items() if s == seat]
                self._event(
                    "settle",
                    msg("settle.alone-offender", p=seat, n=self.pool),
                    seat,
                    [*dict.fromkeys(rules), "penalty-destination"],
                )
                self._tell_penalties(loo)
            self._finish()
            return
        self._pay(None, seat, self.pool, rule, _PAY_WITHOUT_PLAY)
        self.no_loo = True
        self._finish()

    def settle_tricks_taken(self, winners: Sequence[int]) -> None:
        """Settle the hand, its declaring done, as if its tricks had fallen to ``winners`` in
        turn, without the cards: a hand as a teacher describes it, "who took which trick"
        (:mod:`games.loo.questions.tables`). The settlement is the played hand's own."""
        if self.phase != "play" or self.tricks or len(winners) != HAND_SIZE[self.game]:
            raise AssertionError("a hand is settled by its tricks once its play has begun")
        self.tricks = [Trick(w, winner=w) for w in winners]
        self.trick = None
        self._settle_tricks()

    def _settle_tricks(self) -> None:
        self.phase = "over"
        self.to_act = None
        self.outcome = "played"
        tricks = self.tricks
        offences = self.offences
        forfeit = self._forfeit()
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
            self._keep_share(i, winner, amount)
        won = dict.fromkeys(self.in_play, 0)
        for trick in tricks:
            if trick.winner in won:
                won[trick.winner] += 1
        # A player retired by Law 6 during the play is out of the hand, and is not looed (as
        # one retired by Law 15, A50); the withdrawn reading looed him (versions 2-4).
        out = self.retired if self.rules.offender_winnings == "none" else ()
        loo = self.loo_amount()
        looed = [s for s, n in won.items() if n == 0 and s != defender and s not in out]
        released: list[int] = []
        if self.setup.last_round:
            # A54: on Peel's last round those who take no trick are released from the loo.
            released, looed = looed, []
        if offences:
            looed = self._apply_penalties(looed, loo)
        else:
            for s in looed:
                self._pay(s, None, loo, "looed", _PAY_LOOED)
        self.looed = looed
        self.no_loo = not looed
        if self._trace:
            self._tell_tricks(won, share, remainder)
            # An offender looed under peel has his line with his offences (_tell_penalties).
            penalised = forfeit if self.rules.penalties == "peel-looed-replay" else ()
            for s in looed:
                if s not in penalised:
                    self._event(
                        "settle", msg("settle.looed", p=s, n=loo), s, ["looed", self.loo_rule()]
                    )
            if offences:
                self._tell_penalties(loo)
            for s in released:
                self._event(
                    "settle", msg("settle.released", p=s), s, ["round-continues-until-no-loo"]
                )
        self._finish()

    def _settle_last_player(self, rule: str = "penalty-play-out-of-turn") -> None:
        """hoffmann's Law 15 has left one player in the play (reading A49): the others have
        thrown up their cards, so he takes the pool as if all the rest had passed ("all the
        rest throw up their cards, he is entitled to the pool", ¶3), less the shares of the
        tricks they had won, which stay in the pool (A51). Nobody is looed; only offenders
        pay. If he himself broke one of Laws 9-14 he wins nothing: an offender leaves in the
        pool what his cards would win (after Law 14). ``rule``: the law that made the last
        other player throw up his cards (Law 15 for playing out of turn, or exposing a card;
        Law 6 for seeing another's cards)."""
        (last,) = self.active()
        trick = self.trick
        if trick is not None:
            # The trick abandoned: its cards, seen by all, go with the cards thrown up.
            self.discards.extend(trick.laid)
        self.trick = None
        self.phase = "over"
        self.to_act = None
        self.outcome = "played"
        offender = any(o.seat == last for o in self.offences)
        share, remainder = divmod(self.pool, HAND_SIZE[self.game])
        kept = 0
        for i, t in enumerate(self.tricks):
            amount = share + (1 if i < remainder else 0)
            winner = t.winner
            assert winner is not None
            if amount and (winner != last or offender):
                self._keep_share(i, winner, amount)
                kept += amount
        takes = 0 if offender else self.pool - kept
        self._pay(None, last, takes, "miss-holder-alone-wins", _PAY_LAST_PLAYER)
        won = dict.fromkeys(self.in_play, 0)
        for t in self.tricks:
            if t.winner in won:
                won[t.winner] += 1
        loo = self.loo_amount()
        self.looed = self._apply_penalties((), loo)
        self.no_loo = not self.looed
        if self._trace:
            key = "settle.last-player-offender" if offender else "settle.last-player"
            self._event(
                "settle",
                msg(key, p=last, n=self.pool if offender else takes),
                last,
                [rule, "miss-holder-alone-wins"],
            )
            self._tell_tricks(won, share, remainder, last)
            self._tell_penalties(loo)
        self._finish()

    def _forfeit(self) -> set[int]:
        """Who wins no share of the pool by his tricks: the offenders (where the rules state
        penalties), and, under ``offender-winnings`` = ``none``, anyone made to retire."""
        forfeit: set[int] = set()
        if self.rules.penalties != "none":
            forfeit.update(o.seat for o in self.offences)
        if self.rules.offender_winnings == "none":
            forfeit.update(self.retired)
        forfeit.update(self._no_winnings())
        return forfeit

    def _no_winnings(self) -> dict[int, str]:
        """Who plays on but wins nothing (peel's interfering with the deal, A55), and the rule
        that says so."""
        irregular = self.irregular
        return irregular.no_winnings if irregular is not None else {}

    def _keep_share(self, i: int, winner: int, amount: int) -> None:
        """Trick ``i + 1``'s share stays in the pool: its winner played for the pool, or
        offended."""
        if winner == self.defender:
            payment = Payment(
                None, None, amount, "dealer-defends-miss", msg("pay.trick-for-pool", n=i + 1)
            )
        else:
            payment = Payment(
                None, None, amount, "penalty-destination", msg("pay.trick-offender", n=i + 1)
            )
        self.payments.append(payment)

    def _tell_tricks(
        self, won: dict[int, int], share: int, remainder: int, last: int | None = None
    ) -> None:
        """The line of each player who took a trick (``last``, who took the pool, aside):
        what his tricks won, or why their shares stay in the pool, with the rule that says
        so."""
        offences = self.offences
        offenders = {o.seat for o in offences}
        if self.rules.offender_winnings == "none":
            offenders.update(self.retired)
        nothing = self._no_winnings()
        offenders.update(nothing)
        for s, n in won.items():
            if not n or s == last:
                continue
            if s != self.defender and s not in offenders:
                self._event("settle", msg("settle.took", p=s, n=n), s, ["pool-division"])
                continue
            amount = sum(
                share + (1 if i < remainder else 0)
                for i, t in enumerate(self.tricks)
                if t.winner == s
            )
            if s == self.defender:
                key, rules = "settle.took-for-pool", ["dealer-defends-miss"]
            elif s in nothing and not any(o.seat == s for o in offences):
                key, rules = "settle.took-nothing", [nothing[s], "penalty-destination"]
            else:
                key = "settle.took-retired" if s in self.retired else "settle.took-forfeit"
                rules = [o.penalty for o in offences if o.seat == s]
                irregular = self.irregular
                if not rules and irregular is not None:
                    rules = [irregular.retiring[s]]  # retired by Law 6, no offence recorded
                rules = [*dict.fromkeys(rules), "penalty-destination"]
            self._event("settle", msg(key, p=s, n=n, amount=amount), s, rules)

    def _finish(self) -> None:
        self.phase = "over"
        self.to_act = None
        irregular = self.irregular
        if irregular is not None:
            # Penalties for the next deal's pool (a loo under peel, p. 25): paid now that this
            # pool is settled (penalty-destination).
            for seat, amount, rule, reason in irregular.deferred:
                self._pay(seat, None, amount, rule, reason)

    def tricks_won(self) -> dict[int, int]:
        return {s: sum(1 for t in self.tricks if t.winner == s) for s in self.in_play}

    def chips(self) -> int:
        return sum(self.balances) + self.pool


# The reasons of payments, made once (a message is never changed once made).
_TRICK_REASONS: Final = tuple(msg("pay.trick", n=i + 1) for i in range(max(HAND_SIZE.values())))
_PAY_WITHOUT_PLAY: Final = msg("pay.without-play")
_PAY_LOOED: Final = msg("pay.looed")
_PAY_LAST_PLAYER: Final = msg("pay.last-player")
