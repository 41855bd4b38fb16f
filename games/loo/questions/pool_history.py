"""Where a question's pool came from (RULES.md A56, issue 39): one explanation line, told from
the hands its table played before (:attr:`~.base.Question.session`).

A pool that is more than this deal's stakes was carried: the shares a dealer playing for the
pool left in it (Peel p. 20, "anything he may then win with the miss is left in the pool for
the next deal"), an offender's shares, a single nobody took, the loos and penalties paid in. A
reader who knows Peel's p. 22 ("there cannot possibly be any surplus") would think a pool of 25
under stakes of 3 and loos of 6 wrong unless the question says how it came to be; this module
says it, from the engine's own settlement of each hand (its payments), each step with the rule
that carried counters over.

Only the hands that matter are told: the story begins at the last hand that carried nothing of
the pool it began with (its shares all paid out; what it left is its loos and penalties alone),
or at the session's first deal. A question whose pool is just this deal's stakes (nothing
carried), or that was not made by play (a teacher's position), has no such line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..catalogue import UnknownRule
from ..catalogue import rule as catalogue_rule
from ..hand import Action, Hand, HandSetup
from ..messages import Message, msg
from ..play import RuleApplication
from ..rulesets import GAME_NAMES, HAND_SIZE, PRESETS, RuleSet

#: The message every pool history begins with (a test or a page may look for it).
HISTORY_KEYS: Final = ("question.pool-history", "question.pool-history-whole")

#: The rule a line cites, the first of these that carried counters over: what a dealer playing
#: for the pool or an offender left in it, a single nobody took, then the loos and penalties.
_PRIORITY: Final = (
    "dealer-defends-miss",
    "penalty-destination",
    "single",
    "looed",
    "flush-loos-the-board",
)
#: What a looed player pays into the pool, by the payment's rule (any other rule paid into the
#: pool at the settlement is a penalty).
_LOOS: Final = frozenset({"looed", "single", "flush-loos-the-board"})


@dataclass(frozen=True)
class _Step:
    """One hand of the session as the line tells it."""

    message: Message
    rules: tuple[str, ...]
    #: Whether any of the pool it began with stayed in it (else the story may begin here).
    carried_on: bool
    #: What it left in the pool.
    left: int


def pool_history(
    setup: HandSetup,
    session: Sequence[tuple[HandSetup, tuple[Action, ...]]],
    pool: int,
    staked: int,
) -> RuleApplication | None:
    """The line that says how the pool of ``pool`` shown at the deal of ``setup`` came to be:
    ``staked`` of it put up for this deal, the rest carried from the hands of ``session``.
    None if nothing was carried (or the question was not made by play)."""
    if not session or setup.pool <= 0:
        return None
    hands = [Hand.replay(s, log) for s, log in session]
    steps = [_step(hand, set()) for hand in hands]
    fresh = [i for i, step in enumerate(steps) if not step.carried_on]
    begin = fresh[-1] if fresh else 0
    if steps[begin].left == 0:
        begin += 1  # it left nothing: the story begins at the next hand
    cited: set[str] = set()  # each source's place is cited once, where first met
    told = [_step(hand, cited) for hand in hands[begin:]]
    rules = [r for step in told for r in step.rules]
    rule = next((r for r in _PRIORITY if r in rules), rules[0] if rules else "double")
    messages = tuple(step.message for step in told)
    if staked <= 0:
        return RuleApplication(rule, msg("question.pool-history-whole", pool=pool, steps=messages))
    return RuleApplication(
        rule, msg("question.pool-history", pool=pool, steps=messages, stake=_staked(setup, staked))
    )


def _staked(setup: HandSetup, staked: int) -> Message:
    """What this deal's stakes add: the dealer's stake, or every player's."""
    stakers = sum(1 for p in Hand.replay(setup, ()).payments if p.rule == "ante")
    key = "question.pool-stake-dealer" if stakers <= 1 else "question.pool-stake-all"
    return msg(key, n=staked, total=setup.pool + staked)


