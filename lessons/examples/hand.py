"""A ``hand`` example: a whole hand dealt from a stacked pack (or a pack whose top is given)
and moved step by step under each rule set: the options and the rules that shaped them, the
public trace, the settlement, and the step a rule set refuses (:class:`games.loo.hand.Hand`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.loo.authored import flag_field
from games.loo.cards import PACK, Card, parse_card
from games.loo.errors import LooError
from games.loo.hand import Event, Hand, HandSetup, IllegalAction, Payment, stack_pack
from games.loo.play import RuleApplication
from games.loo.rulesets import HAND_SIZE
from games.loo.table import TableConfig
from lessons.examples.base import (
    COMMON_FIELDS,
    ExampleError,
    Ruleset,
    WorkedExample,
    apps_key,
    card_list,
    no_repeats,
    seat_label,
    whole,
)
from lessons.examples.steps import CHOICE_WORDS, Step


@dataclass(frozen=True)
class Moment:
    """What the player to act may do at one point of a hand, and the rules that decided it."""

    seat: int
    kind: str  # "declare", "play" or "replay"
    choices: tuple[str, ...]
    max_discards: int
    cards: tuple[Card, ...]
    explanations: tuple[RuleApplication, ...]
    notes: tuple[RuleApplication, ...]
    civil_call: bool

    @classmethod
    def of(cls, hand: Hand) -> Moment | None:
        options = hand.options()
        if options.kind == "none":
            return None
        moves = options.legal
        return cls(
            options.seat,
            options.kind,
            options.choices,
            options.max_discards,
            moves.legal if moves is not None else (),
            options.explanations,
            moves.notes if moves is not None else (),
            options.civil_call,
        )

    @property
    def verb(self) -> str:
        return {
            "declare": "declare",
            "play": "play a card",
            "replay": "say whether the hand is played again",
        }[self.kind]

    @property
    def choice_words(self) -> list[str]:
        words = [CHOICE_WORDS[c] for c in self.choices]
        if self.max_discards and "play" in self.choices:
            n = self.max_discards
            words[self.choices.index("play")] = (
                f"play, standing or discarding up to {n} card{'s' if n > 1 else ''} to draw"
            )
        return words

    def key(self) -> object:
        return (
            self.seat,
            self.kind,
            self.choices,
            self.max_discards,
            self.cards,
            apps_key(self.explanations),
            apps_key(self.notes),
        )


@dataclass(frozen=True)
class Refusal:
    """A step the rule set does not allow (``step`` None: it will not deal this table)."""

    step: Step | None
    text: str
    rule: str


@dataclass(frozen=True)
class Fact:
    """Something the engine says of the deal under one rule set that its trace does not:
    whether the pool is a single or a double."""

    text: str
    rule: str


@dataclass(frozen=True)
class HandRow:
    """A hand replayed under one rule set."""

    ruleset: Ruleset
    players: int
    refusal: Refusal | None
    #: The options shown: at each "?" step, at a refusal, and at the end of an unfinished hand.
    moments: tuple[tuple[int, Moment], ...]
    facts: tuple[Fact, ...]
    events: tuple[Event, ...]
    payments: tuple[Payment, ...]
    pool_at_start: int
    pool: int
    looed: tuple[int, ...]
    over: bool
    outcome: str
    #: The numbers of the steps not taken because the hand was already over.
    unplayed: tuple[int, ...]
    #: The cards as dealt under this rule set: the hands, the miss (None: none dealt, or
    #: withdrawn under club law) and the turn-up (None: the deal was refused).
    dealt: tuple[tuple[Card, ...], ...]
    dealt_miss: tuple[Card, ...] | None
    turn_up: Card | None

    def key(self) -> object:
        refusal = self.refusal
        return (
            (refusal.step.number if refusal.step else None, refusal.text, refusal.rule)
            if refusal
            else None,
            tuple((n, m.key()) for n, m in self.moments),
            self.facts,
            self.events,
            self.payments,
            self.pool_at_start,
            self.pool,
            self.looed,
            self.over,
            self.unplayed,
            self.dealt,
            self.dealt_miss,
            self.turn_up,
        )

    @property
    def looed_names(self) -> list[str]:
        return [seat_label(s, self.players) for s in self.looed]

    @property
    def cited(self) -> set[str]:
        """Every rule this hand's trace, options, payments and refusal name."""
        rules = {r for e in self.events for r in e.rules}
        rules |= {a.rule for _, m in self.moments for a in (*m.explanations, *m.notes)}
        rules |= {p.rule for p in self.payments} | {f.rule for f in self.facts}
        if self.refusal:
            rules.add(self.refusal.rule)
        return rules


