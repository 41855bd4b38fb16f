"""The content files: their format, their validation, and loading them into the database.

``content/`` holds one file per source (``sources/<id>.txt``: the five sources of the rule
sets, and the witnesses, marked ``role: witness``), the rule explanations (``rules.txt``), the
glossary (``glossary.txt``), what the witnesses say of each rule (``witnesses.txt``) and the
timeline of the game (``timeline.txt``), all in one plain-text format that an editor can read
and diff (docs/sources.md: "Reading the sources")::

    # A comment.
    [paragraph p2]
    label: ¶2
    rules: ante, stake-divisible

    The full pack of fifty-two cards is used, … known as "[[miss]]." …

A block starts with a ``[kind id]`` line; ``key: value`` lines follow it directly (a long
value may go on over indented lines); after a blank line comes its body, up to the next block.
Bodies use the markup of :mod:`lessons.markup`.

:func:`read` parses and validates everything without touching the database and raises
:class:`ContentError` ("content/<file>:<line>: <problem>") at the first problem;
:meth:`Content.save` then writes it in one transaction, updating rows in place by their
natural keys (source slug, source + passage key, rule id, term slug), so that reloading keeps
every primary key and permalink. The files are the master copy: whatever an editor changed in
the admin is overwritten by the next load.
"""

from lessons.content.blocks import Block, ContentError, check_markup, parse
from lessons.content.reading import default_path, read
from lessons.content.saving import Content, ContentPart, sync
from lessons.content.sources import MAX_MODERN_QUOTE_WORDS

__all__ = [
    "MAX_MODERN_QUOTE_WORDS",
    "Block",
    "Content",
    "ContentError",
    "ContentPart",
    "check_markup",
    "default_path",
    "parse",
    "read",
    "sync",
]
