"""Card play at the table: RULES.md 1.5 to 1.8, as they apply to the hand in progress.

- ``elder-leads-first`` (A19): the first player in the play from the dealer's left leads;
  ``miss-holder-leads`` under peel's agreement;
- the legal moves of the player to act (the lead and follow rules, Pam and "Pam, be civil"),
  worked out by :mod:`games.loo.play` from the hand's own state, and a card laid: a legal one,
  or in laws mode an irregular one let stand (:mod:`.laws`); ``played-cards-face-up``: every
  card played is seen by all;
- ``trick-winner``: the trick is taken and its winner leads the next; after the last trick the
  hand is settled (:mod:`.settle`), or replayed under the laws.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Final, NoReturn

from ..cards import BY_CODE, Card, card
from ..messages import msg
from ..play import (
    LegalMoves,
    Position,
    RuleApplication,
    _legal_follow,
    _legal_lead,
    trick_winner,
    winning_index,
)
from ..play.core import quiet_moves
from ..rulesets import HAND_SIZE
from ..sentences import HAD_TO
from .state import Action, HandState, IllegalAction, Trick, _new_tuple, refuse

#: The card of a ``(seat, card)`` play.
_card_of_play: Final = itemgetter(1)


class PlayPhase(HandState):
    """The play of the cards, trick by trick."""

    __slots__ = ()

    def _first_leader(self) -> int:
        """RULES.md elder-leads-first, A19; peel's miss-holder-leads by agreement."""
        if self.rules.first_leader == "miss-holder" and self.miss_holder in self.in_play:
            assert self.miss_holder is not None
            return self.miss_holder
        return self.in_play[0]

    def _start_play(self) -> None:
        self.phase = "play"
        self.start_of_play = list(map(list, self.hands))
        leader = self._first_leader()
        self.trick = Trick(leader)
        self.to_act = leader
        if self._trace:
            self._event(
                "play-begins",
                msg("play-begins", n=len(self.in_play), players=tuple(self.in_play), p=leader),
                leader,
                [
                    "miss-holder-leads"
                    if self.rules.first_leader == "miss-holder" and leader == self.miss_holder
                    else "elder-leads-first"
                ],
            )

    def trick_cards(self) -> list[Card]:
        return self.trick.cards if self.trick is not None else []

    def position(self, seat: int) -> Position:
        """The card-play position of ``seat`` as it stands."""
        trick = self.trick
        if trick is None:
            cards: tuple[Card, ...] = ()
            civil = False
        else:
            plays = trick.plays
            cards = tuple(map(_card_of_play, plays)) if plays else ()
            civil = trick.civil
        trumps = self.trumps
        # Position.trusted, without the call: the engine built it from a consistent hand.
        return _new_tuple(
            Position,
            (
                self.game,
                self.rules,
                trumps.suit,
                tuple(self.hands[seat]),
                cards,
                self.turn_up,
                len(self.in_play),
                len(self.tricks) + 1,
                civil,
                self._played,
                trumps,
            ),
        )

    def legal_moves(self, seat: int, explain: bool = True) -> LegalMoves:
        """:func:`~games.loo.play.legal` for ``seat`` now (remembered until the next action)."""
        done = len(self.log)
        cached = self._moves
        if (
            cached is not None
            and cached[0] == done
            and cached[1] == seat
            and (cached[3] or not explain)
        ):
            return cached[2]
        position = self.position(seat)
        if not explain and seat == self.to_act and self.phase == "play":
            # The quiet answer Hand.choices remembers too (the bots ask for it, then step).
            moves = quiet_moves(position, self._offered(seat))
        else:
            # legal(position, explain=explain): its dispatch, without the extra call.
            moves = (_legal_follow if position.trick else _legal_lead)(position, explain, seat)
        self._moves = (done, seat, moves, explain)
        return moves

    def _offered(self, seat: int) -> tuple[Card, ...]:
        """The legal cards of ``seat``, the player to act in the play, as :meth:`choices`
        works them out (remembered until the next action; only ever asked for him)."""
        offered = self._offer
        if offered is None:
            self.choices()
            offered = self._offer
            assert offered is not None
        return offered

    def active(self) -> list[int]:
        """Players still in the play (not retired under a law)."""
        return [s for s in self.in_play if s not in self.retired]

    def _next_in_play(self, seat: int) -> int:
        """The next active player clockwise after ``seat``."""
        order = self.in_play
        i = order.index(seat)
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if nxt not in self.retired:
                return nxt
        raise AssertionError("no active player")

    def _trick_complete(self) -> bool:
        trick = self.trick
        assert trick is not None
        if not self.retired:
            return len(trick.plays) == len(self.in_play)
        active = self.active()
        return sum(1 for s, _ in trick.plays if s in active) == len(active)

    def _play(self, action: Action) -> None:
        seat = action.seat
        codes = action.cards
        if len(codes) != 1:
            raise refuse("error.one-card")
        played = BY_CODE.get(codes[0])
        if played is None:
            played = card(codes[0])
        retired = self.retired
        held = self.hands[seat]
        civil = action.civil
        cached = self._moves
        if (
            not civil
            and seat == self.to_act
            and cached is not None
            and cached[0] == len(self.log)
            and cached[1] == seat
            and (cached[3] or not self._trace)
            and played in cached[2].legal
        ):
            # A legal card of the player to act, as the remembered legal moves say: he is in
            # the play and holds it, so none of the checks below can fail.
            self._lay(seat, played, cached[2].explanations, False, False)
            return
        if seat not in self.in_play or seat in retired:
            raise refuse("error.not-in-play", p=seat)
        if played not in held:
            raise refuse("error.not-held", p=seat, card=played)
        trick = self.trick
        assert trick is not None
        if seat != self.to_act:
            self._out_of_turn(seat, played)
            return
        if civil and not (
            not trick.plays and self.game == "five-card" and played.code == "A" + self.trump
        ):
            raise refuse("error.civil")
        moves = self.legal_moves(seat, self._trace)
        irregular = played not in moves.legal
        if irregular:
            why = self.legal_moves(seat).why_not(played)
            assert why is not None
            if not self.laws_apply():
                raise _forbidden(played, why)
            self._record_offence(seat, played, why)
        self._lay(seat, played, moves.explanations, irregular, civil)

    def _refuse_card(self, seat: int, choice: Card | str, discards: Sequence[Card]) -> NoReturn:
        """Raise the :class:`IllegalAction` for a card play :meth:`step` does not offer."""
        if discards:
            raise refuse("error.card-discards")
        if type(choice) is not Card:
            raise refuse("error.card-now", choice=repr(choice))
        if choice not in self.hands[seat]:
            raise refuse("error.not-held", p=seat, card=choice)
        why = self.legal_moves(seat).why_not(choice)
        raise _forbidden(choice, why)

    def _lay(
        self,
        seat: int,
        played: Card,
        why: tuple[RuleApplication, ...],
        irregular: bool,
        civil: bool,
    ) -> None:
        """``seat``, the player to act, plays ``played`` (checked: legal, or an offence already
        recorded) to the trick; ``why`` explains his legal moves (their rules go in the trace)."""
        trick = self.trick
        assert trick is not None
        plays = trick.plays
        leading = not plays
        self.hands[seat].remove(played)
        plays.append((seat, played))
        trick.laid.append(played)
        self.seen.append(played)
        if leading and civil:
            trick.civil = True
        if self._trace and not irregular:
            # The rules that bound this play. An irregular play's one line is its offence's,
            # already told (.laws).
            rules = [a.rule for a in why if a.excluded]
            had = tuple(r for r in rules if r in HAD_TO and r != "pam-be-civil")
            key = "play.lead" if leading else "play.follow"
            if civil:
                key = "play.lead-civil"
                rules.append("pam-be-civil")
            self._event(
                "play",
                msg(key + "-had", p=seat, card=played, had=had)
                if had
                else msg(key, p=seat, card=played),
                seat,
                rules,
                [played],
            )
        if self.retired:
            if self._trick_complete():
                self._end_trick()
            else:
                self.to_act = self._next_in_play(seat)
            return
        # Nobody has retired: the trick is complete when everyone in the play has played.
        order = self.in_play
        if len(plays) == len(order):
            self._end_trick()
        else:
            self.to_act = order[(order.index(seat) + 1) % len(order)]

    def _end_trick(self) -> None:
        trick = self.trick
        assert trick is not None
        plays = trick.plays
        cards = tuple(trick.laid)
        winner = plays[winning_index(cards, self.trumps)][0]
        trick.winner = winner
        self.tricks.append(trick)
        self._played += cards
        if self._trace:
            result = trick_winner(self.game, self.rules, self.trump, cards)
            if self._trace:
                self._event(
                    "trick",
                    msg(
                        "trick.taken",
                        p=winner,
                        n=len(self.tricks),
                        why=result.explanations[0].message,
                    ),
                    winner,
                    [a.rule for a in result.explanations],
                    [result.card],
                )
        if len(self.tricks) == HAND_SIZE[self.game]:
            self._end_play()
        else:
            leader = winner if winner not in self.retired else self._next_in_play(winner)
            self.trick = Trick(leader)
            self.to_act = leader


def _forbidden(played: Card, why: RuleApplication | None) -> IllegalAction:
    """The refusal of a card the rules forbid (``why``: the rule that does)."""
    if why is None:
        return refuse("error.forbidden-card", card=played)
    return refuse("error.forbidden", why, card=played, why=why.message)
