"""The search players' inner loop, compiled: every candidate card under every plan, in a batch of
sampled worlds, several rollouts each (common random numbers across candidates)."""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    CHOICE_ADD_TO_OTHERS,
    CHOICE_BEST,
    MOON_SHOOTER_CHOOSES,
    R_MOON,
    R_PLAYERS,
    best_moon_choice,
)
from hearts.fast._jit import njit
from hearts.fast.playout import play_out
from hearts.fast.rng import seeded
from hearts.fast.state import MAX_PLAYERS, S_RNG, STATE_SIZE, advance, score_hand


@njit
def search_worlds(
    worlds: np.ndarray,
    R: np.ndarray,
    cards: np.ndarray,
    plans: np.ndarray,
    eps: float,
    seeds: np.ndarray,
    moon_mode: int,
    totals: np.ndarray,
) -> np.ndarray:
    """:func:`rollout_candidates` for a batch of sampled worlds, several rollouts each: the search
    players' inner loop in one call.

    ``worlds[w]`` is a state array (the seat to play's sampled world); ``seeds[w, r]`` seeds the
    ``r``-th rollout of world ``w``, the same for every plan and card (common random numbers). A
    card below 0 plays nothing first (the world is already the position to score: a pass search).
    Returns scores[w, r, plan, card, seat].
    """
    players = R[R_PLAYERS]
    W = worlds.shape[0]
    reps = seeds.shape[1]
    out = np.zeros((W, reps, plans.shape[0], cards.shape[0], players), dtype=np.int64)
    S = np.empty(STATE_SIZE, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for w in range(W):
        for r in range(reps):
            rng = seeded(seeds[w, r])
            for p in range(plans.shape[0]):
                for i in range(cards.shape[0]):
                    S[:] = worlds[w]
                    if cards[i] >= 0:
                        advance(S, R, cards[i])
                    S[S_RNG] = rng
                    play_out(S, R, plans[p], eps, no_trace)
                    shooter = score_hand(S, R, CHOICE_ADD_TO_OTHERS, row)
                    if shooter >= 0 and R[R_MOON] == MOON_SHOOTER_CHOOSES:
                        choice = best_moon_choice(R, totals, shooter) if moon_mode == CHOICE_BEST else moon_mode
                        if choice != CHOICE_ADD_TO_OTHERS:
                            score_hand(S, R, choice, row)
                    for s in range(players):
                        out[w, r, p, i, s] = row[s]
    return out


@njit
def rollout_candidates(
    S0: np.ndarray,
    R: np.ndarray,
    cards: np.ndarray,
    plans: np.ndarray,
    eps: float,
    seed: int,
    moon_mode: int,
    totals: np.ndarray,
) -> np.ndarray:
    """One world of a Monte Carlo search in one call: for each plan (a row of per-seat policies)
    and each candidate card of the seat to play, play the card, play the hand out and score it.

    Every candidate is played with the generator seeded with ``seed`` (common random numbers:
    the candidates meet the same luck). A moon left to the shooter is answered by ``moon_mode``
    (CHOICE_BEST weighs the game's ``totals`` as the players do). Returns scores[plan, card, seat]:
    :func:`search_worlds` for one world and one rollout.
    """
    worlds = np.empty((1, STATE_SIZE), dtype=np.int64)
    worlds[0] = S0
    seeds = np.full((1, 1), seed, dtype=np.int64)
    return search_worlds(worlds, R, cards, plans, eps, seeds, moon_mode, totals)[0, 0]
