"""The reading side's tests: the source texts as they reached us (the content itself is loaded
once for the session by tests/conftest.py's django_db_setup)."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_texts() -> Iterator[dict[str, str]]:
    """The five source texts as they reached us (../shared/sources), faults included."""
    folder = SHARED / "sources"
    if not folder.is_dir():
        pytest.fail(f"{folder} is missing: the shared folder must sit beside the checkout.")
    yield {path.stem: path.read_text(encoding="utf-8") for path in folder.glob("*.txt")}


@pytest.fixture(scope="session")
def more_texts() -> Iterator[dict[str, str]]:
    """The texts found later (../shared/sources/more): Peel's whole chapter and the three
    witnesses, each with its provenance header."""
    folder = SHARED / "sources" / "more"
    if not folder.is_dir():
        pytest.fail(f"{folder} is missing: the shared folder must sit beside the checkout.")
    yield {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.txt")}


@pytest.fixture(scope="session")
def sources_md() -> str:
    """../shared/sources/SOURCES.md, which gives Hoffmann's lost notes word for word."""
    path = SHARED / "sources" / "SOURCES.md"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the shared folder must sit beside the checkout.")
    return path.read_text(encoding="utf-8")


def shared_body(text: str) -> str:
    """A file of ../shared/sources/more/ without its provenance header (up to the first line
    of "="), its appendix headers, its notes in brackets, its gaps and its page marks: the
    words of the text, as the site must show them (before its corrections)."""
    text = text.split("=" * 20, 1)[1].split("\n", 1)[1]
    # A second header (the appendix of hoyle-improved.txt) runs to a line of "-".
    text = re.sub(r"\n={20,}\n.*?\n-{20,}\n", "\n", text, flags=re.S)
    # Cotton's part headers stand between two lines of "-".
    text = re.sub(r"\n-{20,}\n.*?\n-{20,}\n", "\n", text, flags=re.S)
    text = re.sub(r"\[…missing:[^\]]*\]", " ", text)
    while re.search(r"\[[^\[\]]*\]", text):
        text = re.sub(r"\[[^\[\]]*\]", " ", text)
    # The OED's references before Cotton's sentences, and the quotation marks around them.
    text = re.sub(r'^(?:1680 Cotton[^:]*|Ibid\. \d+): "(.*)"$', r"\1", text, flags=re.M)
    return text.replace("¯", "")


@pytest.fixture(scope="session")
def more_bodies(more_texts: dict[str, str]) -> dict[str, str]:
    """The words of each text of ../shared/sources/more/ (:func:`shared_body`), by file."""
    return {name: shared_body(text) for name, text in more_texts.items()}
