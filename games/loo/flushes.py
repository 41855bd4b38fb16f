"""Five-card flushes: what is a flush, which of several wins, and who is excused from paying.

A flush is five cards of one suit, or four of one suit and Pam (RULES.md 1.9). A *trump flush*
is in the trump suit; a *Pam-flush* contains Pam; a *plain flush* is in another suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import SUIT_NAMES, Card
from .errors import PositionError
from .messages import Message, msg, render
from .play import RuleApplication, Trumps
from .rulesets import RuleSet


@dataclass(frozen=True)
class Flush:
    """A flush held by the player at ``seat`` (0 = the elder hand)."""

    seat: int
    suit: str
    cards: tuple[Card, ...]
    trump: bool
    pam: bool

    @property
    def kind(self) -> str:
        return render(self.kind_message)

    @property
    def kind_message(self) -> Message:
        """ "trump flush", "plain flush with Pam", …"""
        return msg(f"part.{'trump' if self.trump else 'plain'}-flush{'-pam' if self.pam else ''}")


def find_flush(hand: Sequence[Card], trumps: Trumps, seat: int = 0) -> Flush | None:
    """The flush in ``hand``, if it is one: five cards of one suit, or four and Pam."""
    if len(hand) != 5:
        return None
    pam = trumps.pam
    # Asked at every player's turn in the exchange: most hands differ in suit by the second or
    # third card, so compare suits one by one before building anything.
    c1, c2, c3, c4, c5 = hand
    suit = c1.suit
    if c2.suit == suit and c3.suit == suit and c4.suit == suit and c5.suit == suit:
        return Flush(seat, suit, tuple(hand), suit == trumps.suit, pam is not None and pam in hand)
    if pam is None or pam not in hand:
        return None
    # Pam counts as a card of any suit: the other four must be of one suit.
    rest = [c for c in hand if c is not pam]
    suit = rest[0].suit
    for c in rest:
        if c.suit != suit:
            return None
    return Flush(seat, suit, tuple(hand), suit == trumps.suit, True)


@dataclass(frozen=True)
class FlushResult:
    winner: int | None
    flushes: tuple[Flush, ...]
    #: Seats excused from paying (a losing flush, and Pam where the rules say so).
    exempt: tuple[int, ...]
    #: Seats that pay a loo (everyone else but the winner).
    pay: tuple[int, ...]
    explanations: tuple[RuleApplication, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "flushes": [f.seat for f in self.flushes],
            "exempt": list(self.exempt),
            "pay": list(self.pay),
            "explanations": [
                {**a.to_dict(), "text": a.render(None, elder_names)} for a in self.explanations
            ],
        }


def _class_key(f: Flush, precedence: str) -> tuple[int, ...]:
    if precedence == "trump>plain":
        return (int(f.trump),)
    if precedence == "pam>rest":
        return (int(f.pam),)
    if precedence == "pam>trump>plain":
        return (int(f.pam), int(f.trump))
    # trump>pam>plain: every trump flush first, then a Pam-flush; within each, Pam first (A26).
    return (int(f.trump), int(f.pam))


def _card_key(f: Flush, trumps: Trumps) -> tuple[int, ...]:
    """The flush's cards from the top, Pam counted as the highest card (A27)."""
    return tuple(sorted((trumps.rank(c) for c in f.cards), reverse=True))


