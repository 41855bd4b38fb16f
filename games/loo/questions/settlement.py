"""``settlement``: a finished hand, "How many counters does East receive or pay?"; the answer
is what the hand's settlement paid. Also asked about a hand a teacher describes (who stood in,
who took which trick, the pool: :func:`_settlement_at`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..authored import count_field, seat_field, seats_field
from ..errors import LooError
from ..hand import Hand, Payment
from ..messages import Message, msg
from ..play import RuleApplication
from ..rulesets import HAND_SIZE, RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    seats_from,
    table_position,
)
from .deals import deal_hand, random_step
from .tables import settled_table

SETTLEMENT_RULES: Final = (
    "single",
    "pool-division",
    "indivisible-pool-rounding",
    "looed",
    "limited-loo",
    "unlimited-loo",
    "mixed-loo",
    "dealer-defends-miss",
    "all-pass-dealer-wins",
    "miss-holder-alone-wins",
)


def settlement_rules(version: int) -> tuple[str, ...]:
    """The rules a settlement question asks about: from version 8 (issue 38), also the lone
    five-card player who takes the pool when everyone else, the dealer too, has passed
    (``five-card-exchange``: each may play or pass, A47)."""
    return (*SETTLEMENT_RULES, "five-card-exchange") if version >= 8 else SETTLEMENT_RULES


def _make_settlement(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    while not hand.over:
        random_step(hand, rng)
    if hand.outcome == "flush":
        return None  # a flush question's business
    if hand.outcome == "single-deal":
        return _single_settlement(ask, rng, hand)
    players = hand.players
    in_play = hand.in_play
    if hand.defender is not None and rng.random() < 0.5:
        asked = hand.defender
    elif in_play and rng.random() < 0.85:
        asked = rng.choice(in_play)
    else:
        asked = rng.randrange(players)
    explained = explain_settlement(hand, asked)
    if explained is None:
        return None  # neither paid nor received, for a reason no rule here explains
    net, apps = explained
    bound = [a.rule for a in apps]
    if not ask.wants(bound):
        return None
    learner = rng.randrange(players)
    seats = seats_from(learner, players)
    picked = amounts(rng, net, settlement_candidates(hand, net))
    position = settled_position(ask, hand, seats, asked)
    prompt = msg("question.settlement-net" if ask.version >= 5 else "question.settlement", p=asked)
    return counters(ask, hand, prompt, bound, seats, learner, position, picked, net, apps)


def explain_settlement(hand: Hand, asked: int) -> tuple[int, list[RuleApplication]] | None:
    """What ``asked`` received or paid when ``hand`` was settled (its tricks played out, or
    the pool taken without play), and why, each payment and each price told as a rule
    applied: the answer and the explanation of a settlement question, generated or about a
    teacher's hand. None if he neither paid nor received for a reason no rule here explains."""
    in_play = hand.in_play
    net, paid, apps = settled_payments(hand, asked)
    won = [t.winner for t in hand.tricks]
    tricks = len(won)
    if asked in won and hand.outcome == "played":
        share, odd = divmod(hand.pool_at_start, tricks)
        rule = "indivisible-pool-rounding" if odd else "pool-division"
        key = "question.pool-shares-odd" if odd else "question.pool-shares"
        apps.insert(
            0, RuleApplication(rule, msg(key, pool=hand.pool_at_start, k=tricks, n=share, odd=odd))
        )
    if asked == hand.defender:
        apps.append(RuleApplication("dealer-defends-miss", msg("question.defender", p=asked)))
    if asked in hand.looed:
        price = hand.rules.loo_payment if hand.rules.loo_payment in ("fixed", "pool") else "mixed"
        apps.append(
            RuleApplication(
                hand.loo_rule(), msg(f"question.loo-price.{price}", n=hand.loo_amount())
            )
        )
    if not paid and asked not in hand.looed and asked != hand.defender:
        takers = [p.payee for p in hand.payments if p.payee is not None and p.rule != "ante"]
        if hand.outcome != "played" and takers:
            why = [p.rule for p in hand.payments if p.payee == takers[0]][0]
            apps.append(
                RuleApplication(why, msg("question.settle-without-play", p=asked, w=takers[0]))
            )
        elif asked not in in_play:
            apps.append(RuleApplication("looed", msg("question.settle-passed", p=asked)))
        else:
            return None  # neither paid nor received, for a reason no rule here explains
    return net, apps


