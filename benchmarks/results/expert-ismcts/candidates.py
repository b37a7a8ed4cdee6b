"""Experts for the ISMCTS runs of this folder, as ``py:`` factories (``--player 'py:PATH:NAME'``).

``without_moon_defence``: today's expert with issue 20's moon machinery switched off (the pass of
before: medium's reference pass and model of the receivers, 12 candidates; no early moon threat),
keeping its learned rollouts: what the defence costs against a table that hardly ever shoots.

``medium_moon_rollouts``: today's expert rolling its own seat out with ``medium-moon`` (the expert of
the issue's start did) instead of the learned model's card, its moon defence kept.

``learned_opponents``: today's expert rolling the other seats out with the learned model's card too
(``opponent_policy="learned"``; medium's card unless the model values another by its margin), a
stronger model of a strong table than medium's play, at about five times medium's cost a card.
Inference still explains their plays with medium's (the model has no likelihood kernel). Measured on
seed 6 only (README: -0.53 a seat-deal against today's expert on the same deals).
"""

from __future__ import annotations

from hearts.players.expert import ExpertPlayer
from hearts.players.passing import PassSearch


class ExpertWithoutMoonDefence(ExpertPlayer):
    name = "expert"
    default_moon_safe_passes = False
    default_pass_opponent_policy = None
    max_pass_candidates = PassSearch.max_pass_candidates
    early_threat_points = 0


def without_moon_defence(seed: int | None = None, time_budget: float | None = None) -> ExpertPlayer:
    return ExpertWithoutMoonDefence(seed=seed, time_budget=time_budget)


def medium_moon_rollouts(seed: int | None = None, time_budget: float | None = None) -> ExpertPlayer:
    return ExpertPlayer(seed=seed, time_budget=time_budget, rollout_policy="medium-moon")


def learned_opponents(seed: int | None = None, time_budget: float | None = None) -> ExpertPlayer:
    return ExpertPlayer(seed=seed, time_budget=time_budget, opponent_policy="learned")
