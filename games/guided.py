"""A lesson's guided hand at the practice table: a deal in which the lesson's rule comes up.

The check plays the first hand of a practice table as the table plays it: the computer players
are the table's own (sensible, or careless beginners at a laws-mode table; seeded as the table
seeds them, and lapsing as the table lets them), and the learner's seat is played by a sensible
player. A learner who plays as sensibly meets the same replies and sees the rule come up,
marked in the trick log; one who plays otherwise may not, which the banner of the hand allows
for.

A guided hand may be dealt from a stacked pack and begin as if a hand had been played before
(:class:`Guided`): the table deals that first hand, and the seed then only chooses the first
dealer and seeds the computer players.

A guided hand deals from :func:`guided_deal_seed`, made of its seed alone: unlike a practice
table's (:func:`~games.models.deal_seed`), it does not depend on the site's secret key, so the
deal found for a lesson is found once and stored with the content, and is the same on every
site.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.loo.autoplay import SENSIBLE_PLAYOUTS, Autoplay, Note
from games.loo.bots import SensibleBot
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import public_events, view_for
from games.models import Opponents
from games.naming import HUMAN


@dataclass(frozen=True)
class Guided:
    """How a guided hand's table is set, beyond its game, rule set, size and seed: a stacked
    first deal (``pack``), how the table begins (``start``, :data:`~games.loo.table.STARTS`),
    the agreed variations it plays (``options``: RULES.md names and values, as pairs so that
    it hashes) and whether it is a laws-mode table with careless computer players (``laws``)."""

    pack: tuple[str, ...] | None = None
    start: str = "fresh"
    options: tuple[tuple[str, str], ...] = ()
    laws: bool = False

    @classmethod
    def of(
        cls,
        pack: tuple[str, ...] | None = None,
        start: str = "fresh",
        options: Mapping[str, str] | None = None,
        laws: bool = False,
    ) -> Guided:
        return cls(pack, start, tuple(sorted((options or {}).items())), laws)

    @property
    def opponents(self) -> str:
        return Opponents.CARELESS if self.laws else Opponents.SENSIBLE

    def rules(self, preset: str) -> RuleSet:
        rules = RuleSet.preset(preset)
        return rules.with_options(dict(self.options)) if self.options else rules


PLAIN = Guided()


def guided_deal_seed(seed: int) -> str:
    """The engine's seed of a guided hand dealt from ``seed``: the same on every site."""
    return f"guided:{seed}"


def rule_comes_up(
    game: str,
    preset: str,
    players: int,
    seed: int,
    rule: str,
    *,
    during: bool = True,
    guided: Guided = PLAIN,
) -> bool:
    """Whether ``rule`` comes up in the first hand of a practice table dealt from the public
    ``seed`` (as ``guided`` sets it), played sensibly: on a line the learner sees during the
    hand (``during``), else on any line (a rule that bound another player is told when the
    hand is over)."""
    config = TableConfig(
        game,
        guided.rules(preset),
        players,
        guided_deal_seed(seed),
        laws=guided.laws,
        first_pack=guided.pack,
        start=guided.start,
    )
    table = Table(config)
    table.deal()
    # The table's own computer players, as a practice table lets them act.
    others = Autoplay(guided.opponents, human=HUMAN)
    learner = SensibleBot(f"guided:{seed}", playouts=SENSIBLE_PLAYOUTS)
    notes: list[Note] = []
    others.run(table, notes, wait=True)
    # Each line as the learner saw it when it was told (``during``): a rule that bound another
    # player and is told only at the end does not count.
    told = 0
    while True:
        hand = table.hand
        assert hand is not None
        events = public_events(hand, HUMAN) if during else hand.events
        if any(rule in e.rules for e in events[told:]):
            return True
        if hand.over:
            return False
        told = len(events)
        if hand.to_act == HUMAN:
            table.apply(learner.decide(view_for(hand, HUMAN)).action)
        others.run(table, notes)
