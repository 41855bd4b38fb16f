"""What each source says a hand of Loo pays: a second model, written from the texts.

This module is written from ``sources/*.txt`` and RULES.md (parts 1-3) alone; it imports
nothing from the engine, so that an answer both agree on was worked out twice. It takes the
*facts* of a hand (:class:`Facts`: who dealt, the pool carried in and how it was made, who
played, passed or took miss, who won each trick, the cards shown for a flush or a single
deal, the irregularities committed and by whom) and works out every payment
(:class:`Result`). One function per step, each with its passage.

Amounts are in counters. "The pool" is ``None`` as a payer or payee; the model keeps one pool,
the pool of the hand, and what is left in it at the end is the next hand's pool (the loos,
shares left there, penalties "to the pool next following").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

#: Ranks, ace high ("the cards ranking as at whist", britannica s. 2; "Ace high", parlett).
RANKS: Final = "23456789TJQKA"

#: What each source says about paying, in its own words where it gives them. ``loo``: the
#: ordinary loo ("stake": the dealer's stake; "agreed": a sum agreed at the table; "capped":
#: the pool up to an agreed limit). ``ante``: who stakes ("dealer": the dealer at every deal;
#: "fresh": every player when a fresh pool is made, nobody after a loo). ``flush_to``: where a
#: flush's loos go; ``flush_pam_exempt``: whether the holder of Pam is excused paying a flush;
#: ``flush_order``: how flushes are ranked; ``penalties``: the source's scheme, if any;
#: ``dealer_alone_5c``: at five-card (and Irish) Loo, the dealer facing one player.
SOURCES: Final[dict[str, dict[str, str | bool | None]]] = {
    "hoffmann": {
        # ¶2 "The dealer … places an agreed number of counters (either three or some multiple
        # of three) in the pool"; ¶7 the looed are "mulcted in the same amount as was
        # originally placed in the pool", and the loos "with alike contribution from the new
        # dealer, form the pool for the next hand".
        "ante": "dealer",
        "loo": "stake",
        # ¶11 "all save the holder of the flush are 'looed'": a loo is paid into the next pool
        # (¶7); "wins every trick as of right": the holder takes the pool (RULES.md A25).
        "flush_to": "next-pool",
        # ¶11 "The holder of the losing flush, or of Pam, if in the hand of one of the losers,
        # is exempt from payment."
        "flush_pam_exempt": True,
        # ¶11 "a flush in trumps has priority over one in a plain suit … that consisting of
        # the better cards wins" (A27: card by card, Pam the highest card).
        "flush_order": "trump>plain; better-cards",
        "penalties": "hoffmann",
        # ¶9 "It is at the option of each player either to play or to pass" (A47, revised).
        "dealer_alone_5c": "may-pass",
    },
    "britannica": {
        # s. 6 "Each player contributes to the pool a sum previously agreed upon"; s. 33 "a
        # fresh pool is made as already described"; s. 34 "Then only the player who is looed
        # contributes to the next pool."
        "ante": "fresh",
        # s. 36-39: "each player looed has to put in the amount there was in the pool" … "it
        # is often agreed to limit the loo, so that it shall not exceed a certain fixed sum"
        # (A45: the pool, up to an agreed limit).
        "loo": "capped",
        # s. 48 "the holder receives the amount of a loo from every one" (and takes the pool:
        # A24, "loos the board").
        "flush_to": "holder",
        # s. 50 "If more than one flush is held, or if Pam is held, the holder is exempted".
        "flush_pam_exempt": True,
        # s. 49 "A trump flush takes precedence"; s. 51 "As between two flushes which do not
        # take precedence, the elder hand wins."
        "flush_order": "trump>plain; elder",
        "penalties": None,
        # s. 31 "Other rules provide that the dealer must play, if only one player stands, with
        # his own cards" (A47: no miss at five-card or Irish Loo, so his own cards).
        "dealer_alone_5c": "must-play",
    },
    "whiteknuckle": {
        # ¶4 "The Dealer first puts up 3 chips"; ¶14 "the Dealer puts up 5 chips"; ¶6 "Any
        # player not winning a trick … must contribute 3 chips to the pool"; ¶15 5 chips.
        "ante": "dealer",
        "loo": "stake",
        # ¶16 "'loos' the entire table immediately without play" (A25: into the next pool).
        "flush_to": "next-pool",
        # ¶16 "any player who is beaten in this way, holding a flush, is exempt": Pam is not.
        "flush_pam_exempt": False,
        # ¶16 "precedence is given to the flush with the 'Pam'", otherwise "to the highest
        # card" (A28: literal, no trump class).
        "flush_order": "pam>rest; highest-card",
        "penalties": None,
        # ¶14 "each player may drop out" (A47).
        "dealer_alone_5c": "may-pass",
    },
    "parlett": {
        # 3c:Deal "The dealer stakes three"; 3c:Pay-off "A player who is looed pays three to
        # the pool"; 5c:Pay-off "must pay an agreed stake to the pool".
        "ante": "dealer",
        "loo": "stake",
        "loo_5c": "agreed",
        # 5c:Flush "is appropriately paid by anyone who does not himself hold either Pam or a
        # flush" (A25: paid to the holder).
        "flush_to": "holder",
        "flush_pam_exempt": True,
        # 5c:Flush "four of a suit plus Pam, followed by a flush in trumps, then by the
        # plain-suit flush … the highest top card or cards".
        "flush_order": "pam>trump>plain; highest-card",
        "penalties": None,
        # 5c:Bidding "Each in turn announces whether he will pass or play" (A47).
        "dealer_alone_5c": "may-pass",
    },
    "peel": {
        # p. 23 "a definite price fixed (a) for the deal, (b) for an ordinary loo, and (c) for
        # a single loo, which latter is generally half the amount of the full loo"; p. 22
        # "three counters … for the deal, and six for a loo".
        "ante": "dealer",
        "loo": "agreed",
        # p. 27-28 "besides taking the amount in the pool, receives from each of the players,
        # whether they stood or not, the amount of a loo".
        "flush_to": "holder",
        # p. 28 "the holder of the other flush takes nothing; he, however, is exempt from the
        # loo, which is payable by the other players": Pam is not excused.
        "flush_pam_exempt": False,
        # p. 28 "A flush in trumps is superior … if there is more than one flush--neither of
        # which is of the trump suit--then the flush which includes Pam wins, or if neither
        # contains that card then the elder hand" (A26: the same among trump flushes).
        "flush_order": "trump>pam>plain; elder",
        "penalties": "peel",
        # p. 27 "the liberty of … throwing up the hand altogether" (A47).
        "dealer_alone_5c": "may-pass",
    },
}

#: The card-play offences: hoffmann's Laws 9-14 (the four-singles list after Law 14) and
#: Peel's p. 25 ("In all these cases the penalty is the amount of a full loo").
PLAY_OFFENCES: Final = frozenset(
    {"penalty-revoke", "penalty-fail-to-head", "penalty-lead-violation"}
)


@dataclass(frozen=True)
class Agreed:
    """What the table agreed before play, where a source lets it choose: the stake (the price
    of a deal), how a loo is paid (``fixed``, ``pool`` = unlimited, ``pool-capped``) and its
    amounts in counters, Peel's single loo (``half-loo`` or ``deal-amount``), the must and
    Pam."""

    stake: int
    loo_payment: str
    loo_fixed: int
    loo_cap: int
    single_loo: str = "half-loo"
    must: str = "off"
    pam: str = "JC"
    club_law: str = "off"
    #: The games a table agreeing club law where its source is silent plays it at.
    club_law_games: tuple[str, ...] = ()


@dataclass(frozen=True)
class Irregularity:
    """One irregularity let stand in laws mode: who, what (``misdeal``, ``faced-card``,
    ``interfere``, ``declare-early``, ``look-early``, ``look-miss``, ``look-hand``,
    ``expose``, ``play-early``, or a card-play penalty of :data:`PLAY_OFFENCES`), and whether
    he had already declared to play when he committed it."""

    seat: int
    what: str
    declared: bool = False


@dataclass(frozen=True)
class Facts:
    """The facts of one hand, as a table would tell them.

    ``before``: how the pool carried in (``pool_in``) was made: ``first`` (the first deal),
    ``loo`` (a hand with a loo), ``no-loo`` (a hand in which nobody was looed), ``flush``.
    ``declared``: per seat ``play``, ``miss``, ``defend`` (the dealer playing miss for the
    pool), ``pass`` or ``None`` (never asked). ``tricks``: the winner of each trick, in order
    (after any replay). ``hands``: each seat's cards as they stand at the end (a flush is
    judged on them); ``single_cards``: Peel's single deal, each seat's face-up card, with
    ``turn_up``."""

    source: str
    game: str
    players: int
    dealer: int
    agreed: Agreed
    pool_in: int
    before: str
    declared: tuple[str | None, ...]
    tricks: tuple[int, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    turn_up: str = ""
    single_cards: tuple[str, ...] = ()
    irregular: tuple[Irregularity, ...] = ()


@dataclass
class Result:
    """Every payment of the hand (``payer``/``payee`` a seat, or ``None`` for the pool), in
    order, with the step that made it; who was looed; whether the next hand follows "no loo"."""

    payments: list[tuple[int | None, int | None, int, str]] = field(default_factory=list)
    looed: list[int] = field(default_factory=list)
    outcome: str = ""
    next_before: str = "loo"

    def pay(self, payer: int | None, payee: int | None, amount: int, why: str) -> None:
        if amount > 0:
            self.payments.append((payer, payee, amount, why))

    def nets(self, players: int) -> tuple[list[int], int]:
        """What each seat gained (negative: paid) and what the pool gained."""
        seats = [0] * players
        pool = 0
        for payer, payee, amount, _ in self.payments:
            if payer is None:
                pool -= amount
            else:
                seats[payer] -= amount
            if payee is None:
                pool += amount
            else:
                seats[payee] += amount
        return seats, pool


def tricks_in(game: str) -> int:
    """Three tricks at three-card and Irish Loo, five at five-card."""
    return 5 if game == "five-card" else 3


def seat_order(dealer: int, players: int) -> list[int]:
    """From the dealer's left round to the dealer: the elder hand first."""
    return [(dealer + 1 + k) % players for k in range(players)]


