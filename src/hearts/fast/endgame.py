"""Exact endings, compiled: the last tricks of a sampled world solved instead of rolled out.

With few tricks left a world is small enough to search whole: :func:`solve_worlds` plays every
candidate card of the seat to play and then every legal card of every seat, each seat choosing the
card that leaves it the best hand result (max-n: its points against the others' mean, a moon
counted as the rules score it), and returns the hand scores of that line. Cards of one seat that
play alike (adjacent among the cards still in play, scoring the same) are searched once.
"""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    CHOICE_ADD_TO_OTHERS,
    HEARTS,
    MOON_SHOOTER_CHOOSES,
    QS_BIT,
    R_BONUS_CARD,
    R_HAND_SIZE,
    R_MOON,
    R_PLAYERS,
    best_moon_choice,
)
from hearts.fast._jit import njit
from hearts.fast.bits import lowest_card
from hearts.fast.state import (
    MAX_PLAYERS,
    S_HANDS,
    S_TRICK_MASK,
    S_TRICKS_DONE,
    S_TURN,
    STATE_SIZE,
    advance,
    legal_mask,
    score_hand,
)

#: Plies a solve can go deep at most (every card of a hand of 13, the trick in progress included).
MAX_PLIES = 13 * MAX_PLAYERS + 1


@njit
def _alike(a: int, b: int, live: int, special: int) -> bool:
    """Whether cards ``a < b`` of one hand play alike: same suit, no card still in play between them,
    and the same points (hearts with hearts, plain cards with plain; Q♠ and the bonus card alone)."""
    if a // 13 != b // 13 or (special >> a & 1) or (special >> b & 1):
        return False
    between = (1 << b) - (2 << a)
    return (live & between) == 0


@njit
def _leaf(S: np.ndarray, R: np.ndarray, totals: np.ndarray, row: np.ndarray) -> None:
    """The finished hand's scores into ``row``, a moon left to the shooter answered as players do."""
    shooter = score_hand(S, R, CHOICE_ADD_TO_OTHERS, row)
    if shooter >= 0 and R[R_MOON] == MOON_SHOOTER_CHOOSES:
        choice = best_moon_choice(R, totals, shooter)
        if choice != CHOICE_ADD_TO_OTHERS:
            score_hand(S, R, choice, row)


@njit
def _maxn(ST: np.ndarray, V: np.ndarray, R: np.ndarray, totals: np.ndarray, special: int) -> None:
    """Solve the position ``ST[0]``: write into ``V[0]`` the hand scores of the line where every
    seat plays the card that leaves it the best result (ties to the lowest card). Depth first with
    an explicit stack (numba caches no recursive function): ``ST[d]`` is the position at depth
    ``d``, ``V[d]`` its best line so far, and the per-depth arrays the cards left to try there."""
    n = R[R_PLAYERS]
    depth = ST.shape[0]
    left = np.zeros(depth, dtype=np.int64)  # legal cards not yet tried at each depth
    live = np.zeros(depth, dtype=np.int64)  # cards still in play at each depth
    prev = np.zeros(depth, dtype=np.int64)  # the last card tried at each depth
    best = np.zeros(depth, dtype=np.float64)
    d = 0
    entering = True
    while True:
        S = ST[d]
        if entering:
            entering = False
            prev[d] = -1
            best[d] = -1e18
            if S[S_TRICKS_DONE] == R[R_HAND_SIZE]:
                _leaf(S, R, totals, V[d])
                left[d] = 0
            else:
                left[d] = legal_mask(S, R)
                m = S[S_TRICK_MASK]
                for s in range(n):
                    m |= S[S_HANDS + s]
                live[d] = m
        # The next card to try here, skipping those that play alike with the one before.
        card = -1
        while left[d]:
            c = lowest_card(left[d])
            left[d] &= left[d] - 1
            alike = prev[d] >= 0 and _alike(prev[d], c, live[d], special)
            prev[d] = c
            if not alike:
                card = c
                break
        if card >= 0:
            ST[d + 1, :] = S
            advance(ST[d + 1], R, card)
            d += 1
            entering = True
            continue
        # Every card tried: V[d] is this position's line; the parent keeps it if its mover gains.
        if d == 0:
            return
        d -= 1
        turn = ST[d, S_TURN]
        total = 0
        for s in range(n):
            total += V[d + 1, s]
        value = (total - V[d + 1, turn]) / (n - 1) - V[d + 1, turn]
        if value > best[d]:
            best[d] = value
            for s in range(n):
                V[d, s] = V[d + 1, s]


@njit
def solve_worlds(worlds: np.ndarray, R: np.ndarray, cards: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """For each world (a state array, the seat to play's) and each candidate card, the hand scores
    when the card is played and the rest solved exactly (:func:`_maxn`). Returns
    scores[world, 1, 1, card, seat], the shape of :func:`hearts.fast.search.search_worlds_with`'s
    answer with one rollout and one plan."""
    n = R[R_PLAYERS]
    out = np.zeros((worlds.shape[0], 1, 1, cards.shape[0], n), dtype=np.int64)
    ST = np.empty((MAX_PLIES + 1, STATE_SIZE), dtype=np.int64)
    V = np.zeros((MAX_PLIES + 1, MAX_PLAYERS), dtype=np.int64)
    special = QS_BIT & ~HEARTS
    if R[R_BONUS_CARD] >= 0:
        special |= 1 << R[R_BONUS_CARD]
    for w in range(worlds.shape[0]):
        for i in range(cards.shape[0]):
            ST[0, :] = worlds[w]
            advance(ST[0], R, cards[i])
            _maxn(ST, V, R, totals, special)
            for s in range(n):
                out[w, 0, 0, i, s] = V[0, s]
    return out
