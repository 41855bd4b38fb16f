"""The rule links every worker keeps follow the content version in the shared cache: a copy
made under another version is loaded again, and a change of the content gives a new version
once it is committed, so that every worker on every machine shows it at its next request."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.links import CONTENT_VERSION_KEY, RuleLinks, content_version, forget_links
from lessons.models import Passage
from lessons.signals import content_loaded

pytestmark = pytest.mark.django_db


def _loads_citations(source: str = "hoffmann") -> bool:
    """Whether asking for ``source``'s links reads its citations from the database."""
    with CaptureQueriesContext(connection) as queries:
        RuleLinks.of(source)
    return any("lessons_citation" in q["sql"] for q in queries.captured_queries)


def test_a_worker_keeps_the_links_while_the_content_version_stays() -> None:
    forget_links()

    assert _loads_citations()
    assert not _loads_citations()


def test_a_new_version_set_by_another_process_makes_the_worker_load_them_again() -> None:
    forget_links()
    assert _loads_citations()

    cache.set(CONTENT_VERSION_KEY, "set-by-another-worker", timeout=None)

    assert _loads_citations()
    assert not _loads_citations()


def test_a_cache_that_lost_the_version_starts_a_new_one() -> None:
    forget_links()
    before = content_version()
    assert _loads_citations()

    cache.delete(CONTENT_VERSION_KEY)

    assert _loads_citations()
    assert content_version() not in ("", before)


def test_loading_content_gives_a_new_version_once_committed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    before = content_version()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        content_loaded.send(sender=None)
        # Not before the commit: a worker would load the old rows under the new version.
        assert content_version() == before

    assert len(callbacks) == 1
    assert content_version() != before


def test_an_edited_passage_gives_a_new_version_once_committed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    call_command("loadcontent", verbosity=0)
    passage = Passage.objects.filter(source_id="hoffmann", citations__isnull=False).first()
    assert passage is not None
    forget_links()
    assert _loads_citations()
    before = content_version()

    with django_capture_on_commit_callbacks(execute=True):
        passage.label = "Law the Thirteenth"
        passage.save()
        # This process sees its own edit at once.
        assert _loads_citations()

    assert content_version() != before
    assert _loads_citations()
    assert any(
        label == "Law the Thirteenth" for _, label in RuleLinks.of("hoffmann").passages.values()
    )
