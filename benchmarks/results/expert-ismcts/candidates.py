"""Experts for the ISMCTS runs of this folder, as ``py:`` factories (``--player 'py:PATH:NAME'``).

Each is a variant of :data:`~hearts.players.search_config.EXPERT`, so the same player can also be
named as a spec, ``'NAME=expert:knob=value,...'`` (its settings are in each factory below).

``without_moon_defence``: the expert with issue 20's moon machinery switched off (the pass of
before: medium's reference pass searched against medium receivers, 12 candidates; no early moon
threat), keeping its learned rollouts: what the defence costs against a table that hardly ever shoots.

``medium_moon_rollouts``: the expert rolling its own seat out with ``medium-moon`` (the expert of
the issue's start did) instead of the learned model's card, its moon defence kept.

The third candidate of the README, ``learned_opponents`` (the other seats rolled out with the learned
model's card), was measured at 096eb6d; the search lost that setting in issue 41, as no level used it.
"""

from __future__ import annotations

from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT

WITHOUT_MOON_DEFENCE = EXPERT.replace(
    pass_opponents="medium", moon_safe_passes=False, pass_candidates=12, early_threat_points=0
)
MEDIUM_MOON_ROLLOUTS = EXPERT.replace(rollout="medium-moon")


def without_moon_defence(seed: int | None = None, time_budget: float | None = None) -> SearchPlayer:
    return SearchPlayer(WITHOUT_MOON_DEFENCE, seed=seed, time_budget=time_budget)


def medium_moon_rollouts(seed: int | None = None, time_budget: float | None = None) -> SearchPlayer:
    return SearchPlayer(MEDIUM_MOON_ROLLOUTS, seed=seed, time_budget=time_budget)
