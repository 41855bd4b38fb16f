"""Sources, their passages, the rules they state, the glossary and the timeline.

The rule catalogue of the engine (``games.loo.catalogue``) is the list of rules: a
:class:`Rule` row holds what the reading side adds to a catalogue entry (our plain explanation
and a worked example) and a copy of its name and statement for search. The five sources of
the catalogue are each followed by a rule set of the engine; the other sources are
*witnesses*, texts to read and compare that no rule set follows: what they say about a rule is
a :class:`WitnessStatement` of our own witnesses' catalogue (``content/witnesses.txt``).
Everything here is loaded from the files in ``content/`` by ``manage.py loadcontent``; editors
may also correct the texts in the admin, and the HTML of editor text is rendered on save
(STYLE.md 5). Where rendered markup links to is in :mod:`lessons.links`, searching the texts in
:mod:`lessons.search`, and how the rule sets set the engine's options in :mod:`lessons.readings`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from games.loo import catalogue
from games.loo.errors import LooError
from games.loo.rulesets import option_rule
from lessons import markup
from lessons.examples import WorkedExample, worked_example
from lessons.links import (
    LessonLink,
    course_lessons,
    lesson_link,
    make_resolver,
    passage_link,
    rule_link,
    term_link,
)
from lessons.readings import OptionReadings, option_readings
from lessons.search import SearchQuerySet


def resolver_from_database(source: str = "") -> markup.Resolver:
    """A resolver for rendering one object in the admin: looks up what exists (4 queries)."""
    forms = GlossaryTerm.form_index(GlossaryTerm.objects.values_list("slug", "forms"))
    passages = set(Passage.objects.values_list("source_id", "key"))
    sources = set(Source.objects.values_list("slug", flat=True))
    lessons = {slug: title for slug, title, _ in course_lessons()}
    return make_resolver(forms, catalogue.rule_ids(), passages, sources, source, lessons)


class EditorText(models.Model):
    """A model with editor markup: its HTML is rendered on save (STYLE.md 5), and a broken
    reference is a validation error in the admin."""

    class Meta:
        abstract = True

    def render(self, resolver: markup.Resolver) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def clean(self) -> None:
        try:
            self.render(resolver_from_database(getattr(self, "source_id", "") or ""))
        except markup.MarkupError as error:
            raise ValidationError(str(error)) from None


# -- sources and passages -------------------------------------------------------------------


class Licence(models.TextChoices):
    PUBLIC_DOMAIN = "public-domain", "Public domain: shown in full"
    COPYRIGHTED = "copyrighted", "Modern and copyrighted: short quotations only"


class SourceRole(models.TextChoices):
    RULE_SET = "rule-set", "A rule set follows it"
    WITNESS = "witness", "A witness: read and compared, not a rule set"


class SourceQuerySet(models.QuerySet["Source"]):
    def rule_sets(self) -> SourceQuerySet:
        """The five sources of the catalogue, each followed by a rule set of the engine."""
        return self.filter(role=SourceRole.RULE_SET)

    def witnesses(self) -> SourceQuerySet:
        """The other texts: read and compared, followed by no rule set."""
        return self.filter(role=SourceRole.WITNESS)


class Source(EditorText):
    """A text on Loo, with its bibliographic record and provenance: one of the five sources
    of the rule catalogue (each followed by a rule set), or a witness."""

    slug = models.SlugField(
        primary_key=True, help_text="The preset id (hoffmann, peel, …), or a witness's id"
    )
    role = models.CharField(
        max_length=10, choices=SourceRole.choices, default=SourceRole.RULE_SET, editable=False
    )
    position = models.PositiveSmallIntegerField(default=0)
    short_title = models.CharField(max_length=80, help_text="As cited on the site: Peel (1891)")
    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200)
    year = models.CharField(max_length=80)
    edition = models.CharField(max_length=200, blank=True)
    publisher = models.CharField(max_length=200, blank=True)
    extent = models.CharField(max_length=200, blank=True, help_text="Chapter, pages")
    link = models.URLField()
    licence = models.CharField(max_length=20, choices=Licence.choices)
    licence_note = models.CharField(max_length=300, blank=True)
    completeness = models.CharField(
        max_length=400, blank=True, help_text="How much of the text our copy holds"
    )
    #: [where, what it gave] for each copy our text was taken from: where is an address
    #: (shown as a link when it is a whole one) or a description.
    copies = models.JSONField(default=list, blank=True)
    about = models.TextField(help_text="Our description (for modern texts: our summary).")
    about_html = models.TextField(editable=False, default="")
    editorial_note = models.TextField(help_text="What we corrected, restored or left out.")
    editorial_note_html = models.TextField(editable=False, default="")
    #: [wrong, right] pairs: the transcription faults corrected in the text, also applied to
    #: the catalogue's quotations (which keep the faults) before they are looked up.
    corrections = models.JSONField(default=list, blank=True)
    #: How a citation names the author (``Cotton, Charles``): ``cite-author:`` in the file.
    cite_author = models.CharField(max_length=200, blank=True)
    #: The year a citation gives (``1674``, ``n.d.``): ``cite-year:`` in the file.
    cite_year = models.CharField(max_length=40, blank=True)
    #: [date, passage key or "", what changed] for each editorial change, oldest first: the
    #: ``change:`` lines of the source's file (lessons.edition).
    changelog = models.JSONField(default=list, blank=True)

    objects = SourceQuerySet.as_manager()

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.short_title

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database(self.slug))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("lessons:source-detail", args=[self.slug])

    @property
    def modern(self) -> bool:
        return self.licence != Licence.PUBLIC_DOMAIN

    @property
    def witness(self) -> bool:
        """A text to read and compare that no rule set follows."""
        return self.role == SourceRole.WITNESS

    @property
    def copy_links(self) -> list[tuple[str, str, bool]]:
        """(where, what it gave, whether ``where`` is a whole address to link to)."""
        return [(where, what, is_address(where)) for where, what in self.copies]

    def render(self, resolver: markup.Resolver) -> None:
        self.about_html = markup.render(self.about, resolver, slot_prefix=f"{self.slug}-about").html
        self.editorial_note_html = markup.render(
            self.editorial_note, resolver, slot_prefix=f"{self.slug}-note"
        ).html

    def correct(self, text: str) -> str:
        """``text`` with this source's known transcription faults corrected."""
        return apply_corrections(text, self.corrections)