# -- the stake ------------------------------------------------------------------------------


def ante(facts: Facts, result: Result) -> None:
    """The stake. Four sources: the dealer at every deal (hoffmann ¶2, ¶7; whiteknuckle ¶4;
    parlett 3c:Deal; peel p. 26 "the amount payable for the deal remains unaltered").
    britannica: every player when a fresh pool is made, on the first deal and after a hand with
    no loo (s. 6, 8, 33: "a fresh pool is made as already described"); after a loo "only the
    player who is looed contributes to the next pool" (s. 34). After a flush the loos went to
    the holder (s. 48) and the pool is fresh (RULES.md flush-next-deal)."""
    stake = facts.agreed.stake
    if SOURCES[facts.source]["ante"] == "dealer":
        result.pay(facts.dealer, None, stake, "ante")
    elif facts.before in ("first", "no-loo", "flush"):
        for seat in seat_order(facts.dealer, facts.players):
            result.pay(seat, None, stake, "ante")


def must(facts: Facts) -> bool:
    """Whether nobody may pass this hand: the agreed must (hoffmann ¶7 "it is a usual, though
    not invariable, rule, to make it … a 'must'" after a single; britannica s. 40 "in the first
    deal, or when there is no loo the previous deal"; parlett 3c:Optional rules "When the pool
    is a single, nobody may pass"; peel has none, A39). Club law is not counted here. Every
    source states the must in its three-card Loo ("In the case of a 'must' there is no miss",
    hoffmann ¶7): it is not played at five-card Loo."""
    if facts.game != "three-card" or (facts.source == "peel" and facts.single_cards):
        # Peel's single deal has no declaring at all (A39).
        return False
    rule = facts.agreed.must
    if rule == "after-no-loo":
        return facts.before == "no-loo"
    if rule == "first-deal+after-no-loo":
        return facts.before in ("first", "no-loo")
    if rule == "pool-is-single":
        return single(facts)
    return False