def settled_position(
    ask: Ask, hand: Hand, seats: Callable[[int], int], asked: int
) -> dict[str, Any]:
    """A settled hand as its question shows it: the table, the stake and the pool, who was
    in the play, who took each trick, who played for the pool, whose settlement is asked."""
    return table_position(
        ask,
        hand,
        seats,
        stake=hand.stake,
        pool=hand.pool_at_start,
        played=sorted(seats(s) for s in hand.in_play),
        tricks=[seats(t.winner) for t in hand.tricks if t.winner is not None],
        defender=None if hand.defender is None else seats(hand.defender),
        asked=seats(asked),
        **agreed_loo(ask, hand),
    )


def settlement_candidates(hand: Hand, net: int) -> set[int]:
    """The amounts a settlement question offers beside the answer ``net``: off by the pool, a
    loo, a counter; nothing; a loo paid; the pool; the stake."""
    loo = hand.loo_amount()
    candidates = {net + d for d in (hand.pool_at_start, -hand.pool_at_start, loo, -loo, 1, -1)}
    return candidates | {0, -loo, hand.pool_at_start, -hand.stake}


def _settlement_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    """A hand as a teacher describes it (:func:`~games.loo.questions.tables.settled_table`):
    what the ``asked`` seat (you, if none) receives or pays, as a generated question asks."""
    players = count_field(data, "players")
    dealer = seat_field(data, "dealer", players, players - 1)
    assert dealer is not None
    asked = seat_field(data, "asked", players, 0)
    assert asked is not None
    in_play = seats_field(data, "in_play", players)
    tricks = seats_field(data, "tricks", players)
    defender = seat_field(data, "defender", players)
    holder = seat_field(data, "miss_holder", players)
    hand = settled_table(
        ask.game,
        ask.rules,
        players,
        dealer,
        in_play=in_play,
        tricks=tricks,
        pool=count_field(data, "pool"),
        defender=defender,
        miss_holder=holder,
    )
    explained = explain_settlement(hand, asked)
    if explained is None:
        return None
    net, apps = explained
    bound = [a.rule for a in apps]
    if not ask.wants(bound):
        return None
    picked = amounts(rng, net, settlement_candidates(hand, net))
    seats = seats_from(0, players)
    position = settled_position(ask, hand, seats, asked)
    if holder is not None:
        position["miss_holder"] = holder
    prompt = msg("question.settlement-net" if ask.version >= 5 else "question.settlement", p=asked)
    return counters(ask, hand, prompt, bound, seats, 0, position, picked, net, apps)


def amounts(rng: random.Random, net: int, candidates: set[int]) -> list[int]:
    """Four amounts to choose from: ``net`` and three of the other ``candidates``."""
    others = sorted(c for c in candidates if c != net)
    picked = rng.sample(others, 3) + [net]
    rng.shuffle(picked)
    return picked


