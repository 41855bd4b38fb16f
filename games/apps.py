from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Django side of play: stored hands, views and forms around the pure engine in loo/."""

    name = "games"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.links import forget_links
        from lessons.models import Citation, Passage, Source
        from lessons.signals import content_loaded

        # The practice table keeps each source's citations for a minute: forget them as soon
        # as this process changes them.
        content_loaded.connect(forget_links, dispatch_uid="games.forget_links")
        for model in (Citation, Passage, Source):
            for signal in (post_save, post_delete):
                signal.connect(forget_links, sender=model, dispatch_uid=f"games.{model.__name__}")
