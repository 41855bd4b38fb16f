"""A ``source`` question's sentences as a page shows them.

The engine quotes the rule catalogue (../shared/RULES.md), which keeps each text's words as
they reached us, transcription faults included (the Britannica's "contributes tothe pool",
"' Pam '"); a page shows them as the source's own reading page does, with the faults its
content file corrects (``correct:`` lines, :attr:`lessons.models.Source.corrections`).

Each sentence of a ``source`` question's explanation is about one source ("Hoffmann (1909)
states it: …"): it links the passage of *that* source, not of the drill's rule set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from games.links import content_version
from games.loo.catalogue import SOURCE_IDS
from games.loo.messages import Message
from games.loo.questions import Question
from games.loo.rulesets import PRESETS
from lessons.models import Source, apply_corrections

#: The engine names a source by its rule set's title (``PRESETS[id].title``).
_BY_TITLE: Final = {preset.title: slug for slug, preset in PRESETS.items()}

#: A prompt that quotes a source (the answer is that source), and the sentences about one.
_QUOTING: Final = ("question.source-quote", "question.source-quote-rule")
_ABOUT_ONE: Final = "question.source-says."

#: This process's copy of every source's corrections, with the content version it was read at.
_kept: dict[str, tuple[str, dict[str, list[list[str]]]]] = {}


def source_of(message: Message) -> str | None:
    """The source a sentence of a ``source`` question's explanation is about, or None."""
    if not message.key.startswith(_ABOUT_ONE):
        return None
    return _BY_TITLE.get(str(message.args.get("source", "")))


def _corrections() -> dict[str, list[list[str]]]:
    """Each source's corrections (one query for the content version, then kept)."""
    version = content_version()
    kept = _kept.get("all")
    if kept is None or kept[0] != version:
        rows = dict(Source.objects.values_list("slug", "corrections"))
        kept = _kept["all"] = (version, rows)
    return kept[1]


def _mended(message: Message, arg: str, sources: Iterable[str]) -> Message:
    text = message.args.get(arg)
    if not isinstance(text, str):
        return message
    corrections = _corrections()
    for source in sources:
        text = apply_corrections(text, corrections.get(source, ()))
    return Message(message.key, {**message.args, arg: text})


def prompt(q: Question) -> Message:
    """The question's prompt, its quotation (if it quotes a source) corrected as the sources'
    texts are. Every source's faults, not only those of the source quoted: the page before
    the answer must be the same whichever source the answer is (each fault is a string of
    one text's transcription that no other text has)."""
    if q.kind != "source" or q.prompt.key not in _QUOTING:
        return q.prompt
    return _mended(q.prompt, "quote", SOURCE_IDS)


def explanation(message: Message) -> Message:
    """A sentence of the explanation, what it quotes of its source corrected."""
    source = source_of(message)
    return message if source is None else _mended(message, "says", (source,))