def is_address(text: str) -> bool:
    """Whether ``text`` is a whole web address (not one shortened with "...")."""
    return bool(re.fullmatch(r"https?://[^\s.]+\.[^\s]+", text)) and "..." not in text


def apply_corrections(text: str, corrections: Iterable[Iterable[str]]) -> str:
    for wrong, right in corrections:
        text = text.replace(wrong, right)
    return text


class PassageKind(models.TextChoices):
    HEADING = "heading", "Heading"
    PARAGRAPH = "paragraph", "Paragraph"
    LAW = "law", "Law"
    SENTENCE = "sentence", "Sentence"
    FOOTNOTE = "footnote", "Footnote"
    QUOTATION = "quotation", "Short quotation (modern text)"
    FRAGMENT = "fragment", "Fragment of a lost text, as a later book quotes it"
    DERIVED = "derived", "Later text derived from the source (not its words)"
    GAP = "gap", "A gap in our copy (what is missing, in our words)"


class PassageQuerySet(SearchQuerySet):
    def using_term(self, slug: str) -> PassageQuerySet:
        return self.filter(term_slugs__contains=f" {slug} ")

    def for_reading(self) -> PassageQuerySet:
        """With the rules each passage states, ready for margin notes (2 queries)."""
        return self.prefetch_related(
            models.Prefetch(
                "citations",
                queryset=Citation.objects.select_related("rule").order_by("rule__position"),
            )
        )


