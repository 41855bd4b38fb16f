"""Declaring: RULES.md 1.3, and who may not pass (1.10).

- ``declare-in-turn``: each player in turn from the dealer's left plays or passes;
  ``discards-unseen``: a passed hand goes face down;
- ``take-miss``, ``miss-only-once``, ``miss-holder-must-play``: the first who wants the miss
  exchanges his hand for it, and must play;
- ``dealer-must-play-against-one``: against one player, the dealer may not pass; in three-card
  Loo his choices are the rule set's: his own cards, the miss, or ``dealer-defends-miss`` (the
  miss, for the pool: his tricks stay in it); against a lone miss-holder, britannica's
  ``master`` (the top of the stock), or else ``miss-holder-alone-wins``;
- ``must``, ``club-law``: nobody may pass;
- ``all-pass-dealer-wins``: everyone before the dealer passes, he takes the pool without play;
  ``miss-holder-alone-wins``: one player left in, he takes it.

Five-card and Irish Loo declare by the exchange (:mod:`.exchange`), whose turns and end are
the same: :meth:`DeclarePhase._next_declarer` and :meth:`DeclarePhase._end_declaring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from ..flushes import find_flush
from ..messages import Message, msg
from ..play import RuleApplication
from ..rulesets import PRESETS
from .state import Action, HandState, IllegalAction, Options, _seat_order, refuse


class DeclarePhase(HandState):
    """Three-card declarations, and the turns of every declaring."""

    __slots__ = ()

    def declared_before_dealer(self) -> list[int]:
        dealer = self.dealer
        declared = self.declared
        return [
            s
            for s in _seat_order(dealer, self.players)
            if s != dealer and declared[s] not in (None, "pass")
        ]

    def _declared_before_dealer(self) -> bool:
        """Whether anyone but the dealer has declared to play (or taken miss): as
        ``bool(declared_before_dealer())``, stopping at the first."""
        dealer = self.dealer
        for seat, declared in enumerate(self.declared):
            if declared is not None and declared != "pass" and seat != dealer:
                return True
        return False

    def forced_to_play(self, seat: int) -> RuleApplication | None:
        """Why ``seat`` may not pass, if it may not."""
        if self.setup.last_round:
            return RuleApplication("round-continues-until-no-loo", _LAST_ROUND)
        if self.must:
            return RuleApplication("must", _OPTION_MUST)
        if self.club_law:
            return RuleApplication("club-law", _CLUB_LAW)
        if seat == self.dealer:
            before = self.declared_before_dealer()
            if len(before) == 1 and before[0] != self.miss_holder:
                if self.game == "three-card":
                    menu = msg(f"part.dealer-vs-one.{self._dealer_vs_one()}", d=seat)
                    return RuleApplication(
                        "dealer-must-play-against-one",
                        msg("option.dealer-vs-one", one=before[0], d=seat, menu=menu),
                    )
                # Five-card and Irish Loo have no miss: under britannica the dealer plays on
                # his own cards (s. 31); hoffmann (¶9), peel, whiteknuckle and parlett let every
                # player drop out, the dealer too (A47, revised 2026-11-25).
                if self.rules.dealer_vs_one_5c == "own":
                    return RuleApplication(
                        "dealer-must-play-against-one",
                        msg(
                            "option.dealer-vs-one-5c",
                            one=before[0],
                            d=seat,
                            game=msg(f"part.game.{self.game}"),
                            cite=_citation(self.rules.source, "dealer-vs-one-5c", "own"),
                        ),
                    )
            if (
                len(before) == 1
                and before[0] == self.miss_holder
                and self.rules.lone_miss_holder == "dealer-must-play-own-or-master"
            ):
                return RuleApplication("master", msg("option.master", one=before[0], d=seat))
        return None

    def _dealer_vs_one(self) -> str:
        """The dealer's choices against one player (``dealer-must-play-against-one``): the
        rule set's, or only his own cards when the miss is gone, taken by a player who then
        had to throw up his cards (laws mode: he looked at another's hand)."""
        return self.rules.dealer_vs_one if self.miss is not None else "own"

    def _declare_options(self, seat: int) -> Options:
        irregular = self.irregular
        if irregular is not None and seat in irregular.retiring:
            return retiring_options(seat, irregular.retiring[seat], self.rules.penalties)
        apps: list[RuleApplication] = []
        forced = self.forced_to_play(seat)
        choices: list[str] = ["play"]
        miss_free = self.miss is not None and self.miss_holder is None
        if (
            seat == self.dealer
            and self.must is False
            and self.club_law is False
            and not self.setup.last_round
        ):
            before = self.declared_before_dealer()
            if len(before) == 1 and before[0] == self.miss_holder:
                if self.rules.lone_miss_holder == "dealer-must-play-own-or-master":
                    choices = ["play", "defend-master"]
                else:
                    apps.append(
                        RuleApplication(
                            "miss-holder-alone-wins",
                            msg("option.lone-miss-holder", one=before[0], d=seat),
                        )
                    )
            elif len(before) == 1:
                menu = self._dealer_vs_one().split("|")
                choices = [
                    {"own": "play", "miss": "take-miss", "miss-for-pool": "defend-miss"}[m]
                    for m in menu
                ]
            elif miss_free:
                choices.append("take-miss")
        elif miss_free:
            choices.append("take-miss")
        elif self.miss_holder is not None:
            apps.append(
                RuleApplication(
                    "miss-only-once", msg("option.miss-taken", h=self.miss_holder, p=seat)
                )
            )
        if forced is None:
            choices.append("pass")
        else:
            apps.insert(0, forced)
        return Options(seat, "declare", tuple(choices), explanations=tuple(apps))

    def _declare(self, action: Action) -> None:
        seat = action.seat
        options = self._declare_options(seat)
        choice = action.choice
        if choice not in options.choices:
            why = options.explanations[0] if options.explanations else None
            raise _not_open(choice, seat, options.choices, why)
        if action.cards:
            raise refuse("error.exchange-three-card")
        if choice == "play":
            self.declared[seat] = "play"
            if self._trace:
                self._event("declare", msg("declare.play", p=seat), seat, ["declare-in-turn"])
        elif choice == "pass":
            self.declared[seat] = "pass"
            self.thrown[seat] = self.hands[seat]
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            if self._trace:
                self._event(
                    "declare",
                    msg("declare.pass", p=seat),
                    seat,
                    ["declare-in-turn", "discards-unseen"],
                )
        elif choice == "take-miss":
            assert self.miss is not None
            self.discards.extend(self.hands[seat])
            self.thrown[seat] = self.hands[seat]
            self.hands[seat] = self.miss
            self.miss = None
            self.miss_holder = seat
            self.declared[seat] = "miss"
            if self._trace:
                self._event(
                    "declare",
                    msg("declare.take-miss", p=seat),
                    seat,
                    ["take-miss", "miss-holder-must-play"],
                )
        elif choice in ("defend-miss", "defend-master"):
            self.discards.extend(self.hands[seat])
            self.thrown[seat] = self.hands[seat]
            if choice == "defend-miss":
                assert self.miss is not None
                self.hands[seat] = self.miss
                self.miss = None
                self.miss_holder = seat
                key = "declare.defend-miss"
                rules = ["dealer-defends-miss"]
            else:
                self.hands[seat] = self.stock[:3]
                del self.stock[:3]
                key = "declare.defend-master"
                rules = ["master"]
            self.defender = seat
            self.declared[seat] = "defend"
            if self._trace:
                self._event("declare", msg(key, p=seat), seat, rules)
        self._next_declarer()

    def _next_declarer(self) -> None:
        assert self.to_act is not None
        seat = self.to_act
        if seat == self.dealer:
            self._end_declaring()
            return
        seat = (seat + 1) % self.players
        self.to_act = seat
        if seat == self.dealer and self.declared[seat] == "out":
            # A54: the dealer stands out of his deal; the declaring ends before him.
            self._end_declaring()
            return
        if seat == self.dealer and not self._declared_before_dealer():
            # A flush always loos the board (A48): the dealer's own is shown at his turn, and
            # under peel a passer's counts too; only then may all pass.
            if self.phase == "exchange":
                self._check_flush_at_turn()
                if self.phase == "over":
                    return
                if self.rules.flush_timing == "after-declaring" and self._flush_after_declaring():
                    self._show_flushes()
                    return
            self._all_pass()
            return
        if self.phase == "exchange":
            self._check_flush_at_turn()

    def _all_pass(self) -> None:
        """RULES.md all-pass-dealer-wins: the dealer takes the pool without play; but not a
        dealer who must retire for the hand (laws mode: hoffmann's Law 6, "must retire from the
        game for that round"; peel p. 24, "must throw up his own cards"), who passed only
        because he had to: then nobody plays and the pool stays for the next deal
        (``offender-winnings``)."""
        irregular = self.irregular
        if (
            irregular is not None
            and self.dealer in irregular.retiring
            and self.rules.offender_winnings == "none"
        ):
            if self._trace:
                self._event(
                    "all-pass",
                    msg("all-pass.dealer-retired", d=self.dealer, n=self.pool),
                    self.dealer,
                    [irregular.retiring[self.dealer], "penalty-destination"],
                )
            self.in_play = []
            self.outcome = "retired"
            self.no_loo = True
            self._finish()
            return
        if self._trace:
            self._event(
                "all-pass",
                msg("all-pass", d=self.dealer),
                self.dealer,
                ["all-pass-dealer-wins"],
            )
        self._settle_single_winner(self.dealer, "all-pass", "all-pass-dealer-wins")

    def _nobody_plays(self) -> None:
        """A54: everyone passed and the dealer stands out of his deal: nobody plays, nobody is
        looed, and the pool stays for the next deal (a reading: the dealer, out of the play,
        cannot take it as he does when all pass)."""
        if self._trace:
            self._event("all-pass", msg("all-pass.dealer-out", d=self.dealer), None, ["players"])
        self.in_play = []
        self.outcome = "nobody-plays"
        self.no_loo = True
        self._finish()

    def _end_declaring(self) -> None:
        declared = self.declared
        self.in_play = [
            s
            for s in _seat_order(self.dealer, self.players)
            if declared[s] not in (None, "pass", "out")
        ]
        if (
            self.game == "five-card"
            and self.rules.flush_timing == "after-declaring"
            and self._flush_after_declaring()
        ):
            self._show_flushes()
            return
        out = declared[self.dealer] == "out"
        if not self.in_play and out:
            self._nobody_plays()
            return
        if not self.in_play:
            # Nobody plays, the dealer included: whoever had declared threw up his cards once
            # the dealer's turn had come (laws mode), so all before him have passed.
            self._all_pass()
            return
        if len(self.in_play) == 1:
            (alone,) = self.in_play
            if out and self.miss_holder != alone:
                # A54: the dealer stands out, so nobody faces the one player: he takes the
                # pool, as a lone miss-holder does (a reading).
                if self._trace:
                    self._event(
                        "lone-player", msg("lone-player.dealer-out", p=alone), alone, ["players"]
                    )
                self._settle_single_winner(alone, "lone-player", "players")
                return
            if self.miss_holder == alone:
                if self._trace:
                    self._event(
                        "lone-miss", msg("lone-miss", p=alone), alone, ["miss-holder-alone-wins"]
                    )
                self._settle_single_winner(alone, "lone-miss", "miss-holder-alone-wins")
            else:
                # Five-card or Irish Loo, the dealer passing against him (A47): with no miss,
                # each player may play or pass, the dealer too (hoffmann ¶9), so the rule that
                # settles it is the game's own declaring (the exchange), not the three-card
                # dealer's duty to face him (¶3), which applies only where there is a miss.
                why = "irish-loo" if self.game == "irish" else "five-card-exchange"
                if self._trace:
                    self._event(
                        "lone-player",
                        msg(
                            "lone-player",
                            p=alone,
                            game=msg(f"part.game.{self.game}"),
                            cite=_citation(
                                self.rules.source, "dealer-vs-one-5c", self.rules.dealer_vs_one_5c
                            ),
                        ),
                        alone,
                        [why],
                    )
                self._settle_single_winner(alone, "lone-player", why)
            return
        self._start_play()

    def _flush_after_declaring(self) -> bool:
        """Under peel (five-card, ``after-declaring``) a flush is shown once everyone has
        declared, a thrown-up one included (A29, A48): whether anyone holds one."""
        hands = [self.hands[s] or self.thrown.get(s, []) for s in self.seat_order()]
        return any(find_flush(h, self.trumps) for h in hands)


@cache
def _citation(source: str, option: str, value: str) -> Message:
    """Where the preset ``source`` says that ``option`` has ``value`` (its first locator), or,
    for a table whose options gave it another value, that the table's options say so."""
    preset = PRESETS[source]
    setting = preset.settings[option]
    if value != setting.value:
        return msg("part.cite-table")
    return msg("part.cite", source=preset.title, where=setting.note.split(";")[0].strip())


def retiring_options(seat: int, rule: str, penalties: str) -> Options:
    """A player who looked at the miss (hoffmann Law 6), exposed another's cards (hoffmann Law
    6) or looked at them before declaring (peel p. 24) must retire for the hand: he may only
    pass."""
    exposed = rule == "penalty-look-at-others-cards" and penalties == "hoffmann-laws"
    key = "option.retire-exposed" if exposed else "option.retire"
    why = RuleApplication(rule, msg(key, p=seat))
    return Options(seat, "declare", ("pass",), explanations=(why,))


_OPTION_MUST: Final = msg("option.must")
_LAST_ROUND: Final = msg("option.last-round")
_CLUB_LAW: Final = msg("club-law")


def _not_open(
    choice: str, seat: int, choices: Sequence[str], why: RuleApplication | None
) -> IllegalAction:
    """The refusal of a declaration that is not open to ``seat`` now."""
    if why is None:
        return refuse("error.not-open", choice=repr(choice), p=seat, choices=", ".join(choices))
    return refuse(
        "error.not-open-why",
        why,
        choice=repr(choice),
        p=seat,
        choices=", ".join(choices),
        why=why.message,
    )
