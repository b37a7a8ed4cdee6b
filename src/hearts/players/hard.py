"""The ``hard`` level: Monte Carlo search over the hidden cards at 0.3 s a decision.

The search itself (sampling worlds, rollouts, inference, the moon plan and defence) is
:class:`hearts.players.search.SearchPlayer`, shared with ``expert``; this level sets its budget.

>>> HardPlayer(seed=1).budget, HardPlayer(seed=1).max_worlds
(0.3, 1000)
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer

__all__ = ["HardPlayer"]


class HardPlayer(SearchPlayer):
    """Monte Carlo search, 0.3 s per decision, a searched pass and inference (docs/players.md)."""

    name = "hard"
    default_budget = 0.3
    default_search_pass = True
