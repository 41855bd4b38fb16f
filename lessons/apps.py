from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Sources, passages, rule pages, glossary, classes and quizzes."""

    name = "lessons"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.links import forget_links, provide_citations
        from lessons.models import Citation, Passage, Source
        from lessons.signals import content_loaded

        # The practice table cites the sources' passages through games.links (the arrow runs
        # from lessons to games); it keeps each source's citations for a minute: forget them
        # as soon as this process changes them.
        provide_citations(citation_rows)
        content_loaded.connect(forget_links, dispatch_uid="lessons.forget_links")
        for model in (Citation, Passage, Source):
            for signal in (post_save, post_delete):
                signal.connect(
                    forget_links, sender=model, dispatch_uid=f"lessons.links.{model.__name__}"
                )


def citation_rows(source: str) -> list[tuple[str, str, str, bool]]:
    """One query: every citation of ``source``, by rule, the primary passages first."""
    from lessons.models import Citation

    return list(
        Citation.objects.filter(passage__source_id=source)
        .order_by("rule_id", "-primary", "position", "passage__key")
        .values_list("rule_id", "passage__key", "passage__label", "primary")
    )
