"""The admin, where editors can correct texts between two loads of content/.

The content files are the master copy: ``manage.py loadcontent`` overwrites what was changed
here, so a correction made in the admin must also be made in the file (docs/sources.md, "Reading the
sources"). Rendered HTML is computed on save; a reference to a term, rule or passage that does
not exist is refused as a validation error.
"""

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from lessons.models import (
    ErrorReport,
    GlossaryTerm,
    Passage,
    Rule,
    Source,
    TimelineEntry,
    TimelineQuote,
    WitnessStatement,
)

_NOTE = (
    "The files in content/ are the master copy: the next loadcontent overwrites changes made "
    "here. Make the same correction in the file."
)


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ["short_title", "title", "year", "licence", "role"]
    list_filter = ["role"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    readonly_fields = ["slug", "role", "about_html", "editorial_note_html", "corrections", "copies"]
    fieldsets = [
        (
            None,
            {"description": _NOTE, "fields": ["slug", "role", "short_title", "title", "author"]},
        ),
        ("Record", {"fields": ["year", "edition", "publisher", "extent", "link"]}),
        ("Our copy", {"fields": ["completeness", "copies"]}),
        ("Licence", {"fields": ["licence", "licence_note"]}),
        ("Texts", {"fields": ["about", "editorial_note", "corrections"]}),
    ]


@admin.register(Passage)
class PassageAdmin(admin.ModelAdmin):
    list_display = ["__str__", "key", "kind", "editorial"]
    list_filter = ["source", "kind", "editorial"]
    search_fields = ["key", "plain"]
    readonly_fields = ["source", "key", "kind", "page", "last_page", "terms", "rules_stated"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["source", "key", "kind", "label"]}),
        ("Text", {"fields": ["text", "quotation", "editorial"]}),
        ("Computed", {"fields": ["rules_stated", "terms", "page", "last_page"]}),
    ]

    @admin.display(description="Rules cited from this passage")
    def rules_stated(self, passage: Passage) -> SafeString:
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            (
                (c.rule.get_absolute_url(), c.rule_id)
                for c in passage.citations.select_related("rule")
            ),
        )


@admin.register(Rule)
class RuleAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "group"]
    list_filter = ["group"]
    search_fields = ["id", "name", "plain"]
    readonly_fields = ["id", "group", "name", "statement", "cited_passages"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["id", "name", "group", "statement"]}),
        ("Ours", {"fields": ["explanation", "example_title", "example", "no_example"]}),
        ("From the catalogue", {"fields": ["cited_passages"]}),
    ]

    @admin.display(description="Passages cited")
    def cited_passages(self, rule: Rule) -> SafeString:
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            (
                (c.passage.get_absolute_url(), c.passage)
                for c in rule.citations.select_related("passage")
            ),
        )


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(admin.ModelAdmin):
    list_display = ["term", "slug", "also"]
    search_fields = ["term", "forms", "plain"]
    readonly_fields = ["slug", "definition_html"]
    autocomplete_fields = ["quote_passage"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["slug", "term", "also", "forms"]}),
        ("Definition", {"fields": ["definition", "quote_passage", "quote", "rules"]}),
    ]


@admin.register(WitnessStatement)
class WitnessStatementAdmin(admin.ModelAdmin):
    """What a witness says of a rule (content/witnesses.txt); its quotations are checked
    against the witness's text when the content is loaded, so only the words of ours are
    edited here."""

    list_display = ["__str__", "status", "says"]
    list_filter = ["source", "status"]
    search_fields = ["rule__id", "says", "note"]
    readonly_fields = ["rule", "source", "status", "quoted"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["rule", "source", "status"]}),
        ("Ours", {"fields": ["says", "note"]}),
        ("Quoted", {"fields": ["quoted"]}),
    ]

    @admin.display(description="Quotations")
    def quoted(self, statement: WitnessStatement) -> SafeString:
        return format_html_join(
            "; ",
            '<a href="{}">{}</a>: {}',
            (
                (c.passage.get_absolute_url(), c.passage.label, c.quote)
                for c in statement.rule.citations.filter(
                    origin="witness", passage__source=statement.source
                ).select_related("passage")
            ),
        )


class TimelineQuoteInline(admin.TabularInline):
    model = TimelineQuote
    fields = ["passage", "quote"]
    readonly_fields = ["passage", "quote"]
    extra = 0
    can_delete = False


@admin.register(TimelineEntry)
class TimelineEntryAdmin(admin.ModelAdmin):
    list_display = ["date", "title", "key"]
    readonly_fields = ["key"]
    fieldsets = [(None, {"description": _NOTE, "fields": ["key", "date", "title", "text"]})]
    inlines = [TimelineQuoteInline]


@admin.register(ErrorReport)
class ErrorReportAdmin(admin.ModelAdmin):
    """Readers' reports of errors in passages: for staff only, never shown on the site."""

    list_display = ["created", "source_slug", "passage_key", "short_what", "dealt_with"]
    list_filter = ["dealt_with", "source_slug"]
    search_fields = ["what", "evidence", "passage_key"]
    readonly_fields = ["passage_link", "source_slug", "passage_key", "created", "what", "evidence"]
    fields = ["passage_link", "created", "what", "evidence", "dealt_with"]
    list_editable = ["dealt_with"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="What is wrong")
    def short_what(self, report: ErrorReport) -> str:
        return report.what if len(report.what) <= 80 else report.what[:79] + "…"

    @admin.display(description="Passage")
    def passage_link(self, report: ErrorReport) -> SafeString:
        url = f"/sources/{report.source_slug}/#{report.passage_key}"
        text = report.passage.plain[:300] if report.passage else "(no longer in the text)"
        return format_html(
            '<a href="{}">{} {}</a><br><q>{}</q>', url, report.source_slug, report.passage_key, text
        )
