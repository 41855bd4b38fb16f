"""The reading side: sources, rules, the comparison of sources, disagreements, glossary, search.

Every page is server-rendered and works without JavaScript. The rule and glossary views also
answer htmx requests with a fragment (an inline partial of their own template), which the
links inside passages open in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from games.loo.catalogue import GROUPS
from lessons.forms import CompareForm, SearchForm, SourceViewForm
from lessons.models import (
    STATUS_NAMES,
    Citation,
    GlossaryTerm,
    Passage,
    Rule,
    Source,
    option_readings,
    search_words,
    stem,
)


@require_safe
def list_sources(request: HttpRequest) -> HttpResponse:
    sources = Source.objects.all()
    return render(request, "lessons/source_list.html", {"sources": sources})


@require_safe
def show_source(request: HttpRequest, source: str) -> HttpResponse:
    """One source: the text (or, for a modern text, the places we cite) with margin notes."""
    found = get_object_or_404(Source, slug=source)
    form = SourceViewForm(request.GET)
    passages = list(found.passages.for_reading())
    return render(
        request,
        "lessons/source.html",
        {
            "source": found,
            "passages": passages,
            "mode": form.mode(),
            "notes": [p for p in passages if p.kind == "footnote"],
        },
    )


@require_safe
def list_rules(request: HttpRequest) -> HttpResponse:
    rules = list(Rule.objects.all())
    groups = [(slug, label, [r for r in rules if r.group == slug]) for slug, label in GROUPS]
    return render(request, "lessons/rule_list.html", {"groups": groups})


@require_safe
@vary_on_headers("HX-Request")
def show_rule(request: HttpRequest, rule_id: str) -> HttpResponse:
    """A rule: our explanation, a worked example, and each source's statement side by side."""
    if request.htmx:
        rule = get_object_or_404(Rule, pk=rule_id)
        return render(request, "lessons/rule.html#rule-summary", {"rule": rule})
    rule = get_object_or_404(Rule.objects.with_citations(), pk=rule_id)
    readings = rule.readings()
    return render(
        request,
        "lessons/rule.html",
        {
            "rule": rule,
            "statements": rule.statements(Source.objects.all()),
            "readings": readings,
            "disputed": [o for o in readings if o.differs],
            "example": rule.worked_example(),
        },
    )


@require_safe
def compare_sources(request: HttpRequest) -> HttpResponse:
    """Two sources aligned rule by rule: ``/compare/?a=hoffmann&b=peel``."""
    form = CompareForm(request.GET or {"a": "hoffmann", "b": "peel"})
    rows = []
    pair: list[Source] = []
    if form.is_valid():
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        by_slug = {s.slug: s for s in Source.objects.filter(slug__in=[a, b])}
        pair = [by_slug[a], by_slug[b]]
        for rule in Rule.objects.with_citations(sources=[a, b]):
            statements = rule.statements(pair)
            differs = _differ(rule, a, b)
            if differs or not form.cleaned_data["differ"]:
                rows.append((rule, statements, differs))
    return render(request, "lessons/compare.html", {"form": form, "pair": pair, "rows": rows})


def _differ(rule: Rule, a: str, b: str) -> bool:
    """Whether two sources differ on a rule: one silent and the other not, or different
    values in their presets for an option of the rule."""
    if rule.entry.source(a).silent != rule.entry.source(b).silent:
        return True
    return any(o.reading(a).value != o.reading(b).value for o in rule.readings())


@dataclass(frozen=True)
class Cell:
    text: str
    basis: str
    citation: Citation | None


