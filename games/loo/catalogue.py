"""The rule catalogue: every rule the engine cites, with what each source says about it.

The data is ``data/catalogue.json``, built from Part 1 of the shared RULES.md by
``scripts/build_catalogue.py`` and committed, so that the engine never needs RULES.md at run
time. It is read once, on first use, from the installed package.

Statuses of a source on a rule (see the build script for how they are derived):
``states``, ``implied``, ``subsumed``, ``silent`` and ``refers`` (silent, but the passage that
would cover the point is missing from our copy of the text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

SOURCE_IDS: tuple[str, ...] = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")

GROUPS: tuple[tuple[str, str], ...] = (
    ("players-and-deal", "Players, cards and the deal"),
    ("stakes", "Stakes"),
    ("declaring", "Declaring in three-card Loo"),
    ("exchange", "The five-card exchange"),
    ("leading", "Leading"),
    ("following", "Following"),
    ("trick", "The trick"),
    ("pam", "Pam (five-card Loo only)"),
    ("flushes", "Flushes (five-card Loo only)"),
    ("variants", "Forced deals and variants"),
    ("irregularities", "Irregularities and penalties"),
)

_STATUSES = frozenset({"states", "implied", "subsumed", "silent", "refers"})
_SILENT_STATUSES = frozenset({"silent", "refers"})


class UnknownRule(KeyError):
    """A rule id that is not in the catalogue."""

    def __init__(self, rule_id: str) -> None:
        super().__init__(rule_id)
        self.rule_id = rule_id

    def __str__(self) -> str:
        return f"{self.rule_id!r} is not in the rule catalogue"


@dataclass(frozen=True)
class Citation:
    """A quotation from a source text and where it is (``"¶5"``, ``"Law 13"``, ``"p. 21"``).

    ``found_in``: the sources whose texts have the quotation's words (without regard to case
    and punctuation), found by the build; empty in the catalogues written before it looked.
    A quotation that two texts share cannot ask which source says it."""

    locator: str
    quote: str
    found_in: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceStatement:
    """What one source says about one rule."""

    source: str
    status: str
    text: str
    citations: tuple[Citation, ...]

    @property
    def silent(self) -> bool:
        """True if the source says nothing on the point (including ``refers``)."""
        return self.status in _SILENT_STATUSES


@dataclass(frozen=True)
class Rule:
    """One rule of the catalogue: its statement and what each of the five sources says."""

    id: str
    name: str
    group: str
    section: str
    statement: str
    sources: tuple[SourceStatement, ...]
    variants: str

    def source(self, source_id: str) -> SourceStatement:
        """What the source `source_id` (one of SOURCE_IDS) says about this rule."""
        for statement in self.sources:
            if statement.source == source_id:
                return statement
        raise KeyError(f"{source_id!r} is not a source; the sources are {', '.join(SOURCE_IDS)}")

    @property
    def stated_by(self) -> tuple[str, ...]:
        """The sources that state this rule, in SOURCE_IDS order."""
        return tuple(s.source for s in self.sources if s.status == "states")


#: The catalogue's data file, and the one as it stood before Peel's pp. 16-18 were recovered
#: (2026-11-25): the ``source`` questions of the question bank's versions 2 and 3 are made from
#: that one, so that a stored question comes out as it was asked.
CURRENT: Final = "catalogue.json"
BEFORE_PEEL_RECOVERED: Final = "catalogue-v3.json"
#: The catalogue as the question bank's version 4 made its ``source`` questions from it
#: (before the quotations were checked against the texts, issue 25).
BEFORE_QUOTES_CHECKED: Final = "catalogue-v4.json"
#: The catalogue as the question bank's versions 5 to 7 made their ``source`` questions from it
#: (before the modern pages' quotations were cut to what a reader may meet, issue 39).
BEFORE_READER_MEASURE: Final = "catalogue-v7.json"


def rules(data: str = CURRENT) -> tuple[Rule, ...]:
    """Every rule, in catalogue order (``data``: which edition of the catalogue)."""
    return _catalogue(data)[0]


def rule(rule_id: str, data: str = CURRENT) -> Rule:
    """The rule with id `rule_id`; raises UnknownRule if there is none."""
    try:
        return _catalogue(data)[1][rule_id]
    except KeyError:
        raise UnknownRule(rule_id) from None


def rule_ids() -> frozenset[str]:
    """The ids of every rule in the catalogue."""
    return frozenset(_catalogue()[1])


@cache
def _catalogue(name: str = CURRENT) -> tuple[tuple[Rule, ...], dict[str, Rule]]:
    if name not in (CURRENT, BEFORE_PEEL_RECOVERED, BEFORE_QUOTES_CHECKED, BEFORE_READER_MEASURE):
        raise ValueError(f"no catalogue {name!r}")
    text = (resources.files("games.loo") / "data" / name).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, list):
        raise ValueError("catalogue.json: expected a list of rules")
    loaded = tuple(_rule(item) for item in data)
    by_id = {r.id: r for r in loaded}
    if len(by_id) != len(loaded):
        raise ValueError("catalogue.json: a rule id appears twice")
    return loaded, by_id


def _rule(data: object) -> Rule:
    obj = _object(data, "rule")
    rule_id = _string(obj, "id", "rule")
    where = f"rule {rule_id!r}"
    group = _string(obj, "group", where)
    if group not in dict(GROUPS):
        raise ValueError(f"catalogue.json: {where} has an unknown group {group!r}")
    sources = _object(obj.get("sources"), f"{where}: sources")
    if set(sources) != set(SOURCE_IDS):
        raise ValueError(f"catalogue.json: {where} must have exactly the sources {SOURCE_IDS}")
    return Rule(
        id=rule_id,
        name=_string(obj, "name", where),
        group=group,
        section=_string(obj, "section", where),
        statement=_string(obj, "statement", where),
        sources=tuple(_source(sid, sources[sid], f"{where}, {sid}") for sid in SOURCE_IDS),
        variants=_string(obj, "variants", where),
    )


def _source(source_id: str, data: object, where: str) -> SourceStatement:
    obj = _object(data, where)
    status = _string(obj, "status", where)
    if status not in _STATUSES:
        raise ValueError(f"catalogue.json: {where} has an unknown status {status!r}")
    citations = obj.get("citations")
    if not isinstance(citations, list):
        raise ValueError(f"catalogue.json: {where}: citations must be a list")
    return SourceStatement(
        source=source_id,
        status=status,
        text=_string(obj, "text", where),
        citations=tuple(_citation(c, where) for c in citations),
    )


def _citation(data: object, where: str) -> Citation:
    obj = _object(data, where)
    found_in = obj.get("found_in", [])
    if not isinstance(found_in, list) or not set(found_in) <= set(SOURCE_IDS):
        raise ValueError(f"catalogue.json: {where}: found_in must be a list of source ids")
    return Citation(
        locator=_string(obj, "locator", where),
        quote=_string(obj, "quote", where),
        found_in=tuple(found_in),
    )


def _object(data: object, where: str) -> dict[str, object]:
    if not isinstance(data, dict):
        raise ValueError(f"catalogue.json: {where}: expected an object")
    return data


def _string(obj: dict[str, object], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ValueError(f"catalogue.json: {where}: {key!r} must be a string")
    return value