#: The games each source plays club law at, when the table agrees it: hoffmann ¶12 "Some
#: players at either game"; britannica s. 40 "or whenever clubs are trumps" among the forces of
#: its three-card Loo (A53: Irish Loo too); parlett 5c:Bidding "(Optional rule: No one may pass
#: if clubs are trump.)"; peel p. 26, three-card ("the miss is withdrawn"). whiteknuckle is
#: silent: a table that agrees club law there says where.
CLUB_LAW_GAMES: Final[dict[str, tuple[str, ...] | None]] = {
    "hoffmann": ("three-card", "five-card"),
    "britannica": ("three-card", "irish"),
    "parlett": ("five-card",),
    "peel": ("three-card",),
    "whiteknuckle": None,
}


def club_law(facts: Facts) -> bool:
    """Whether club law forces everyone to play this hand: agreed, a club turned up, a game
    the source plays it at; never on Peel's single deal, which has no declaring (A39)."""
    games = CLUB_LAW_GAMES[facts.source]
    return (
        facts.agreed.club_law == "on"
        and facts.turn_up[1] == "C"
        and facts.game in (facts.agreed.club_law_games if games is None else games)
        and not (facts.source == "peel" and bool(facts.single_cards))
    )


def single(facts: Facts) -> bool:
    """Whether this hand is a "single", in the source's own sense (RULES.md `single`): "A
    three-chip pool is a 'single'" (parlett 3c:Deal; whiteknuckle ¶4): nothing carried in; or
    the hand after one in which "no one is looed" (hoffmann ¶7; britannica s. 33; peel p. 21),
    whatever the pool carries (a defender's shares, britannica s. 30), and the first deal."""
    if facts.source in ("parlett", "whiteknuckle"):
        return facts.pool_in == 0
    return facts.before in ("first", "no-loo")


