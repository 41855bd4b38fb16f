"""Links from the practice table to the reading side: rule pages and source passages.

``rule_url`` is the one place that builds a rule's address from its id. The source passage
that states a rule under a rule set comes from the reading side's citations: one query per
source, after which each worker process keeps its own copy (a practice request would
otherwise spend as long on it as on the rest of its queries). The copy is good for one
*content version*, a token kept in the cache every worker and machine shares
(``django.core.cache.cache``): each use reads it (one cache get) and a copy made under another
version is loaded again. An edit of the citations, passages or sources (the admin,
``loadcontent``) drops this process's copy at once and, once its transaction commits, gives
the content a new version, so every worker on every machine shows it at its next request
(see ``LessonsConfig.ready``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.cache import cache as shared_cache
from django.db import transaction
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


def rule_name(rule_id: str, source: str = "") -> str:
    """The rule's name, as ``source``'s table calls it where the catalogue's general name
    does not describe that source's rule (:data:`NAMES_UNDER`)."""
    named = NAMES_UNDER.get((source, rule_id))
    if named is not None:
        return named
    try:
        return catalogue.rule(rule_id).name
    except UnknownRule:
        return rule_id


#: A rule's name under one source, where the catalogue's general name would mislead: Peel's
#: single is the first deal too, one card face up each "for what is termed a single, a term
#: denoting that merely the dealer's stake is to be played for" (p. 18), not only "the hand
#: after a hand with no loo" (issue 38).
NAMES_UNDER: dict[tuple[str, str], str] = {
    ("peel", "single"): "the single (one card each, for the dealer's stake)",
}


#: The shared cache's key of the content version.
CONTENT_VERSION_KEY = "lanterloo:content-version"
#: This process's links, by (source, game), each with the content version it was loaded under.
_loaded: dict[tuple[str, str], tuple[str, RuleLinks]] = {}

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


def forget_links() -> None:
    """Drop this process's copy of every source's links (other processes keep theirs)."""
    _loaded.clear()


def content_changed(**kwargs: Any) -> None:
    """The citations, passages or sources changed (a signal receiver): this process forgets
    its links now, and every process once the change is committed. Not before: a worker that
    saw the new version before the commit would load the old rows and keep them under it."""
    forget_links()
    transaction.on_commit(new_content_version)


def new_content_version() -> str:
    """Give the content a new version in the shared cache: every copy made under another is
    loaded again at its next use, in every process."""
    version = secrets.token_hex(8)
    shared_cache.set(CONTENT_VERSION_KEY, version, timeout=None)
    return version


def content_version() -> str:
    """The content's version in the shared cache (one cache get). A cache that has lost it
    (cleared, evicted, new) gets a new one, so that no copy made before outlives it."""
    version = shared_cache.get(CONTENT_VERSION_KEY)
    if version is None:
        version = secrets.token_hex(8)
        if not shared_cache.add(CONTENT_VERSION_KEY, version, timeout=None):
            # Another process set it first: use its version.
            version = shared_cache.get(CONTENT_VERSION_KEY, version)
    return str(version)


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
        game's section if the source has one, else its primary passage (one cache get for the
        content version; one query when this process has no copy made under that version)."""
        # The version is read before the rows: a change committed in between gives a newer
        # version, under which the rows are loaded again.
        version = content_version()
        kept = _loaded.get((source, game))
        if kept is not None and kept[0] == version:
            return kept[1]
        links = cls.load(source, game)
        _loaded[(source, game)] = (version, links)
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
        return RuleLink(
            rule_id, rule_name(rule_id, self.source), rule_page, passage_url, passage_label
        )