class HandExample(WorkedExample):
    kind = "hand"
    FIELDS = COMMON_FIELDS | {
        "game",
        "players",
        "hands",
        "pack",
        "turn_up",
        "miss",
        "stock",
        "pool",
        "first",
        "prev_no_loo",
        "prev_flush",
        "laws",
        "steps",
    }
    REQUIRED = ("game",)

    def __init__(self, data: dict[str, Any], rows: tuple[HandRow, ...], **setup: Any) -> None:
        self.rows = rows
        self.options = data.get("options") or {}
        self.game: str = setup["game"]
        self.players: int = setup["players"]
        #: The hands stacked for each seat, or None when the example deals a given pack.
        self.hands: tuple[tuple[Card, ...], ...] | None = setup["hands"]
        self.pack: tuple[Card, ...] | None = setup["pack"]
        self.turn_up: Card | None = setup["turn_up"]
        self.miss: tuple[Card, ...] | None = setup["miss"]
        self.stock: tuple[Card, ...] = setup["stock"]
        self.pool: int = setup["pool"]
        self.first: bool = setup["first"]
        self.prev_no_loo: bool = setup["prev_no_loo"]
        self.prev_flush: bool = setup["prev_flush"]
        self.laws: bool = setup["laws"]
        self.steps: tuple[Step, ...] = setup["steps"]

    @property
    def seats(self) -> list[tuple[str, tuple[Card, ...]]]:
        return [(seat_label(s, self.players), hand) for s, hand in enumerate(self.hands or ())]

    @classmethod
    def work_out(cls, data: dict[str, Any], rulesets: list[Ruleset]) -> HandExample:
        game = str(data["game"])
        if ("hands" in data) == ("pack" in data):
            raise ExampleError(
                'a hand example gives either "hands" (stacked for each seat) or "pack" (the top '
                "of the pack, dealt as each rule set deals)"
            )
        setup = _stacked(data, game) if "hands" in data else _from_pack(data, game)
        players: int = setup["players"]
        raw_steps = data.get("steps", [])
        if not isinstance(raw_steps, list):
            raise ExampleError('"steps" must be a list, such as ["0 play", "1 pass"]')
        steps = tuple(Step.parse(n, text, players) for n, text in enumerate(raw_steps, 1))
        shown = {r.preset for r in rulesets}
        for step in steps:
            for name in step.presets or ():
                if name not in shown:
                    raise ExampleError(
                        f"step {step.number} ({step.text!r}) is for {name}, which this example "
                        "does not show"
                    )
        setup |= {
            "game": game,
            "pool": whole(data.get("pool", 0), '"pool"'),
            "first": flag_field(data, "first"),
            "prev_no_loo": flag_field(data, "prev_no_loo"),
            "prev_flush": flag_field(data, "prev_flush"),
            "laws": flag_field(data, "laws"),
            "steps": steps,
        }
        rows = tuple(_replay(ruleset, setup) for ruleset in rulesets)
        _check_playable(rows, steps)
        return cls(data, rows, **setup)