def full_loo(facts: Facts, pool_at_start: int) -> int:
    """The price of a loo this hand. Limited: the dealer's stake (hoffmann ¶7, whiteknuckle
    ¶6, parlett 3c:Pay-off) or the sum agreed (peel p. 22, six to a deal of three; parlett
    5c:Pay-off "an agreed stake"). Unlimited: "the amount there was in the pool" (britannica
    s. 36), read as the pool at the start of the hand, after the stake and before division
    (parlett "at the start of that deal", A31). Capped: that, up to the agreed limit
    (britannica s. 37-39, hoffmann ¶8, peel p. 26 MIXED LOO)."""
    agreed = facts.agreed
    if agreed.loo_payment == "pool":
        return pool_at_start
    if agreed.loo_payment == "pool-capped":
        return min(pool_at_start, agreed.loo_cap)
    kind = SOURCES[facts.source].get(f"loo_{facts.game[:1]}c", SOURCES[facts.source]["loo"])
    return agreed.stake if kind == "stake" else agreed.loo_fixed


def single_loo(facts: Facts, pool_at_start: int) -> int:
    """Peel's single loo: "a single loo, which latter is generally half the amount of the full
    loo" (p. 23); on the single deal "half the amount of the ordinary loo, or the same amount as
    for a deal" (p. 18). Reading: half of this hand's full loo, rounded down."""
    if facts.agreed.single_loo == "deal-amount":
        return facts.agreed.stake
    return full_loo(facts, pool_at_start) // 2


def hoffmann_single(facts: Facts) -> int:
    """Hoffmann's "a single" (Laws 3, 5, 6, 15): the unit the dealer stakes (¶2, ¶7)."""
    return facts.agreed.stake


# -- the outcome ----------------------------------------------------------------------------


def peel_single_deal(facts: Facts, result: Result, pool: int, pool_at_start: int) -> int:
    """Peel's single deal (p. 18, A39): "If either of the players receives a higher card of
    the same suit as the one turned up, he wins the amount in the pool. If two or more receive
    superior cards, the higher takes the stake. The others are looed, each having to contribute
    … to the pool, for the next deal" at "half the amount of the ordinary loo, or the same amount
    as for a deal". "If neither player receives a higher card … all are looed, and the amount in
    the pool remains". Returns what the pool holds after."""
    suit, floor = facts.turn_up[1], RANKS.index(facts.turn_up[0])
    best: int | None = None
    for seat in seat_order(facts.dealer, facts.players):
        rank = RANKS.index(facts.single_cards[seat][0])
        above = facts.single_cards[seat][1] == suit and rank > floor
        if above and (best is None or rank > RANKS.index(facts.single_cards[best][0])):
            best = seat
    if best is not None:
        result.pay(None, best, pool, "single deal: the highest of the suit takes the pool")
        pool = 0
    loo = single_loo(facts, pool_at_start)
    for seat in seat_order(facts.dealer, facts.players):
        if seat != best:
            result.looed.append(seat)
            result.pay(seat, None, loo, "single deal: looed a single loo")
            pool += loo
    result.outcome = "single-deal"
    result.next_before = "loo"
    return pool