class Passage(EditorText):
    """A paragraph, law, sentence, heading or note of a source: the unit that is cited.

    Its ``key`` is stable and is the fragment of its permalink: ``/sources/hoffmann/#law-13``.
    For a modern text a passage is a place in it (``3c-play``): our summary of that place in
    ``text`` and, optionally, one short quotation (under 50 words) in ``quotation``.
    """

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="passages")
    key = models.SlugField(max_length=40)
    position = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=12, choices=PassageKind.choices)
    label = models.CharField(max_length=60, help_text="How it is cited: ¶2, Law 13, s. 19, p. 21")
    page = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Page it starts on")
    last_page = models.PositiveSmallIntegerField(null=True, blank=True)
    editorial = models.BooleanField(default=False, help_text="Restored or written by us")
    text = models.TextField(help_text="The text in content markup (modern texts: our summary)")
    quotation = models.TextField(blank=True, help_text="Modern texts only: a short quotation")
    html = models.TextField(editable=False, default="")
    plain = models.TextField(editable=False, default="")
    #: [slug, words] for each glossary term marked in the text.
    terms = models.JSONField(editable=False, default=list)
    #: The same slugs as " miss pool looed ", to find a term's passages in any database.
    term_slugs = models.CharField(max_length=1000, editable=False, default="")
    #: The ids this passage was once cited by (``formerly:``): their permalinks still open it.
    former_keys = models.JSONField(default=list, blank=True)

    objects = PassageQuerySet.as_manager()

    class Meta:
        ordering = ["source__position", "position"]
        constraints = [
            models.UniqueConstraint(fields=["source", "key"], name="unique_passage_key"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} {self.label}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database(self.source_id))
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return passage_link(self.source_id, self.key).url

    @property
    def pages(self) -> str:
        if self.page is None:
            return ""
        if self.last_page and self.last_page != self.page:
            return f"pp. {self.page}–{self.last_page}"
        return f"p. {self.page}"

    def render(self, resolver: markup.Resolver) -> None:
        rendered = markup.render(
            self.text,
            resolver,
            slot_prefix=f"{self.source_id}-{self.key}",
            block=self.kind != PassageKind.HEADING,
            apparatus_prefix=self.key,
        )
        self.html = rendered.html
        self.plain = " ".join(filter(None, [self.quotation, rendered.plain]))
        self.terms = [list(pair) for pair in rendered.terms]
        self.term_slugs = "".join(f" {slug} " for slug, _ in rendered.terms)

    @property
    def stated_rules(self) -> list[Rule]:
        """The rules this passage states, once each (needs ``for_reading()``). A passage the
        catalogue quotes for a rule on which its source is silent does not state it; one an
        editor marks for a rule (a ``rules:`` line), or a witness's passage quoted in the
        witnesses' catalogue, does."""
        seen: dict[str, Rule] = {}
        for citation in self.citations.all():
            if citation.origin != CitationOrigin.CATALOGUE or not (
                citation.rule.entry.source(self.source_id).silent
            ):
                seen.setdefault(citation.rule_id, citation.rule)
        return list(seen.values())


# -- rules ----------------------------------------------------------------------------------


class RuleQuerySet(SearchQuerySet):
    def with_citations(self, sources: Iterable[str] | None = None) -> RuleQuerySet:
        """With each rule's citations and their passages (2 queries in all)."""
        citations = Citation.objects.select_related("passage").order_by(
            "passage__source__position", "position", "passage__position"
        )
        if sources is not None:
            citations = citations.filter(passage__source__in=list(sources))
        return self.prefetch_related(models.Prefetch("citations", queryset=citations))

    def with_witnesses(self) -> RuleQuerySet:
        """With what the witnesses say of each rule (1 query)."""
        return self.prefetch_related(
            models.Prefetch(
                "witness_statements",
                queryset=WitnessStatement.objects.order_by("source__position", "position"),
            )
        )


