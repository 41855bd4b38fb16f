"""Seeded chance. Randomness enters the engine only here, from a seed, never the module-level
``random``: the same seed gives the same deals on every machine and Python version that keeps
``random.Random``'s Mersenne Twister and ``shuffle`` (stable since Python 3.2)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .cards import PACK, Card


def rng_for(seed: int | str, *parts: object) -> random.Random:
    """A generator for one purpose (``rng_for(seed, "deal", 3)``), independent of the others."""
    return random.Random(":".join(map(str, (seed, *parts))))


def deal_rng(seed: int | str, hand_number: int) -> random.Random:
    """``rng_for(seed, "deal", hand_number)``, the generator of a hand's deal, with its key
    written at once (one is made at every deal)."""
    return random.Random(f"{seed}:deal:{hand_number}")


#: ``random.Random.shuffle`` of a 52-card list, step by step: for i from 51 down to 1, swap
#: item i with item j, j drawn below n = i + 1 by ``getrandbits(k)`` (k = n's bit length),
#: drawing again while j >= n. These are its (i, n, k).
_STEPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(PACK) - 1, 0, -1))


def _shuffle_pack(pack: list[Card], getrandbits: Callable[[int], int]) -> None:
    """Exactly ``random.Random.shuffle(pack)`` for the 52 cards, the same draws from the same
    generator, without a Python call per card (a deal is shuffled at every hand)."""
    for i, n, k in _STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pack[i], pack[j] = pack[j], pack[i]


def _same_as_random_shuffle() -> bool:
    """Whether :func:`_shuffle_pack` gives what this Python's ``random.shuffle`` gives."""
    for seed in ("check", 1, 2024):
        ours, theirs = list(PACK), list(PACK)
        mine, reference = random.Random(seed), random.Random(seed)
        _shuffle_pack(ours, mine.getrandbits)
        reference.shuffle(theirs)
        if ours != theirs or mine.getstate() != reference.getstate():
            return False
    return True


#: Checked once: a Python whose shuffle draws differently keeps its own (and its own deals).
_FAST_SHUFFLE: Final = _same_as_random_shuffle()


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 52 cards, shuffled: the order ``rng.shuffle`` would give, and ``rng`` left in the
    same state."""
    pack = list(PACK)
    if _FAST_SHUFFLE and type(rng) is random.Random:
        _shuffle_pack(pack, rng.getrandbits)
    else:
        rng.shuffle(pack)
    return pack
