"""The reading side's tests share one load of content/, made once per test session."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from pytest_django import DjangoDbBlocker

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    """Load content/ into the test database once; every test then runs in a transaction
    that is rolled back, so a test may change the content freely."""
    with django_db_blocker.unblock():
        call_command("loadcontent", verbosity=0)


@pytest.fixture(scope="session")
def shared_texts() -> Iterator[dict[str, str]]:
    """The five source texts as they reached us (../shared/sources), faults included."""
    folder = SHARED / "sources"
    if not folder.is_dir():
        pytest.fail(f"{folder} is missing: the shared folder must sit beside the checkout.")
    yield {path.stem: path.read_text(encoding="utf-8") for path in folder.glob("*.txt")}