class Rule(EditorText):
    """A rule of the engine's catalogue, as the reading side presents it."""

    id = models.SlugField(primary_key=True, max_length=60, help_text="The catalogue's rule id")
    position = models.PositiveSmallIntegerField(default=0)
    group = models.CharField(max_length=40, editable=False)
    name = models.CharField(max_length=200, editable=False)
    statement = models.TextField(editable=False)
    explanation = models.TextField(help_text="Our plain explanation, in content markup")
    explanation_html = models.TextField(editable=False, default="")
    example_title = models.CharField(max_length=200, blank=True)
    #: A worked example for the engine (``lessons.examples``): a position to play from
    #: (RULES.md 4.1), a trick (4.2), flushes (4.3) or a whole hand step by step.
    example = models.JSONField(
        null=True, blank=True, help_text="The JSON of a worked example (see content/rules.txt)"
    )
    no_example = models.TextField(
        blank=True, help_text="Why this rule has no worked example (when it has none)"
    )
    plain = models.TextField(editable=False, default="")

    objects = RuleQuerySet.as_manager()

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.id}: {self.name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database())
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return rule_link(self.id).url

    @cached_property
    def entry(self) -> catalogue.Rule:
        """The catalogue's entry: statement and what each source says."""
        return catalogue.rule(self.id)

    @property
    def title(self) -> str:
        return self.name[:1].upper() + self.name[1:]

    def taught_in(self) -> list[LessonLink]:
        """The lessons of the course that teach this rule (their ``teaches:``), in order."""
        return [
            LessonLink(title, lesson_link(slug).url)
            for slug, title, teaches in course_lessons()
            if self.id in teaches
        ]

    def render(self, resolver: markup.Resolver) -> None:
        rendered = markup.render(self.explanation, resolver, slot_prefix=f"rule-{self.id}")
        self.explanation_html = rendered.html
        statement = re.sub(r"`([^`]+)`", _catalogue_word, self.statement)
        self.plain = "\n\n".join([self.name, statement, rendered.plain])

    def clean(self) -> None:
        super().clean()
        if self.example and self.no_example:
            raise ValidationError(
                {"no_example": "This rule has a worked example: leave this empty."}
            )
        if not self.example and not self.no_example.strip():
            raise ValidationError(
                {"example": "Give a worked example, or say why there is none (below)."}
            )
        if self.example:
            try:
                self.worked_example()
            except (LooError, KeyError, TypeError, ValueError) as error:
                raise ValidationError({"example": str(error)}) from None

    def statements(self, sources: Iterable[Source]) -> list[Statement]:
        """What each source says, with the passages cited (needs ``with_citations()``, and
        ``with_witnesses()`` for witnesses). A witness that the witnesses' catalogue does not
        list for this rule is silent on it."""
        statements = []
        for source in sources:
            mine = [c for c in self.citations.all() if c.passage.source_id == source.slug]
            said = self.witness_statement(source.slug) if source.witness else None
            statements.append(
                Statement(
                    source,
                    self.entry_of(source),
                    [c for c in mine if c.primary],
                    [c for c in mine if not c.primary and c.origin != CitationOrigin.EDITOR],
                    [c for c in mine if c.origin == CitationOrigin.EDITOR],
                    said,
                )
            )
        return statements

    def witness_statement(self, source: str) -> WitnessStatement | None:
        """What the witness ``source`` says of this rule (needs ``with_witnesses()``)."""
        return next((w for w in self.witness_statements.all() if w.source_id == source), None)

    def entry_of(self, source: Source) -> catalogue.SourceStatement:
        """What ``source`` says of this rule, in the catalogue's terms: the catalogue's entry
        for the five, the witnesses' catalogue for a witness (needs ``with_witnesses()``)."""
        if not source.witness:
            return self.entry.source(source.slug)
        said = self.witness_statement(source.slug)
        if said is None:
            return catalogue.SourceStatement(
                source.slug, "silent", "Nothing on this rule in our copy of it.", ()
            )
        return catalogue.SourceStatement(source.slug, said.status, said.says, ())

    def readings(self) -> list[OptionReadings]:
        """The engine's options for this rule and how each preset sets them."""
        return option_readings(self.id)

    def differs_between(self, a: Source, b: Source) -> bool:
        """Whether two sources differ on this rule: one states it and the other does not,
        a witness says otherwise, or the rule sets that follow them set one of its options
        differently (needs ``with_witnesses()`` for witnesses)."""
        first, second = self.entry_of(a), self.entry_of(b)
        if first.silent != second.silent:
            return True
        if WitnessStatus.DIFFERS in (first.status, second.status) and not first.silent:
            return True
        if a.witness or b.witness:
            return False
        return any(o.reading(a.slug).value != o.reading(b.slug).value for o in self.readings())

    def first_citation(self, source: str) -> Citation | None:
        """The first passage of ``source`` the catalogue quotes for this rule (needs
        ``with_citations()``)."""
        return next(
            (c for c in self.citations.all() if c.primary and c.passage.source_id == source),
            None,
        )

    @property
    def unstated_by(self) -> list[str]:
        """The sources that do not state this rule outright (silent, or only implying it)."""
        return [s.source for s in self.entry.sources if s.status != "states"]

    def worked_example(self) -> WorkedExample | None:
        """The example worked out by the engine under each rule set (pure: no queries)."""
        if not self.example:
            return None
        return worked_example(self.example)