def _stacked(data: dict[str, Any], game: str) -> dict[str, Any]:
    """The hands, miss, turn-up and top of the stock of a stacked deal, checked."""
    raw_hands = data["hands"]
    if not isinstance(raw_hands, list) or len(raw_hands) < 2:
        raise ExampleError('"hands" must list every seat\'s cards, from the elder hand')
    players = len(raw_hands)
    if "players" in data and data["players"] != players:
        raise ExampleError(f'"players" is {data["players"]!r} but {players} hands are dealt')
    hands = tuple(
        card_list(h, f"hand of {seat_label(s, players)}") for s, h in enumerate(raw_hands)
    )
    size = HAND_SIZE[game]
    for s, hand in enumerate(hands):
        if len(hand) != size:
            raise ExampleError(
                f"{seat_label(s, players)} is dealt {len(hand)} cards; a {game} hand holds {size}"
            )
    if not data.get("turn_up"):
        raise ExampleError('a stacked hand needs its "turn_up"')
    turn_up = parse_card(data["turn_up"])
    miss = card_list(data["miss"], "miss") if data.get("miss") is not None else None
    if game == "three-card" and miss is None:
        raise ExampleError('a three-card hand needs its "miss" (three cards)')
    if game != "three-card" and miss is not None:
        raise ExampleError(f"{game} Loo deals no miss")
    if miss is not None and len(miss) != 3:
        raise ExampleError(f"the miss holds three cards, not {len(miss)}")
    stock = card_list(data.get("stock", []), "stock")
    no_repeats(
        [
            *[(f"the hand of {seat_label(s, players)}", h) for s, h in enumerate(hands)],
            ("the miss", miss or ()),
            ("the turn-up", [turn_up]),
            ("the stock", stock),
        ]
    )
    if (players + (1 if miss else 0)) * size + 1 + len(stock) > 52:
        raise ExampleError(f"a pack of 52 cannot deal {players} hands and this stock")
    return {
        "players": players,
        "hands": hands,
        "pack": None,
        "turn_up": turn_up,
        "miss": miss,
        "stock": stock,
    }


def _from_pack(data: dict[str, Any], game: str) -> dict[str, Any]:
    """A pack whose top cards are given, the rest following in the usual order: each rule set
    deals it as it deals (RULES.md deal-order)."""
    for name in ("turn_up", "miss", "stock"):
        if name in data:
            raise ExampleError(f'"{name}" is dealt from the "pack"; give one or the other')
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ExampleError('a hand dealt from a "pack" needs "players": how many are dealt to')
    top = card_list(data["pack"], "pack")
    if len(top) > 52:
        raise ExampleError("a pack holds 52 cards")
    return {
        "players": players,
        "hands": None,
        "pack": top,
        "turn_up": None,
        "miss": None,
        "stock": (),
    }


def _deal(ruleset: Ruleset, setup: dict[str, Any], miss: tuple[Card, ...] | None) -> Hand:
    players: int = setup["players"]
    if setup["pack"] is not None:
        top = [c.code for c in setup["pack"]]
        pack = (*top, *(c.code for c in PACK if c.code not in top))
    else:
        pack = stack_pack(
            setup["game"],
            ruleset.rules,
            players,
            players - 1,
            [[c.code for c in h] for h in setup["hands"]],
            setup["turn_up"].code,
            [c.code for c in miss] if miss is not None else None,
            [c.code for c in setup["stock"]],
        )
    return Hand.deal(
        HandSetup(
            game=setup["game"],
            rules=ruleset.rules,
            players=players,
            dealer=players - 1,
            hand_number=1 if setup["first"] else 2,
            seed=0,
            balances=(100,) * players,
            pool=setup["pool"],
            first=setup["first"],
            prev_no_loo=setup["prev_no_loo"],
            prev_flush=setup["prev_flush"],
            laws=setup["laws"],
            pack=pack,
        )
    )


def _deal_single(ruleset: Ruleset, setup: dict[str, Any]) -> Hand:
    """A stacked example dealt as peel's single: its turn-up turned up, and each seat, from
    the dealer's left (seat 0) round to the dealer, given the first card of its hand."""
    top = (setup["turn_up"], *(h[0] for h in setup["hands"]))
    return _deal(ruleset, {**setup, "pack": top, "hands": None}, None)


