"""Template helpers for the reading pages: cards drawn as cards, and catalogue text."""

import re
from collections.abc import Iterable

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.loo import catalogue
from games.loo.cards import SUIT_NAMES, Card
from games.loo.hand import Event
from games.loo.rulesets import in_words, option_rule
from lessons.examples import seat_label

register = template.Library()

_CODE = re.compile(r"`([^`]+)`")
_SOURCE_NAMES = {
    "hoffmann": "Hoffmann",
    "britannica": "the Britannica",
    "whiteknuckle": "White Knuckle",
    "parlett": "Parlett",
    "peel": "Peel",
}


@register.simple_tag
def card(c: Card, inline: bool = False) -> SafeString:
    """A card drawn as a card: its face for the eye, its name for a screen reader."""
    return format_html(
        '<span class="card card--{}{}" role="img" aria-label="{}">{}</span>',
        SUIT_NAMES[c.suit],
        " card--inline" if inline else "",
        c.label,
        c.display,
    )


@register.filter
def catalogue_text(text: str, links: str = "links") -> SafeString:
    """Text of the rule catalogue (RULES.md), with its `rule-id` and `source` marks as links
    or names, and anything else in backquotes as code. With ``"code"`` nothing is linked
    (in the notes on variants, `must` names an option as often as a rule)."""

    def replace(match: re.Match[str]) -> str:
        word = match.group(1)
        rule_id = word if word in catalogue.rule_ids() else option_rule(word)
        if links == "links" and rule_id:
            url = reverse("lessons:rule-detail", args=[rule_id])
            return f'<a href="{url}">{catalogue.rule(rule_id).name}</a>'
        if links == "links" and word in _SOURCE_NAMES:
            return _SOURCE_NAMES[word]
        return f"<code>{word}</code>"

    # Escaping leaves backquotes alone, and ids and names need no escaping. A reading of
    # RULES.md part 3 is said in words, never by its number.
    return mark_safe(_CODE.sub(replace, str(escape(in_words(text)))))


@register.filter(name="in_words")
def in_words_filter(note: str) -> str:
    """A rule set's note on an option, the readings it rests on said in words."""
    return in_words(note)


@register.filter
def suit_name(letter: str) -> str:
    """``"H"`` → ``"hearts"``."""
    return SUIT_NAMES.get(letter, letter)


@register.filter
def rule_name(rule_id: str) -> str:
    """A rule's name from the catalogue, as it stands in a sentence."""
    return catalogue.rule(rule_id).name


@register.filter
def rule_title(rule_id: str) -> str:
    """A rule's name from the catalogue, capitalised, for a link."""
    name = catalogue.rule(rule_id).name
    return name[:1].upper() + name[1:]


@register.filter
def seat(number: int | None, players: int) -> str:
    """A seat of a worked hand: ``Seat 1 (elder hand)``, ``Seat 4 (dealer)``, or the pool."""
    return seat_label(number, players)


@register.filter
def ordinal(number: int) -> str:
    """``1`` → ``1st``, ``2`` → ``2nd``: the place of a card in a trick."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


@register.filter
def citing(events: Iterable[Event], rule_id: str) -> list[Event]:
    """The entries of a hand's trace that cite ``rule_id``."""
    return [event for event in events if rule_id in event.rules]
