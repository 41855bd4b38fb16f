"""The exchange of five-card and Irish Loo: RULES.md ``five-card-exchange`` and ``irish-loo``.

In turn from the dealer's left each player passes, or plays and discards up to his whole hand
(as many as the stock still holds) to draw as many from the stock; drawing commits him. Who may
not pass is decided as in declaring (``must``, ``club-law``, ``dealer-must-play-against-one``:
:meth:`~.declare.DeclarePhase.forced_to_play`); under ``club-law`` a rule set may allow no
drawing at all. A flush shown at once (A29) is looked for after each draw (:mod:`.showing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..cards import BY_CODE, Card, parse_card
from ..flushes import find_flush
from ..messages import msg
from ..play import RuleApplication
from .declare import _not_open, retiring_options
from .state import Action, HandState, Options, refuse


@cache
def _free_exchange(seat: int, most: int) -> Options:
    """The exchange options of a player free to play or pass, discarding up to ``most``.
    Shared: an Options is never changed once made."""
    return Options(seat, "declare", ("play", "pass"), most)


class ExchangePhase(HandState):
    """Passing, standing or drawing in the exchange."""

    __slots__ = ()

    def _exchange_options(self, seat: int) -> Options:
        cached = self._exchange_cache
        if cached is not None and cached[0] == seat:
            return cached[1]
        irregular = self.irregular
        if irregular is not None and seat in irregular.retiring:
            return retiring_options(seat, irregular.retiring[seat], self.rules.penalties)
        club_law = self.club_law
        # Only a must, club law and the dealer can be forced to play.
        forced = self.forced_to_play(seat) if self.must or club_law or seat == self.dealer else None
        may_draw = not (club_law and self.rules.club_law_exchange == "none")
        held = len(self.hands[seat])
        stock = len(self.stock)
        most = (held if held < stock else stock) if may_draw else 0
        if forced is None and not club_law and most == held:
            # Free to play or pass and to discard his whole hand: the answer of every free
            # player in this seat, made once.
            options = _free_exchange(seat, most)
        else:
            apps: list[RuleApplication] = []
            if forced is not None:
                apps.append(forced)
            if not may_draw:
                apps.append(RuleApplication("club-law", msg("option.club-law-no-draw")))
            if may_draw and most < held:
                apps.append(
                    RuleApplication(
                        "five-card-exchange",
                        msg("option.short-stock", n=stock, most=most, p=seat)
                        if most
                        else msg("option.empty-stock", p=seat),
                    )
                )
            choices = ("play",) if forced else ("play", "pass")
            options = Options(seat, "declare", choices, max_discards=most, explanations=tuple(apps))
        self._exchange_cache = (seat, options)
        return options

    def _exchange_offered(self, seat: int, choice: str, discards: Sequence[Card]) -> bool:
        """Whether ``seat`` may ``choice`` (``"play"`` or ``"pass"``) in the exchange with these
        ``discards``: distinct :class:`Card`\\ s he holds, no more than he may discard, and none
        when he passes (what :meth:`_exchange` checks, for cards rather than codes)."""
        options = self._exchange_options(seat)
        if choice not in options.choices:
            return False
        if not discards:
            return True
        if choice == "pass" or len(discards) > options.max_discards:
            return False
        held = self.hands[seat]
        seen: list[Card] = []
        for c in discards:
            if type(c) is not Card or c not in held or c in seen:
                return False
            seen.append(c)
        return True

    def _exchange(self, action: Action) -> None:
        seat = action.seat
        options = self._exchange_options(seat)
        if action.choice not in options.choices:
            why = options.explanations[0] if options.explanations else None
            raise _not_open(action.choice, seat, options.choices, why)
        held = self.hands[seat]
        if action.choice == "pass":
            if action.cards:
                raise refuse("error.pass-draws")
            self._exchange_pass(seat)
            return
        codes = action.cards
        discards = _parse_held(codes, held, seat) if codes else []
        if len(discards) > options.max_discards:
            raise refuse(
                "error.too-many-discards",
                options.explanations[-1] if options.explanations else None,
                p=seat,
                n=options.max_discards,
            )
        self._exchange_play(seat, discards)

    def _exchange_pass(self, seat: int) -> None:
        """``seat``, the player to act in the exchange, passes (checked: he may)."""
        held = self.hands[seat]
        self.declared[seat] = "pass"
        self.thrown[seat] = held
        self.discards.extend(held)
        self.hands[seat] = []
        if self._trace:
            self._event("declare", msg("declare.pass", p=seat), seat, ["declare-in-turn"])
        self._next_declarer()

    def _exchange_play(self, seat: int, discards: list[Card]) -> None:
        """``seat``, the player to act in the exchange, plays and draws for ``discards``
        (checked: distinct cards he holds, no more than he may discard)."""
        held = self.hands[seat]
        count = len(discards)
        self.declared[seat] = "play"
        if discards:
            kept = [c for c in held if c not in discards]
            stock = self.stock
            kept.extend(stock[:count])
            del stock[:count]
            self.hands[seat] = kept
            self.discards.extend(discards)
            self.exchanged[seat] = discards
            self.drawn[seat] = count
            if self._trace:
                self._event(
                    "exchange",
                    msg("exchange.draw", p=seat, n=count),
                    seat,
                    [self._exchange_rule],
                )
        else:
            if self._trace:
                self._event("exchange", msg("exchange.stand", p=seat), seat, [self._exchange_rule])
        # A hand he stands on was looked at when his turn came (_check_flush_at_turn).
        if (
            discards
            and self._immediate_flush
            and find_flush(self.hands[seat], self.trumps, seat) is not None
        ):
            self._show_flushes()
            return
        self._next_declarer()

    @property
    def _exchange_rule(self) -> str:
        return "irish-loo" if self.game == "irish" else "five-card-exchange"


def _parse_held(codes: Sequence[str], hand: Sequence[Card], seat: int) -> list[Card]:
    """The cards written ``codes``, each held in ``hand`` (``seat``'s) once."""
    cards: list[Card] = []
    for code in codes:
        c = BY_CODE.get(code) if type(code) is str else None
        if c is None:
            c = parse_card(code)
        if c not in hand:
            raise refuse("error.not-held", p=seat, card=c)
        if c in cards:
            raise refuse("error.discarded-twice", card=c)
        cards.append(c)
    return cards
