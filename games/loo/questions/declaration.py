"""``declaration``: a moment of the declarations, "What may you do now?" (select all); the
answer is :meth:`Hand.options() <games.loo.hand.Hand.options>`'s choices. Also asked about a
moment a teacher describes ("what the player may do now": his cards, the turn-up, the
declarations before him: :func:`_declaration_at`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..authored import (
    cards_field,
    count_field,
    declarations_field,
    flag_field,
    seat_field,
    trump_field,
    turn_up_field,
)
from ..errors import PositionError
from ..hand import Hand, Options
from ..messages import msg
from ..play import RuleApplication
from ..rng import rng_for
from ..rulesets import RuleSet
from .base import (
    Ask,
    Choice,
    Kind,
    Question,
    declarations,
    seats_from,
    stored_coverage,
)
from .deals import deal_hand, random_step
from .tables import declaring_table

DECLARATION_RULES: Final = (
    "take-miss",
    "miss-only-once",
    "dealer-must-play-against-one",
    "master",
    "miss-holder-alone-wins",
    "must",
    "club-law",
    "five-card-exchange",
    "irish-loo",
    "miss-holder-must-play",
)


#: Everything a three-card player may declare, and a five-card or Irish one.
DECLARATIONS: Final = {
    "three-card": ("play", "pass", "take-miss", "defend-miss", "defend-master"),
    "five-card": ("play", "pass"),
    "irish": ("play", "pass"),
}


#: How each declaration reads as a choice.
DECLARATION_LABELS: Final = {
    "play": "Play",
    "pass": "Pass (throw up the cards)",
    "take-miss": "Take the miss",
    "defend-miss": "Take the miss and play for the pool",
    "defend-master": "Play for the pool (master)",
}


def _may_offer(rules: RuleSet, game: str) -> tuple[str, ...]:
    """The declarations the rule set ever offers at ``game`` (a question's choices)."""
    offered = []
    for choice in DECLARATIONS[game]:
        if choice == "defend-miss" and "miss-for-pool" not in rules.dealer_vs_one:
            continue
        if choice == "defend-master" and rules.lone_miss_holder != "dealer-must-play-own-or-master":
            continue
        offered.append(choice)
    return tuple(offered)


def _make_declaration(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    target = ask.rule if ask.rule is not None or ask.version < 6 else _any_rule_target(ask)
    hand = deal_hand(
        ask.rules, ask.game, rng, attempt, session=ask.played, played_before=ask.version >= 5
    )
    while hand.phase in ("declare", "exchange"):
        options = hand.options()
        seat = options.seat
        apps = moment_apps(ask, hand, options)
        bound = [a.rule for a in apps]
        if (
            bound
            and (target is None or target in bound)
            and (ask.rule is not None or rng.random() < 0.5)
        ):
            if target is not None and ask.rule is None:
                bound = [target, *(b for b in bound if b != target)]  # its topic
            return _declaration(ask, rng, hand, seat, options.choices, apps, bound)
        random_step(hand, rng)
    return None


def moment_apps(ask: Ask, hand: Hand, options: Options) -> list[RuleApplication]:
    """The rules that shape what the player to declare may do (``options``, his), each told:
    the engine's reasons, and the miss he may take, the dealer who may pass against one, the
    exchange."""
    seat = options.seat
    apps = list(options.explanations)
    if "take-miss" in options.choices:
        apps.append(RuleApplication("take-miss", msg("question.may-take-miss", p=seat)))
        if ask.version >= 3:
            apps.append(
                RuleApplication("miss-holder-must-play", msg("question.miss-must-play", p=seat))
            )
    before = hand.declared_before_dealer() if seat == hand.dealer else []
    if hand.phase == "exchange" and len(before) == 1 and "pass" in options.choices:
        # Five-card or Irish Loo under a rule set that lets the dealer drop out (A47).
        apps.append(
            RuleApplication(
                "dealer-must-play-against-one",
                msg("question.dealer-may-pass", one=before[0], d=seat),
            )
        )
    if hand.phase == "exchange" and not apps:
        rule = "irish-loo" if ask.game == "irish" else "five-card-exchange"
        apps.append(
            RuleApplication(rule, msg("question.may-exchange", p=seat, n=options.max_discards))
        )
    return apps


def _declaration_at(
    ask: Ask, rng: random.Random, data: Mapping[str, Any], card: str | None
) -> Question | None:
    """A moment of the declaring as a teacher describes it
    (:func:`~games.loo.questions.tables.declaring_table`): what the learner may do now."""
    players = count_field(data, "players")
    trump = None if data.get("trump") in (None, "") else trump_field(data)
    turn_up = turn_up_field(data)
    if turn_up is None or (trump is not None and turn_up.suit != trump):
        raise PositionError("a declaring moment shows the turn-up, of the trump suit")
    must = data.get("must")
    hand = declaring_table(
        ask.game,
        ask.rules,
        players,
        seat_field(data, "dealer", players),
        own=cards_field(data, "hand"),
        turn_up=turn_up,
        declarations=declarations_field(data, players),
        pool=None if data.get("pool") is None else count_field(data, "pool"),
        must=None if must is None else flag_field(data, "must"),
    )
    options = hand.options()
    apps = moment_apps(ask, hand, options)
    bound = [a.rule for a in apps]
    if not apps or not ask.wants(bound):
        return None
    if ask.rule is not None:
        bound = [ask.rule, *(b for b in bound if b != ask.rule)]
    return _declaration(ask, rng, hand, 0, options.choices, apps, bound)


def _any_rule_target(ask: Ask) -> str | None:
    """A question about any rule (version 6 on) aims at one of the rules the kind asks about
    here, drawn from the seed, as if it had been asked for. The first moment of a deal where
    some rule bound was nearly always the same: at Irish Loo the first to declare, "play or
    pass" under the rule of the exchange, whatever the seed (issue 26: four times in four)."""
    rules = stored_coverage().get(ask.preset, {}).get(ask.game, {}).get("declaration", ())
    if not rules:
        return None
    rng = rng_for("declaration-target", ask.preset, ask.game, ask.seed)
    return rules[rng.randrange(len(rules))]


def _declaration(
    ask: Ask,
    rng: random.Random,
    hand: Hand,
    seat: int,
    answer: Sequence[str],
    apps: list[RuleApplication],
    bound: list[str],
) -> Question:
    seats = seats_from(seat, hand.players)
    choices = [c for c in _may_offer(ask.rules, ask.game) if c not in answer] + list(answer)
    rng.shuffle(choices)
    return ask.question(
        "declaration",
        msg("question.declaration", p=seat),
        bound,
        seats,
        position=declaring_position(ask, hand, seat),
        choices=tuple(Choice(c, DECLARATION_LABELS[c]) for c in choices),
        answer=tuple(c for c in choices if c in answer),
        explanations=tuple(apps),
        multiple=True,
        origin=(hand.setup, tuple(hand.log), seat),
    )


def declaring_position(ask: Ask, hand: Hand, seat: int) -> dict[str, Any]:
    """The moment ``seat`` is to declare, as the table shows it to him: the table, the
    turn-up, his cards, the declarations before him, the miss, the pool (seats counted from
    him; the ``declaration`` and ``declare`` kinds show it alike)."""
    seats = seats_from(seat, hand.players)
    holder = hand.miss_holder
    return {
        "game": ask.game,
        "rules": ask.preset,
        "players": hand.players,
        "dealer": seats(hand.dealer),
        "seat": 0,
        "trump": hand.trump,
        "turn_up": hand.turn_up.code if hand.turn_up is not None else None,
        "hand": [c.code for c in hand.hands[seat]],
        "declarations": declarations(hand, seats),
        "miss": hand.miss is not None and holder is None,
        "miss_holder": None if holder is None else seats(holder),
        "must": hand.must,
        "club_law": hand.club_law,
        "pool": hand.pool,
    }


def _declaration_under(q: Question, rules: RuleSet) -> tuple[str, ...] | None:
    """The choices at the same moment of the same deal under ``rules`` (None if the moment
    is not reached there, or is another player's)."""
    assert q.origin is not None
    setup, log, seat = q.origin
    hand = Hand.replay(setup._replace(rules=rules), log)
    if hand.phase not in ("declare", "exchange") or hand.to_act != seat:
        return None
    return tuple(hand.options().choices)


DECLARATION: Final = Kind(
    name="declaration",
    title="What may be declared",
    make=_make_declaration,
    rules=DECLARATION_RULES,
    at=_declaration_at,
    shows="declaration",
    answer_under=_declaration_under,
)
