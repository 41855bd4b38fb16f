from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Django side of play: stored hands, views and forms around the pure engine in loo/."""

    name = "games"
