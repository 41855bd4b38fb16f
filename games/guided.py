"""A lesson's guided hand at the practice table: a deal in which the lesson's rule comes up
whatever the learner legally does.

The proof walks every legal line of the learner through the first hand of the practice table
(:func:`games.loo.explore.explore`): each declaration, each set of cards he may throw out,
each legal card, with and without "Pam, be civil"; the computer players are the table's own
(sensible, or careless beginners at a laws-mode table; seeded as the table seeds them, and
lapsing as the table lets them), so each line meets the replies it meets at the table. A deal
is kept only if the rule is marked in the trick log he sees (during the hand, or when it is
told whole at its end) on every line.

A guided hand may be dealt from a stacked pack and begin as if a hand had been played before
(:class:`Guided`): the table deals that first hand, and the seed then only chooses the first
dealer and seeds the computer players. An early lesson's hand may make the learner's
declaration for him (``declares``), before declaring has been taught: then he has no line
there, at the table as in the proof (:func:`made_for_learner`).

A guided hand deals from :func:`guided_deal_seed`, made of its seed alone: unlike a practice
table's (:func:`~games.models.deal_seed`), it does not depend on the site's secret key, so the
deal found for a lesson is found once and stored with the content, and is the same on every
site.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.loo.autoplay import CARELESS, SENSIBLE, Autoplay
from games.loo.explore import Exploration, explore
from games.loo.hand import Action, Hand
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.naming import HUMAN


@dataclass(frozen=True)
class Guided:
    """How a guided hand's table is set, beyond its game, rule set, size and seed: a stacked
    first deal (``pack``), how the table begins (``start``, :data:`~games.loo.table.STARTS`),
    the agreed variations it plays (``options``: RULES.md names and values, as pairs so that
    it hashes), whether it is a laws-mode table with careless computer players (``laws``) and
    whether the table makes the learner's declaration for him (``declares``), and whether the
    rule must come up on a line on which he has followed suit to a trumped trick
    (``trumped``: a lesson about such a trick, whose hand must not end without one)."""

    pack: tuple[str, ...] | None = None
    start: str = "fresh"
    options: tuple[tuple[str, str], ...] = ()
    laws: bool = False
    declares: bool = False
    trumped: bool = False

    @classmethod
    def of(
        cls,
        pack: tuple[str, ...] | None = None,
        start: str = "fresh",
        options: Mapping[str, str] | None = None,
        laws: bool = False,
        declares: bool = False,
        trumped: bool = False,
    ) -> Guided:
        options_ = tuple(sorted((options or {}).items()))
        return cls(pack, start, options_, laws, declares, trumped)

    @property
    def opponents(self) -> str:
        return CARELESS if self.laws else SENSIBLE

    def rules(self, preset: str) -> RuleSet:
        rules = RuleSet.preset(preset)
        return rules.with_options(dict(self.options)) if self.options else rules


PLAIN = Guided()


def guided_deal_seed(seed: int) -> str:
    """The engine's seed of a guided hand dealt from ``seed``: the same on every site."""
    return f"guided:{seed}"


def made_for_learner(hand: Hand) -> Action | None:
    """The declaration a guided hand that declares for the learner makes at his turn to
    declare in its first hand: he plays (at five-card or Irish Loo, stands on his cards), the
    one choice that lets him watch the hand's tricks; None when it is not that turn."""
    if hand.over or hand.to_act != HUMAN or hand.setup.hand_number != 1:
        return None
    options = hand.options(explain=False)
    if options.kind != "declare" or "play" not in options.choices:
        return None
    return Action.declare(HUMAN, "play")


def prove(
    game: str,
    preset: str,
    players: int,
    seed: int,
    rule: str,
    *,
    guided: Guided = PLAIN,
    every_line: bool = False,
) -> Exploration:
    """Whether ``rule`` comes up in the first hand of a practice table dealt from the public
    ``seed`` (as ``guided`` sets it) on every legal line of the learner
    (:func:`~games.loo.explore.explore`; ``every_line``: walk them all, not stopping at the
    first that misses it)."""
    config = TableConfig(
        game,
        guided.rules(preset),
        players,
        guided_deal_seed(seed),
        laws=guided.laws,
        first_pack=guided.pack,
        start=guided.start,
    )
    return explore(
        Table(config),
        Autoplay(guided.opponents, human=HUMAN),
        rule,
        stand=made_for_learner if guided.declares else None,
        every_line=every_line,
        trumped=guided.trumped,
    )
