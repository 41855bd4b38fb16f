from django.urls import path

from lessons import edition_views, views

app_name = "lessons"

urlpatterns = [
    path("sources/", views.list_sources, name="source-list"),
    path("sources/<slug:source>/", views.show_source, name="source-detail"),
    path("sources/<slug:source>/tei.xml", edition_views.download_tei, name="source-tei"),
    path("sources/<slug:source>/text.txt", edition_views.download_text, name="source-text"),
    path(
        "sources/<slug:source>/<slug:key>/report/",
        edition_views.report_error,
        name="report-error",
    ),
    path(
        "sources/<slug:source>/<slug:key>/report/thanks/",
        edition_views.report_thanks,
        name="report-thanks",
    ),
    path("rules/", views.list_rules, name="rule-list"),
    path("rules/<slug:rule_id>/", views.show_rule, name="rule-detail"),
    path("compare/", views.compare_sources, name="source-compare"),
    path("disagreements/", views.list_disagreements, name="disagreement-list"),
    path("timeline/", views.show_timeline, name="timeline"),
    path("glossary/", views.list_terms, name="term-list"),
    path("glossary/<slug:term>/", views.show_term, name="term-detail"),
    path("search/", views.search_content, name="search"),
]
