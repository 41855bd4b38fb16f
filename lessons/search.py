"""Searching the reading side's texts: the ``plain`` text of sources' passages, rules and
glossary terms, with PostgreSQL's full-text search or, elsewhere, a rough stemming."""

from __future__ import annotations

import re
from typing import Any

from django.db import connections, models


class SearchQuerySet(models.QuerySet[Any]):
    """Search in the ``plain`` text: PostgreSQL's full-text search when the database is
    PostgreSQL; elsewhere (SQLite) every word of the query must begin a word of the text,
    after the same rough stemming, so that simple queries find the same rows either way."""

    def search(self, query: str) -> SearchQuerySet:
        if connections[self.db].vendor == "postgresql":
            from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

            vector = SearchVector("plain", config="english")
            wanted = SearchQuery(query, config="english", search_type="websearch")
            return (
                self.annotate(document=vector)
                .filter(document=wanted)
                .annotate(rank=SearchRank(vector, wanted))
                .order_by("-rank", *self.model._meta.ordering)
            )
        found = self
        for word in search_words(query):
            found = found.filter(plain__iregex=rf"\b{re.escape(stem(word))}")
        return found


def search_words(query: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W_]+", query)]


def stem(word: str) -> str:
    """A rough English stem (revoking → revok, looed → loo, trumps → trump)."""
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word
