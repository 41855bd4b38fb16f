"""The rest of the laws, in laws mode: the deal, the declarations, looking, exposing (RULES.md
1.11). Irregular card play is :mod:`.laws`; this is everything else hoffmann's laws and peel's
penalties prescribe. Each is an ``Action("irregular", seat, what, cards)``, let stand and
punished only where the source states a penalty (hoffmann, peel); under the other sources, and
outside laws mode, it is refused.

- ``misdeal`` (the dealer, before anyone declares; ``penalty-misdeal``): hoffmann Law 3 "the
  dealer forfeits a single to the pool … there is a fresh deal by the same dealer"; peel p. 23
  "the dealer is looed--the amount of the loo in this, and most other cases of penalty prior
  to the commencement of the playing of the cards being the same as settled for a single loo"
  (p. 23-24), a single loo being "generally half the amount of the full loo" (p. 23; option
  ``single-loo``), "dealt again by the same player" (p. 24);
- ``faced-card`` (before anyone declares; ``faced-card-in-pack``, hoffmann Law 2): no penalty,
  a fresh deal by the same dealer;
- ``interfere`` (another player, during the deal; ``penalty-interfering-with-deal``, peel
  p. 24): he "is looed", and the deal stands. A penalty before the play, so a single loo (p.
  23-24), paid into the pool at once as the misdeal's is. He plays on, but wins nothing in
  the hand (A55, ``interfering-winnings`` = ``none``): p. 22 names looking at the hands,
  declaring out of turn and misdealing, and not interfering, among the penalties that leave
  the offender "an equal chance with the others"; for every other offence "the player who
  transgressed the law does not win anything. If his cards secure one or all of the tricks
  the amount of his winnings is left in the pool for the next deal". Taking no trick, he is
  looed as anyone who stood and took none (a reading: the single loo is the offence's).
  Before version 9 of the question bank he played on with an equal chance, as the misdealer
  does (``as-played``);
- ``declare-early``, ``look-early`` (``penalty-declare-out-of-turn``): hoffmann Law 5 "forfeits
  a single to the pool"; peel p. 24 "is looed a single", and "is not debarred … from taking part
  in the play". A declaration made out of turn does not stand: he declares in his turn
  (a reading). Having looked, he sees his cards from then on;
- ``look-miss`` (``penalty-look-at-miss``): hoffmann Law 6 a single, "and must retire from the
  game for that round" (he passes at his turn); peel p. 24 a single loo, and he plays on;
- ``look-hand:N``, at seat N's cards (``penalty-look-at-others-cards``): under hoffmann the
  offence is *exposing* them, Law 6 "Any player … exposing a card or cards of another player,
  forfeits a single to the pool, and must retire from the game for that round" (a player who
  retires wins nothing in the hand, ``offender-winnings``); looking at them is peel's offence,
  p. 24 "looed the full loo, and must throw up his own cards", "unless he has already declared
  to stand", when he plays on without possible gain, "having first paid his loo into the pool":
  either way that full loo goes into this deal's pool at once (p. 22, "penalties for looking at
  the hands … into the pool for the current deal"; ``look-hand-loo-to``), and it is his loo for
  the hand;
- ``expose`` a card of one's own (a player in the play; ``penalty-exposed-card``): hoffmann Law
  15 (1) and (4), he throws up his cards and forfeits a single; peel p. 25 "likewise looed", and
  the hand is replayed;
- ``play-early``, a card before all have declared (``penalty-play-out-of-turn``): hoffmann Law
  15 (3), he throws up his cards and forfeits a single; peel p. 25 as playing out of turn, he is
  looed; the card is shown and he plays on.

A single, peel's single loo, and his full loo for looking at a hand go to the current pool at
once; any other full loo, and a peel offender's winnings, to the next (``penalty-destination``:
hoffmann Law 17, peel p. 22, 25), paid when the hand ends. Before version 5 of the question
bank peel's penalties before the play cost a full loo (``penalty-loo-before-play`` =
``full-loo``) and the loo for looking at a hand went to the next pool (``look-hand-loo-to`` =
``next-pool``), kept for its questions.
"""