def flush_of(cards: tuple[str, ...], pam: str) -> tuple[str, bool] | None:
    """(suit, holds Pam) if ``cards`` are a flush: "five cards of the same suit, or four cards
    of a suit with Pam" (peel p. 27; hoffmann ¶11, britannica s. 48 alike)."""
    if len(cards) != 5:
        return None
    others = [c for c in cards if c != pam]
    suits = {c[1] for c in others}
    if len(suits) != 1 or len(others) < 4:
        return None
    return suits.pop(), len(others) == 4


def _top_cards(cards: tuple[str, ...], pam: str) -> list[int]:
    """The cards from the top, Pam above every card (A27), for "better cards"/"highest card"."""
    return sorted((99 if c == pam else RANKS.index(c[0]) for c in cards), reverse=True)


def flush_winner(facts: Facts, holders: list[int], trump: str) -> int:
    """Which of several flushes wins, by the source's order (RULES.md flush-precedence and
    flush-tie-break, SOURCES["flush_order"]); an exact tie goes to the elder hand (A26)."""
    order = SOURCES[facts.source]["flush_order"]
    pam = facts.agreed.pam
    elder = seat_order(facts.dealer, facts.players)

    def key(seat: int) -> tuple[object, ...]:
        found = flush_of(facts.hands[seat], pam)
        assert found is not None
        suit, with_pam = found
        is_trump = suit == trump
        seniority = -elder.index(seat)
        cards = _top_cards(facts.hands[seat], pam)
        if order == "trump>plain; better-cards":
            return (is_trump, cards, seniority)
        if order == "trump>plain; elder":
            return (is_trump, seniority)
        if order == "pam>rest; highest-card":
            return (with_pam, cards, seniority)
        if order == "pam>trump>plain; highest-card":
            return (with_pam, is_trump, cards, seniority)
        assert order == "trump>pam>plain; elder"
        return (is_trump, with_pam, seniority)

    return max(holders, key=key)


def settle_flush(facts: Facts, result: Result, pool: int, pool_at_start: int) -> int:
    """A flush "loos the board": the holder takes the pool (A24) and every other player pays a
    loo, "whether they stood or not" (peel p. 27-28; hoffmann ¶11 "all save the holder of the
    flush are looed"), except the holder of a losing flush (every source) and, under hoffmann,
    britannica and parlett, the holder of Pam. The loos go into the next pool (hoffmann,
    whiteknuckle) or to the holder (britannica, parlett, peel). Returns the pool after."""
    info = SOURCES[facts.source]
    pam = facts.agreed.pam
    holders = [s for s in range(facts.players) if flush_of(facts.hands[s], pam)]
    trump = facts.turn_up[1]
    winner = flush_winner(facts, holders, trump)
    result.pay(None, winner, pool, "flush: the holder takes the pool")
    pool = 0
    loo = full_loo(facts, pool_at_start)
    for seat in seat_order(facts.dealer, facts.players):
        if seat == winner or seat in holders:
            continue
        if info["flush_pam_exempt"] and pam in facts.hands[seat]:
            continue
        result.looed.append(seat)
        if info["flush_to"] == "holder":
            result.pay(seat, winner, loo, "flush: a loo to the holder")
        else:
            result.pay(seat, None, loo, "flush: a loo to the next pool")
            pool += loo
    result.outcome = "flush"
    result.next_before = "flush"
    return pool


def shares(pool: int, count: int) -> list[int]:
    """Each trick's share: "one-third to each trick" (hoffmann ¶7, britannica s. 27), one fifth
    at five-card (hoffmann ¶9, parlett 5c:Pay-off); what does not divide goes one each to "the
    winners of the first and second tricks" (peel p. 22, extended to every source, A32)."""
    each, odd = divmod(pool, count)
    return [each + (1 if k < odd else 0) for k in range(count)]


# -- penalties ------------------------------------------------------------------------------