def _step(hand: Hand, cited: set[str]) -> _Step:
    """What one hand of the session did with the pool: what it began with, what stayed in it
    and why, what was paid in, and what it left. (``cited``: the rules whose place in the
    source was cited already, in an earlier step of the line.)"""
    assert hand.over, "a hand of the session was played out"
    begun, left = hand.pool_at_start, hand.pool
    #: Each part: what it says, its rule, its counters, and whether they were of the pool the
    #: hand began with (else paid in at its settlement).
    parts: list[tuple[Message, str, int, bool]] = []
    kept: dict[str, list[int]] = {}
    for p in hand.payments:
        if p.payer is None and p.payee is None:
            kept.setdefault(p.rule, []).append(p.amount)
    for rule, amounts in kept.items():
        parts.append((_kept(hand, rule, amounts, cited), rule, sum(amounts), True))
    payments = hand.payments
    # Penalties paid before the pool paid anything out went into this pool, and were shared
    # out with it ("small penalties go into the current pool"); the others into the next.
    settled = next((i for i, p in enumerate(payments) if p.payer is None), len(payments))
    fined = [
        p
        for p in payments[:settled]
        if p.payer is not None and p.payee is None and p.rule != "ante"
    ]
    paid_in = [p for p in payments if p.payer is not None and p.payee is None]
    loos = [p for p in paid_in if p.rule in _LOOS and p not in fined]
    penalties = [p for p in paid_in if p.rule not in _LOOS and p.rule != "ante" and p not in fined]
    if settled == len(payments):
        fined = []  # nothing was paid out: what was paid in is all in what it left
        loos = [p for p in paid_in if p.rule in _LOOS]
        penalties = [p for p in paid_in if p.rule not in _LOOS and p.rule != "ante"]
    untaken = left - sum(p[2] for p in parts) - sum(p.amount for p in loos + penalties)
    if untaken > 0:
        if hand.outcome == "offender":
            said = msg("question.pool-part.offender-alone", n=untaken)
            parts.append((said, "penalty-destination", untaken, True))
        else:
            rule = "single" if hand.outcome == "single-deal" else "double"
            parts.append((msg("question.pool-part.untaken", n=untaken), rule, untaken, True))
    if loos:
        each = {p.amount for p in loos}
        total = sum(p.amount for p in loos)
        if len(loos) == 1:
            said = msg("question.pool-part.looed-one", n=total)
        elif len(each) == 1:
            said = msg("question.pool-part.looed", k=len(loos), n=each.pop())
        else:
            said = msg("question.pool-part.looed-sum", n=total)
        parts.append((said, loos[0].rule, total, False))
    if penalties:
        total = sum(p.amount for p in penalties)
        said = msg("question.pool-part.penalties", n=total)
        parts.append((said, penalties[0].rule, total, False))
    carried_on = untaken < 0 or any(p[3] for p in parts)
    if untaken < 0 or not parts:
        # Counters paid into the pool during the hand were shared out with it: told whole.
        key = "question.pool-step-left"
    else:
        single = "-single" if hand.outcome == "single-deal" else ""
        fresh = "" if carried_on else "-fresh"
        key = f"question.pool-step{single}{fresh}{'-one' if len(parts) == 1 else ''}"
    messages = tuple(p[0] for p in parts)
    fines = sum(p.amount for p in fined)
    held = (
        msg("question.pool-held-fined", s=begun, n=fines)
        if fines
        else msg("question.pool-held", s=begun)
    )
    return _Step(
        msg(key, deal=hand.setup.hand_number, s=begun, held=held, parts=messages, e=left),
        tuple(p[1] for p in parts),
        carried_on,
        left,
    )


def _kept(hand: Hand, rule: str, amounts: list[int], cited: set[str]) -> Message:
    """The shares of the tricks that stayed in the pool under ``rule``."""
    k, n = len(amounts), sum(amounts)
    cite = "" if rule in cited else _cited(hand, rule)
    cited.add(rule)
    count = _COUNTS[k] if k < len(_COUNTS) else str(k)
    if rule == "dealer-defends-miss":
        master = any(a.kind == "declare" and a.choice == "defend-master" for a in hand.log)
        key = "question.pool-part.master" if master else "question.pool-part.defended"
        return msg(key, k=k, count=count, n=n, cite=cite)
    return msg("question.pool-part.offender", k=k, count=count, n=n, cite=cite)


#: A count of tricks in words ("won two tricks").
_COUNTS: Final = ("no", "one", "two", "three", "four", "five")


def _cited(hand: Hand, rule: str) -> str:
    """Where the rule set's source says so (" (Peel, p. 20)"), or nothing where it gives no
    place."""
    source = hand.rules.source
    try:
        statements = catalogue_rule(rule).sources
    except UnknownRule:
        return ""
    places = [
        c.locator
        for s in statements
        if s.source == source and s.status == "states"
        for c in s.citations
    ]
    if not places or source not in PRESETS:
        return ""
    name = PRESETS[source].title.split(" (")[0]
    return f" ({name}, {', '.join(dict.fromkeys(places))})"


# -- pools a teacher may not show (A56) -------------------------------------------------------


def divides_always(rules: RuleSet, game: str) -> bool:
    """Whether every pool that play under ``rules`` at ``game`` can leave divides into one equal
    share a trick, as can be decided simply: no miss is dealt to be played for the pool (only
    three-card Loo deals one), no offender leaves the shares of his tricks in it (the rule set
    states no penalties), and the stake and the loo divide so. Then every pool is made of such
    sums (an unlimited loo is the pool, which divides already), and no remainder ever arises.
    Under a rule set that states penalties a remainder can arise at any game: Peel's player
    who interfered with the deal, or Hoffmann's who exposed another's cards, leaves the shares
    of the tricks he took in the pool (A55, A51)."""
    if game == "three-card" or rules.penalties != "none":
        return False
    size = HAND_SIZE[game]
    stake = rules.stake(game)
    sums = [stake]
    if rules.loo_payment == "fixed":
        sums.append(rules.loo_amount * stake)
    elif rules.loo_payment != "pool":
        sums.append(rules.loo_cap * stake)
    return all(n % size == 0 for n in sums)


def unreachable_pool(rules: RuleSet, preset: str, game: str, pool: int) -> str | None:
    """Why a teacher's ``pool`` is one no play under ``rules`` at ``game`` reaches, or None
    where it may be (or cannot be decided simply): a pool that does not divide into one share
    a trick, where no remainder ever arises (:func:`divides_always`)."""
    size = HAND_SIZE[game]
    if pool % size == 0 or not divides_always(rules, game):
        return None
    title = PRESETS[preset].title if preset in PRESETS else preset
    return (
        f"a pool of {pool} is not reachable under these rules: at {GAME_NAMES[game]} under "
        f"{title} no miss is played for the pool and no offender leaves his shares in it, and "
        f"every stake and loo divides into {size} equal shares, one a trick, so every pool that "
        f"play leaves divides so too"
    )
