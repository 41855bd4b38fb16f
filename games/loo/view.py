"""A player's view: exactly what one player may know of a hand.

His own cards (once his turn to declare has come, where the rules say so), the cards played,
the turn-up, the declarations, the pool and the counters, the tricks, any flush shown — never
another hand, the miss, the stock or the discards. Bots and templates get only this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, card
from .flushes import FlushResult
from .hand import Event, Hand, Options, Payment
from .messages import msg
from .rulesets import RuleSet


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    civil: bool
    winner: int | None


@dataclass(frozen=True)
class PlayerView:
    seat: int
    players: int
    game: str
    rules: RuleSet
    hand_number: int
    dealer: int
    phase: str
    to_act: int | None
    trump: str
    turn_up: Card
    stake: int
    pool: int
    pool_at_start: int
    balances: tuple[int, ...]
    must: bool
    club_law: bool
    single: bool
    double: bool
    #: His own cards; None while the rules do not yet let him look (look-at-cards-in-turn).
    hand: tuple[Card, ...] | None
    #: Cards he has seen and given up himself (a hand exchanged for miss, discards).
    own_discards: tuple[Card, ...]
    #: Every card shown face up in play so far, a replayed play included.
    seen: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    declared: tuple[str | None, ...]
    drawn: tuple[int, ...]
    miss_on_table: bool
    miss_holder: int | None
    defender: int | None
    stock_size: int
    in_play: tuple[int, ...]
    retired: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    trick: TrickView | None
    flush: FlushResult | None
    outcome: str
    payments: tuple[Payment, ...]
    looed: tuple[int, ...]
    events: tuple[Event, ...]
    #: What he may do now, with its explanations (None when it is not his turn).
    options: Options | None
    #: Laws mode: a card the rules forbid would stand now, and its penalty be applied.
    irregular_stands: bool = False
    #: For each seat, the cards it holds that everyone has seen: in a replay (Law 16), those of
    #: the play taken back, which every player watched; a card played out of turn and kept.
    shown_held: tuple[tuple[Card, ...], ...] = ()
    #: Cards he has seen where he should not have looked (the miss, another player's hand;
    #: laws mode): he knows them, and paid for it.
    peeked: tuple[Card, ...] = ()
    #: Laws mode: the irregularities he could commit now that the laws would let stand and
    #: punish (``Hand.irregularities``: misdealing, declaring or looking before his turn,
    #: exposing a card, ...). Worked out from what the whole table knows, and his own cards.
    irregularities: tuple[str, ...] = ()

    def visible_cards(self) -> set[Card]:
        """Every card this view shows."""
        cards = set(self.hand or ()) | set(self.own_discards) | set(self.seen) | {self.turn_up}
        cards |= set(self.peeked)
        for t in self.tricks + ((self.trick,) if self.trick else ()):
            cards |= {c for _, c in t.plays}
        if self.flush is not None:
            for f in self.flush.flushes:
                cards |= set(f.cards)
        return cards

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly form for templates and tests."""

        def trick(t: TrickView | None) -> dict[str, Any] | None:
            if t is None:
                return None
            return {
                "leader": t.leader,
                "plays": [[s, c.code] for s, c in t.plays],
                "civil": t.civil,
                "winner": t.winner,
            }

        options = None
        if self.options is not None:
            o = self.options
            options = {
                "kind": o.kind,
                "choices": list(o.choices),
                "max_discards": o.max_discards,
                "civil_call": o.civil_call,
                "legal": o.legal.to_dict() if o.legal is not None else None,
                "explanations": [a.to_dict() for a in o.explanations],
            }
        return {
            "seat": self.seat,
            "players": self.players,
            "game": self.game,
            "rules": self.rules.name,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "trump": self.trump,
            "turn_up": self.turn_up.code,
            "stake": self.stake,
            "pool": self.pool,
            "pool_at_start": self.pool_at_start,
            "balances": list(self.balances),
            "must": self.must,
            "club_law": self.club_law,
            "single": self.single,
            "double": self.double,
            "hand": None if self.hand is None else [c.code for c in self.hand],
            "own_discards": [c.code for c in self.own_discards],
            "seen": [c.code for c in self.seen],
            "hand_sizes": list(self.hand_sizes),
            "declared": list(self.declared),
            "drawn": list(self.drawn),
            "miss_on_table": self.miss_on_table,
            "miss_holder": self.miss_holder,
            "defender": self.defender,
            "stock_size": self.stock_size,
            "in_play": list(self.in_play),
            "retired": list(self.retired),
            "tricks": [trick(t) for t in self.tricks],
            "trick": trick(self.trick),
            "flush": self.flush.to_dict() if self.flush else None,
            "flush_hands": (
                [[c.code for c in f.cards] for f in self.flush.flushes] if self.flush else []
            ),
            "outcome": self.outcome,
            "payments": [p.to_dict() for p in self.payments],
            "looed": list(self.looed),
            "events": [e.to_dict() for e in self.events],
            "options": options,
            "irregular_stands": self.irregular_stands,
            "shown_held": [[c.code for c in held] for held in self.shown_held],
            "peeked": [c.code for c in self.peeked],
            "irregularities": list(self.irregularities),
        }


