"""The compiled core's random choices: SplitMix64 draws the published numbers, a state copied is the
same luck (the search's common random numbers), draws are uniform, and the n-th card of a mask is
the n-th lowest whichever way this machine picks it (``pdep`` or the binary search)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.fast import _jit
from hearts.fast._jit import njit
from hearts.fast.rng import below, next_word, seeded, uniform
from hearts.fast.state import S_RNG, STATE_SIZE, chance, draw, nth_card

MASK = (1 << 64) - 1


def reference(state: int) -> tuple[int, int]:
    """SplitMix64 as Steele, Lea and Flood give it, on Python's unbounded ints."""
    s = (state + 0x9E3779B97F4A7C15) & MASK
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


@njit
def _words(seed: int, count: int) -> np.ndarray:
    out = np.zeros(count, dtype=np.uint64)
    state = seeded(seed)
    for i in range(count):
        state, out[i] = next_word(state)
    return out


def test_the_first_words_from_zero_are_splitmix64s() -> None:
    # The published first outputs of SplitMix64 from the state 0.
    assert [int(w) for w in _words(0, 3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_the_compiled_words_are_the_reference_from_any_seed(seed: int) -> None:
    state, expected = seed & MASK, []
    for _ in range(5):
        state, word = reference(state)
        expected.append(word)
    assert [int(w) for w in _words(seed, 5)] == expected


@njit
def _draws(seed: int, count: int, size: int) -> np.ndarray:
    out = np.zeros(count, dtype=np.int64)
    state = seeded(seed)
    for i in range(count):
        state, out[i] = below(state, size)
    return out


@njit
def _floats(seed: int, count: int) -> np.ndarray:
    out = np.zeros(count)
    state = seeded(seed)
    for i in range(count):
        state, out[i] = uniform(state)
    return out


@pytest.mark.parametrize("size", [2, 13, 52])
def test_draws_below_a_count_are_uniform(size: int) -> None:
    counts = np.bincount(_draws(11, 2000 * size, size), minlength=size)
    assert counts.shape == (size,)
    expected = 2000.0
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # Far beyond the 99.99th percentile of chi-square with size - 1 degrees of freedom only if biased.
    assert chi2 < size - 1 + 8 * np.sqrt(2 * (size - 1)) + 20, (chi2, counts)


def test_floats_lie_in_the_unit_interval_with_the_right_mean() -> None:
    floats = _floats(5, 100_000)
    assert floats.min() >= 0.0 and floats.max() < 1.0
    assert abs(floats.mean() - 0.5) < 0.005
    assert not (_floats(5, 10) == _floats(6, 10)).all()


@njit
def _from_state(S: np.ndarray, count: int) -> np.ndarray:
    out = np.zeros(count)
    for i in range(count):
        out[i] = draw(S, 52) if i % 2 else chance(S)
    return out


def test_a_state_copied_draws_the_same_luck() -> None:
    # What the search relies on: a world copied with its generator slot plays on the same numbers.
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    S[S_RNG] = seeded(123)
    copy = S.copy()
    first = _from_state(S, 50)
    assert S[S_RNG] != copy[S_RNG]  # the draws moved the generator on
    assert (_from_state(copy, 50) == first).all()


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=2**52 - 1), st.data())
def test_the_nth_card_is_the_nth_lowest(mask: int, data: st.DataObject) -> None:
    cards = [c for c in range(52) if mask >> c & 1]
    n = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    assert nth_card(mask, n) == cards[n], f"pdep: {_jit.FAST_PDEP}"
