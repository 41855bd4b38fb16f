"""The start page, the shared layout and the health check."""

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries


class _Outline(HTMLParser):
    """Collects what a layout test needs: tags seen, attributes of some, script sources."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.html_attrs: dict[str, str | None] = {}
        self.body_attrs: dict[str, str | None] = {}
        self.script_srcs: list[str] = []
        self.first_link_href: str | None = None
        self.main_id: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        attributes = dict(attrs)
        if tag == "html":
            self.html_attrs = attributes
        elif tag == "body":
            self.body_attrs = attributes
        elif tag == "script" and attributes.get("src"):
            self.script_srcs.append(attributes["src"] or "")
        elif tag == "a" and self.first_link_href is None:
            self.first_link_href = attributes.get("href")
        elif tag == "main":
            self.main_id = attributes.get("id")


def _outline(client: Client, url: str) -> _Outline:
    response = client.get(url)
    assert response.status_code == 200
    outline = _Outline()
    outline.feed(response.content.decode())
    return outline


@pytest.mark.django_db
def test_the_start_page_says_what_the_site_is(client: Client) -> None:
    response = client.get(reverse("home"))

    assert response.status_code == 200
    text = response.content.decode()
    for phrase in ("Loo", "1660s", "Pam", "miss", "Irish Loo", "Club law", "Unlimited loo"):
        assert phrase in text
    for audience in ("Readers", "Players", "Teachers and students"):
        assert audience in text


@pytest.mark.django_db
def test_the_layout_has_language_landmarks_and_a_skip_link_first(client: Client) -> None:
    outline = _outline(client, reverse("home"))

    assert outline.html_attrs.get("lang") == "en"
    for landmark in ("header", "nav", "main", "footer"):
        assert landmark in outline.tags
    assert outline.first_link_href == "#main"
    assert outline.main_id == "main"


@pytest.mark.django_db
def test_htmx_is_the_vendored_copy_and_nothing_comes_from_another_host(client: Client) -> None:
    outline = _outline(client, reverse("home"))

    assert "/static/django_htmx/htmx-2.min.js" in outline.script_srcs
    for src in outline.script_srcs:
        assert src.startswith("/static/"), src


@pytest.mark.django_db
def test_every_htmx_request_carries_the_csrf_token(client: Client) -> None:
    outline = _outline(client, reverse("home"))

    assert '"x-csrftoken"' in (outline.body_attrs.get("hx-headers") or "")


@pytest.mark.django_db
def test_built_sections_are_links_and_planned_ones_are_not(client: Client) -> None:
    text = client.get(reverse("home")).content.decode()

    assert '<span class="planned">' not in text
    assert '<a href="/classes/">Classes</a>' in text
    for section in ("Rules", "Sources", "Glossary", "Play", "Learn", "Trainer", "Classes"):
        assert f'<span class="planned">{section}' not in text
        assert f">{section}</a>" in text


@pytest.mark.django_db
def test_the_health_check_answers_ok_without_touching_the_database(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        response = client.get(reverse("healthz"))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"ok"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/sources/",
        "/rules/",
        "/compare/",
        "/compare/?a=hoffmann&b=cotton",
        "/disagreements/",
        "/timeline/",
        "/glossary/",
        "/search/?q=pam",
    ],
)
def test_the_reading_pages_answer_before_any_content_is_loaded(client: Client, url: str) -> None:
    """A database migrated but not yet loaded (``manage.py loadcontent`` not run): the lists
    are empty, and no page fails."""
    response = client.get(url)

    assert response.status_code == 200


@pytest.mark.django_db
def test_the_start_page_leads_to_a_hand_first_and_every_page_has_its_icon(client: Client) -> None:
    text = client.get(reverse("home")).content.decode()

    assert (
        f'<a class="start-actions__main" href="{reverse("games:choose")}">Play a hand</a>' in text
    )
    assert 'rel="icon" href="/static/favicon.svg"' in text
