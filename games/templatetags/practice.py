"""Template helpers of the practice table: cards drawn as playing cards, and seat names."""

from collections.abc import Iterable
from functools import cache
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.links import RuleLink
from games.loo.cards import RANK_SHORT, SUIT_NAMES, SUIT_SYMBOLS, Card
from games.loo.messages import Message
from games.naming import say as say_for_the_table
from games.naming import seat_name

register = template.Library()

NEW_AT_THIS_STEP = mark_safe('<span class="visually-hidden">New at this step: </span>')
LESSON_RULE = mark_safe('<span class="log-line__lesson">The lesson\'s rule: </span>')


@register.simple_tag
@cache
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
@cache
def card_face(c: Card, size: str = "") -> SafeString:
    """A card's face without its own label, for inside a button or label that names it."""
    return format_html(
        '<span class="pcard pcard--{suit}{size}" aria-hidden="true">'
        '<span class="pcard__corner">{rank}<br>{symbol}</span>'
        '<span class="pcard__pip">{symbol}</span></span>',
        suit=SUIT_NAMES[c.suit],
        size=f" pcard--{size}" if size else "",
        rank=RANK_SHORT.get(c.rank, c.rank),
        symbol=SUIT_SYMBOLS[c.suit],
    )


@register.filter
def say(message: Message, players: int | None = None) -> str:
    """An engine sentence as the human at a practice table of ``players`` reads it."""
    return say_for_the_table(message, players)


@register.filter
def seat(index: int | None, players: int | None = None) -> str:
    """A seat's name at a practice table of ``players`` ("the player on your left")."""
    return seat_name(index, players)


@register.filter
def suit_name(letter: str) -> str:
    return SUIT_NAMES.get(letter, letter)


@register.simple_tag
def rule_refs(rules: Iterable[RuleLink], prefix: str = "") -> SafeString:
    """Links to rules: each to its page and to the passage of the table's source."""
    links = mark_safe("".join([_rule_ref(r, prefix) for r in rules]))  # each made safe below
    return format_html('<span class="rule-refs">{}</span>', links) if links else links


@cache
def _rule_ref(rule: RuleLink, prefix: str) -> SafeString:
    # Each source's links are kept by the worker (games.links), so each is drawn once.
    return format_html(
        '<span class="rule-ref">{}<a href="{}">{}</a> '
        '<span class="rule-ref__source">(<a href="{}">{}</a>)</span></span>',
        prefix,
        rule.url,
        rule.title,
        rule.passage_url,
        rule.passage_label,
    )


@register.simple_tag
def log_items(log: Iterable[Any], first_new: object = None, watched: str = "") -> SafeString:
    """The lines of the trick log, each with the rules it applied; from ``first_new`` (a step
    of a replay; unset on the table) on they are marked as new, and a line that applied the
    rule ``watched`` (a lesson's guided hand) is marked as the lesson's. Written here rather
    than as a template loop: the log is the longest part of the table, redrawn after every
    decision."""
    items = []
    for i, line in enumerate(log):
        new = isinstance(first_new, int) and i >= first_new
        # Its line applied the rule, or the rule bound the human's decision there.
        lesson = bool(watched) and (
            watched in line.event.rules or any(e["rule"] == watched for e in line.explanations)
        )
        items.append(
            format_html(
                '<li class="log-line log-line--{}{}{}">{}{}\n        <p>{} {}</p>{}{}\n      </li>',
                line.event.kind,
                " log-line--new" if new else "",
                " log-line--lesson" if lesson else "",
                NEW_AT_THIS_STEP if new else "",
                LESSON_RULE if lesson else "",
                line.text,
                rule_refs(line.rules),
                format_html('<p class="log-line__reason">Why: {}</p>', line.reason)
                if line.reason
                else "",
                format_html_join(
                    "",
                    '<p class="log-line__reason">{}</p>',
                    ((e["text"],) for e in line.explanations),
                ),
            )
        )
    return mark_safe("\n      ".join(items))  # each item was built by format_html


@register.simple_tag
def rule_ref(rule: RuleLink | None, prefix: str = "") -> SafeString:
    """One rule's links."""
    return rule_refs([rule] if rule is not None else [], prefix)