@require_safe
def list_disagreements(request: HttpRequest) -> HttpResponse:
    """Every point where the sources differ, as a table (rule × source) linked to passages."""
    sources = list(Source.objects.all())
    rules = {rule.id: rule for rule in Rule.objects.with_citations()}
    first: dict[tuple[str, str], Citation] = {}
    for rule in rules.values():
        for citation in rule.citations.all():
            if citation.primary:
                first.setdefault((rule.id, citation.passage.source_id), citation)

    def link(rule_ids: tuple[str, ...], source: str) -> Citation | None:
        return next((first[(r, source)] for r in rule_ids if (r, source) in first), None)

    options = []
    for option in option_readings():
        if not option.differs:
            continue
        cells = [
            Cell(
                option.reading(s.slug).phrase,
                option.reading(s.slug).basis,
                link(option.spec.rules, s.slug),
            )
            for s in sources
        ]
        options.append((rules[option.spec.rule], option, cells))
    disputed = {rule.id for rule, _, _ in options}
    silences = []
    for rule in rules.values():
        if rule.id in disputed or not rule.unstated_by:
            continue
        cells = []
        for s in sources:
            entry = rule.entry.source(s.slug)
            cells.append(
                Cell(
                    STATUS_NAMES[entry.status],
                    "",
                    None if entry.silent else link((rule.id,), s.slug),
                )
            )
        silences.append((rule, cells))
    return render(
        request,
        "lessons/disagreements.html",
        {"sources": sources, "options": options, "silences": silences},
    )


@require_safe
def list_terms(request: HttpRequest) -> HttpResponse:
    return render(request, "lessons/glossary.html", {"terms": GlossaryTerm.objects.all()})


@require_safe
@vary_on_headers("HX-Request")
def show_term(request: HttpRequest, term: str) -> HttpResponse:
    found = get_object_or_404(
        GlossaryTerm.objects.select_related("quote_passage__source"), slug=term
    )
    if request.htmx:
        return render(request, "lessons/term.html#term-definition", {"term": found})
    passages = Passage.objects.using_term(found.slug).select_related("source")
    return render(request, "lessons/term.html", {"term": found, "passages": passages})


@dataclass(frozen=True)
class Hit:
    title: str
    url: str
    where: str
    snippet: SafeString


@require_safe
@vary_on_headers("HX-Request")
def search_content(request: HttpRequest) -> HttpResponse:
    """``/search/?q=``: the sources' passages, the rules and the glossary."""
    form = SearchForm(request.GET if "q" in request.GET else None)
    results: dict[str, list[Hit]] = {}
    if form.is_valid():
        q = form.cleaned_data["q"]
        words = search_words(q)
        results = {
            "Rules": [
                Hit(r.title, r.get_absolute_url(), "Rule", _snippet(r.plain, words))
                for r in Rule.objects.search(q)
            ],
            "Glossary": [
                Hit(t.term, t.get_absolute_url(), "Glossary", _snippet(t.plain, words))
                for t in GlossaryTerm.objects.search(q)
            ],
            "Sources": [
                Hit(
                    f"{p.source.short_title}, {p.label}",
                    p.get_absolute_url(),
                    p.source.short_title,
                    _snippet(p.plain, words),
                )
                for p in Passage.objects.search(q).select_related("source")
            ],
        }
    context = {
        "form": form,
        "results": results,
        "count": sum(len(hits) for hits in results.values()),
    }
    template = "lessons/search.html#search-results" if request.htmx else "lessons/search.html"
    return render(request, template, context)


def _snippet(text: str, words: list[str], width: int = 90) -> SafeString:
    """A piece of ``text`` around the first word found, with the words found marked."""
    pattern = (
        re.compile(r"\b(" + "|".join(re.escape(stem(w)) for w in words) + r")\w*", re.I)
        if words
        else None
    )
    flat = " ".join(text.split())
    match = pattern.search(flat) if pattern else None
    start = max(0, match.start() - width) if match else 0
    piece = flat[start : start + 2 * width + 40]
    if start > 0:
        piece = "…" + piece[piece.find(" ") + 1 :]
    if start + 2 * width + 40 < len(flat):
        piece = piece[: piece.rfind(" ")] + "…"
    html = str(escape(piece))
    if pattern:
        html = pattern.sub(lambda m: f"<mark>{m.group()}</mark>", html)
    return mark_safe(html)  # the text was escaped; only <mark> is added
