"""A ``source`` question's sentences as a page shows them.

Each sentence of a ``source`` question's explanation is about one source ("Hoffmann (1909)
states it: …"): it links the passage of *that* source, not of the drill's rule set.
"""

from __future__ import annotations

from typing import Final

from games.loo.messages import Message
from games.loo.rulesets import PRESETS

#: The engine names a source by its rule set's title (``PRESETS[id].title``).
_BY_TITLE: Final = {preset.title: slug for slug, preset in PRESETS.items()}

#: The sentences about one source.
_ABOUT_ONE: Final = "question.source-says."


def source_of(message: Message) -> str | None:
    """The source a sentence of a ``source`` question's explanation is about, or None."""
    if not message.key.startswith(_ABOUT_ONE):
        return None
    return _BY_TITLE.get(str(message.args.get("source", "")))
