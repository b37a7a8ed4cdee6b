"""The compiled core's random choices: a kept generator state draws again exactly what a fresh seed
draws (the search restores it instead of reseeding for every candidate), and the n-th card of a mask
is the n-th lowest whichever way this machine picks it (``pdep`` or the binary search)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.fast import _jit
from hearts.fast._jit import RNG_WORDS, keep_rng, njit, restore_rng
from hearts.fast.state import nth_card


@njit
def _draws_after_seed(seed: int, count: int) -> np.ndarray:
    np.random.seed(seed)
    return np.array([np.random.randint(0, 2**32) for _ in range(count)])


@njit
def _draws_after_restore(seed: int, count: int, times: int) -> np.ndarray:
    buf = np.empty(RNG_WORDS, dtype=np.int64)
    np.random.seed(seed)
    keep_rng(buf)
    out = np.zeros((times, count), dtype=np.int64)
    for t in range(times):
        restore_rng(buf)
        for i in range(count):
            out[t, i] = np.random.randint(0, 2**32) if i % 3 else int(np.random.random() * 2**32)
    return out


@njit
def _mixed_after_seed(seed: int, count: int) -> np.ndarray:
    np.random.seed(seed)
    out = np.zeros(count, dtype=np.int64)
    for i in range(count):
        out[i] = np.random.randint(0, 2**32) if i % 3 else int(np.random.random() * 2**32)
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**31 - 1])
def test_a_restored_generator_draws_what_a_fresh_seed_draws(seed: int) -> None:
    # 1,500 draws cross two refills of the Mersenne Twister's 624 words.
    fresh = _mixed_after_seed(seed, 1500)
    again = _draws_after_restore(seed, 1500, 3)
    for row in again:
        assert (row == fresh).all()
    assert not (_draws_after_seed(seed, 10) == _draws_after_seed(seed + 1, 10)).all()


def test_keep_and_restore_in_plain_python() -> None:
    # What the kernels run with NUMBA_DISABLE_JIT=1: numpy's own generator, kept and put back.
    buf = np.zeros(RNG_WORDS, dtype=np.int64)
    np.random.seed(7)
    keep_rng(buf)
    first = np.random.randint(0, 2**32, size=700)
    restore_rng(buf)
    assert (np.random.randint(0, 2**32, size=700) == first).all()


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=2**52 - 1), st.data())
def test_the_nth_card_is_the_nth_lowest(mask: int, data: st.DataObject) -> None:
    cards = [c for c in range(52) if mask >> c & 1]
    n = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    assert nth_card(mask, n) == cards[n], f"pdep: {_jit.FAST_PDEP}"