def _replay(ruleset: Ruleset, setup: dict[str, Any]) -> HandRow:
    """Deal the hand under one rule set and take its steps until one is refused."""
    game, players = setup["game"], setup["players"]
    try:
        TableConfig(game, ruleset.rules, players, seed=0)
    except LooError as error:
        return _refused_deal(ruleset, players, str(error))
    hand = _deal(ruleset, setup, setup["miss"])
    if setup["miss"] is not None and hand.miss is None and not hand.miss_withdrawn:
        # A must without a miss (hoffmann, peel): the miss is not dealt, so neither is it
        # stacked; its cards stay in the pack.
        hand = _deal(ruleset, setup, None)
    stacked = setup["hands"]
    if stacked is not None and hand.outcome == "single-deal":
        # peel's single (A39): one card face up to each player, not the hands of three. The
        # same deal, told as the single: the turn-up first, then each seat's first card.
        hand = _deal_single(ruleset, setup)
        stacked = tuple(h[:1] for h in stacked)
    if stacked is not None and tuple(tuple(h) for h in hand.dealt) != stacked:
        raise ExampleError(f"the pack stacked for {ruleset.preset} does not deal these hands")
    dealt = tuple(tuple(h) for h in hand.dealt)
    dealt_miss = tuple(hand.miss) if hand.miss is not None else None
    moments: list[tuple[int, Moment]] = []
    refusal = None
    unplayed: list[int] = []
    taken = 0
    for step in setup["steps"]:
        if not step.applies(ruleset.preset):
            continue
        if hand.over:
            if step.word != "?":
                unplayed.append(step.number)
            continue
        if step.word == "?":
            moment = Moment.of(hand)
            if moment is not None:
                moments.append((taken, moment))
            continue
        try:
            hand.apply(step.action())
        except IllegalAction as error:
            why = error.application
            moment = Moment.of(hand)
            if moment is not None and (taken, moment) not in moments:
                moments.append((taken, moment))
            refusal = Refusal(step, why.text if why else str(error), why.rule if why else "")
            break
        taken += 1
    if refusal is None and not hand.over and not any(n == taken for n, _ in moments):
        moment = Moment.of(hand)
        if moment is not None:
            moments.append((taken, moment))
    return HandRow(
        ruleset=ruleset,
        players=players,
        refusal=refusal,
        moments=tuple(moments),
        facts=_facts(hand),
        events=tuple(hand.events),
        payments=tuple(hand.payments),
        pool_at_start=hand.pool_at_start,
        pool=hand.pool,
        looed=tuple(hand.looed),
        over=hand.over,
        outcome=hand.outcome,
        unplayed=tuple(unplayed),
        dealt=dealt,
        dealt_miss=dealt_miss,
        turn_up=hand.turn_up,
    )


def _refused_deal(ruleset: Ruleset, players: int, text: str) -> HandRow:
    return HandRow(
        ruleset=ruleset,
        players=players,
        refusal=Refusal(None, text[:1].upper() + text[1:] + ".", "players"),
        moments=(),
        facts=(),
        events=(),
        payments=(),
        pool_at_start=0,
        pool=0,
        looed=(),
        over=False,
        outcome="",
        unplayed=(),
        dealt=(),
        dealt_miss=None,
        turn_up=None,
    )


def _facts(hand: Hand) -> tuple[Fact, ...]:
    facts = []
    if hand.single:
        facts.append(Fact("The pool holds the fresh stake alone: it is a single.", "single"))
    if hand.double:
        facts.append(
            Fact("The pool holds counters carried over from the last hand: a double.", "double")
        )
    return tuple(facts)


def _check_playable(rows: Sequence[HandRow], steps: Sequence[Step]) -> None:
    """An example must be playable under at least one of its rule sets, to its last step."""
    if all(row.refusal is not None for row in rows):
        first = rows[0].refusal
        assert first is not None
        where = f"step {first.step.number} ({first.step.text!r})" if first.step else "the deal"
        raise ExampleError(
            f"the engine refuses this hand under every rule set: under {rows[0].ruleset.preset}, "
            f"{where}: {first.text}"
        )
    for step in steps:
        if step.word == "?":
            continue
        shown = [r for r in rows if step.applies(r.ruleset.preset)]
        if shown and all(step.number in r.unplayed for r in shown):
            raise ExampleError(
                f"step {step.number} ({step.text!r}) comes after the end of the hand under every "
                "rule set"
            )
