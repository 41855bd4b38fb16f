"""A lesson's guided hand at the practice table: a deal in which the lesson's rule comes up.

The check plays the first hand of a practice table as the table plays it: the computer players
are the table's own (sensible, seeded as the table seeds them), and the learner's seat is
played by a sensible player too. A learner who plays as sensibly meets the same replies and
sees the rule come up, marked in the trick log; one who plays otherwise may not, which the
banner of the hand allows for.
"""

from __future__ import annotations

from games.loo.bots import SensibleBot
from games.loo.guided import comes_up
from games.loo.hand import Action, Hand
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import view_for
from games.models import SENSIBLE_PLAYOUTS, bot_seed, deal_seed
from games.naming import HUMAN


def rule_comes_up(
    game: str, preset: str, players: int, seed: int, rule: str, *, during: bool = True
) -> bool:
    """Whether ``rule`` comes up in the first hand of a practice table with sensible
    opponents dealt from the public ``seed``, played sensibly: on a line the learner sees
    during the hand (``during``), else on any line (a rule that bound another player is
    told when the hand is over)."""
    table = Table(TableConfig(game, RuleSet.preset(preset), players, deal_seed(seed)))
    hand = table.deal()
    learner = SensibleBot(f"guided:{seed}", playouts=SENSIBLE_PLAYOUTS)

    def decide(hand: Hand, seat: int) -> Action:
        bot = learner if seat == HUMAN else SensibleBot(bot_seed(table, seat), SENSIBLE_PLAYOUTS)
        return bot.decide(view_for(hand, seat)).action

    return comes_up(hand, rule, decide, viewer=HUMAN if during else None)
