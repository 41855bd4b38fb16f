"""Seeded chance: the engine's own shuffle deals exactly what ``random.shuffle`` deals."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.loo import PACK
from games.loo.rng import _FAST_SHUFFLE, deal_rng, rng_for, shuffled_pack


def test_the_quick_shuffle_is_in_use_on_this_python() -> None:
    # If this fails, a new Python shuffles differently: the engine then falls back on
    # random.shuffle (and the deals of old seeds change with it, as they would anyway).
    assert _FAST_SHUFFLE


@given(st.one_of(st.integers(), st.text(max_size=30)), st.integers(0, 10_000))
def test_a_shuffled_pack_is_random_shuffle_of_the_pack(seed: int | str, hand: int) -> None:
    ours = rng_for(seed, "deal", hand)
    theirs = random.Random(f"{seed}:deal:{hand}")
    expected = list(PACK)
    theirs.shuffle(expected)
    assert shuffled_pack(ours) == expected
    # The generator is left exactly where random.shuffle leaves it.
    assert ours.getstate() == theirs.getstate()


@given(st.one_of(st.integers(), st.text(max_size=30)), st.integers(0, 10_000))
def test_a_deals_generator_is_the_one_rng_for_names(seed: int | str, hand: int) -> None:
    assert deal_rng(seed, hand).getstate() == rng_for(seed, "deal", hand).getstate()


def test_a_generator_of_another_kind_shuffles_its_own_way() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            self.calls += 1
            super().shuffle(x)

    rng = Counting(7)
    expected = list(PACK)
    random.Random(7).shuffle(expected)
    assert shuffled_pack(rng) == expected
    assert rng.calls == 1
