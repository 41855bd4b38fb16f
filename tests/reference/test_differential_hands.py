"""Every payment the engine makes, checked against the second model (issue 25).

Whole sessions are played through the engine by seeded bots (so carried pools, singles, musts,
doubles, flushes and Peel's single deal all occur), under every rule set, at every game it
describes, with the options a table may agree (unlimited and capped loo, club law, the musts),
and in laws mode under the two sources that state penalties, where careless players commit
irregularities at seeded moments. After every hand, each seat's gain and the pool's must be
what :func:`tests.reference.payments.settle` works out from the hand's facts; whether the hand
was a must, played under club law or Peel's single deal, and whether the five-card dealer
facing one player may pass, are checked as well. A failure names the hand (rule set, game,
players, seed, laws, hand number): ``list(session(rules, game, players, seed, hand))`` plays
it again.

Sizes (``LOO_TEST_PROFILE``, tests/profile.py): ``ci`` plays a session of 8 hands at every
table (every game, agreed variant and number of players), and goes on round the tables until
every ending and irregularity the test asks for has been shown; ``thorough`` plays sessions of
25 hands, 2,000 hands a rule set and 600 more in laws mode under hoffmann and peel.
``FIRST_RUN.md`` lists what the first run found (at 10,000 and 3,000).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from games.loo.rulesets import RuleSet
from tests.profile import size, thorough

from .drive import Played, carried, session, stacked
from .payments import PLAY_OFFENCES
from .test_payments_model import F1, F2, F3, F4, F5

#: Hands in each session: long enough for doubles, singles and musts to follow one another.
SESSION = size(ci=8, thorough=25)
#: Hands per rule set, (ordinary, laws mode), under ``thorough``; under ``ci`` the most played
#: while waiting for an ending or irregularity not yet shown.
TARGET = (2_000, 600)

#: What a table under each rule set may agree besides the preset (RULES.md part 2): "pool" is
#: unlimited loo, "pool-capped" the limited/mixed loo, and the musts each source describes.
AGREED: dict[str, tuple[dict[str, Any], ...]] = {
    "hoffmann": (
        {},
        {"loo-payment": "pool"},
        {"loo-payment": "pool-capped"},
        {"club-law": "on"},
        {"must": "off"},
    ),
    "britannica": (
        {},
        {"loo-payment": "pool"},
        {"club-law": "on"},
        {"must": "first-deal+after-no-loo"},
    ),
    "whiteknuckle": ({}, {"loo-payment": "pool"}),
    "parlett": ({}, {"loo-payment": "pool"}, {"club-law": "on"}, {"must": "pool-is-single"}),
    "peel": (
        {},
        {"loo-payment": "pool"},
        {"loo-payment": "pool-capped"},
        {"club-law": "on"},
        {"single-loo": "deal-amount"},
    ),
}

#: The sources that state penalties, played in laws mode too.
LAWS = ("hoffmann", "peel")


def tables_variants(name: str, laws: bool) -> tuple[dict[str, Any], ...]:
    """The options agreed at the tables played under ``name``: in laws mode the preset's own."""
    return ({},) if laws else AGREED[name]


def tables(name: str, laws: bool) -> Iterator[tuple[RuleSet, str, int, str]]:
    """The tables played under the rule set ``name``, round and round (every game, every
    agreed variant, the players from the smallest table up to seven): (rules, game, players,
    seed). In laws mode, the preset's own options. Every table has been played once
    :func:`rounds` rounds have gone."""
    base = RuleSet.preset(name)
    variants = tables_variants(name, laws)
    n = 0
    while True:
        for game in base.games:
            low, high = base.players(game)
            for k, options in enumerate(variants):
                rules = base.with_options(options) if options else base
                players = low + (n + k) % (min(high, 7) - low + 1)
                yield rules, game, players, f"ref-{game}-{k}-{n}"
        n += 1


def rounds(name: str) -> int:
    """The rounds of :func:`tables` that play every table (game, variant, players) once."""
    base = RuleSet.preset(name)
    return max(min(high, 7) - low + 1 for low, high in map(base.players, base.games))


def play(name: str, laws: bool, wanted: set[str]) -> tuple[int, list[str], Counter[str]]:
    """Play sessions under ``name``: under ``thorough`` until the target number of hands;
    under ``ci`` until every table has been played and everything ``wanted`` shown (or the
    target reached). The hands played, every disagreement found, and what the hands were
    (their outcomes, a pool defended, the irregularities committed)."""
    target = TARGET[1] if laws else TARGET[0]
    # The sessions of that many rounds: every game, every variant.
    every_table = rounds(name) * len(RuleSet.preset(name).games) * len(tables_variants(name, laws))
    hands = 0
    found: list[str] = []
    seen: Counter[str] = Counter()
    for n, (rules, game, players, seed) in enumerate(tables(name, laws), start=1):
        for played in session(rules, game, players, seed, SESSION, laws=laws):
            if isinstance(played, Played):
                hands += 1
                seen[played.hand.outcome] += 1
                seen["defended"] += "defend" in played.facts.declared
                seen.update(i.what for i in played.facts.irregular)
            problem = played.disagreement()
            if problem is not None:
                found.append(problem)
        if hands >= target or (not thorough() and n >= every_table and wanted <= set(seen)):
            return hands, found, seen
    raise AssertionError("unreachable")


