"""The reading side: sources, rules, the comparison of sources, disagreements, glossary, search
and the timeline of the game.

The sources are the five of the rule catalogue, each followed by a rule set, and the
witnesses, which no rule set follows: every page that lists sources shows the five first and
the witnesses apart, and a witness's statements come from our witnesses' catalogue.

Every page is server-rendered and works without JavaScript. The rule and glossary views also
answer htmx requests with a fragment (an inline partial of their own template), which the
links inside passages open in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from games.http import HtmxHttpRequest
from games.loo.catalogue import GROUPS
from lessons.edition import apparatus, changelog, citable, cite
from lessons.forms import CompareForm, SearchForm, SourceViewForm
from lessons.models import (
    STATUS_NAMES,
    Citation,
    GlossaryTerm,
    Passage,
    Rule,
    Source,
    Statement,
    TimelineEntry,
    TimelineQuote,
    WitnessStatus,
)
from lessons.readings import option_readings
from lessons.search import search_words, stem


def _split(sources: list[Source]) -> tuple[list[Source], list[Source]]:
    """The five sources of the rule sets, and the witnesses."""
    return [s for s in sources if not s.witness], [s for s in sources if s.witness]


@require_safe
def list_sources(request: HtmxHttpRequest) -> HttpResponse:
    rule_sets, witnesses = _split(list(Source.objects.all()))
    return render(
        request, "lessons/source_list.html", {"sources": rule_sets, "witnesses": witnesses}
    )


@require_safe
def show_source(request: HtmxHttpRequest, source: str) -> HttpResponse:
    """One source: the text (or, for a modern text, the places we cite) with margin notes."""
    found = get_object_or_404(Source, slug=source)
    form = SourceViewForm(request.GET)
    passages = list(found.passages.for_reading())
    for p in passages:
        # "Cite this" with the passage's permalink as a reader would copy it.
        p.cite = (
            cite(found, p, request.build_absolute_uri(p.get_absolute_url())) if citable(p) else None
        )
    return render(
        request,
        "lessons/source.html",
        {
            "source": found,
            "passages": passages,
            "mode": form.mode(),
            "notes": [p for p in passages if p.kind == "footnote"],
            "apparatus": apparatus(passages),
            "changes": changelog(found, passages),
        },
    )


@require_safe
def list_rules(request: HtmxHttpRequest) -> HttpResponse:
    rules = list(Rule.objects.all())
    groups = [(slug, label, [r for r in rules if r.group == slug]) for slug, label in GROUPS]
    return render(request, "lessons/rule_list.html", {"groups": groups})


@require_safe
@vary_on_headers("HX-Request")
def show_rule(request: HtmxHttpRequest, rule_id: str) -> HttpResponse:
    """A rule: our explanation, the lessons that teach it, a worked example, and each source's
    statement side by side."""
    if request.htmx:
        rule = get_object_or_404(Rule, pk=rule_id)
        return render(request, "lessons/rule.html#rule-summary", {"rule": rule})
    rule = get_object_or_404(Rule.objects.with_citations().with_witnesses(), pk=rule_id)
    readings = rule.readings()
    rule_sets, witnesses = _split(list(Source.objects.all()))
    testimony = rule.statements(witnesses)
    return render(
        request,
        "lessons/rule.html",
        {
            "rule": rule,
            "statements": rule.statements(rule_sets),
            "witnesses": [st for st in testimony if not st.entry.silent],
            "differing": [st for st in testimony if st.entry.status == WitnessStatus.DIFFERS],
            "silent_witnesses": [st.source for st in testimony if st.entry.silent],
            "readings": readings,
            "disputed": [o for o in readings if o.differs],
            "example": rule.worked_example(),
            "taught_in": rule.taught_in(),
        },
    )


@require_safe
def compare_sources(request: HtmxHttpRequest) -> HttpResponse:
    """Two sources aligned rule by rule: ``/compare/?a=hoffmann&b=peel``. Either may be a
    witness (``?a=hoffmann&b=enquire-within``)."""
    form = CompareForm(request.GET or {"a": "hoffmann", "b": "peel"})
    sources = list(Source.objects.all())
    rule_sets, witnesses = _split(sources)
    # The five are offered as the form offers them; the witnesses are the loaded ones.
    choices = [
        ("Sources of the rule sets", list(form.fields["a"].choices)),  # type: ignore[attr-defined]
        ("Witnesses, which no rule set follows", [(s.slug, s.short_title) for s in witnesses]),
    ]
    for name in ("a", "b"):
        form.fields[name].choices = choices  # type: ignore[attr-defined]
    rows = []
    pair: list[Source] = []
    if form.is_valid():
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        by_slug = {s.slug: s for s in sources}
        # (Both are known sources; before the content is loaded neither has a row.)
        pair = [by_slug[a], by_slug[b]] if a in by_slug and b in by_slug else []
        found = Rule.objects.with_citations(sources=[a, b])
        if any(s.witness for s in pair):
            found = found.with_witnesses()
        for rule in found if pair else ():
            statements = rule.statements(pair)
            differs = rule.differs_between(*pair)
            if differs or not form.cleaned_data["differ"]:
                rows.append((rule, statements, differs))
    return render(request, "lessons/compare.html", {"form": form, "pair": pair, "rows": rows})


@dataclass(frozen=True)
class Cell:
    text: str
    basis: str
    citation: Citation | None


def _witness_cell(rules: dict[str, Rule], rule_ids: tuple[str, ...], witness: Source) -> Cell:
    """What a witness says of the first of ``rule_ids`` it speaks to, linked to the passage it
    is quoted from; or that it is silent."""
    for rule_id in rule_ids:
        said = rules[rule_id].witness_statement(witness.slug) if rule_id in rules else None
        if said is not None:
            text = said.says or said.status_name
            return Cell(text, f"witness-{said.status}", rules[rule_id].first_citation(witness.slug))
    return Cell("Silent", "witness-silent", None)


@require_safe
def list_disagreements(request: HtmxHttpRequest) -> HttpResponse:
    """Every point where the sources differ, as a table (rule × source) linked to passages,
    with what the witnesses say beside the five; then where a witness gives another rule."""
    sources, witnesses = _split(list(Source.objects.all()))
    rules = {rule.id: rule for rule in Rule.objects.with_citations().with_witnesses()}

    def link(rule_ids: tuple[str, ...], source: str) -> Citation | None:
        """The passage an option's value rests on: the first of its rules the source is
        quoted for."""
        found = (rules[r].first_citation(source) for r in rule_ids if r in rules)
        return next((c for c in found if c is not None), None)

    options = []
    for option in option_readings():
        # (Before the content is loaded there are no rule rows: nothing to list.)
        if not option.differs or option.spec.rule not in rules:
            continue
        cells = [
            Cell(
                option.reading(s.slug).phrase,
                option.reading(s.slug).basis,
                link(option.spec.rules, s.slug),
            )
            for s in sources
        ]
        cells += [_witness_cell(rules, option.spec.rules, w) for w in witnesses]
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
        cells += [_witness_cell(rules, (rule.id,), w) for w in witnesses]
        silences.append((rule, cells))
    otherwise: list[tuple[Rule, Statement]] = [
        (rule, statement)
        for rule in rules.values()
        for statement in rule.statements(witnesses)
        if statement.entry.status == WitnessStatus.DIFFERS
    ]
    return render(
        request,
        "lessons/disagreements.html",
        {
            "sources": sources,
            "witnesses": witnesses,
            "options": options,
            "silences": silences,
            "otherwise": otherwise,
        },
    )


@require_safe
def show_timeline(request: HtmxHttpRequest) -> HttpResponse:
    """The history of the game, 1674 to 1911, step by step, each step quoting its passages."""
    quotes = TimelineQuote.objects.select_related("passage__source").order_by("position")
    entries = TimelineEntry.objects.prefetch_related(Prefetch("quotes", queryset=quotes))
    return render(request, "lessons/timeline.html", {"entries": entries})


@require_safe
def list_terms(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "lessons/glossary.html", {"terms": GlossaryTerm.objects.all()})


@require_safe
@vary_on_headers("HX-Request")
def show_term(request: HtmxHttpRequest, term: str) -> HttpResponse:
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
    snippet: SafeString


@require_safe
@vary_on_headers("HX-Request")
def search_content(request: HtmxHttpRequest) -> HttpResponse:
    """``/search/?q=``: the sources' passages, the rules and the glossary."""
    form = SearchForm(request.GET if "q" in request.GET else None)
    results: dict[str, list[Hit]] = {}
    if form.is_valid():
        q = form.cleaned_data["q"]
        words = search_words(q)
        results = {
            "Rules": [
                Hit(r.title, r.get_absolute_url(), _snippet(r.plain, words))
                for r in Rule.objects.search(q)
            ],
            "Glossary": [
                Hit(t.term, t.get_absolute_url(), _snippet(t.plain, words))
                for t in GlossaryTerm.objects.search(q)
            ],
            "Sources": [
                Hit(
                    f"{p.source.short_title}, {p.label}",
                    p.get_absolute_url(),
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
    flat = " ".join(text.split())
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(stem(w)) for w in words) + r")\w*", re.I)
    match = pattern.search(flat)
    start = max(0, match.start() - width) if match else 0
    end = start + 2 * width + 40
    piece = flat[start:end]
    if start > 0:
        piece = "…" + piece[piece.find(" ") + 1 :]
    if end < len(flat):
        piece = piece[: piece.rfind(" ")] + "…"
    parts: list[str] = []
    position = 0
    for found in pattern.finditer(piece):
        parts.append(escape(piece[position : found.start()]))
        parts.append(f"<mark>{escape(found.group())}</mark>")
        position = found.end()
    parts.append(escape(piece[position:]))
    return mark_safe("".join(parts))  # every piece of the text is escaped
