"""``source``: "Which sources state this rule?" (select all) or "Which source says this?",
from the catalogue's citations."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any, Final

from ..catalogue import (
    BEFORE_PEEL_RECOVERED,
    BEFORE_QUOTES_CHECKED,
    BEFORE_READER_MEASURE,
    CURRENT,
    SOURCE_IDS,
    Citation,
    Rule,
)
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


@cache
def _source_rules(version: int = VERSION) -> tuple[str, ...]:
    """The rules a ``source`` question can ask about: those some sources state and others
    do not, or that a source words in a quotation it can ask about. Kept once made: the
    catalogue of each version is fixed, and reading every rule's quotations took 4 ms at each
    question made."""
    return tuple(
        r.id
        for r in catalogue_rules(_catalogue_of(version))
        if _quotable(r, version) or 0 < len(r.stated_by) < len(SOURCE_IDS)
    )


def _quotable(rule: Rule, version: int) -> list[tuple[str, Citation]]:
    """The quotations a question may ask the source of, each with its source. From version 5
    (issue 25), only a quotation of a source that states or implies the rule (not words
    quoted in passing in an entry that calls the source silent: the Britannica's "limited"),
    found in that source's text and in no other ("the cards ranking as at whist" is in
    Hoffmann and the Britannica: either answer would be right). From version 8 (issue 39),
    only a quotation of at least ``QUOTE_WORDS`` words: two or three ("paramount trump",
    "MIXED LOO") are a phrase, not a passage whose source a reader could know."""
    if version < 5:
        return [(s.source, c) for s in rule.sources for c in s.citations]
    return [
        (s.source, c)
        for s in rule.sources
        if s.status in ("states", "implied")
        for c in s.citations
        if c.found_in == (s.source,)
        and (version < LONGER_QUOTES or len(re.findall(r"\w+", _unmarked(c.quote))) >= QUOTE_WORDS)
    ]


#: From this version a ``source`` question quotes at least ``QUOTE_WORDS`` words (issue 39).
LONGER_QUOTES: Final = 8
QUOTE_WORDS: Final = 5


#: From version 5, the name a prompt gives a rule whose catalogue name names a source, which
#: would give the answer away ("peel's rule", "… (britannica only)").
NEUTRAL_NAMES: Final = {
    "master": "the dealer defends with the stock",
    "miss-holder-leads": "by agreement, the holder of the miss leads first",
    "lead-highest-of-two-or-three": (
        "the leader with two or more trumps leads the highest, whatever the number of players"
    ),
    "irish-loo": "three cards with an exchange and no miss",
    "penalty-interfering-with-deal": "touching the cards during the deal",
}


def _names_a_source(name: str) -> bool:
    return any(s in name.lower() for s in SOURCE_IDS)


def _catalogue_of(version: int) -> str:
    """The edition of the rule catalogue a ``source`` question of ``version`` is made from:
    before version 4, the one written before Peel's pp. 16-18 were recovered; version 4's, the
    one before its quotations were checked against the texts; versions 5 to 7, the one before
    the modern pages' quotations were cut to what a reader may meet (issue 39)."""
    if version >= LONGER_QUOTES:
        return CURRENT
    if version >= 5:
        return BEFORE_READER_MEASURE
    return BEFORE_QUOTES_CHECKED if version == 4 else BEFORE_PEEL_RECOVERED


#: Quotations of the modern pages stay short (../shared/sources/SOURCES.md).
MODERN_QUOTE_WORDS: Final = 30


def played_at(rule: Rule, game: str) -> bool:
    """Whether ``rule`` belongs to ``game``: a rule of a section of five-card Loo alone (Pam,
    flushes, the exchange: "1.8 Pam (five-card Loo only)") is not one of three-card or
    Irish Loo, which have no Pam, no flush and no such exchange."""
    return game == "five-card" or "five-card" not in rule.section.lower()


def game_of(rule_id: str) -> str:
    """The game a ``source`` question about ``rule_id`` can be asked at whatever the version:
    five-card Loo for a rule of five-card Loo alone (:func:`played_at`), else three-card."""
    return "three-card" if played_at(catalogue_rule(rule_id), "three-card") else "five-card"


