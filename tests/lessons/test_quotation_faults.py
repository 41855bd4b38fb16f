"""The quotation faults issue 25 found on the site (finding 12): Peel quoted with the web
mirror's double quote for an apostrophe ("the dealer"s fee"), a page mark inside his sentence
("the amount in the pool, [28] receives"), and an entry's status said twice ("implies it:
implicit: …"). Every rule page and the comparison of every source with Peel are read."""

import html
import re

import pytest
from django.test import Client

from games.loo.catalogue import SOURCE_IDS, rules

pytestmark = pytest.mark.django_db

_FAULTS = re.compile(
    r"[A-Za-z]\"s\b|[,;] \[\d\d\] [a-z]|implies it:?\s*(?:implicit|implied)\b", re.I
)


def _text(response: object) -> str:
    body = response.content.decode()  # type: ignore[attr-defined]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def test_no_rule_page_shows_a_fault_of_our_copies() -> None:
    client = Client()
    for rule in rules():
        page = _text(client.get(f"/rules/{rule.id}/"))
        assert not _FAULTS.search(page), (rule.id, _FAULTS.search(page))


def test_peel_is_quoted_as_his_book_has_it() -> None:
    """p. 28: "the next deal becomes a single, there being no payments to the pool, beyond the
    dealer's fee"; pp. 27–28: "besides taking the amount in the pool, receives from each of
    the players, whether they stood or not, the amount of a loo"."""
    page = _text(Client().get("/rules/flush-loos-the-board/"))
    assert "beyond the dealer's fee" in page
    assert "the amount in the pool, receives from each of the players" in page


def test_no_comparison_with_peel_shows_a_fault_of_our_copies() -> None:
    client = Client()
    for other in SOURCE_IDS[:-1]:
        page = _text(client.get(f"/compare/?a={other}&b=peel"))
        assert not _FAULTS.search(page), (other, _FAULTS.search(page))
