"""Seeded chance. Randomness enters the engine only here, from a seed, never the module-level
``random``: the same seed gives the same deals on every machine and Python version that keeps
``random.Random``'s Mersenne Twister and ``shuffle`` (stable since Python 3.2)."""

from __future__ import annotations

import random

from .cards import PACK, Card


def rng_for(seed: int | str, *parts: object) -> random.Random:
    """A generator for one purpose (``rng_for(seed, "deal", 3)``), independent of the others."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 52 cards, shuffled."""
    pack = list(PACK)
    rng.shuffle(pack)
    return pack
