"""Template helper of the practice table: the variations a table (or a finished hand) agreed
on its rule set, each with its rule and the passage of the table's source that states it."""

from collections.abc import Iterable
from typing import Any

from django import template

from games.links import RuleLinks
from games.variations import Agreed

register = template.Library()


@register.inclusion_tag("games/_variations.html")
def variations_agreed(rules: str, game: str, agreed: Iterable[Agreed]) -> dict[str, Any]:
    """ "Variations agreed": what each does, cited (one cache get for the links' version)."""
    rows = list(agreed)
    if not rows:
        return {"rows": []}
    links = RuleLinks.of(rules, game)
    return {"rows": [(a, links.link(a.rule)) for a in rows]}