def _catalogue_word(match: re.Match[str]) -> str:
    """A `mark` of the catalogue's text in words: a rule's name (an option's rule's), or the
    word itself."""
    word = match.group(1)
    rule_id = word if word in catalogue.rule_ids() else option_rule(word)
    return catalogue.rule(rule_id).name if rule_id else word


class WitnessStatus(models.TextChoices):
    """What a witness says of a rule (``content/witnesses.txt``); where it says nothing, it
    has no statement and is silent."""

    STATES = "states", "States it"
    IMPLIED = "implied", "Implies it"
    DIFFERS = "differs", "Says otherwise"


STATUS_NAMES = {
    "states": "States it",
    "implied": "Implies it",
    "subsumed": "Covered by another of its rules",
    "silent": "Silent",
    "refers": "Silent: refers to a passage missing from our copy",
    "differs": "Says otherwise",
}


@dataclass(frozen=True)
class Statement:
    """What one source says about one rule: the catalogue's account (for a witness, the
    witnesses' catalogue's) and our passages: those quoted, the others the catalogue names,
    and those an editor marks as speaking to the rule (``rules:`` lines)."""

    source: Source
    entry: catalogue.SourceStatement
    citations: list[Citation]
    see_also: list[Citation]
    marked: list[Citation] = field(default_factory=list)
    witness: WitnessStatement | None = None

    @property
    def status_name(self) -> str:
        return STATUS_NAMES[self.entry.status]


class CitationOrigin(models.TextChoices):
    CATALOGUE = "catalogue", "The rule catalogue (RULES.md)"
    EDITOR = "editor", "An editor's annotation in the content files"
    WITNESS = "witness", "The witnesses' catalogue (content/witnesses.txt)"


class Citation(models.Model):
    """A passage that states a rule: from the catalogue's citations, or an editor's note.

    One catalogue citation may touch several passages (``s. 24–25``); ``primary`` marks the
    one its quotation is linked to. ``quote`` is the quotation as the passage has it, with
    the transcription faults corrected.
    """

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="citations")
    passage = models.ForeignKey(Passage, on_delete=models.CASCADE, related_name="citations")
    position = models.PositiveSmallIntegerField(default=0)
    origin = models.CharField(max_length=10, choices=CitationOrigin.choices)
    primary = models.BooleanField(default=True)
    locator = models.CharField(max_length=80, blank=True)
    quote = models.TextField(blank=True)

    class Meta:
        ordering = ["rule__position", "passage__source__position", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rule", "passage", "position"], name="unique_citation"),
        ]

    def __str__(self) -> str:
        return f"{self.rule_id} ← {self.passage}"


