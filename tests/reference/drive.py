"""Play seeded sessions through the engine and read each hand's facts for the second model.

Only the engine's public surface is used here: the table, the bots, the hand's state as a
player or a scorer would see it (who declared what, who won each trick, the cards, the action
log and the offences recorded), and the payments it made, which are compared with
:func:`tests.reference.payments.settle`. The engine's settlement code is never imported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from games.loo.autoplay import CARELESS, Autoplay
from games.loo.bots import make_bot
from games.loo.hand import Hand, stack_pack
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig, choose_first_dealer
from games.loo.view import view_for

from .payments import (
    Agreed,
    Facts,
    Irregularity,
    Result,
    club_law,
    dealer_may_pass_alone,
    must,
    settle,
)

#: The rule set's ``club-law-games`` option, as games.
CLUB_GAMES: Final = {
    "both": ("three-card", "five-card"),
    "three-card": ("three-card",),
    "five-card": ("five-card",),
}


def agreed(rules: RuleSet, game: str, trump: str) -> Agreed:
    """What the table agreed: the rule set's stake and amounts (in stakes) as counters."""
    stake = rules.stake(game)
    return Agreed(
        stake=stake,
        loo_payment=rules.loo_payment,
        loo_fixed=rules.loo_amount * stake,
        loo_cap=rules.loo_cap * stake,
        single_loo=rules.single_loo,
        must=rules.must,
        pam="JC" if rules.pam == "club-knave" else "J" + trump,
        club_law=rules.club_law,
        club_law_games=CLUB_GAMES[rules.club_law_games],
    )


#: The offences the hand records, by the penalty rule, as the model names them.
OFFENCE_KINDS: Final = {
    "penalty-play-out-of-turn": "play-early",
    "penalty-exposed-card": "expose",
    "penalty-look-at-others-cards": "look-hand",
}


def irregularities(hand: Hand) -> tuple[Irregularity, ...]:
    """The irregularities let stand: those of the deal and the declarations (the action log),
    and the card-play offences the hand recorded."""
    found: list[Irregularity] = []
    declared: set[int] = set()
    for action in hand.log:
        if action.kind == "declare" and action.choice in ("play", "take-miss"):
            declared.add(action.seat)
        if action.kind == "irregular":
            what = action.choice.split(":")[0]
            found.append(Irregularity(action.seat, what, action.seat in declared))
    for offence in hand.offences:
        what = OFFENCE_KINDS.get(offence.penalty, offence.penalty)
        found.append(Irregularity(offence.seat, what, True))
    # An irregularity both logged and recorded as an offence (a card exposed, a look at
    # another's hand after declaring) is one irregularity.
    unique: dict[tuple[int, str], Irregularity] = {}
    for irregularity in found:
        unique.setdefault((irregularity.seat, irregularity.what), irregularity)
    return tuple(unique.values())


def facts_of(hand: Hand, before: str, pool_in: int | None = None) -> Facts:
    """The facts of a finished hand; ``before``: how its pool was made, as the model saw the
    hand before it; ``pool_in``: what the pool held before the stake, as the model's own
    settlement of the hands before left it (None: the hand's setup, for a hand alone)."""
    game = hand.game
    trump = hand.turn_up.code[1]
    cards: list[tuple[str, ...]] = []
    for seat in range(hand.players):
        held = hand.hands[seat] or hand.thrown.get(seat, [])
        cards.append(tuple(c.code for c in held))
    single = tuple(c[0] for c in cards) if hand.outcome == "single-deal" else ()
    return Facts(
        source=hand.rules.source,
        game=game,
        players=hand.players,
        dealer=hand.dealer,
        agreed=agreed(hand.rules, game, trump),
        pool_in=hand.setup.pool if pool_in is None else pool_in,
        before=before,
        declared=tuple(hand.declared),
        tricks=tuple(t.winner for t in hand.tricks if t.winner is not None),
        hands=tuple(cards) if game == "five-card" else (),
        turn_up=hand.turn_up.code,
        single_cards=single,
        irregular=irregularities(hand),
    )


def engine_nets(hand: Hand) -> tuple[list[int], int]:
    seats = [b - a for a, b in zip(hand.setup.balances, hand.balances, strict=True)]
    return seats, hand.pool - hand.setup.pool


