"""A page that does not exist, or another player's, gets the site's own 404 page; an error its
500 page, in the site's layout."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games.models import PracticeTable

pytestmark = pytest.mark.django_db


def _is_the_sites_404(response: object) -> None:
    assert response.status_code == 404  # type: ignore[attr-defined]
    text = response.content.decode()  # type: ignore[attr-defined]
    assert "<h1>Page not found</h1>" in text
    assert 'class="site-nav"' in text and 'action="/search/"' in text
    assert 'href="/"' in text


def test_a_page_that_does_not_exist(client: Client) -> None:
    _is_the_sites_404(client.get("/no-such-page/"))


def test_another_players_table_and_replay(client: Client) -> None:
    owner = get_user_model().objects.create_user("ada", password="a long pass phrase 7")
    table = PracticeTable.deal_new(
        game="three-card",
        rules="hoffmann",
        players=4,
        seed=3,
        opponents="beginner",
        laws=False,
        owner=owner,
    )
    _is_the_sites_404(client.get(table.get_absolute_url()))
    _is_the_sites_404(client.get(reverse("games:hand-replay", args=[table.pk, 1])))


def test_the_error_page_is_in_the_sites_layout_and_needs_no_request() -> None:
    text = render_to_string("500.html")
    assert "<h1>Something went wrong</h1>" in text and 'class="site-nav"' in text


def test_a_form_without_its_csrf_token_gets_the_sites_own_page(db: None) -> None:
    """Django's page for a failed CSRF check has an inline style the policy forbids: the
    site's own says what happened, in the site's style."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("games:table-create"), {"game": "three-card"})
    page = response.content.decode()
    assert response.status_code == 403
    assert "The form is out of date" in page and "nothing has changed" in page
    assert "<style" not in page