@dataclass
class Penalties:
    """What the irregularities of a hand come to: payments to the pool of this deal (before the
    division), payments to the pool for the next deal, seats out of the hand, and seats whose
    winnings stay in the pool."""

    now: list[tuple[int, int, str]] = field(default_factory=list)
    later: list[tuple[int, int, str]] = field(default_factory=list)
    out: set[int] = field(default_factory=set)
    no_winnings: set[int] = field(default_factory=set)
    #: Offenders whose penalty is their loo (peel): not looed again for taking no trick.
    looed: set[int] = field(default_factory=set)


def hoffmann_penalties(facts: Facts) -> Penalties:
    """Hoffmann's laws. "A single" is the stake unit; "All penalties of a single shall be deemed
    to belong to the existing pool; all higher penalties and proceeds of tricks left by way of
    penalty in the pool to the pool next following" (Law 17).

    - Law 3, misdeal: "the dealer forfeits a single to the pool"; Law 2, a faced card: a fresh
      deal, no penalty.
    - Law 5, declaring or looking before one's turn: a single.
    - Law 6, "looking at miss before he has declared to take it, or exposing a card or cards of
      another player": a single, "and must retire from the game for that round" (the engine's
      ``look-hand`` is read as this offence; looking is Peel's, p. 24). Retiring, he wins
      nothing: not the pool when everyone else passes either (a reading).
    - Law 15, having declared, exposing a card or playing out of turn or before all have
      declared: "compelled to throw up his cards, and to forfeit a single" (A51: his tricks
      already won stay in the pool).
    - Laws 9-14 (leads, following, heading): "must leave in the pool any tricks he may make,
      and forfeit to the pool four times the amount of a single".
    """
    single = hoffmann_single(facts)
    found = Penalties()
    for irr in facts.irregular:
        if irr.what == "faced-card":
            continue
        if irr.what in PLAY_OFFENCES:
            # "committing any infractions … forfeit … four times the amount of a single": one
            # forfeit however many infractions he commits in the hand (a reading).
            if not any(seat == irr.seat for seat, *_ in found.later):
                found.later.append((irr.seat, 4 * single, f"Laws 9-14 ({irr.what})"))
            found.no_winnings.add(irr.seat)
            continue
        who = facts.dealer if irr.what == "misdeal" else irr.seat
        found.now.append((who, single, f"hoffmann {irr.what}"))
        if irr.what in ("look-miss", "look-hand", "expose", "play-early"):
            found.out.add(irr.seat)
            found.no_winnings.add(irr.seat)
    return found


def peel_penalties(facts: Facts, pool_at_start: int) -> Penalties:
    """Peel's laws (pp. 23-25).

    - Misdeal: "the dealer is looed--the amount of the loo in this, and most other cases of
      penalty prior to the commencement of the playing of the cards being the same as settled
      for a single loo--and he immediately places the amount in the pool" (p. 23-24).
    - "Any player interfering with the cards during the deal is looed" (p. 24): before the
      play, so a single loo, into the pool of this deal (a reading: "most other cases"). He
      wins nothing in the hand: "In any case the player who transgressed the law does not win
      anything. If his cards secure one or all of the tricks the amount of his winnings is
      left in the pool for the next deal, and he is looed. This does not apply to penalties
      for looking at the hands, or declaring out of turn, or making a misdeal" (p. 22), and
      interfering is none of those three (RULES.md A55). His single loo is the offence's: if
      he stands and takes no trick he is looed besides, as anyone who stood (p. 21).
    - Looking at one's cards before one's turn, declaring out of turn, looking at the miss or
      the thrown-up cards or the stock: "is looed a single, and pays the penalty into the pool
      at once, but he is not debarred … from taking part in the play" (p. 24).
    - "If he looks at the cards of any other player he is looed the full loo, and must throw up
      his own cards, … unless he has already declared to stand, or has taken the miss, in which
      case he has to play to the tricks, having first paid his loo into the pool; in the event
      of his cards securing either of the tricks the amount won is left in the pool" (p. 24).
      Into this deal's pool: "penalties for looking at the hands … the offending player pays
      the penalty into the pool for the current deal" (p. 22).
    - The play (leads, following, heading, playing out of turn, exposing cards): "In all these
      cases the penalty is the amount of a full loo, and it is added to the pool for the next
      deal. The cards must he replayed … if the player who transgressed wins either of the
      tricks his winnings must be left in the pool" (p. 25). Reading: that full loo is his
      loo ("he is looed", p. 22); he pays no second loo for taking no trick in the replay.
    """
    found = Penalties()
    small = single_loo(facts, pool_at_start)
    full = full_loo(facts, pool_at_start)
    for irr in facts.irregular:
        if irr.what in ("misdeal", "interfere", "declare-early", "look-early", "look-miss"):
            who = facts.dealer if irr.what == "misdeal" else irr.seat
            found.now.append((who, small, f"peel {irr.what}: a single loo"))
            if irr.what == "interfere":
                # Not one of p. 22's three: "does not win anything" (A55).
                found.no_winnings.add(irr.seat)
        elif irr.what == "look-hand":
            found.now.append((irr.seat, full, "peel look-hand: the full loo"))
            if irr.declared:
                # "having first paid his loo": that is his loo for the hand.
                found.no_winnings.add(irr.seat)
                found.looed.add(irr.seat)
            else:
                found.out.add(irr.seat)
        elif irr.what in PLAY_OFFENCES or irr.what in ("expose", "play-early"):
            # "A player infringing any of the rules … is looed" (p. 21): being looed is a state,
            # not a count; he is looed once in the hand, however many rules he breaks in it, a
            # look at another's hand included (a reading).
            if irr.seat not in found.looed:
                found.later.append((irr.seat, full, f"peel {irr.what}: the full loo"))
            found.no_winnings.add(irr.seat)
            found.looed.add(irr.seat)
    return found


