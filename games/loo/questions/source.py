"""``source``: "Which sources state this rule?" (select all) or "Which source says this?",
from the catalogue's citations."""

from __future__ import annotations

import random
from typing import Any, Final

from ..catalogue import BEFORE_PEEL_RECOVERED, BEFORE_QUOTES_CHECKED, CURRENT, SOURCE_IDS
from ..catalogue import rule as catalogue_rule
from ..catalogue import rules as catalogue_rules
from ..messages import msg
from ..play import RuleApplication
from ..rulesets import PRESETS
from .base import (
    VERSION,
    Ask,
    Choice,
    Kind,
    Question,
)


def _source_rules(version: int = VERSION) -> tuple[str, ...]:
    """The rules a ``source`` question can ask about: those some sources state and others
    do not, or that a source words in a quotation."""
    return tuple(
        r.id
        for r in catalogue_rules(_catalogue_of(version))
        if any(s.citations for s in r.sources) or 0 < len(r.stated_by) < len(SOURCE_IDS)
    )


def _catalogue_of(version: int) -> str:
    """The edition of the rule catalogue a ``source`` question of ``version`` is made from:
    before version 4, the one written before Peel's pp. 16-18 were recovered; version 4's, the
    one before its quotations were checked against the texts."""
    if version >= 5:
        return CURRENT
    return BEFORE_QUOTES_CHECKED if version == 4 else BEFORE_PEEL_RECOVERED


#: Quotations of the modern pages stay short (../shared/sources/SOURCES.md).
MODERN_QUOTE_WORDS: Final = 30


def _make_source(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    rule = catalogue_rule(
        ask.rule or rng.choice(_source_rules(ask.version)), _catalogue_of(ask.version)
    )
    stating = rule.stated_by
    quoted = [(s.source, c) for s in rule.sources for c in s.citations]
    explanations = tuple(
        RuleApplication(
            rule.id,
            msg(
                f"question.source-says.{s.status}",
                source=PRESETS[s.source].title,
                says=_says(s.status, _short(s.text, s.source)),
            ),
        )
        for s in rule.sources
    )
    choices = [Choice(s, PRESETS[s].title) for s in SOURCE_IDS]
    rng.shuffle(choices)
    position: dict[str, Any] = {"rule": rule.id, "name": rule.name}
    if quoted and (not 0 < len(stating) < len(SOURCE_IDS) or rng.random() < 0.5):
        source, citation = quoted[rng.randrange(len(quoted))]
        position["quote"] = _short(citation.quote, source)
        return ask.question(
            "source",
            # The rule's name, unless it names a source ("peel's rule").
            msg("question.source-quote", quote=position["quote"])
            if any(s in rule.name.lower() for s in SOURCE_IDS)
            else msg("question.source-quote-rule", quote=position["quote"], name=rule.name),
            [rule.id],
            position=position,
            choices=tuple(choices),
            answer=(source,),
            explanations=explanations,
        )
    if not 0 < len(stating) < len(SOURCE_IDS):
        return None
    return ask.question(
        "source",
        msg("question.source-which", name=rule.name),
        [rule.id],
        position=position,
        choices=tuple(choices),
        answer=tuple(c.id for c in choices if c.id in stating),
        explanations=explanations,
        multiple=True,
    )


def _says(status: str, text: str) -> str:
    """What a source says on a rule, as its explanation ends: the catalogue words a silent
    source's entry "silent." or "silent (…)", which the sentence "… is silent on it" already
    says (so it takes what follows the word, or a full stop)."""
    if status != "silent":
        return text
    if text[:6].lower() == "silent":
        rest = text[6:].rstrip()
        return rest if rest not in ("", ".") else "."
    return f": {text}"


def _short(quote: str, source: str) -> str:
    """A quotation as the site may show it: in full from a public-domain text, a few words
    from a modern page."""
    if not PRESETS[source].modern:
        return quote
    words = quote.split()
    return (
        quote if len(words) <= MODERN_QUOTE_WORDS else " ".join(words[:MODERN_QUOTE_WORDS]) + " …"
    )


SOURCE: Final = Kind(
    name="source",
    title="Which source says so",
    make=_make_source,
    rules=_source_rules,
    any_rule=True,
    about_play=False,
    shows="source",
)
