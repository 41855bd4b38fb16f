"""Template helpers of the class pages."""

from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def url_if_exists(name: str, *args: Any) -> str:
    """``reverse(name, args)``, or "" while no such URL exists (the quizzes' pages are built
    alongside: ``{% url_if_exists 'quizzes:gradebook' pk as url %}{% if url %}…``)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""
