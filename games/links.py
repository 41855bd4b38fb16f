"""Links from the practice table to the reading side: rule pages and source passages.

``rule_url`` is the one place that builds a rule's address from its id. The source passage
that states a rule under a rule set comes from the reading side's citations: one query per
source, kept by each worker process for :data:`LINKS_TTL` seconds (a practice request would
otherwise spend as long on it as on the rest of its queries). An edit in this process (the
admin, ``loadcontent``) clears the copy at once (see ``GamesConfig.ready``); another worker
sees it within the minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.urls import reverse

from games.loo import catalogue
from games.loo.catalogue import UnknownRule
from games.loo.rulesets import PRESETS


@cache
def rule_url(rule_id: str) -> str:
    """The rule's page on the reading side: ``/rules/<rule-id>/``."""
    return reverse("lessons:rule-detail", args=[rule_id])


@cache
def source_url(source: str) -> str:
    """A source's page on the reading side: ``/sources/<source>/``."""
    return reverse("lessons:source-detail", args=[source])


@dataclass(frozen=True)
class RuleLink:
    """A rule as the table cites it: its name, its page, and the passage of the table's source."""

    id: str
    name: str
    url: str
    passage_url: str
    passage_label: str

    @property
    def title(self) -> str:
        return self.name[:1].upper() + self.name[1:]

    @property
    def statement(self) -> str:
        """The rule in general terms, in the catalogue's markup (`ids` in backquotes)."""
        try:
            return catalogue.rule(self.id).statement
        except UnknownRule:
            return ""


def rule_name(rule_id: str) -> str:
    try:
        return catalogue.rule(rule_id).name
    except UnknownRule:
        return rule_id


#: Seconds a worker keeps a source's links before asking the database again.
LINKS_TTL = 60.0
_loaded: dict[tuple[str, str], tuple[float, RuleLinks]] = {}

#: How a source that describes the games in sections of their own (parlett: "3c:Play",
#: "5c:Play") begins the keys of each game's passages.
GAME_SECTIONS = {"three-card": "3c-", "five-card": "5c-"}


#: One citation of a rule by a source, as the table needs it: (rule id, passage key, passage
#: label, whether it is the rule's primary passage), in the order to prefer.
CitationRow = tuple[str, str, str, bool]
#: Where the citations come from: the reading side registers it (lessons/apps.py), so that the
#: practice side asks through this interface and never imports the reading side.
_citations: list[Callable[[str], Iterable[CitationRow]]] = []


def provide_citations(find: Callable[[str], Iterable[CitationRow]]) -> None:
    """Register ``find(source)``, the citations of a source (the reading side calls this)."""
    _citations[:] = [find]
    forget_links()


def _citations_of(source: str) -> Iterable[CitationRow]:
    return _citations[0](source) if _citations else ()


def forget_links(**kwargs: Any) -> None:
    """Drop every source's links (a signal receiver: the citations or passages changed)."""
    _loaded.clear()


class RuleLinks:
    """The rules as a page cites them, with the passages of ``source`` that state them."""

    def __init__(self, source: str, passages: dict[str, tuple[str, str]]) -> None:
        self.source = source
        self.passages = passages
        self.title = PRESETS[source].title if source in PRESETS else source
        self._links: dict[str, RuleLink] = {}

    @classmethod
    def of(cls, source: str, game: str = "") -> RuleLinks:
        """The links of ``source`` for ``game``: for each rule, the passage citing it in that
        game's section if the source has one, else its primary passage (one query, then kept
        for :data:`LINKS_TTL` seconds)."""
        now = time.monotonic()
        kept = _loaded.get((source, game))
        if kept is not None and now - kept[0] < LINKS_TTL:
            return kept[1]
        links = cls.load(source, game)
        _loaded[(source, game)] = (now, links)
        return links

    @classmethod
    def load(cls, source: str, game: str = "") -> RuleLinks:
        """One query: the passages of ``source`` citing each rule; the one in ``game``'s
        section first (parlett's five-card rules are in "5c:Play", not "3c:Play"), then the
        primary one."""
        section = GAME_SECTIONS.get(game)
        passages: dict[str, tuple[str, str]] = {}
        in_section: dict[str, tuple[str, str]] = {}
        for rule_id, key, label, primary in _citations_of(source):
            if primary:
                passages.setdefault(rule_id, (key, label))
            if section and key.startswith(section):
                in_section.setdefault(rule_id, (key, label))
        return cls(source, passages | in_section)

    def link(self, rule_id: str) -> RuleLink:
        found_link = self._links.get(rule_id)
        if found_link is None:
            found_link = self._links[rule_id] = self._make(rule_id)
        return found_link

    def _make(self, rule_id: str) -> RuleLink:
        rule_page = rule_url(rule_id)
        found = self.passages.get(rule_id)
        if found is not None:
            key, label = found
            passage_url = f"{source_url(self.source)}#{key}"
            passage_label = f"{self.title}, {label}"
        else:
            # The source does not state the rule: its column on the rule page says so.
            passage_url = f"{rule_page}#st-{self.source}"
            passage_label = f"what {self.title} says"
        return RuleLink(rule_id, rule_name(rule_id), rule_page, passage_url, passage_label)
