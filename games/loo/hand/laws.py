"""The laws of irregularity, in laws mode: RULES.md 1.11.

Where the source states penalties (hoffmann, peel) an irregular play stands and is recorded as
an :class:`~.state.Offence`; under the other sources it is refused (:meth:`Laws.laws_apply`).
Each offence is one line of the trace (the irregular play itself; :mod:`.tricks` writes no
second line for its card), and the settlement names each one.

- ``penalty-revoke``, ``penalty-fail-to-head``, ``penalty-lead-violation``: the penalty a
  broken card-play rule falls under (:data:`OFFENCE_RULE`), applied when the hand is settled:
  hoffmann's four singles, or peel's loo; the offender's tricks are forfeit (:mod:`.settle`);
- ``penalty-play-out-of-turn``: under hoffmann's Law 15 the offender throws up his cards and
  forfeits a single; under peel he is looed and the hand replayed. Law 15 (readings A49-A51):
  when one player is left he takes the pool as if all the rest had passed (A49,
  :meth:`~.settle.SettlePhase._settle_last_player`); the offender stays out of a Law 16
  replay and cannot be looed in it (A50); the shares of tricks he had won stay in the pool,
  and the settlement says so (A51);
- ``revoke-replay``: after the last trick the cards are taken up and the hand played again in
  proper order, after any offence (peel) or when a player other than the offender demands it
  after a revoke (hoffmann's Law 16);
- ``penalty-destination``: penalties, and the shares of forfeited tricks, go to the pool.

Several offences in one hand (a reading; docs/playing.md, "Laws mode"): every offence is
recorded and named, and each player pays the penalty of each law he broke, once:

- hoffmann: a player who broke any of Laws 9-14, once or more, forfeits four singles once
  ("Any player committing any infractions of Laws 9, 10, 11, 12, 13, or 14, must leave in the
  pool any tricks he may make, and forfeit to the pool four times the amount of a single");
  Law 15's single besides if he also played out of turn (another law: he throws up his cards
  and is not looed, A50); and, not having retired, the loo if he took no trick, which is the
  game's settlement and not a penalty;
- peel: an offender "is looed" (p. 22, 25): once, whatever the number of his offences, and
  whether or not he takes a trick in the proper play ("If his cards secure one or all of the
  tricks the amount of his winnings is left in the pool for the next deal, and he is looed").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import BY_CODE, Card
from ..messages import Message, msg
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

#: The penalty of playing out of turn (hoffmann's Law 15, peel p. 25).
OUT_OF_TURN: Final = "penalty-play-out-of-turn"
#: hoffmann's Law 15 offences (out of turn, exposing a card): a single and retiring, paid when
#: committed, not four singles.
LAW_15: Final = frozenset({OUT_OF_TURN, "penalty-exposed-card"})


class Laws(HandState):
    """Offences recorded, out of turn, the replay and the penalties."""

    __slots__ = ()

    def laws_apply(self) -> bool:
        """Laws mode lets an irregular play stand only where the source states penalties."""
        return self.setup.laws and not self.replaying and self.rules.penalties != "none"

    def _record_offence(self, seat: int, played: Card, why: RuleApplication) -> None:
        """An irregular card about to be laid: recorded, and told as the play's one line."""
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
                RuleApplication(OUT_OF_TURN, msg("rotation")),
                turn=self.to_act,
                p=seat,
            )
        self.seen.append(played)
        offence = Offence(
            seat,
            self.trick_number,
            played.code,
            "elder-leads-first",
            OUT_OF_TURN,
            msg("offence.out-of-turn", p=seat, card=played),
        )
        self.offences.append(offence)
        if self.rules.penalties == "hoffmann-laws":
            # Law 15: he throws up his cards and forfeits a single to the (current) pool.
            self.retired.append(seat)
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            reason = msg("pay.law-15", offence=offence_part(offence))
            self._pay(seat, None, self.stake, OUT_OF_TURN, reason)
            if self._trace:
                self._event(
                    "offence",
                    msg("offence.out-of-turn-law-15", p=seat, card=played),
                    seat,
                    [OUT_OF_TURN],
                    [played],
                )
            if len(self.active()) < 2:
                self._settle_last_player()
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
                    [OUT_OF_TURN],
                    [played],
                )

    def _end_play(self) -> None:
        self.trick = None
        self.to_act = None
        offences = self.offences
        if offences:
            # Offences in the play (not those of the deal or the declarations, trick 0: there
            # is nothing to play again for them).
            offences = [o for o in offences if o.trick]
        if offences and not self.replaying:
            if self.rules.replay == "always":
                self._start_replay()
                return
            revokes = [o for o in offences if o.penalty == "penalty-revoke"]
            if self.rules.replay == "on-demand" and revokes:
                # Law 16: any player other than the offender; not one who has thrown up his
                # cards under Law 15, who takes no part in the replay (A50).
                offenders = {o.seat for o in revokes}
                retired = self.retired
                self.replay_asked = [
                    s for s in self.in_play if s not in offenders and s not in retired
                ]
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
        """The cards are taken up and the hand played again in proper order. A player retired
        under Law 15 has thrown up his cards: he stays out (A50), his cards with the thrown."""
        self.replaying = True
        self.hands = [list(h) for h in self.start_of_play]
        retired = self.retired
        for seat in retired:
            discards = self.discards
            discards.extend([c for c in self.hands[seat] if c not in discards])
            self.hands[seat] = []
        self.tricks = []
        self._played = ()
        self.phase = "play"
        leader = self._first_leader()
        if leader in retired:
            leader = self._next_in_play(leader)
        self.trick = Trick(leader)
        self.to_act = leader
        if self._trace:
            self._event("replay", msg("replay.start"), None, ["revoke-replay"])

    def _offenders(self) -> dict[int, list[Offence]]:
        """Each offender's offences in the order committed; the offenders in the order of the
        play."""
        offences = self.offences
        found = {o.seat for o in offences}
        return {s: [o for o in offences if o.seat == s] for s in self.in_play if s in found}

    def _apply_penalties(self, looed: Sequence[int], loo: int) -> list[int]:
        """The loos and the penalties of a hand with offences (the reading in the module's
        docstring); ``looed``: the players who took no trick, the defender aside. Nobody
        retired under Law 15 is looed (A50); under peel every offender is, once. Returns the
        players looed, in the order of the play."""
        offenders = self._offenders()
        peel = self.rules.penalties == "peel-looed-replay"
        retired = self.retired
        looed = [
            s
            for s in self.in_play
            if (s in looed and s not in retired) or (peel and s in offenders)
        ]
        paid = self._paid_loo()
        for s in looed:
            if s in paid:
                continue  # looed, his loo paid into the pool when he offended (peel p. 24)
            if peel and s in offenders:
                committed = offenders[s]
                reason = msg("pay.peel-looed", offences=_parts(committed))
                self._pay(s, None, loo, committed[0].penalty, reason)
            else:
                self._pay(s, None, loo, "looed", _PAY_LOOED)
        if self.rules.penalties == "hoffmann-laws":
            for s, committed in offenders.items():
                broken = [o for o in committed if o.penalty not in LAW_15]
                if broken:
                    reason = msg("pay.four-singles", offences=_parts(broken))
                    self._pay(s, None, 4 * self.stake, broken[0].penalty, reason)
        return looed

    def _paid_loo(self) -> list[int]:
        """The offenders who paid their loo when they offended (``look-hand-loo-to``)."""
        return self.irregular.paid_loo if self.irregular is not None else []

    def _tell_penalties(self, loo: int) -> None:
        """The settlement's lines of the offences: each offender's penalties, naming every
        offence they answer for."""
        hoffmann = self.rules.penalties == "hoffmann-laws"
        paid = self._paid_loo()
        for seat, committed in self._offenders().items():
            if seat in paid:
                continue  # his loo was told as he paid it
            if not hoffmann:
                self._event(
                    "penalty",
                    msg("penalty.peel-looed", p=seat, n=loo, offences=_parts(committed)),
                    seat,
                    [*_penalties(committed), "penalty-destination"],
                )
                continue
            broken = [o for o in committed if o.penalty not in LAW_15]
            for o in committed:
                if o.penalty in LAW_15:
                    self._event(
                        "penalty",
                        msg("penalty.law-15", p=seat, n=self.stake, offence=offence_part(o)),
                        seat,
                        [o.penalty, "penalty-destination"],
                    )
            if broken:
                self._event(
                    "penalty",
                    msg("penalty.four-singles", p=seat, n=4 * self.stake, offences=_parts(broken)),
                    seat,
                    [*_penalties(broken), "penalty-destination"],
                )


def offence_part(offence: Offence) -> Message:
    """An offence as a settlement names it: the card, the trick, and what the offender had to
    do instead (or that he played out of turn)."""
    if offence.penalty == "penalty-look-at-others-cards":
        return msg("part.offence-look-hand")
    played = BY_CODE[offence.card]
    if offence.penalty == OUT_OF_TURN and not offence.trick:
        return msg("part.offence-play-early", card=played)
    if offence.penalty == OUT_OF_TURN:
        return msg("part.offence-out-of-turn", card=played, n=offence.trick)
    if offence.penalty == "penalty-exposed-card":
        return msg("part.offence-expose", card=played, n=offence.trick)
    return msg("part.offence", p=offence.seat, card=played, n=offence.trick, had=(offence.rule,))


def _parts(offences: Sequence[Offence]) -> tuple[Message, ...]:
    return tuple(offence_part(o) for o in offences)


def _penalties(offences: Sequence[Offence]) -> list[str]:
    """The penalty rules of ``offences``, each once, in order."""
    return list(dict.fromkeys(o.penalty for o in offences))


_PAY_LOOED: Final = msg("pay.looed")
