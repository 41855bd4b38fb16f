"""The laws of irregularity, in laws mode: RULES.md 1.11.

Where the source states penalties (hoffmann, peel) an irregular play stands and is recorded as
an :class:`~.state.Offence`; under the other sources it is refused (:meth:`Laws.laws_apply`).

- ``penalty-revoke``, ``penalty-fail-to-head``, ``penalty-lead-violation``: the penalty a
  broken card-play rule falls under (:data:`OFFENCE_RULE`), applied when the hand is settled:
  hoffmann's four singles, or peel's loo; the offender's tricks are forfeit (:mod:`.settle`);
- ``penalty-play-out-of-turn``: under hoffmann's Law 15 the offender throws up his cards and
  forfeits a single; under peel he is looed and the hand replayed;
- ``revoke-replay``: after the last trick the cards are taken up and the hand played again in
  proper order, after any offence (peel) or when a player other than the offender demands it
  after a revoke (hoffmann's Law 16);
- ``penalty-destination``: penalties, and the shares of forfeited tricks, go to the pool.
"""

from __future__ import annotations

from typing import Final

from ..cards import Card
from ..messages import msg
from ..play import RuleApplication
from .state import Action, HandState, Offence, Trick, refuse

#: Which penalty rule a card-play offence falls under (RULES.md 1.11).
OFFENCE_RULE: Final = {
    "follow-suit": "penalty-revoke",
    "pam-identity": "penalty-revoke",
    "pam-led-trump-must-be-played": "penalty-revoke",
    "head-the-trick": "penalty-fail-to-head",
    "must-trump": "penalty-fail-to-head",
    "must-overtrump": "penalty-fail-to-head",
    "pam-be-civil": "penalty-fail-to-head",
    "lead-ace-of-trumps": "penalty-lead-violation",
    "lead-king-when-ace-turned": "penalty-lead-violation",
    "lead-trump-holding-two": "penalty-lead-violation",
    "lead-highest-trump-heads-up": "penalty-lead-violation",
    "lead-highest-of-two-or-three": "penalty-lead-violation",
    "trump-after-trick": "penalty-lead-violation",
}


class Laws(HandState):
    """Offences recorded, out of turn, the replay and the penalties."""

    __slots__ = ()

    def laws_apply(self) -> bool:
        """Laws mode lets an irregular play stand only where the source states penalties."""
        return self.setup.laws and not self.replaying and self.rules.penalties != "none"

    def _record_offence(self, seat: int, played: Card, why: RuleApplication) -> None:
        penalty = OFFENCE_RULE.get(why.rule, "penalty-revoke")
        offence = Offence(seat, self.trick_number, played.code, why.rule, penalty, why.message)
        self.offences.append(offence)
        if self._trace:
            self._event(
                "offence",
                msg("offence.irregular", p=seat, card=played, rule=why.rule),
                seat,
                [why.rule, penalty],
                [played],
            )

    def _out_of_turn(self, seat: int, played: Card) -> None:
        if not self.laws_apply():
            raise refuse(
                "error.out-of-turn",
                RuleApplication("penalty-play-out-of-turn", msg("rotation")),
                turn=self.to_act,
                p=seat,
            )
        self.seen.append(played)
        self.offences.append(
            Offence(
                seat,
                self.trick_number,
                played.code,
                "elder-leads-first",
                "penalty-play-out-of-turn",
                msg("offence.out-of-turn", p=seat, card=played),
            )
        )
        if self.rules.penalties == "hoffmann-laws":
            # Law 15: he throws up his cards and forfeits a single to the (current) pool.
            self.retired.append(seat)
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            self._pay(seat, None, self.stake, "penalty-play-out-of-turn", _PAY_LAW_15)
            if self._trace:
                self._event(
                    "offence",
                    msg("offence.out-of-turn-law-15", p=seat, card=played),
                    seat,
                    ["penalty-play-out-of-turn"],
                    [played],
                )
            if len(self.active()) < 2:
                self._end_play()
            elif self._trick_complete():
                self._end_trick()
            elif self.to_act not in self.active():
                assert self.to_act is not None
                self.to_act = self._next_in_play(self.to_act)
        else:
            if self._trace:
                self._event(
                    "offence",
                    msg("offence.out-of-turn-replay", p=seat, card=played),
                    seat,
                    ["penalty-play-out-of-turn"],
                    [played],
                )

    def _end_play(self) -> None:
        self.trick = None
        self.to_act = None
        offences = self.offences
        if offences and not self.replaying:
            if self.rules.replay == "always":
                self._start_replay()
                return
            revokes = [o for o in offences if o.penalty == "penalty-revoke"]
            if self.rules.replay == "on-demand" and revokes:
                offenders = {o.seat for o in revokes}
                self.replay_asked = [s for s in self.in_play if s not in offenders]
                if self.replay_asked:
                    self.phase = "replay"
                    self.to_act = self.replay_asked[0]
                    return
        self._settle_tricks()

    def _replay_choice(self, action: Action) -> None:
        if action.choice not in ("demand", "decline"):
            raise refuse("error.replay-answer")
        seat = action.seat
        if action.choice == "demand":
            if self._trace:
                self._event("replay", msg("replay.demand", p=seat), seat, ["revoke-replay"])
            self._start_replay()
            return
        if self._trace:
            self._event("replay", msg("replay.decline", p=seat), seat, ["revoke-replay"])
        self.replay_asked.pop(0)
        if self.replay_asked:
            self.to_act = self.replay_asked[0]
        else:
            self._settle_tricks()

    def _start_replay(self) -> None:
        """The cards are taken up and the hand played again in proper order."""
        self.replaying = True
        self.hands = [list(h) for h in self.start_of_play]
        self.tricks = []
        self._played = ()
        self.retired = []
        self.phase = "play"
        leader = self._first_leader()
        self.trick = Trick(leader)
        self.to_act = leader
        if self._trace:
            self._event("replay", msg("replay.start"), None, ["revoke-replay"])

    def _apply_penalties(self, loo: int) -> None:
        penalties = self.rules.penalties
        for seat in sorted({o.seat for o in self.offences}):
            kinds = {o.penalty for o in self.offences if o.seat == seat}
            if penalties == "hoffmann-laws":
                play_offences = kinds - {"penalty-play-out-of-turn"}
                if play_offences:
                    rule = sorted(play_offences)[0]
                    self._pay(seat, None, 4 * self.stake, rule, _PAY_FOUR_SINGLES)
                    if self._trace:
                        self._event(
                            "penalty",
                            msg("penalty.four-singles", p=seat, n=4 * self.stake),
                            seat,
                            [rule, "penalty-destination"],
                        )
            elif penalties == "peel-looed-replay" and seat not in self.looed:
                rule = sorted(kinds)[0]
                self._pay(seat, None, loo, rule, _PAY_PEEL_LOOED)
                if self._trace:
                    self._event(
                        "penalty",
                        msg("penalty.peel-looed", p=seat, n=loo),
                        seat,
                        [rule, "penalty-destination"],
                    )


_PAY_LAW_15: Final = msg("pay.law-15")
_PAY_FOUR_SINGLES: Final = msg("pay.four-singles")
_PAY_PEEL_LOOED: Final = msg("pay.peel-looed")