def compare_flushes(
    game: str,
    rules: RuleSet,
    trump: str,
    hands: Sequence[Sequence[Card]],
    *,
    explain: bool = True,
) -> FlushResult:
    """Which flush, if any, loos the board; hands are listed from the elder hand.
    (``explain``: with the sentences that say why; without them the answer is the same.)"""
    if game != "five-card":
        raise PositionError("flushes are shown only in five-card Loo")
    if trump not in SUIT_NAMES:
        raise PositionError(f"unknown trump suit {trump!r}: use one of S, H, D, C")
    low, high = 1, 10
    if not low <= len(hands) <= high:
        raise PositionError(f"five-card Loo is played by {low} to {high} hands, not {len(hands)}")
    seen: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        if len(hand) != 5:
            raise PositionError(f"hand {seat + 1} holds {len(hand)} cards; five-card hands hold 5")
        for c in hand:
            if c in seen:
                where = "twice in hand" if seen[c] == seat else f"in hands {seen[c] + 1} and"
                raise PositionError(f"{c.code} appears {where} {seat + 1}")
            seen[c] = seat
    trumps = Trumps.of(game, rules, trump)
    flushes = tuple(f for seat, h in enumerate(hands) if (f := find_flush(h, trumps, seat)))
    apps: list[RuleApplication] = []
    if not flushes:
        return FlushResult(None, (), (), (), ())

    def of(fs: Sequence[Flush]) -> tuple[Message, ...]:
        return tuple(msg("part.flush-of", kind=f.kind_message, p=f.seat) for f in fs)

    precedence = rules.flush_precedence
    best_class = max(_class_key(f, precedence) for f in flushes)
    contenders = [f for f in flushes if _class_key(f, precedence) == best_class]
    by_cards = rules.flush_tie in ("better-cards", "highest-card")
    best = contenders
    if len(contenders) > 1 and by_cards:
        top = max(_card_key(f, trumps) for f in contenders)
        best = [f for f in contenders if _card_key(f, trumps) == top]
    # One flush; or the best class's only flush; or the best cards (the elder hand of equals);
    # or, where the cards do not count, the elder hand.
    winner = best[0]
    if explain and len(contenders) < len(flushes):
        beaten = [f for f in flushes if f not in contenders]
        apps.append(
            RuleApplication(
                "flush-precedence",
                msg(
                    "flush.precedence",
                    why=msg(f"part.precedence.{precedence}"),
                    better=of(contenders),
                    beaten=of(beaten),
                ),
            )
        )
    if explain and len(contenders) > 1 and by_cards:
        others = tuple(
            msg("part.flush-cards", p=f.seat, cards=tuple(_sorted(f, trumps)))
            for f in contenders
            if f is not winner
        )
        key = "flush.tie-better" if rules.flush_tie == "better-cards" else "flush.tie-highest"
        between = "class"
        if precedence == "pam>rest":
            between = "pam" if winner.pam else "no-trump-class"
        pam_note = "part.pam-highest-card" if any(f.pam for f in contenders) else "part.none"
        apps.append(
            RuleApplication(
                "flush-tie-break",
                msg(
                    key,
                    between=msg(f"part.between.{between}"),
                    p=winner.seat,
                    cards=tuple(_sorted(winner, trumps)),
                    others=others,
                    pam_note=msg(pam_note),
                    equal=msg("part.flush-equal" if len(best) > 1 else "part.none"),
                ),
            )
        )
    elif explain and len(contenders) > 1:
        apps.append(RuleApplication("flush-tie-break", msg("flush.tie-elder", p=winner.seat)))
    exempt: list[int] = [f.seat for f in flushes if f is not winner]
    pam_exempt = rules.flush_exempt == "losing-flush+pam" and trumps.pam is not None
    if pam_exempt:
        for seat, hand in enumerate(hands):
            if trumps.pam in hand and seat != winner.seat and seat not in exempt:
                exempt.append(seat)
    pay = tuple(s for s in range(len(hands)) if s != winner.seat and s not in exempt)
    if not explain:
        return FlushResult(winner.seat, flushes, tuple(sorted(exempt)), pay, ())
    apps.insert(
        0,
        RuleApplication(
            "flush-loos-the-board",
            msg(
                "flush.loos-the-board",
                p=winner.seat,
                kind=winner.kind_message,
                cards=tuple(_sorted(winner, trumps)),
            ),
        ),
    )
    losers = {f.seat for f in flushes if f is not winner}
    reasons = [
        msg("part.exempt-losing-flush" if s in losers else "part.exempt-pam", p=s) for s in exempt
    ]
    exempt.sort()
    if reasons:
        apps.append(
            RuleApplication(
                "flush-payment-exemption", msg("flush.exemption", reasons=tuple(reasons))
            )
        )
    return FlushResult(winner.seat, flushes, tuple(exempt), pay, tuple(apps))


def elder_names(seat: int) -> str:
    """How :func:`compare_flushes` calls the hands, listed from the elder hand."""
    return "the elder hand" if seat == 0 else f"player {seat + 1}"


def _sorted(f: Flush, trumps: Trumps) -> list[Card]:
    return sorted(f.cards, key=trumps.rank, reverse=True)


__all__ = ["Flush", "FlushResult", "compare_flushes", "elder_names", "find_flush"]