@dataclass
class Played:
    """One hand played through the engine, its facts and the model's settlement."""

    label: str
    hand: Hand
    facts: Facts
    model: Result

    def disagreement(self) -> str | None:
        """What the engine did that the model does not, in words naming the hand; None if
        they agree: every seat's and the pool's gain, whether the hand was a must, whether it
        was Peel's single deal."""
        hand, facts = self.hand, self.facts
        if hand.setup.pool != facts.pool_in:
            return (
                f"{self.label}: the engine carried {hand.setup.pool} into the hand, the model's "
                f"own settlements of the hands before left {facts.pool_in}"
            )
        wanted = must(facts)
        if hand.must != wanted:
            return f"{self.label}: the engine made it {'' if hand.must else 'not '}a must"
        if hand.club_law != club_law(facts):
            return (
                f"{self.label}: the engine {'plays' if hand.club_law else 'does not play'} club law"
            )
        single = (
            facts.source == "peel"
            and facts.game == "three-card"
            and hand.rules.single_deal == "one-card"
            and facts.before in ("first", "no-loo")
        )
        if (hand.outcome == "single-deal") != single:
            return (
                f"{self.label}: the engine {'dealt' if not single else 'did not deal'} Peel's "
                f"single deal after a hand the model calls {facts.before!r}"
            )
        mine = self.model.nets(facts.players)
        theirs = engine_nets(hand)
        if mine == theirs:
            return None
        paid = [(p.payer, p.payee, p.amount, p.rule) for p in self.hand.payments]
        what = ", ".join(sorted({i.what for i in facts.irregular})) or "no irregularity"
        return (
            f"{self.label}: payments differ ({hand.outcome}; {what}) | "
            f"engine nets {theirs}, model {mine}\n"
            f"  engine: {paid}\n  model:  {self.model.payments}\n  facts:  {self.facts}"
        )


@dataclass
class Refused:
    """A decision the engine refused that the texts allow."""

    label: str

    def disagreement(self) -> str:
        return self.label


def dealer_alone(hand: Hand, seat: int) -> Refused | None:
    """At five-card and Irish Loo, the dealer facing one player (no must, no club law) may pass
    or must play, as the source says (A47); a :class:`Refused` if the engine's choices differ."""
    if seat != hand.dealer or hand.phase != "exchange" or hand.must or hand.club_law:
        return None
    others = [s for s in range(hand.players) if s != seat and hand.declared[s] == "play"]
    if len(others) != 1:
        return None
    may = dealer_may_pass_alone(hand.rules.source, hand.game)
    if ("pass" in hand.choices()) == may:
        return None
    return Refused(
        f"{hand.rules.name} {hand.game} seed={hand.setup.seed!r} hand={hand.setup.hand_number}: "
        f"the dealer facing one player {'may' if may else 'may not'} pass, but the engine "
        f"offers {hand.choices()}"
    )


def session(
    rules: RuleSet,
    game: str,
    players: int,
    seed: str,
    hands: int,
    laws: bool = False,
    check: bool = True,
) -> Iterator[Played | Refused]:
    """Play ``hands`` hands at one table (beginner bots; careless ones in laws mode, which
    commit irregularities at seeded moments), yielding each with the model's settlement.

    The model chains the pool itself (A56): each hand's pool is what the model's settlement of
    the hand before left in it, from an empty pool at the first deal, never the pool the engine
    carried in, so a counter lost or made, or a pool the stakes cannot reach, fails."""
    table = Table(TableConfig(game, rules, players, seed, laws=laws, trace=False))
    before = "first"
    pool = 0
    carer = Autoplay(CARELESS, human=-1) if laws else None
    bots = [make_bot("beginner", f"{seed}:{s}") for s in range(players)]
    for number in range(1, hands + 1):
        if table.session_over:
            break
        hand = table.deal()
        if carer is not None:
            carer.run(table, [])
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            if check:
                alone = dealer_alone(hand, seat)
                if alone is not None:
                    yield alone
            table.apply(bots[seat].decide(view_for(hand, seat)).action)
        facts = facts_of(hand, before, pool)
        model = settle(facts)
        label = f"{rules.name} {game} players={players} seed={seed!r} laws={laws} hand={number}"
        yield Played(label, hand, facts, model)
        before = model.next_before
        pool = carried(facts, model)


def carried(facts: Facts, model: Result) -> int:
    """What the model's settlement of a hand leaves in the pool for the next: what it held
    before the stake, and what the hand paid in less what it paid out."""
    _, gained = model.nets(facts.players)
    left = facts.pool_in + gained
    assert left >= 0, f"the model paid out more than the pool held: {facts}"
    return left


def stacked(
    rules: RuleSet, game: str, hands: list[tuple[str, ...]], turn_up: str, seed: str
) -> Played:
    """One hand dealt from a stacked pack through the engine, the first hand of a table as if
    after a loo: ``hands`` from the elder hand round to the dealer (the P1, P2, … of RULES.md
    part 4), the rest of the pack in order; the bots then declare as they like."""
    players = len(hands)
    dealer, _ = choose_first_dealer(rules, players, seed)
    by_seat = [hands[(seat - dealer - 1) % players] for seat in range(players)]
    pack = stack_pack(game, rules, players, dealer, by_seat, turn_up)
    config = TableConfig(
        game, rules, players, seed, trace=False, first_pack=pack, start="after-loo"
    )
    table = Table(config)
    hand = table.deal()
    bots = [make_bot("beginner", f"{seed}:{s}") for s in range(players)]
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        table.apply(bots[seat].decide(view_for(hand, seat)).action)
    facts = facts_of(hand, "loo")
    label = f"{rules.name} {game} stacked {hands} turn-up {turn_up} seed={seed!r}"
    return Played(label, hand, facts, settle(facts))
