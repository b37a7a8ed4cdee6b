"""The fast simulation core: numba-compiled legal moves, tricks, scoring, batch hands and rollouts.

The rules are :mod:`hearts.core.arith`'s, the same functions the engine runs, compiled. The
kernels (:mod:`hearts.fast.kernels`, which re-exports ``state``, ``policies``, ``medium``,
``playout``, ``search`` and ``inference``) take the rules as the int array of :func:`rules_array`
and a position as the state array of :func:`state_array`; the wrappers here take
:class:`hearts.core.Rules` and :class:`hearts.core.HandState`. Compiled code is cached on disk, in
a folder keyed on the sources (see :mod:`hearts.fast._jit`), so only the first use on a machine
after a change pays the compile. ``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python
(see :data:`JIT_ENABLED`).

Importing this package imports numba (about half a second), so command-line code keeps
``import hearts.fast`` inside the functions that use it.
"""

from hearts.fast import features, selfplay
from hearts.fast._jit import JIT_ENABLED
from hearts.fast.bridge import (
    GREEDY_EPS,
    MOON_MODES,
    POLICIES,
    GameResults,
    HandResults,
    rollout,
    rollout_candidates,
    rollout_worlds,
    rules_array,
    simulate,
    simulate_games,
    state_array,
    warm_up,
)

__all__ = [
    "GREEDY_EPS", "JIT_ENABLED", "features", "selfplay", "MOON_MODES", "POLICIES", "GameResults", "HandResults", "rollout", "rollout_candidates",
    "rollout_worlds", "rules_array", "simulate", "simulate_games", "state_array", "warm_up",
]  # fmt: skip
