"""The compiled kernels the search players run their inner loop in, loaded and warmed up once a process.

:func:`compiled_kernels` is :mod:`hearts.fast.kernels` with each kernel the search calls run once,
so that numba compiles them (or loads them from its disk cache) at start-up, not inside a timed
decision. The server calls it on start; every search player calls it when made.
"""

from __future__ import annotations

import threading
from typing import Any

from hearts.core import HandState, Rules
from hearts.players.knowledge import load_fast

__all__ = ["compiled_kernels"]

_COMPILED: object = None  # the loaded kernels module, None before the first use
_COMPILING = threading.Lock()


def compiled_kernels() -> Any:
    """:mod:`hearts.fast.kernels`, compiled (or loaded from numba's disk cache) and warmed up once
    per process. Imported on first use: numba takes about half a second to import."""
    global _COMPILED
    if _COMPILED is None:
        with _COMPILING:  # one thread loads or compiles; the others (server seats, a warm-up) wait for it
            if _COMPILED is None:
                _COMPILED = _load_kernels()
    return _COMPILED


def _load_kernels() -> Any:
    """The kernels module, each kernel the search calls run once (compiled now, not inside a timed decision)."""
    import numpy as np

    load_fast()  # the package whole, under its lock, before any of its modules (see load_fast)
    from hearts.fast import kernels
    from hearts.fast.bridge import rules_array, state_array

    # Compile (or load from numba's disk cache) now, not inside a timed decision.
    rules = Rules()
    hands = [0] * 4
    for c in range(52):
        hands[c % 4] |= 1 << c
    S = state_array(HandState(rules, hands, 3))
    kernels.search_worlds(
        S[None, :],
        rules_array(rules),
        np.array([0], dtype=np.int64),
        np.full((1, 4), kernels.POLICY_GREEDY, dtype=np.int64),
        0.1,
        np.zeros((1, 1), dtype=np.int64),
        kernels.CHOICE_BEST,
        np.zeros(4, dtype=np.int64),
    )
    from hearts.fast.sampling import sample_deals

    kernels.pass_positions(
        rules_array(rules),
        np.array(hands, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        0,
        np.zeros(1, dtype=np.int64),
        1,
    )
    kernels.play_log_likelihoods(
        np.array([hands], dtype=np.int64), rules_array(rules), np.zeros(0, dtype=np.int64), 0, -1.0, -1.0, 1
    )
    kernels.moon_log_ratios(
        np.array([hands], dtype=np.int64), rules_array(rules), np.zeros(0, dtype=np.int64), 1, -1.0, -1.0
    )
    three = np.arange(3, dtype=np.int64)
    sample_deals(three, np.full(3, 2, dtype=np.int64), three, three, 0, -1, 0.8, 4, 0, 1)
    return kernels