def _make_source(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    edition = _catalogue_of(ask.version)
    askable = _source_rules(ask.version)
    if ask.version >= 8:
        # Issue 38: a three-card drill asked "Which source says this?" about Pam.
        askable = tuple(r for r in askable if played_at(catalogue_rule(r, edition), ask.game))
        if ask.rule is not None and not played_at(catalogue_rule(ask.rule, edition), ask.game):
            return None
    rule = catalogue_rule(ask.rule or rng.choice(askable), edition)
    stating = rule.stated_by
    quoted = _quotable(rule, ask.version)
    name = NEUTRAL_NAMES.get(rule.id, rule.name) if ask.version >= 5 else rule.name
    explanations = tuple(
        RuleApplication(
            rule.id,
            msg(
                f"question.source-says.{s.status}",
                source=PRESETS[s.source].title,
                says=_says(s.status, _short(_shown(s.text, ask.version), s.source), ask.version),
            ),
        )
        for s in rule.sources
    )
    choices = [Choice(s, PRESETS[s].title) for s in SOURCE_IDS]
    rng.shuffle(choices)
    position: dict[str, Any] = {"rule": rule.id, "name": rule.name}
    if quoted and (not 0 < len(stating) < len(SOURCE_IDS) or rng.random() < 0.5):
        source, citation = quoted[rng.randrange(len(quoted))]
        position["quote"] = _short(
            _unmarked(citation.quote) if ask.version >= 5 else citation.quote, source
        )
        return ask.question(
            "source",
            # The rule's name, unless it names a source ("peel's rule").
            msg("question.source-quote", quote=position["quote"])
            if _names_a_source(name)
            else msg("question.source-quote-rule", quote=position["quote"], name=name),
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
        msg("question.source-which", name=name),
        [rule.id],
        position=position,
        choices=tuple(choices),
        answer=tuple(c.id for c in choices if c.id in stating),
        explanations=explanations,
        multiple=True,
    )


#: The words that open a catalogue entry and say its status, which the explanation's
#: sentence already says ("Hoffmann implies it: implicit: …").
_STATUS_WORDS: Final = re.compile(
    r"^(?:(?:implied|implicit)\s*:\s*|silent\.\s*implied by\s+|subsumed\s*[.:]\s*)", re.I
)


def _says(status: str, text: str, version: int = VERSION) -> str:
    """What a source says on a rule, as its explanation ends: the catalogue words a silent
    source's entry "silent." or "silent (…)", which the sentence "… is silent on it" already
    says (so it takes what follows the word, or a full stop). From version 5 the same holds
    of "implicit:" after "implies it", and of "subsumed." after "covers it in a wider rule"."""
    if status != "silent":
        return _STATUS_WORDS.sub("", text) if version >= 5 and status != "refers" else text
    if text[:6].lower() == "silent":
        rest = text[6:].rstrip()
        return rest if rest not in ("", ".") else "."
    return f": {text}"


def _unmarked(quote: str) -> str:
    """A quotation without the emphasis marks of our copies ("the _highest_ of two", RULES.md's
    "(*a*)"), which a question shows as plain text, nor Hoffmann's footnote marks ("of equal
    value,[28] when"): the question does not show the note, so the mark points nowhere."""
    plain = re.sub(r"(?<![\w*_])([*_])(\w[^*_]*?)\1(?![\w*_])", r"\2", quote)
    return _FOOTNOTE_MARK.sub("", plain)


def _shown(text: str, version: int) -> str:
    """A source's entry as an explanation shows it: from version 5, without footnote marks."""
    return _FOOTNOTE_MARK.sub("", text) if version >= 5 else text


#: A footnote mark of our copy of Hoffmann, set against the word it notes ("selected,[27]"); not
#: a number the catalogue's own words give in brackets ("footnote [27] is not in the text").
_FOOTNOTE_MARK: Final = re.compile(r"(?<=\S)\[\d+\]")


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
