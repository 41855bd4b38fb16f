from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Django side of play: stored hands, views and forms around the pure engine in loo/.

    It knows nothing of the reading side: the rule links of the table get their citations
    through ``games.links.provide_citations``, which the reading side calls (lessons/apps.py).
    """

    name = "games"
