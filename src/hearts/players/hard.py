"""The ``hard`` level: Monte Carlo search over the hidden cards at 0.3 s a decision.

The search itself (sampling worlds, rollouts, inference, the moon plan and defence) is
:class:`hearts.players.search.SearchPlayer`, shared with ``expert``; this level sets its budget.

>>> HardPlayer(seed=1).budget, HardPlayer(seed=1).max_worlds, HardPlayer(seed=1).moon_safe_passes
(0.3, 1000, False)
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer

__all__ = ["HardPlayer"]


class HardPlayer(SearchPlayer):
    """Monte Carlo search, 0.3 s per decision, a searched pass and inference (docs/players.md)."""

    name = "hard"
    default_budget = 0.3
    default_search_pass = True
    #: Hard searches its pass from medium's own (top hearts included): keeping A♥ K♥ Q♥ made
    #: expert more moons, but hard, which rolls its own seat out without a moon plan, scored less
    #: with it in small duplicate runs against the hard before it (docs/players.md, Moons).
    default_moon_safe_passes = False