from __future__ import annotations

from typing import Final

from ..cards import BY_CODE, Card
from ..messages import Message, msg
from ..rng import rng_for, shuffled_pack
from .state import Action, HandState, Irregular, Offence, refuse

#: What can be committed, and the rule that punishes it.
IRREGULARITIES: Final = {
    "misdeal": "penalty-misdeal",
    "faced-card": "faced-card-in-pack",
    "interfere": "penalty-interfering-with-deal",
    "declare-early": "penalty-declare-out-of-turn",
    "look-early": "penalty-declare-out-of-turn",
    "look-miss": "penalty-look-at-miss",
    "look-hand": "penalty-look-at-others-cards",
    "expose": "penalty-exposed-card",
    "play-early": "penalty-play-out-of-turn",
}
HOFFMANN: Final = "hoffmann-laws"
PEEL: Final = "peel-looed-replay"
#: The reason of a penalty paid when committed, citing the law of the table's own source:
#: hoffmann's (False) or peel's (True).
_PAY_KEY: Final = {
    False: {"declare-early": "pay.declare-early", "look-early": "pay.look-early"},
    True: {"declare-early": "pay.declare-early-peel", "look-early": "pay.look-early-peel"},
}


class Irregularities(HandState):
    """Misdeals, looking, exposing and declaring out of turn, in laws mode."""

    __slots__ = ()

    # -- what may be committed ------------------------------------------------------------------

    def irregularities(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` could commit now that the laws would let stand and punish (in laws
        mode, under a source that states the penalty): for a careless player, and for the
        practice table to offer. ``look-hand`` is followed by ``:N``, ``expose`` and
        ``play-early`` by a card (see :meth:`irregular_cards`)."""
        if not self.laws_apply() or self.phase == "over":
            return ()
        return tuple(what for what in IRREGULARITIES if self._why_not(seat, what, "") is None)

    def _why_not(self, seat: int, what: str, target: str) -> Message | None:
        """Why ``seat`` cannot commit ``what`` now (None: he can)."""
        penalties = self.rules.penalties
        phase = self.phase
        declaring = phase in ("declare", "exchange")
        nobody = declaring and all(d is None for d in self.declared)
        declared = self.declared[seat]
        irregular = self.irregular
        retiring = irregular is not None and seat in irregular.retiring
        if what == "misdeal":
            if seat != self.dealer or not nobody:
                return msg("error.misdeal")
        elif what == "faced-card":
            if penalties != HOFFMANN:
                return msg("error.law-silent", rule=IRREGULARITIES[what])
            if not nobody:
                return msg("error.misdeal")
        elif what == "interfere":
            if penalties != PEEL:
                return msg("error.law-silent", rule=IRREGULARITIES[what])
            if seat == self.dealer or not nobody:
                return msg("error.interfere")
        elif what in ("declare-early", "look-early"):
            if not declaring or declared is not None or seat == self.to_act or retiring:
                return msg("error.not-early", p=seat)
            looked = irregular is not None and seat in irregular.looked
            if what == "look-early" and (self.rules.look_in_turn == "off" or looked):
                return msg("error.not-early", p=seat)
        elif what == "look-miss":
            if self.miss is None or phase != "declare" or declared is not None or retiring:
                return msg("error.no-miss-to-look-at", p=seat)
        elif what == "look-hand":
            if target:
                if not target.isdigit() or not 0 <= int(target) < self.players:
                    return msg("error.no-seat", n=target)
                if int(target) == seat or not self.hands[int(target)]:
                    return msg("error.no-hand-to-look-at", p=seat)
            if not self._still_in(seat) or retiring:
                return msg("error.not-in-play", p=seat)
        elif what == "expose":
            active = seat in self.in_play and seat not in self.retired
            if phase != "play" or not active or not self.hands[seat]:
                return msg("error.not-in-play", p=seat)
        elif what == "play-early":
            if not declaring or declared not in ("play", "miss", "defend") or not self.hands[seat]:
                return msg("error.not-early-play", p=seat)
        else:
            return msg("error.not-an-irregularity", what=what)
        return None

    def _still_in(self, seat: int) -> bool:
        """Whether ``seat`` still takes part in the hand (he has not passed or retired)."""
        if self.phase == "play":
            return seat in self.in_play and seat not in self.retired
        return self.declared[seat] != "pass" and bool(self.hands[seat])

    def irregular_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` could expose or play early now."""
        return tuple(self.hands[seat])

    # -- committing -------------------------------------------------------------------------

    def _irregular(self, action: Action) -> None:
        """Carry out an irregularity (checked here: refused, changing nothing, where it
        cannot be committed or the source states no penalty for it)."""
        seat = action.seat
        what, _, target = action.choice.partition(":")
        if not self.laws_apply():
            raise refuse("error.laws-only", what=what)
        why = self._why_not(seat, what, target)
        if why is not None:
            raise refuse("error.irregular", why=why)
        played: Card | None = None
        if what in ("expose", "play-early"):
            if len(action.cards) != 1:
                raise refuse("error.one-card")
            played = BY_CODE.get(action.cards[0])
            if played is None or played not in self.hands[seat]:
                raise refuse("error.irregular-card", p=seat)
        elif action.cards:
            raise refuse("error.irregular-no-cards")
        if what == "look-hand" and not target:
            raise refuse("error.look-whose", p=seat)
        if self.irregular is None:
            self.irregular = Irregular()
        getattr(self, "_commit_" + what.replace("-", "_"))(seat, target, played)

    def _penalty(self, seat: int, rule: str, key: str, *, single_loo: bool = False) -> int:
        """A small penalty, to the current pool at once: hoffmann's single, or (``single_loo``)
        peel's single loo, "generally half the amount of the full loo" (p. 23; ``single-loo``),
        the price of "most other cases of penalty prior to the commencement of the playing of
        the cards" (p. 23-24). Returns the amount."""
        if not single_loo:
            amount = self.stake
        elif self.rules.penalty_loo_before_play == "full-loo":
            amount = self.rules.loo_amount * self.stake  # the withdrawn reading (versions 2-4)
        else:
            amount = self.single_loo()
        self._pay(seat, None, amount, rule, msg(key))
        return amount

    def _full_loo(self, seat: int, rule: str) -> int:
        """Peel's full loo, to the pool for the next deal (paid when the hand ends)."""
        irregular = self.irregular
        assert irregular is not None
        amount = self.loo_amount()
        irregular.deferred.append((seat, amount, rule, msg("pay.irregular-loo")))
        return amount

    def _tell(
        self, key: str, seat: int, rules: list[str], cards: tuple[Card, ...] = (), **args: object
    ) -> None:
        if self._trace:
            self._event("irregular", msg(key, p=seat, **args), seat, rules, cards)

    def _commit_misdeal(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-misdeal"
        peel = self.rules.penalties == PEEL
        n = self._penalty(
            seat, rule, "pay.misdeal-peel" if peel else "pay.misdeal", single_loo=peel
        )
        key = "irregular.misdeal-peel" if peel else "irregular.misdeal"
        self._tell(key, seat, [rule, "penalty-destination"], n=n)
        self._redeal()

    def _commit_faced_card(self, seat: int, target: str, played: Card | None) -> None:
        self._tell("irregular.faced-card", self.dealer, ["faced-card-in-pack"])
        self._redeal()

    def _commit_interfere(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-interfering-with-deal"
        if self.rules.penalty_loo_before_play == "full-loo":
            n = self._full_loo(seat, rule)  # the withdrawn reading (versions 2-4)
            self._tell("irregular.interfere", seat, [rule, "penalty-destination"], n=n)
            return
        n = self._penalty(seat, rule, "pay.interfere", single_loo=True)
        if self.rules.interfering_winnings == "none":
            # A55: not one of the three offences that leave "an equal chance" (p. 22), so he
            # wins nothing in this hand; what his tricks would win stays for the next deal.
            assert self.irregular is not None
            self.irregular.no_winnings[seat] = rule
            key = "irregular.interfere-nothing"
        else:
            key = "irregular.interfere-single"  # the withdrawn reading (versions 2-8)
        self._tell(key, seat, [rule, "penalty-destination"], n=n)

    def _commit_declare_early(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-declare-out-of-turn"
        peel = self.rules.penalties == PEEL
        n = self._penalty(seat, rule, _PAY_KEY[peel]["declare-early"], single_loo=peel)
        # The trace names the rule broken beside its penalty, as for a card played irregularly.
        rules = ["declare-in-turn", rule, "penalty-destination"]
        self._tell("irregular.declare-early", seat, rules, n=n)

    def _commit_look_early(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-declare-out-of-turn"
        peel = self.rules.penalties == PEEL
        n = self._penalty(seat, rule, _PAY_KEY[peel]["look-early"], single_loo=peel)
        assert self.irregular is not None
        self.irregular.looked.append(seat)
        rules = ["look-at-cards-in-turn", rule, "penalty-destination"]
        self._tell("irregular.look-early", seat, rules, n=n)

    def _commit_look_miss(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-look-at-miss"
        irregular = self.irregular
        assert irregular is not None and self.miss is not None
        irregular.peeked.setdefault(seat, []).extend(self.miss)
        if self.rules.penalties == PEEL:
            n = self._penalty(seat, rule, "pay.look-miss-peel", single_loo=True)
            self._tell("irregular.look-miss-peel", seat, [rule, "penalty-destination"], n=n)
            return
        n = self._penalty(seat, rule, "pay.look-miss")
        irregular.retiring[seat] = rule
        self._tell("irregular.look-miss", seat, [rule, "penalty-destination"], n=n)

    def _commit_look_hand(self, seat: int, target: str, played: Card | None) -> None:
        rule = "penalty-look-at-others-cards"
        other = int(target)
        irregular = self.irregular
        assert irregular is not None
        irregular.peeked.setdefault(seat, []).extend(self.hands[other])
        if self.rules.penalties == HOFFMANN:
            n = self._penalty(seat, rule, "pay.look-hand")
            self._tell("irregular.look-hand", seat, [rule, "penalty-destination"], n=n, other=other)
            self._retire(seat, rule)
            return
        now = self.rules.look_hand_loo_to == "current-pool"
        if self.declared[seat] is None:
            # Not yet declared: the full loo, and he must throw up his cards. Into this deal's
            # pool: "penalties for looking at the hands … the offending player pays the penalty
            # into the pool for the current deal" (p. 22).
            if now:
                n = self.loo_amount()
                self._pay(seat, None, n, rule, msg("pay.look-hand-peel"))
                key = "irregular.look-hand-peel-now"
            else:
                n = self._full_loo(seat, rule)  # the withdrawn reading (versions 2-4)
                key = "irregular.look-hand-peel"
            self._tell(key, seat, [rule, "penalty-destination"], n=n, other=other)
            irregular.retiring[seat] = rule
            return
        # Declared to stand: he plays on, "having first paid his loo into the pool", and can
        # win nothing (p. 24; the settlement). That loo is his loo for the hand: he is not
        # looed again at the settlement (laws.py).
        self.offences.append(
            Offence(seat, 0, "", rule, rule, msg("offence.look-hand", p=seat, other=other))
        )
        if now:
            n = self.loo_amount()
            self._pay(seat, None, n, rule, msg("pay.look-hand-peel"))
            irregular.paid_loo.append(seat)
            self._tell(
                "irregular.look-hand-stood-now",
                seat,
                [rule, "penalty-destination"],
                n=n,
                other=other,
            )
            return
        self._tell("irregular.look-hand-stood", seat, [rule, "penalty-destination"], other=other)

    def _commit_expose(self, seat: int, target: str, played: Card | None) -> None:
        assert played is not None
        rule = "penalty-exposed-card"
        self.seen.append(played)
        offence = Offence(
            seat,
            self.trick_number,
            played.code,
            rule,
            rule,
            msg("offence.expose", p=seat, card=played),
        )
        self.offences.append(offence)
        if self.rules.penalties == HOFFMANN:
            # Law 15: he throws up his cards and forfeits a single to the (current) pool.
            self._pay(seat, None, self.stake, rule, msg("pay.expose"))
            self._tell(
                "irregular.expose", seat, [rule, "penalty-destination"], (played,), card=played
            )
            self._retire(seat, rule)
            return
        self._tell("irregular.expose-peel", seat, [rule], (played,), card=played)

    def _commit_play_early(self, seat: int, target: str, played: Card | None) -> None:
        assert played is not None
        rule = "penalty-play-out-of-turn"
        self.seen.append(played)
        if self.rules.penalties == HOFFMANN:
            self._pay(seat, None, self.stake, rule, msg("pay.play-early"))
            self._tell(
                "irregular.play-early", seat, [rule, "penalty-destination"], (played,), card=played
            )
            self._retire(seat, rule)
            return
        self.offences.append(
            Offence(
                seat,
                0,
                played.code,
                "elder-leads-first",
                rule,
                msg("offence.play-early", p=seat, card=played),
            )
        )
        self._tell("irregular.play-early-peel", seat, [rule], (played,), card=played)

    # -- their effects ------------------------------------------------------------------------

    def _retire(self, seat: int, rule: str) -> None:
        """``seat`` throws up his cards for the rest of the hand: at once in the play (as
        under Law 15), or in the declarations as a pass (if his turn has not come, it will be
        a pass)."""
        irregular = self.irregular
        assert irregular is not None
        if self.phase == "play":
            # Remembered by the rule that made him retire, for the settlement's line of any
            # trick he had won.
            irregular.retiring[seat] = rule
            self.retired.append(seat)
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            if len(self.active()) < 2:
                self._settle_last_player(rule)
            elif self._trick_complete():
                self._end_trick()
            elif self.to_act not in self.active():
                assert self.to_act is not None
                self.to_act = self._next_in_play(self.to_act)
            return
        if self.declared[seat] is None:
            irregular.retiring[seat] = rule
            return
        # He had declared to play: he throws up his cards now.
        self.declared[seat] = "pass"
        self.thrown[seat] = self.hands[seat]
        self.discards.extend(self.hands[seat])
        self.hands[seat] = []

    def _redeal(self) -> None:
        """A fresh deal by the same dealer (hoffmann Laws 2-3, peel p. 24): the cards are
        gathered, shuffled and dealt again; the stake and any penalty stay in the pool."""
        irregular = self.irregular
        assert irregular is not None
        irregular.redeals += 1
        irregular.shown_before.extend([self.turn_up, *self.seen])
        irregular.peeked.clear()
        irregular.retiring.clear()
        irregular.looked.clear()
        self.hands = []
        self.dealt = []
        self.miss = None
        self.miss_withdrawn = False
        self.stock = []
        self.discards = []
        self.thrown = {}
        self.exchanged = {}
        self.declared = [None] * self.players
        self.drawn = [0] * self.players
        self.club_law = False
        self.seen = []
        s = self.setup
        if s.pack:
            pack = None  # a stacked pack is dealt as it was stacked (lessons, tests)
        else:
            pack = shuffled_pack(rng_for(s.seed, "deal", s.hand_number, "again", irregular.redeals))
        self._deal_cards(pack)
