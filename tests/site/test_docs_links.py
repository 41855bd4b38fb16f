"""The README is the front door and `docs/` holds the rest (issue 35): the README stays short,
links every page of `docs/`, and every relative link of the README and of `docs/` leads to a
file that exists, and to a heading of it when the link names one (`file.md#heading`, as GitHub
makes a heading's anchor). No database, no Django: the files are read as text."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The README is a front door of about 250 lines; the rest of what it said is in docs/.
README_MAX_LINES = 260

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def _prose(text: str) -> str:
    """The text without its code blocks and code spans, where `](` is not a link."""
    return _CODE.sub("", _FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text: lower case, every character
    but letters, digits, `_`, `-` and spaces dropped, spaces made `-`; a repeated one `-1`…"""
    seen: dict[str, int] = {}
    out = set()
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` that leads to no file, or to no heading of its file."""
    broken = []
    for target in _LINK.findall(_prose(page.read_text(encoding="utf-8"))):
        if _EXTERNAL.match(target):
            continue
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and fragment not in anchors(linked.read_text(encoding="utf-8")):
            broken.append(f"{target}: no such heading in {linked.name}")
    return broken


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def test_the_readme_is_a_front_door() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move the detail to docs/"


def test_every_relative_link_leads_to_a_file_and_heading() -> None:
    assert len(_pages()) > 1, "docs/ holds no page"
    broken = {page.relative_to(ROOT).as_posix(): broken_links(page) for page in _pages()}
    assert {page: links for page, links in broken.items() if links} == {}


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for target in _LINK.findall(_prose(README.read_text(encoding="utf-8")))
    }
    assert [p.name for p in DOCS.glob("*.md") if p.resolve() not in linked] == []


def test_each_page_of_docs_opens_with_a_title_and_a_summary() -> None:
    for page in DOCS.glob("*.md"):
        title, blank, summary, *_ = page.read_text(encoding="utf-8").split("\n")
        assert title.startswith("# ") and blank == "", page.name
        assert summary and not summary.startswith(("#", "|", "-", "```")), page.name


def test_the_check_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A class's tables: playing\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Set-up: two `make` commands\n\n"
        "[ok](other.md) [ok](other.md#a-classs-tables-playing) [ok](#set-up-two-make-commands)"
        " [ok](https://example.org/x) `[code](gone.md)`\n\n```md\n[code](gone.md)\n```\n\n"
        "[file](gone.md) [heading](other.md#nowhere) [here](#nowhere)\n"
    )
    assert broken_links(page) == [
        "gone.md: no such file",
        "other.md#nowhere: no such heading in other.md",
        "#nowhere: no such heading in page.md",
    ]
