"""The ``expert`` level: Monte Carlo search over the hidden cards at 1 s a decision, up to 4,000 worlds.

The search itself is :class:`hearts.players.search.SearchPlayer`, shared with ``hard``; this
level sets a larger budget and world cap, always searches its pass, and models every seat with
the medium player's whole card play, its moon plan included (``rollout_policy="medium-moon"``).

>>> ExpertPlayer(seed=1).budget, ExpertPlayer(seed=1).max_worlds, ExpertPlayer(seed=1).rollout_policy
(1.0, 4000, 'medium-moon')
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer

__all__ = ["ExpertPlayer"]


class ExpertPlayer(SearchPlayer):
    """Monte Carlo search, 1 s per decision and up to 4,000 worlds, a searched pass, worlds
    weighted by how well they explain the other seats' plays (inference, as hard), and rollouts in
    which a seat with a moon hand runs for the moon."""

    name = "expert"
    default_budget = 1.0
    #: With the compiled loop hard reaches its 1,000 worlds in about half its budget early in a
    #: hand; expert's larger budget buys more worlds only with a higher cap (and so keeps more
    #: effective worlds once they are weighted by inference).
    world_cap = 4000
    default_search_pass = True
    #: Expert's rollouts and inference model every seat with the medium player's whole card play,
    #: its moon plan included (``kernels.medium_moon_card``): a seat whose sampled hand can shoot
    #: plays for the moon, seen by the others only through the points it takes. Hard's model
    #: (``"medium"``) has no seat shoot unless the search tells it to.
    default_rollout_policy = "medium-moon"
