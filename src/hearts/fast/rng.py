"""The kernels' random numbers: SplitMix64, a generator whose whole state is one 64-bit word.

Each draw adds a constant to the word and scrambles the sum (Steele, Lea and Flood's SplitMix64,
the generator behind Java's ``SplittableRandom`` and the seeder of the xoshiro family; its output
passes TestU01's BigCrush). We use it in place of numba's ``np.random`` (a Mersenne Twister of
2.5 KB a thread) because of how the kernels use random numbers:

* a seed *is* the state, so seeding costs nothing, where the Twister's seeding and first refill
  cost about as much as a random play-out, and the search seeds before every rollout;
* common random numbers (every candidate card of a world played on the same luck) are one word
  copied, not a state saved and restored;
* a random card's draw is a few register operations (the next state does not wait for the
  scrambling), where the Twister's draw sat on the critical path of every card.

The state is an int64: a hand's lives in its state array (``S_RNG``, see
:mod:`hearts.fast.state`, whose ``draw``/``chance`` use it), a sampler keeps it in a local
variable and threads it through :func:`below` and :func:`uniform`, which return the next state
with the number drawn.

>>> state = seeded(7)
>>> state, first = below(state, 52)
>>> _, again = below(seeded(7), 52)
>>> first == again and 0 <= first < 52
True
"""

from __future__ import annotations

import numpy as np

from hearts.fast._jit import JIT_ENABLED, njit

#: The odd constant the state advances by (2**64 divided by the golden ratio).
GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB

if JIT_ENABLED:
    _G = np.uint64(GOLDEN)
    _M1 = np.uint64(_MIX1)
    _M2 = np.uint64(_MIX2)
    _S30, _S27, _S31, _S32, _S11 = (np.uint64(k) for k in (30, 27, 31, 32, 11))

    @njit
    def next_word(state: int) -> tuple[int, int]:
        """The next state and 64 random bits (as an unsigned word) from ``state``."""
        s = np.uint64(state) + _G
        z = (s ^ (s >> _S30)) * _M1
        z = (z ^ (z >> _S27)) * _M2
        return np.int64(s), z ^ (z >> _S31)  # type: ignore[return-value]  # numpy ints in compiled code

    @njit
    def below(state: int, count: int) -> tuple[int, int]:
        """The next state and a random whole number in ``[0, count)``, for ``count`` below 2**31.

        The word's top 32 bits scaled by a multiply and shift (Lemire's method without its
        rejection step): a bias below count / 2**32, under one part in 80 million for a deck.
        """
        state, word = next_word(state)
        return state, np.int64(((word >> _S32) * np.uint64(count)) >> _S32)  # type: ignore[return-value]

    @njit
    def uniform(state: int) -> tuple[int, float]:
        """The next state and a random float in ``[0, 1)`` (53 random bits)."""
        state, word = next_word(state)
        return state, np.float64(word >> _S11) * (1.0 / 9007199254740992.0)

else:
    # NUMBA_DISABLE_JIT=1 (debugging): the same numbers from Python ints, which do not wrap.
    _MASK = (1 << 64) - 1

    def next_word(state: int) -> tuple[int, int]:
        s = (int(state) + GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return (s - (1 << 64) if s >> 63 else s), z ^ (z >> 31)

    def below(state: int, count: int) -> tuple[int, int]:
        state, word = next_word(state)
        return state, ((word >> 32) * int(count)) >> 32

    def uniform(state: int) -> tuple[int, float]:
        state, word = next_word(state)
        return state, (word >> 11) * (1.0 / 9007199254740992.0)


@njit
def seeded(seed: int) -> int:
    """The generator's state for ``seed``: the seed itself (any int64; seeds next to each other
    give unrelated streams, the scrambling sees to that)."""
    return seed
