"""The ``expert`` level: Monte Carlo search over the hidden cards at 1 s a decision, up to 4,000 worlds.

The search itself is :class:`hearts.players.search.SearchPlayer`, shared with ``hard``; this
level sets a larger budget and world cap and always searches its pass.

>>> ExpertPlayer(seed=1).budget, ExpertPlayer(seed=1).max_worlds
(1.0, 4000)
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer

__all__ = ["ExpertPlayer"]


class ExpertPlayer(SearchPlayer):
    """Monte Carlo search, 1 s per decision and up to 4,000 worlds, a searched pass, and worlds
    weighted by how well they explain the other seats' plays (inference, as hard)."""

    name = "expert"
    default_budget = 1.0
    #: With the compiled loop hard reaches its 1,000 worlds in about half its budget early in a
    #: hand; expert's larger budget buys more worlds only with a higher cap (and so keeps more
    #: effective worlds once they are weighted by inference).
    world_cap = 4000
    default_search_pass = True
