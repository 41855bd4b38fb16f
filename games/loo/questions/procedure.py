"""``procedure`` (version 3): the order of the table: the deal, the stake, the turn to declare
and to lead, what nobody sees, when a flush is shown."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..cards import BY_CODE, Card
from ..flushes import find_flush
from ..hand import Hand, HandSetup
from ..hand.deal import deal_order
from ..messages import Message, msg
from ..play import RuleApplication
from ..rulesets import PRESETS, RuleSet
from ..view import view_for
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    declarations,
    seat_choice,
    seats_from,
    table_position,
)
from .deals import deal_hand, random_step

#: What a ``procedure`` question can be about: the deal, the stake, the turn to declare and to
#: lead, what nobody sees, when a flush is shown.
PROCEDURE_RULES: Final = (
    "deal-order",
    "turn-up-trump",
    "ante",
    "stake-divisible",
    "declare-in-turn",
    "elder-leads-first",
    "miss-holder-leads",
    "discards-unseen",
    "flush-timing",
)


def _make_procedure(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    makers = _PROCEDURES.get(ask.rule) if ask.rule is not None else None
    if makers is None:
        makers = tuple(dict.fromkeys(m for ms in _PROCEDURES.values() for m in ms))
    return makers[rng.randrange(len(makers))](ask, rng, attempt)


def _small_table(ask: Ask, rng: random.Random, attempt: int, *, most: int = 4) -> Hand:
    """A seeded deal at a table of at most ``most`` players (a pack laid out for the learner
    must fit a page)."""
    low, high = ask.rules.players(ask.game)
    players = rng.randint(max(low, 3), max(min(high, most), max(low, 3)))
    setup = HandSetup(
        game=ask.game,
        rules=ask.rules,
        players=players,
        dealer=rng.randrange(players),
        hand_number=1,
        seed=f"p:{rng.random()}:{attempt}",
        balances=(0,) * players,
        pool=0,
        first=True,
        trace=True,
    )
    hand = Hand.deal(setup)
    if hand.outcome == "single-deal":
        # peel's first deal is the single, one card each (A39): the pack is laid out for an
        # ordinary deal, the one after a loo (its loo carried in the pool).
        loo = hand.loo_amount()
        setup = setup._replace(first=False, hand_number=2, pool=loo)
        hand = Hand.deal(setup)
    return hand


def _deal_rules(hand: Hand) -> tuple[str, ...]:
    return next(e.rules for e in hand.events if e.kind == "deal")


def _proc_dealt(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """deal-order: the top of the pack laid out; which cards does the learner receive?"""
    hand = _small_table(ask, rng, attempt, most=3 if ask.game != "three-card" else 4)
    dealt = [c for h in hand.dealt for c in h] + list(hand.miss or ())
    top = _pack_top(hand)
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    mine = set(hand.dealt[learner])
    bound = ["deal-order"]
    if not ask.wants(bound):
        return None
    # His cards and as many others of those dealt (the cards a slip of counting would give).
    others = [c for c in top[: len(dealt)] if c not in mine]
    picked = [*hand.dealt[learner], *rng.sample(others, 5)]
    rng.shuffle(picked)
    choices = [Choice(c.code, c.display) for c in picked]
    if ask.version >= 5:
        prompt = msg(
            "question.procedure-dealt-how",
            d=hand.dealer,
            p=learner,
            n=hand.players,
            how=dealing_pattern(ask, hand),
        )
    else:
        prompt = msg(
            "question.procedure-dealt-miss" if hand.miss else "question.procedure-dealt",
            d=hand.dealer,
            p=learner,
            n=hand.players,
        )
    return ask.question(
        "procedure",
        prompt,
        bound,
        seats,
        position=_pack_position(ask, hand, seats, top),
        choices=tuple(choices),
        answer=tuple(c.id for c in choices if BY_CODE[c.id] in mine),
        explanations=_dealt_how(hand, learner, top, _pattern(ask, hand))
        if ask.version >= 6
        else (
            RuleApplication(
                "deal-order",
                msg("question.dealt", p=learner, cards=tuple(hand.dealt[learner])),
            ),
            *(
                (RuleApplication("deal-order", msg("question.dealt-miss", cards=tuple(hand.miss))),)
                if hand.miss
                else ()
            ),
        ),
        multiple=True,
        origin=(hand.setup, (), learner),
    )


def _dealt_how(
    hand: Hand, learner: int, top: Sequence[Card], how: Message
) -> tuple[RuleApplication, ...]:
    """The answer of a question about the deal, from version 6: how the cards are dealt
    (``how``: the pattern, which the prompt says with its standing, our default or reading),
    and so which places of the pack the learner's cards (and the miss's) come from. Before, it
    named his cards alone, and the learner who had it wrong never read the pattern (issue
    26)."""
    apps = [
        RuleApplication(
            "deal-order",
            msg(
                "question.dealt-how",
                d=hand.dealer,
                p=learner,
                how=how,
                places=_places(top, hand.dealt[learner]),
                cards=tuple(hand.dealt[learner]),
            ),
        )
    ]
    if hand.miss:
        apps.append(
            RuleApplication(
                "deal-order",
                msg(
                    "question.dealt-miss-how",
                    places=_places(top, hand.miss),
                    cards=tuple(hand.miss),
                ),
            )
        )
    return tuple(apps)


def _places(top: Sequence[Card], cards: Sequence[Card]) -> str:
    """Where ``cards`` lie in the pack, counted from the top: "2nd, 6th and 10th"."""
    found = sorted(top.index(c) + 1 for c in cards)
    words = [_ordinal(n) for n in found]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def dealing_pattern(ask: Ask, hand: Hand) -> Message:
    """How the cards were dealt, said in the question (version 5): each source deals five-card
    Loo its own way (hoffmann ¶14 in twos and threes, parlett three then two, peel p. 27 and
    the Laws one at a time), and the britannica gives no way at all, so the pattern is stated,
    and where the source gives none it is said to be our default (issue 25, finding 10)."""
    told = _pattern(ask, hand)
    option = "deal-5c" if ask.game == "five-card" else "deal-3c"
    if ask.preset in PRESETS and PRESETS[ask.preset].basis(option).basis == "default":
        return msg("question.deal-pattern-default", how=told)
    if (
        hand.miss
        and ask.preset in PRESETS
        and _MISS_SLOT_READ.search(PRESETS[ask.preset].basis(option).note)
    ):
        # Only peel fixes the miss's place (p. 23, "immediately after the dealer's own card");
        # the others deal a miss without saying where its cards fall (A37).
        return msg("question.deal-pattern-miss-reading", how=told)
    return told


def _pattern(ask: Ask, hand: Hand) -> Message:
    """The pattern of the deal alone ("one card at a time to each player from his left")."""
    pattern = ask.rules.deal_5c if ask.game == "five-card" else "singly"
    return msg(f"question.deal-pattern.{pattern}{'-miss' if hand.miss else ''}", d=hand.dealer)


#: A note on ``deal-3c`` that says the miss's place in the deal is ours, not the source's.
_MISS_SLOT_READ: Final = re.compile(r"slot default|A37")


def _pack_top(hand: Hand) -> list[Card]:
    """The pack as it was dealt, top first: every card dealt, the turn-up and two more."""
    order = [c for c in _dealt_order(hand)]
    return [*order, hand.turn_up, *hand.stock[:2]]


def _dealt_order(hand: Hand) -> list[Card]:
    receivers = deal_order(hand.game, hand.rules, hand.players, hand.dealer, hand.miss is not None)
    taken = [list(h) for h in hand.dealt]
    miss = list(hand.miss or ())
    return [miss.pop(0) if r is None else taken[r].pop(0) for r in receivers]


def _pack_position(
    ask: Ask, hand: Hand, seats: Callable[[int], int], top: Sequence[Card]
) -> dict[str, Any]:
    return table_position(ask, hand, seats, miss=hand.miss is not None, pack=[c.code for c in top])


def _proc_turn_up(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """turn-up-trump: the top of the pack laid out; which card is turned up for trumps?"""
    hand = _small_table(ask, rng, attempt, most=3 if ask.game != "three-card" else 4)
    bound = list(_deal_rules(hand))
    if not ask.wants(bound):
        return None
    top = _pack_top(hand)
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    at = top.index(hand.turn_up)
    near = [c for c in top[max(0, at - 4) : at + 3] if c is not hand.turn_up]
    choices = [*rng.sample(near, 3), hand.turn_up]
    rng.shuffle(choices)
    return ask.question(
        "procedure",
        msg(
            "question.procedure-turn-up-miss" if hand.miss else "question.procedure-turn-up",
            d=hand.dealer,
            n=hand.players,
        ),
        bound,
        seats,
        position=_pack_position(ask, hand, seats, top),
        choices=tuple(Choice(c.code, c.display) for c in choices),
        answer=(hand.turn_up.code,),
        explanations=(
            RuleApplication(
                "deal-order",
                msg("question.turned-up", k=at + 1, card=hand.turn_up, suit=hand.trump),
            ),
            RuleApplication(
                "turn-up-trump", next(e.message for e in hand.events if e.kind == "deal")
            ),
        ),
        origin=(hand.setup, (), learner),
    )


def _proc_pool(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """ante, stake-divisible: how many counters the pool holds when the cards are dealt."""
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    ante = [e for e in hand.events if e.kind == "ante"]
    bound = [r for e in ante for r in e.rules]
    if not bound or not ask.wants(bound):
        return None
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    s = hand.setup
    n, stake = hand.pool_at_start, hand.stake
    candidates = {stake, stake * hand.players, s.pool, s.pool + stake, n + stake, n - stake}
    candidates |= {s.pool + stake * hand.players, 2 * n, n + 2 * stake}
    others = sorted(c for c in candidates if c != n and c > 0)
    others += [c for c in (n + k * stake for k in range(3, 6)) if c not in others][
        : max(0, 3 - len(others))
    ]
    picked = [*rng.sample(others, 3), n]
    rng.shuffle(picked)
    apps = [
        RuleApplication(ask.rule if ask.rule in e.rules else e.rules[0], e.message) for e in ante
    ]
    apps.append(RuleApplication("ante", msg("question.pool-holds", n=n, carried=s.pool)))
    return ask.question(
        "procedure",
        msg("question.procedure-pool"),
        bound,
        seats,
        position=table_position(ask, hand, seats, stake=stake, **_last_hand(ask, s)),
        choices=tuple(Choice(str(c), str(c)) for c in picked),
        answer=(str(n),),
        explanations=tuple(apps),
        origin=(hand.setup, (), learner),
    )


def _last_hand(ask: Ask, s: HandSetup) -> dict[str, Any]:
    """What an ante question shows of the hand before: whether there was one, whether somebody
    was looed in it, and what it left in the pool. From version 5 a hand that ended in a flush
    is said to (``last_hand_flush``), not to have had a loo: where the flush took the pool
    nothing is carried, and "somebody was looed" with nothing carried cannot be (issue 25)."""
    flush = ask.version >= 5 and s.prev_flush
    shown: dict[str, Any] = {
        "first": s.first,
        "last_hand_looed": not s.first and not s.prev_no_loo and not flush,
    }
    if flush:
        shown["last_hand_flush"] = True
    shown["carried"] = s.pool
    return shown


def _proc_next_declarer(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """declare-in-turn: who declares next?"""
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    if not ask.wants(["declare-in-turn"]):
        return None
    stop = rng.randrange(hand.players)
    for _ in range(stop):
        if hand.phase not in ("declare", "exchange"):
            return None
        random_step(hand, rng)
    if hand.phase not in ("declare", "exchange") or hand.to_act is None:
        return None
    nxt = hand.to_act
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    done = [a for a in hand.log if a.kind == "declare"]
    explanation = (
        msg("question.declares-next", p=nxt, last=done[-1].seat)
        if done
        else msg("question.declares-first", p=nxt, d=hand.dealer)
    )
    return ask.question(
        "procedure",
        msg("question.procedure-next"),
        ["declare-in-turn"],
        seats,
        position=table_position(
            ask,
            hand,
            seats,
            declarations=[[seats(a.seat), a.choice] for a in done],
        ),
        choices=tuple(seat_choice(seats(s)) for s in range(hand.players)),
        answer=(f"seat:{seats(nxt)}",),
        explanations=(RuleApplication("declare-in-turn", explanation),),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _proc_first_lead(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """elder-leads-first (or the miss-holder): who leads to the first trick?"""
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    while hand.phase in ("declare", "exchange"):
        random_step(hand, rng)
    begins = [e for e in hand.events if e.kind == "play-begins"]
    if hand.phase != "play" or not begins or len(hand.in_play) < 2:
        return None
    bound = list(begins[0].rules)
    if not ask.wants(bound):
        return None
    leader = hand.to_act
    assert leader is not None
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    return ask.question(
        "procedure",
        msg("question.procedure-lead"),
        bound,
        seats,
        position=table_position(
            ask,
            hand,
            seats,
            declarations=declarations(hand, seats),
            miss_holder=None if hand.miss_holder is None else seats(hand.miss_holder),
        ),
        choices=tuple(seat_choice(seats(s)) for s in sorted(hand.in_play, key=seats)),
        answer=(f"seat:{seats(leader)}",),
        explanations=(RuleApplication(bound[0], begins[0].message),),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _proc_seen(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """discards-unseen: a passed hand is thrown face down. Which of these cards have you seen?"""
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    while hand.phase in ("declare", "exchange"):
        random_step(hand, rng)
    if hand.phase != "play":
        return None
    learner = hand.in_play[rng.randrange(len(hand.in_play))]
    seats = seats_from(learner, hand.players)
    passed = sorted(
        (s for s in range(hand.players) if hand.declared[s] == "pass" and s != learner), key=seats
    )
    if not passed:
        return None
    while hand.phase == "play" and len(hand.tricks) < 1:
        random_step(hand, rng)
    if hand.phase != "play":
        return None
    thrown = [c for s in passed for c in hand.thrown.get(s, [])]
    bound = ["discards-unseen"]
    if not thrown or not ask.wants(bound):
        return None
    view = view_for(hand, learner)
    visible = view.visible_cards()
    shown = [c for t in view.tricks for _, c in t.plays]
    unseen = [c for c in thrown if c not in visible]
    if not shown or not unseen:
        return None
    cards = [*rng.sample(unseen, min(2, len(unseen))), *rng.sample(shown, min(2, len(shown)))]
    rng.shuffle(cards)
    return ask.question(
        "procedure",
        msg("question.procedure-seen", ps=tuple(passed), p=learner),
        bound,
        seats,
        position=table_position(
            ask,
            hand,
            seats,
            declarations=declarations(hand, seats),
            tricks=[[c.code for _, c in t.plays] for t in view.tricks],
        ),
        choices=tuple(Choice(c.code, c.display) for c in cards),
        answer=tuple(c.code for c in cards if c in visible),
        explanations=(
            RuleApplication(
                "discards-unseen",
                msg(
                    "question.passed-unseen",
                    ps=tuple(passed),
                    cards=tuple(c for c in cards if c not in visible),
                ),
            ),
        ),
        multiple=True,
        origin=(hand.setup, tuple(hand.log), learner),
    )


#: How a flush question's choices read: the rule set's ways of showing a flush.
FLUSH_TIMES: Final = {
    "immediate": "At once, when its holder's turn comes, before anyone else declares",
    "after-declaring": "After everyone has declared and drawn",
    "in-the-play": "When the cards are played out",
}


def _proc_flush_timing(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    """flush-timing: a player is dealt a flush; when is it shown? The answer is when the
    engine showed it."""
    if ask.game != "five-card":
        return None
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    holders = [
        s for s in hand.seat_order() if find_flush(hand.hands[s], hand.trumps, s) is not None
    ]
    if not holders:
        return None
    holder = holders[0]
    if holder == hand.dealer:
        return None  # the last to declare: at his turn and after everyone are one moment
    declared_before = 0
    while not hand.over and not any(e.kind == "flush" for e in hand.events):
        declared_before = sum(d is not None for d in hand.declared)
        random_step(hand, rng)
    shown = [e for e in hand.events if e.kind == "flush"]
    if not shown:
        return None
    bound = ["flush-timing", "flush-loos-the-board"]
    if not ask.wants(bound):
        return None
    # When the engine showed it: before the last player had declared, or only after. From
    # version 5, the rule set's own time (A29): where everyone before the dealer passes, a
    # passer's flush shown after declaring (peel) comes before the dealer's turn, and the
    # count of declarations took it for one shown at once.
    if ask.version >= 5:
        answer = ask.rules.flush_timing
    else:
        answer = "immediate" if declared_before < hand.players - 1 else "after-declaring"
    learner = rng.randrange(hand.players)
    seats = seats_from(learner, hand.players)
    choices = list(FLUSH_TIMES)
    rng.shuffle(choices)
    return ask.question(
        "procedure",
        msg("question.procedure-flush", p=holder),
        bound,
        seats,
        position=table_position(
            ask,
            hand,
            seats,
            holder=seats(holder),
            flush=[c.code for c in hand.dealt[holder]],
        ),
        choices=tuple(Choice(c, FLUSH_TIMES[c]) for c in choices),
        answer=(answer,),
        explanations=tuple(RuleApplication("flush-timing", e.message) for e in shown[:1]),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _procedure_under(q: Question, rules: RuleSet) -> tuple[str, ...] | None:
    """The answer the same deal gives under ``rules``: the pool, the turn, the lead, the
    cards dealt or turned up, from a replay of the hand to the moment asked about; when a
    flush is shown, the rules' own time (the britannica says nothing of it, A29). What is
    seen rests on no reading of the texts: its answer stands."""
    key = q.prompt.key
    if key == "question.procedure-seen":
        return q.answer
    if key == "question.procedure-flush":
        return (rules.flush_timing,)
    assert q.origin is not None
    setup, log, learner = q.origin
    hand = Hand.replay(setup._replace(rules=rules), log)
    seats = seats_from(learner, hand.players)
    if key == "question.procedure-pool":
        return (str(hand.pool_at_start),)
    if key in ("question.procedure-next", "question.procedure-lead"):
        if hand.to_act is None or hand.phase not in _PHASE_ASKED[key]:
            return None
        return (f"seat:{seats(hand.to_act)}",)
    if key.startswith("question.procedure-turn-up"):
        return (hand.turn_up.code,)
    if key.startswith("question.procedure-dealt"):
        mine = {c.code for c in hand.dealt[learner]}
        return tuple(c.id for c in q.choices if c.id in mine)
    raise AssertionError(f"a procedure question of no known form: {key}")


#: The phase of the hand each question of the turn asks about.
_PHASE_ASKED: Final = {
    "question.procedure-next": ("declare", "exchange"),
    "question.procedure-lead": ("play",),
}


_PROCEDURES: Final[dict[str, tuple[Callable[[Ask, random.Random, int], Question | None], ...]]] = {
    "deal-order": (_proc_dealt, _proc_turn_up),
    "turn-up-trump": (_proc_turn_up,),
    "ante": (_proc_pool,),
    "stake-divisible": (_proc_pool,),
    "declare-in-turn": (_proc_next_declarer,),
    "elder-leads-first": (_proc_first_lead,),
    "miss-holder-leads": (_proc_first_lead,),
    "discards-unseen": (_proc_seen,),
    "flush-timing": (_proc_flush_timing,),
}


PROCEDURE: Final = Kind(
    name="procedure",
    title="The deal, the stake and the turn",
    make=_make_procedure,
    rules=PROCEDURE_RULES,
    since=3,
    shows="procedure",
    answer_under=_procedure_under,
)