#: What the sessions must have shown for the comparison to mean something: every ending of a
#: hand, a pool defended, and in laws mode every irregularity the source punishes.
SHOWN = {"played", "all-pass", "lone-miss", "flush", "defended"}
SHOWN_LAWS = {
    "hoffmann": {"misdeal", "declare-early", "look-early", "look-miss", "look-hand", "expose"},
    "peel": {"misdeal", "interfere", "declare-early", "look-early", "look-miss", "look-hand"},
}


def kind_of(problem: str) -> str:
    """A disagreement's class, for the summary: its first line without the hand's name."""
    head = problem.split("\n", 1)[0].split(" | ", 1)[0]
    return head.split(": ", 1)[1] if ": " in head else head


CASES = [(name, False) for name in AGREED] + [(name, True) for name in LAWS]


@pytest.mark.parametrize(
    ("name", "laws"), CASES, ids=[f"{n}{'-laws' if w else ''}" for n, w in CASES]
)
def test_every_payment_agrees_with_the_second_model(name: str, laws: bool) -> None:
    wanted = (
        SHOWN_LAWS[name] | set(PLAY_OFFENCES)
        if laws
        else SHOWN | ({"single-deal"} if name == "peel" else set())
    )
    hands, found, seen = play(name, laws, wanted)
    assert wanted <= set(seen), f"the sessions under {name} never showed {wanted - set(seen)}"
    if found:
        classes = Counter(kind_of(p) for p in found)
        examples = "\n\n".join(found[:6])
        pytest.fail(
            f"{len(found)} of {hands} hands under {name} (laws mode: {laws}) disagree with the "
            f"model ({dict(classes.most_common(8))}); the first:\n\n{examples}"
        )


def test_a_session_can_be_replayed_by_its_label() -> None:
    """What a failure names plays the same hands again."""
    rules = RuleSet.preset("peel")
    first = list(session(rules, "three-card", 4, "x", 5))
    again = list(session(rules, "three-card", 4, "x", 5))
    assert len(first) == 5 and all(isinstance(p, Played) for p in first + again)
    assert [p.model.payments for p in first] == [p.model.payments for p in again]  # type: ignore[union-attr]


#: Cards for the seats of a worked example that hold no flush and no Pam.
SPARE = (
    *("2C", "3D", "7S", "5C", "8S", "7D", "4S", "3C", "9D", "6S"),
    *("8C", "TD", "TS", "6C", "5D", "2S", "9C", "QD", "3S", "TC"),
)


@pytest.mark.parametrize("example", [F1, F2, F3, F4, F5], ids=["F1", "F2", "F3", "F4", "F5"])
@pytest.mark.parametrize("name", list(AGREED))
def test_the_worked_flush_comparisons_through_the_engine(
    example: tuple[str, ...], name: str
) -> None:
    """RULES.md 4.3's flushes dealt through the engine (five players: P5, the dealer, holds
    nothing), whatever the bots then declare: its payments are the model's, which
    ``test_payments_model`` checks against the worked answers."""
    given = [tuple(h.split()) for h in example if h]
    spare = [c for c in SPARE if not any(c in h for h in given)]
    hands: list[tuple[str, ...]] = []
    for h in (*example, "", "", "", "")[:5]:
        hands.append(tuple(h.split()) if h else tuple(spare[:5]))
        if not h:
            spare = spare[5:]
    played = stacked(RuleSet.preset(name), "five-card", hands, "7H", "flushes")
    assert played.hand.outcome == "flush"
    assert played.disagreement() is None, played.disagreement()


@pytest.mark.parametrize("name", list(AGREED))
def test_the_model_chains_the_pool_from_its_own_settlements(name: str) -> None:
    """A56: each hand's pool, for the model, is what its own settlement of the hand before
    left (nothing at the first deal), never what the engine carried in; so a pool that play
    cannot reach, or a counter lost between hands, fails the comparison. Checked here on
    sessions long enough to carry (``SESSION`` hands; a defended pool, loos and singles), and
    shown to fail when one counter is made between two hands."""
    rules = RuleSet.preset(name)
    played = [p for p in session(rules, rules.games[0], 4, "chain", SESSION, check=False)]
    assert all(isinstance(p, Played) for p in played)
    hands = [p for p in played if isinstance(p, Played)]
    assert hands[0].facts.pool_in == 0
    for before, after in zip(hands, hands[1:], strict=False):
        assert after.facts.pool_in == carried(before.facts, before.model)
        assert after.hand.setup.pool == after.facts.pool_in
    assert any(p.facts.pool_in for p in hands), "nothing was carried: a session too short"
    last = hands[-1]
    made = Played(
        last.label, last.hand, replace(last.facts, pool_in=last.facts.pool_in + 1), last.model
    )
    assert "the engine carried" in (made.disagreement() or "")
