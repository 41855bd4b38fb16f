"""The admin, where editors can correct texts between two loads of content/.

The content files are the master copy: ``manage.py loadcontent`` overwrites what was changed
here, so a correction made in the admin must also be made in the file (README, "Reading the
sources"). Rendered HTML is computed on save; a reference to a term, rule or passage that does
not exist is refused as a validation error.
"""

from django.contrib import admin

from lessons.models import Citation, GlossaryTerm, Passage, Rule, Source

_NOTE = (
    "The files in content/ are the master copy: the next loadcontent overwrites changes made "
    "here. Make the same correction in the file."
)


class CitationInline(admin.TabularInline):
    model = Citation
    extra = 0
    fields = ["rule", "passage", "origin", "primary", "locator", "quote"]
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ["short_title", "title", "year", "licence"]
    readonly_fields = ["slug", "about_html", "editorial_note_html", "corrections"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["slug", "short_title", "title", "author"]}),
        ("Record", {"fields": ["year", "edition", "publisher", "extent", "link"]}),
        ("Licence", {"fields": ["licence", "licence_note"]}),
        ("Texts", {"fields": ["about", "editorial_note", "corrections"]}),
    ]


@admin.register(Passage)
class PassageAdmin(admin.ModelAdmin):
    list_display = ["__str__", "key", "kind", "editorial"]
    list_filter = ["source", "kind", "editorial"]
    search_fields = ["key", "plain"]
    readonly_fields = ["source", "key", "kind", "page", "last_page", "html", "terms"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["source", "key", "kind", "label"]}),
        ("Text", {"fields": ["text", "quotation", "editorial"]}),
        ("Computed", {"classes": ["collapse"], "fields": ["page", "last_page", "html", "terms"]}),
    ]
    inlines = [CitationInline]


@admin.register(Rule)
class RuleAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "group"]
    list_filter = ["group"]
    search_fields = ["id", "name", "plain"]
    readonly_fields = ["id", "group", "name", "statement", "explanation_html"]
    fieldsets = [
        (None, {"description": _NOTE, "fields": ["id", "name", "group", "statement"]}),
        ("Ours", {"fields": ["explanation", "example_title", "example"]}),
    ]
    inlines = [CitationInline]


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
