from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Sources, passages, rule pages, glossary, classes and quizzes."""

    name = "lessons"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.links import content_changed, provide_citations
        from lessons.models import Citation, Passage, Source
        from lessons.signals import content_loaded

        # The practice table cites the sources' passages through games.links (the arrow runs
        # from lessons to games); every worker keeps each source's citations while the content
        # version in the shared cache stays the same: a change here gives a new version, so
        # every worker on every machine loads them again.
        provide_citations(citation_rows)
        content_loaded.connect(content_changed, dispatch_uid="lessons.content_changed")
        for model in (Citation, Passage, Source):
            for signal in (post_save, post_delete):
                signal.connect(
                    content_changed, sender=model, dispatch_uid=f"lessons.links.{model.__name__}"
                )


def citation_rows(source: str) -> list[tuple[str, str, str, bool]]:
    """One query: every citation of ``source``, by rule, the primary passages first."""
    from lessons.models import Citation

    return list(
        Citation.objects.filter(passage__source_id=source)
        .order_by("rule_id", "-primary", "position", "passage__key")
        .values_list("rule_id", "passage__key", "passage__label", "primary")
    )