#: The irregularities the model knows (:class:`Irregularity`): another is a new law to read
#: from the texts before the model can check it, not something to pass over.
KNOWN: Final = frozenset(
    {
        "misdeal",
        "faced-card",
        "interfere",
        "declare-early",
        "look-early",
        "look-miss",
        "look-hand",
        "expose",
        "play-early",
    }
    | PLAY_OFFENCES
)


def penalties(facts: Facts, pool_at_start: int) -> Penalties:
    unknown = {i.what for i in facts.irregular} - KNOWN
    assert not unknown, f"the model has no law for {sorted(unknown)}: read it from the texts"
    scheme = SOURCES[facts.source]["penalties"]
    if scheme == "hoffmann":
        return hoffmann_penalties(facts)
    if scheme == "peel":
        return peel_penalties(facts, pool_at_start)
    return Penalties()


# -- the hand -------------------------------------------------------------------------------


def single_deal_applies(facts: Facts) -> bool:
    """Peel's single deal is dealt at three-card Loo on the first deal and after a hand in which
    nobody was looed (p. 21 "it becomes a single again, and the cards are dealt as already
    described for that round (see p. 18)"; p. 23 "the single is dealt, as described on page
    18"). Not at five-card Loo, where the single is only the dealer's fee (p. 28, A52)."""
    return (
        facts.source == "peel"
        and facts.game == "three-card"
        and bool(facts.single_cards)
        and facts.before in ("first", "no-loo")
    )


def settle(facts: Facts) -> Result:
    """Every payment of the hand whose facts are ``facts``."""
    result = Result()
    ante(facts, result)
    pool = facts.pool_in + sum(a for _, _, a, _ in result.payments)
    pool_at_start = pool
    if single_deal_applies(facts):
        peel_single_deal(facts, result, pool, pool_at_start)
        return result
    found = penalties(facts, pool_at_start)
    for seat, amount, why in found.now:
        result.pay(seat, None, amount, why)
        pool += amount
    if facts.game == "five-card" and any(flush_of(h, facts.agreed.pam) for h in facts.hands):
        pool = settle_flush(facts, result, pool, pool_at_start)
    else:
        pool = settle_play(facts, result, pool, pool_at_start, found)
    for seat, amount, why in found.later:
        result.pay(seat, None, amount, why)
    # The next hand is a single when "no one is looed" (hoffmann ¶7; peel p. 21 "so that
    # neither of the players was looed"): a forfeit that is no loo (hoffmann's four singles)
    # does not count, though it goes to the next pool.
    return result