class WitnessStatement(EditorText):
    """What a witness (a source no rule set follows) says of a rule, from our witnesses'
    catalogue: a status, a few words for tables, and a note. The quotations are
    :class:`Citation` rows of origin ``witness``, each checked word for word against the
    witness's passage when the content is loaded."""

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="witness_statements")
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=WitnessStatus.choices)
    says = models.CharField(max_length=200, blank=True, help_text="In a few words, for tables")
    note = models.TextField(blank=True, help_text="Our note, in content markup")
    note_html = models.TextField(editable=False, default="")

    class Meta:
        ordering = ["rule__position", "source__position"]
        constraints = [
            models.UniqueConstraint(fields=["rule", "source"], name="unique_witness_statement"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} on {self.rule_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database(self.source_id))
        super().save(*args, **kwargs)

    def render(self, resolver: markup.Resolver) -> None:
        self.note_html = markup.render(
            self.note, resolver, slot_prefix=f"witness-{self.source_id}-{self.rule_id}"
        ).html

    @property
    def status_name(self) -> str:
        return STATUS_NAMES[self.status]


# -- the timeline ---------------------------------------------------------------------------


class TimelineEntry(EditorText):
    """One step of the history of the game (``content/timeline.txt``): a date, a title, our
    account, and the passages it rests on, quoted word for word."""

    key = models.SlugField(max_length=60, unique=True)
    position = models.PositiveSmallIntegerField(default=0)
    date = models.CharField(max_length=60, help_text="As shown: 1674, c. 1800, 1894")
    title = models.CharField(max_length=200)
    text = models.TextField(help_text="Our account, in content markup")
    html = models.TextField(editable=False, default="")

    class Meta:
        ordering = ["position"]
        verbose_name_plural = "timeline entries"

    def __str__(self) -> str:
        return f"{self.date}: {self.title}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database())
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return f"{reverse('lessons:timeline')}#{self.key}"

    def render(self, resolver: markup.Resolver) -> None:
        self.html = markup.render(self.text, resolver, slot_prefix=f"timeline-{self.key}").html


class TimelineQuote(models.Model):
    """A passage a step of the timeline quotes, with the words quoted."""

    entry = models.ForeignKey(TimelineEntry, on_delete=models.CASCADE, related_name="quotes")
    passage = models.ForeignKey(Passage, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    quote = models.TextField()

    class Meta:
        ordering = ["entry__position", "position"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "position"], name="unique_timeline_quote"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.key} ← {self.passage}"


# -- glossary -------------------------------------------------------------------------------


class GlossaryTerm(EditorText):
    """A word of the game, with a plain definition and a quotation from a period source."""

    slug = models.SlugField(primary_key=True, max_length=60)
    position = models.PositiveSmallIntegerField(default=0)
    term = models.CharField(max_length=80, help_text="The headword")
    also = models.CharField(max_length=200, blank=True, help_text="Other names, shown")
    forms = models.CharField(
        max_length=400, help_text="Words that [[…]] in a text may use for it, separated by ;"
    )
    definition = models.TextField(help_text="A plain definition, in content markup")
    definition_html = models.TextField(editable=False, default="")
    quote_passage = models.ForeignKey(
        Passage, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    quote = models.TextField(help_text="Words of the passage, as printed")
    rules = models.JSONField(default=list, blank=True, help_text="Related rule ids")
    plain = models.TextField(editable=False, default="")

    objects = SearchQuerySet.as_manager()

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.term

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.render(resolver_from_database())
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return term_link(self.slug).url

    @staticmethod
    def form_index(rows: Iterable[tuple[str, str]]) -> dict[str, str]:
        """form (lower case) → slug, from (slug, forms) rows; the slug is a form too."""
        index: dict[str, str] = {}
        for slug, forms in rows:
            index[slug] = slug
            for form in forms.split(";"):
                if form.strip():
                    index.setdefault(form.strip().lower(), slug)
        return index

    @property
    def summary(self) -> str:
        """The definition's first paragraph as plain text, for the in-place disclosure."""
        return markup.plain_text(self.definition).split("\n\n")[0]

    def render(self, resolver: markup.Resolver) -> None:
        rendered = markup.render(self.definition, resolver, slot_prefix=f"term-{self.slug}")
        self.definition_html = rendered.html
        self.plain = "\n\n".join([self.term, self.also, rendered.plain, self.quote])

    def clean(self) -> None:
        super().clean()
        if (
            self.quote_passage
            and markup.find_quotation(self.quote, self.quote_passage.plain) is None
        ):
            raise ValidationError({"quote": "These words are not in the chosen passage."})
        unknown = [r for r in self.rules if r not in catalogue.rule_ids()]
        if unknown:
            raise ValidationError({"rules": f"Not in the rule catalogue: {', '.join(unknown)}"})


# -- readers' corrections -------------------------------------------------------------------


class ErrorReport(models.Model):
    """A reader's report of an error in a passage (no account needed): what is wrong and,
    optionally, where the right reading comes from. Only staff ever see it (the admin); the
    passage is also kept by its source and id, should a reload delete the row."""

    passage = models.ForeignKey(
        Passage, null=True, on_delete=models.SET_NULL, related_name="error_reports"
    )
    source_slug = models.SlugField(editable=False)
    passage_key = models.SlugField(max_length=40, editable=False)
    what = models.TextField("what is wrong", max_length=2000)
    evidence = models.CharField("source of the correction", max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    dealt_with = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.source_slug}#{self.passage_key} ({self.created:%Y-%m-%d})"
