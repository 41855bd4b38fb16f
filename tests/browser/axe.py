"""axe-core in a page, every rule of it, asked for its violations only.

axe-core comes from node_modules (pinned in package-lock.json; `make test` runs `npm ci`). It is
evaluated through DevTools, which the site's Content-Security-Policy does not govern (a
<script> element would need the policy bypassed), once per document: an htmx swap keeps it.
`resultTypes: ["violations"]` spares axe the work of describing every node that passes, is
incomplete or does not apply; every rule still runs.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
OPTIONS = {"resultTypes": ["violations"]}
SERIOUS = ("serious", "critical")


@cache
def _source() -> str:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict[str, Any]]:
    """Every violation axe finds in the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_source())
    found: list[dict[str, Any]] = page.evaluate(
        "options => axe.run(document, options).then(results => results.violations)", OPTIONS
    )
    return found


def serious(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations in the page as it is now."""
    return [v for v in violations(page) if v["impact"] in SERIOUS]


def report(found: list[dict[str, Any]]) -> str:
    """Violations as an assertion's message: rule, impact, help and where."""
    return json.dumps(
        [
            {
                "rule": v["id"],
                "impact": v["impact"],
                "help": v["help"],
                "where": [node["target"] for node in v["nodes"]][:5],
            }
            for v in found
        ],
        indent=1,
    )[:4000]


def assert_nothing_serious(page: Page, where: str) -> None:
    """Fail, saying ``where``, if axe finds anything serious or critical in the page."""
    found = serious(page)
    assert not found, f"{where}: {report(found)}"
