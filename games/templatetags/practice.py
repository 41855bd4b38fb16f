"""Template helpers of the practice table: cards drawn as playing cards, and seat names."""

from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.links import RuleLink
from games.loo.cards import RANK_SHORT, SUIT_NAMES, SUIT_SYMBOLS, Card
from games.naming import name_seats, seat_name

register = template.Library()


@register.simple_tag
def playing_card(c: Card, size: str = "") -> SafeString:
    """A card drawn as a playing card: rank and suit symbol for the eye (the symbols differ in
    shape, not only in colour), its name for a screen reader."""
    return format_html(
        '<span class="pcard pcard--{suit}{size}" role="img" aria-label="{label}">'
        '<span class="pcard__corner" aria-hidden="true">{rank}<br>{symbol}</span>'
        '<span class="pcard__pip" aria-hidden="true">{symbol}</span></span>',
        suit=SUIT_NAMES[c.suit],
        size=f" pcard--{size}" if size else "",
        label=c.label,
        rank=RANK_SHORT.get(c.rank, c.rank),
        symbol=SUIT_SYMBOLS[c.suit],
    )


@register.simple_tag
def card_face(c: Card) -> SafeString:
    """A card's face without its own label, for inside a button that names the card."""
    return format_html(
        '<span class="pcard pcard--{suit}" aria-hidden="true">'
        '<span class="pcard__corner">{rank}<br>{symbol}</span>'
        '<span class="pcard__pip">{symbol}</span></span>',
        suit=SUIT_NAMES[c.suit],
        rank=RANK_SHORT.get(c.rank, c.rank),
        symbol=SUIT_SYMBOLS[c.suit],
    )


@register.filter
def seats(text: str) -> str:
    """An engine sentence with "seat N" written as this table's names."""
    return name_seats(text)


@register.filter
def seat(index: int | None) -> str:
    return seat_name(index)


@register.filter
def suit_name(letter: str) -> str:
    return SUIT_NAMES.get(letter, letter)


@register.simple_tag
def rule_refs(rules: Iterable[RuleLink], prefix: str = "") -> SafeString:
    """Links to rules: each to its page and to the passage of the table's source."""
    links = format_html_join(
        "",
        '<span class="rule-ref">{}<a href="{}">{}</a> '
        '<span class="rule-ref__source">(<a href="{}">{}</a>)</span></span>',
        ((prefix, r.url, r.title, r.passage_url, r.passage_label) for r in rules),
    )
    return format_html('<span class="rule-refs">{}</span>', links) if links else links


@register.simple_tag
def rule_ref(rule: RuleLink | None, prefix: str = "") -> SafeString:
    """One rule's links."""
    return rule_refs([rule] if rule is not None else [], prefix)
