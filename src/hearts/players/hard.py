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
    """Monte Carlo search, 0.3 s per decision, a searched pass and inference (where the compiled
    loop runs).

    The pass is searched by default with the compiled inner loop (about 700 deals in the budget; a
    paired check against medium showed a small, not yet significant gain) and not without it
    (medium's pass, as before: the Python loop plays about a tenth of the deals, and that setting
    was not measured)."""

    name = "hard"
    default_budget = 0.3
    default_search_pass = None
