"""The ``expert`` level: Monte Carlo search over the hidden cards at 1 s a decision, up to 4,000 worlds.

The search itself is :class:`hearts.players.search.SearchPlayer`, shared with ``hard``; this
level sets a larger budget and world cap, always searches its pass, and in its rollouts plays its
own seat with the learned model's card (``rollout_policy="learned"``: medium's whole card play, its
moon plan included, unless the model values another card by its margin), and the other seats with
medium's play without the moon plan (``opponent_policy="medium"``, also inference's model of them). Against moons (issue 20) it
passes from medium's pass with A♥ K♥ Q♥ kept, models the other seats with ``"medium-moon"`` in
its pass search, and defends an early moon threat (docs/players.md, Moons).

>>> p = ExpertPlayer(seed=1)
>>> p.budget, p.max_worlds, p.rollout_policy, p.opponent_policy
(1.0, 4000, 'learned', 'medium')
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer

__all__ = ["ExpertPlayer"]


class ExpertPlayer(SearchPlayer):
    """Monte Carlo search, 1 s per decision and up to 4,000 worlds, a searched pass, worlds
    weighted by how well they explain the other seats' plays (inference, as hard), and rollouts in
    which its own seat runs a moon hand it holds."""

    name = "expert"
    default_budget = 1.0
    #: With the compiled loop hard reaches its 1,000 worlds in about half its budget early in a
    #: hand; expert's larger budget buys more worlds only with a higher cap (and so keeps more
    #: effective worlds once they are weighted by inference).
    world_cap = 4000
    default_search_pass = True
    #: Expert's own seat rolls out with the learned model's card (``kernels.POLICY_LEARNED``): the
    #: medium player's whole card play, its moon plan included (so where a sampled world gives it
    #: a moon hand it runs for the moon in the rollouts), unless the model values another card by
    #: its margin. Its later play modelled so beat the same search rolling out with medium's play
    #: (``"medium-moon"``) at equal worlds, for about 1.6 times the time a decision, which expert's
    #: budget has to spare (docs/players.md, The learned model inside the search).
    default_rollout_policy = "learned"
    #: The other seats keep hard's model (``"medium"``: no seat shoots unless the search's moon
    #: defence tells it to), in the rollouts and in inference. Modelling them with medium-moon
    #: too beat hard by as much but cost about half a point a seat-deal against OpenSpiel's ISMCTS
    #: (docs/players.md, Ladder results; docs/tournaments.md, Against OpenSpiel's ISMCTS).
    default_opponent_policy = "medium"
    #: The moon-safe pass searches more passes (those keeping A♥ K♥ Q♥ beside the dangerous ones).
    max_pass_candidates = 20
    #: Early moon defence (2026-12-03, issue 20; docs/players.md, Moons): the seat holding every
    #: point taken so far, from one penalty card or Q♠ alone, or before anyone has a point the seat
    #: that has won the most tricks (at least two), is an early threat; it runs for the moon in a
    #: sampled world with a chance rising steeply with the moon strength of the hand it was dealt
    #: there (a half at 0.25, about the median dealt hand), weighed by how much better a run
    #: explains its plays than medium's play, and its pass where it passed to this seat; where it
    #: runs in at least half the (weighted) worlds, the card the search keeps unless another is
    #: clearly better is medium's defence against it. The prior was a half at 0.45 before the
    #: evening of 2026-12-03, when reading the pass came in: the two together let the hunter make
    #: about a fifth fewer moons at a small budget (docs/players.md, Moons).
    early_threat_points = 1
    early_threat_tricks = 2
    early_threat_strength = 0.25
    early_threat_slope = 25.0
    moon_evidence = True
    pass_miss_weight = 0.3
    early_defence_share = 0.5
