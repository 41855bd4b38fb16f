"""Where the reading side's rendered markup links to, and the course's lessons it may link.

:func:`make_resolver` resolves ``[[term]]``, ``[[rule:id]]``, ``[[source:id#key]]`` and
``[[lesson:id]]`` over what exists. The lessons of the course are seen here as the course
registers them (:func:`provide_lessons`, at the course's ``ready()``), so that the reading side
never imports the app built on it (STYLE.md 31).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.urls import reverse

from lessons import markup


def term_link(slug: str) -> markup.Link:
    url = reverse("lessons:term-detail", args=[slug])
    return markup.Link(url, url, "term")


def rule_link(rule_id: str) -> markup.Link:
    url = reverse("lessons:rule-detail", args=[rule_id])
    return markup.Link(url, url, "rule")


def passage_link(source: str, key: str) -> markup.Link:
    url = reverse("lessons:source-detail", args=[source])
    return markup.Link(f"{url}#{key}" if key else url, None, "passage")


def lesson_link(slug: str) -> markup.Link:
    return markup.Link(reverse("course:lesson", args=[slug]), None, "lesson")


# -- the course's lessons ---------------------------------------------------------------------

#: A lesson of the course as the reading side sees it: (id, title, the rule ids it teaches).
LessonRow = tuple[str, str, list[str]]
#: Where the lessons come from, in course order: the course (``lessons.course``) registers it
#: at ``ready()``, so that the reading side never imports the app built on it (STYLE.md 31).
_lessons: list[Callable[[], Iterable[LessonRow]]] = []


def provide_lessons(find: Callable[[], Iterable[LessonRow]]) -> None:
    """Register ``find()``, every lesson of the course in order (the course calls this)."""
    _lessons[:] = [find]


def course_lessons() -> list[LessonRow]:
    """Every lesson of the course, in order (one query; none without the course)."""
    return list(_lessons[0]()) if _lessons else []


@dataclass(frozen=True)
class LessonLink:
    title: str
    url: str


def make_resolver(
    forms: dict[str, str],
    rule_ids: Iterable[str],
    passages: set[tuple[str, str]],
    sources: set[str],
    source: str = "",
    lessons: Mapping[str, str] | None = None,
) -> markup.Resolver:
    """A resolver over known terms (form → slug), rules, passages, sources and lessons
    (id → title)."""
    known_rules = frozenset(rule_ids)
    titles = dict(lessons or {})

    def term(words: str) -> tuple[str, markup.Link] | None:
        slug = forms.get(words.strip().lower())
        return (slug, term_link(slug)) if slug else None

    def rule(rule_id: str) -> markup.Link | None:
        return rule_link(rule_id) if rule_id in known_rules else None

    def passage(source_id: str, key: str) -> markup.Link | None:
        if source_id not in sources or (key and (source_id, key) not in passages):
            return None
        return passage_link(source_id, key)

    def lesson(slug: str) -> tuple[markup.Link, str] | None:
        return (lesson_link(slug), titles[slug]) if slug in titles else None

    return markup.Resolver(
        term=term,
        rule=rule,
        passage=passage,
        source=source,
        note_exists=lambda n: (source, f"fn-{n}") in passages,
        lesson=lesson,
    )