def _looed_by_penalty(result: Result, found: Penalties) -> None:
    """A hand that ends without the tricks played out is a hand "in which nobody is looed" only
    if no offender was looed either: Peel's "he is looed" (p. 21, 24-25) is a loo, so the next
    deal is not a single (p. 21 "so that neither of the players was looed, it becomes a single
    again"). Found by the thorough run after the first: a dealer who took the miss, played a
    card before all had declared and was left alone (peel three-card, 4 players, seed
    'ref-three-card-0-26', laws, hand 5)."""
    result.looed.extend(sorted(found.looed))
    result.next_before = "loo" if found.looed else "no-loo"


def settle_play(
    facts: Facts, result: Result, pool: int, pool_at_start: int, found: Penalties
) -> int:
    """Everything but a flush: nobody plays, one player is left, or the tricks are played."""
    playing = [
        s
        for s in seat_order(facts.dealer, facts.players)
        if facts.declared[s] in ("play", "miss", "defend") and s not in found.out
    ]
    if not facts.tricks:
        # hoffmann ¶3 "In the event of all save the dealer 'passing,' the dealer is entitled
        # to the pool"; "Should one player take miss, and all the rest throw up their cards, he
        # is entitled to the pool" (likewise whiteknuckle ¶8, parlett, peel p. 19-20; A47 at
        # five-card, the lone player when the dealer passes; A49 the one left by Law 15).
        taker = playing[0] if len(playing) == 1 else facts.dealer
        assert len(playing) <= 1, f"no tricks, yet {playing} are in"
        result.outcome = "lone"
        _looed_by_penalty(result, found)
        if taker in found.no_winnings or taker in found.out:
            # "In any case the player who transgressed the law does not win anything" (peel
            # p. 22): the pool stays (a reading for a pool won without play). A dealer who
            # had to retire (hoffmann Law 6) or throw up his cards (peel p. 24) takes no part
            # in the round: he does not win it by everyone else passing (a reading).
            return pool
        result.pay(None, taker, pool, "a lone player takes the pool")
        return 0
    # "the pool is divided, in the proportion of one-third to each trick" (hoffmann ¶7); the
    # dealer playing for the pool: "the proceeds of any tricks he may make remain in the pool"
    # (¶3, Law 7; britannica s. 30); an offender's winnings "left in the pool" (above).
    each = shares(pool, tricks_in(facts.game))
    kept = 0
    for share, winner in zip(each, facts.tricks, strict=False):
        if facts.declared[winner] == "defend" or winner in found.no_winnings:
            kept += share
            continue
        result.pay(None, winner, share, "a trick's share of the pool")
        pool -= share
    # "those who stood--either on their own hand or on miss,--and did not succeed in winning a
    # trick are looed" (peel p. 21); the dealer playing for the pool "cannot be looed" (hoffmann
    # Law 7; parlett "neither wins nor loses anything"; A44 for britannica and peel).
    if len(facts.tricks) < tricks_in(facts.game):
        # Law 15 left one player before the hand was played out: "he is entitled to the pool"
        # as if all the rest had passed (hoffmann ¶3, A49); the shares of the tricks already
        # taken are settled as usual, the offender's staying in the pool (A51).
        # Reading: a player left alone who has himself broken Laws 9-14 "must leave in the
        # pool any tricks he may make": he takes nothing.
        assert len(playing) == 1, f"{len(facts.tricks)} tricks played, yet {playing} are in"
        if playing[0] not in found.no_winnings:
            result.pay(None, playing[0], pool - kept, "the one player left takes the pool")
            pool = kept
        result.outcome = "lone"
        _looed_by_penalty(result, found)
        return pool
    loo = full_loo(facts, pool_at_start)
    for seat in playing:
        if seat in facts.tricks or facts.declared[seat] == "defend" or seat in found.looed:
            continue
        result.looed.append(seat)
        result.pay(seat, None, loo, "looed")
        pool += loo
    result.looed.extend(sorted(found.looed))
    result.outcome = "played"
    result.next_before = "loo" if result.looed else "no-loo"
    return pool


def dealer_may_pass_alone(source: str, game: str) -> bool:
    """At five-card (and Irish) Loo, with one player in before him and no must, may the dealer
    pass (A47)? hoffmann ¶9, peel p. 27, whiteknuckle ¶14, parlett 5c:Bidding: yes;
    britannica s. 31: no, he plays on his own cards."""
    return SOURCES[source]["dealer_alone_5c"] == "may-pass"
