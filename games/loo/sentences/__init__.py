"""Every sentence the engine can say, by key: the templates of :mod:`games.loo.messages`.

They are data, apart from the code that renders them, one module per part of the game (card
play, the hand, the laws, the computer players, the rule questions); :data:`TEMPLATES` puts
them together. A reader, or a later translation, finds every sentence the game can say in this
package and nowhere else. The placeholders are described in :mod:`games.loo.messages`.
"""

from __future__ import annotations

from typing import Final

from . import bots, coach, hand, laws, play, questions, table
from .play import HAD_TO

#: Every sentence the engine can say, by key.
TEMPLATES: Final[dict[str, str]] = {
    # A sentence stored before sentences were data, shown as it was written.
    "text": "{text}",
    **play.PIECES,
    **play.LEAD,
    **play.FOLLOW,
    **play.FLUSHES,
    **hand.HAND,
    **hand.PLAY,
    **bots.BOT_REASONS,
    **laws.LAWS_SETTLEMENT,
    **laws.LAWS,
    **bots.LAPSES,
    **questions.QUESTIONS,
    **table.TABLE,
    **coach.COACH,
}

__all__ = ["HAD_TO", "TEMPLATES"]