def may_look(hand: Hand, seat: int) -> bool:
    """RULES.md look-at-cards-in-turn: a seat sees its hand only when its turn to declare has
    come (and from then on)."""
    if hand.rules.look_in_turn == "off" or hand.phase not in ("declare", "exchange"):
        return True
    irregular = hand.irregular
    if irregular is not None and seat in irregular.looked:
        return True  # he looked before his turn, and paid for it (penalty-declare-out-of-turn)
    return hand.declared[seat] is not None or hand.to_act == seat


def public_events(hand: Hand, seat: int) -> tuple[Event, ...]:
    """The trace as ``seat`` may know it while the hand is played. Another player's card is
    told as the table saw it: the card, not the rules that bound it, for a rule that bound
    him excluded a card he still holds ("had to follow suit": he held another suit; "had to
    lead a trump, holding two or more"); and a card he played irregularly, let stand in laws
    mode, is a card played till the table finds the offence, when the last trick is taken
    (hoffmann Law 16 then offers a replay). A call of "Pam, be civil" is heard by all. Once the
    hand is over, the whole trace is told."""
    if hand.over:
        return tuple(hand.events)
    return tuple(
        _as_seen(e, hand) if e.seat is not None and e.seat != seat else e for e in hand.events
    )


def _as_seen(event: Event, hand: Hand) -> Event:
    """Another player's line of the trace as the table saw it."""
    key = event.message.key
    if event.kind == "play" and key.endswith("-had"):
        key = key.removesuffix("-had")
    elif key == "offence.irregular" and hand.phase == "play" and not hand.replaying:
        code = event.cards[0]
        leads = any(t.plays and t.plays[0][1].code == code for t in (*hand.tricks, hand.trick) if t)
        key = "play.lead" if leads else "play.follow"
    else:
        return event
    rules = ("pam-be-civil",) if key == "play.lead-civil" else ()
    message = msg(key, p=event.seat, card=card(event.cards[0]))
    return Event("play", message, event.seat, rules, event.cards)


def view_for(hand: Hand, seat: int, hand_number: int | None = None) -> PlayerView:
    """What ``seat`` may know of ``hand``."""
    looks = may_look(hand, seat)
    own = tuple(hand.hands[seat]) if looks else None
    own_discards = tuple(hand.thrown.get(seat, ())) + tuple(hand.exchanged.get(seat, ()))

    def trick_view(t: Any) -> TrickView:
        return TrickView(t.leader, tuple(t.plays), t.civil, t.winner)

    options = hand.options() if hand.to_act == seat and looks else None
    # A card shown face up and still held (cards played leave the hand; see shown_held).
    seen = set(hand.seen)
    shown_held = tuple(tuple(c for c in h if c in seen) for h in hand.hands) if seen else ()
    return PlayerView(
        seat=seat,
        players=hand.players,
        game=hand.game,
        rules=hand.rules,
        hand_number=hand_number if hand_number is not None else hand.setup.hand_number,
        dealer=hand.dealer,
        phase=hand.phase,
        to_act=hand.to_act,
        trump=hand.trump,
        turn_up=hand.turn_up,
        stake=hand.stake,
        pool=hand.pool,
        pool_at_start=hand.pool_at_start,
        balances=tuple(hand.balances),
        must=hand.must,
        club_law=hand.club_law,
        single=hand.single,
        double=hand.double,
        hand=own,
        own_discards=own_discards,
        seen=tuple(hand.seen),
        hand_sizes=tuple(len(h) for h in hand.hands),
        declared=tuple(hand.declared),
        drawn=tuple(hand.drawn),
        miss_on_table=hand.miss is not None,
        miss_holder=hand.miss_holder,
        defender=hand.defender,
        stock_size=len(hand.stock),
        in_play=tuple(hand.in_play),
        retired=tuple(hand.retired),
        tricks=tuple(trick_view(t) for t in hand.tricks),
        trick=trick_view(hand.trick) if hand.trick is not None else None,
        flush=hand.flush,
        outcome=hand.outcome,
        payments=tuple(hand.payments),
        looed=tuple(hand.looed),
        events=public_events(hand, seat),
        options=options,
        irregular_stands=hand.laws_apply(),
        shown_held=shown_held,
        peeked=tuple(hand.irregular.peeked.get(seat, ())) if hand.irregular is not None else (),
        irregularities=hand.irregularities(seat),
    )