def counters(
    ask: Ask,
    hand: Hand,
    prompt: Message,
    bound: list[str],
    seats: Callable[[int], int],
    learner: int,
    position: dict[str, Any],
    picked: list[int],
    net: int,
    apps: list[RuleApplication],
    *,
    kind: str = "settlement",
) -> Question:
    """A settlement question: "How many counters does East receive or pay?" (a ``penalty``
    question asks it of an offender)."""
    return ask.question(
        kind,
        prompt,
        bound,
        seats,
        position=position,
        choices=tuple(Choice(signed(n), amount_label(n)) for n in picked),
        answer=(signed(net),),
        explanations=tuple(apps),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _single_settlement(ask: Ask, rng: random.Random, hand: Hand) -> Question | None:
    """settlement of peel's single deal (A39): the turn-up and every player's card face up;
    what does one player receive or pay?"""
    players = hand.players
    asked = rng.randrange(players)
    net, _, apps = settled_payments(hand, asked)
    told = next(e for e in hand.events if e.kind == "settle")
    apps.insert(0, RuleApplication("single", told.message))
    if asked in hand.looed:
        apps.append(
            RuleApplication(
                "single",
                msg("question.single-loo-price", n=hand.single_loo(), loo=hand.loo_amount()),
            )
        )
    elif not net:
        return None  # a dealer standing out (A54): nothing to work out
    bound = [a.rule for a in apps]
    if not ask.wants(bound):
        return None
    learner = rng.randrange(players)
    seats = seats_from(learner, players)
    single, loo = hand.single_loo(), hand.loo_amount()
    candidates = {net + d for d in (hand.pool_at_start, -hand.pool_at_start, single, -single)}
    candidates |= {0, -loo, -single, hand.pool_at_start, hand.pool_at_start - single}
    picked = amounts(rng, net, candidates)
    position = table_position(
        ask,
        hand,
        seats,
        stake=hand.stake,
        pool=hand.pool_at_start,
        turn_up=hand.turn_up.code,
        single=[[seats(s), hand.hands[s][0].code] for s in hand.seat_order() if hand.hands[s]],
        asked=seats(asked),
        **agreed_loo(ask, hand),
    )
    prompt = msg(
        "question.settlement-single-net" if ask.version >= 5 else "question.settlement-single",
        p=asked,
    )
    return counters(ask, hand, prompt, bound, seats, learner, position, picked, net, apps)


def agreed_loo(ask: Ask, hand: Hand) -> dict[str, int]:
    """What a settlement question shows of the loo agreed at the table (version 5): a fixed
    loo is a sum the players agree (peel p. 22, "six for a loo"; hoffmann ¶7), and the
    britannica's loo is the pool "limited" to an agreed sum (s. 38): neither can be worked out
    from the stake and the pool, so a question whose answer turns on them shows them (issue 25,
    finding 6). An unlimited loo is the pool, which is shown already."""
    if ask.version < 5:
        return {}
    rules = hand.rules
    if rules.loo_payment == "fixed":
        return {"loo": rules.loo_amount * hand.stake}
    if rules.loo_payment != "pool":
        return {"limit": rules.loo_cap * hand.stake}
    return {}


def settled_payments(hand: Hand, seat: int) -> tuple[int, list[Payment], list[RuleApplication]]:
    """What ``seat`` received or paid when ``hand`` was settled, the stake aside: the net,
    the payments, and each told as a rule applied."""
    paid = [p for p in hand.payments if p.rule != "ante" and seat in (p.payer, p.payee)]
    net = sum(p.amount if p.payee == seat else -p.amount for p in paid)
    apps = [
        RuleApplication(
            p.rule,
            msg(
                "question.settle-receives" if p.payee == seat else "question.settle-pays",
                p=seat,
                n=p.amount,
                why=p.reason,
            ),
        )
        for p in paid
    ]
    return net, paid, apps


def _settlement_under(q: Question, rules: RuleSet) -> tuple[str, ...] | None:
    """What the asked player receives or pays when the same deal is played the same way under
    ``rules``. Where a card of the play could not be played so under them, the play is not
    what the question asks about (it shows the tricks, and asks what they pay): its answer
    stands."""
    assert q.origin is not None
    setup, log, learner = q.origin
    try:
        hand = Hand.replay(setup._replace(rules=rules), log)
    except LooError:
        return q.answer
    told = q.position.get("tricks", ())
    if hand.phase == "play" and not hand.tricks and len(told) == HAND_SIZE[q.game]:
        # A teacher's hand (:func:`_settlement_at`): its tricks are told, not played.
        hand.settle_tricks_taken([(s + learner) % setup.players for s in told])
    if not hand.over:
        return None
    net, _, _ = settled_payments(hand, (q.position["asked"] + learner) % setup.players)
    return (signed(net),)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def amount_label(n: int) -> str:
    if n > 0:
        return f"Receives {n}"
    if n < 0:
        return f"Pays {-n}"
    return "Neither receives nor pays"


SETTLEMENT: Final = Kind(
    name="settlement",
    title="Who wins or pays what",
    make=_make_settlement,
    rules=settlement_rules,
    at=_settlement_at,
    shows="settlement",
    answer_under=_settlement_under,
)
