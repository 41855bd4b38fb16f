"""How big the sweeps and the property tests are: ``LOO_TEST_PROFILE=ci`` (the default) or
``LOO_TEST_PROFILE=thorough``.

- ``ci`` (what ``make test`` runs on every change): each sweep covers every configuration it
  iterates (every game under every rule set, each player count and mode it names) and every
  question kind at least once, and no more than that needs.
- ``thorough`` (``make test-full``): the sizes the suite ran at before the profiles existed,
  and Hypothesis's ``thorough`` profile (tests/conftest.py): run it before resolving an issue
  that touches the engine, the questions or what a table shows.

A sweep reads its size with :func:`size`: ``SEEDS = size(ci=20, thorough=200)``.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

PROFILES = ("ci", "thorough")


def name() -> str:
    """The profile the suite runs under; a name it does not know fails loudly (a typo must not
    quietly run the small sizes)."""
    value = os.environ.get("LOO_TEST_PROFILE") or "ci"
    if value not in PROFILES:
        raise ValueError(f"LOO_TEST_PROFILE={value!r}: expected one of {', '.join(PROFILES)}")
    return value


def thorough() -> bool:
    """True under ``LOO_TEST_PROFILE=thorough``."""
    return name() == "thorough"


def size(*, ci: T, thorough: T) -> T:
    """``ci`` or ``thorough``, by the profile."""
    return thorough if name() == "thorough" else ci
