"""The learned evaluation's features and its value of a card, compiled: what a seat knows, never more.

A candidate card is described by two short vectors: the **situation** (``A``, :data:`SITUATION`:
the trick's points, the seat's place in it, Q♠ still out, the points taken so far, the moon, ...),
shared by every card the seat may play, and the **card** (``B``, :data:`CARD`: its rank and points,
how many higher and lower cards of its suit are still out, whether it wins the trick now, ...). The
features are every product ``A[i] * B[j]``, one set per kind of play (lead, follow, discard: see
:data:`KINDS`), so the model is linear in hand-made products of atomic facts, the shape of Sturtevant
and White's linear learner. A card's value is ``A @ W[kind] @ B``: the points the seat expects to take
from here to the end of the hand, less the mean of the others' (a moon scored as the rules score it).

The inputs are those of :func:`hearts.fast.medium.medium_choice`, what the seat knows: its hand, the
cards still out (in the other hands, whoever holds them), the voids the other seats have **shown**,
the cards each seat has taken, the trick so far. The player gets them from its
:class:`~hearts.players.knowledge.Knowledge`, the self-play from a world and the voids it has seen
shown; two worlds that differ only in the other seats' unplayed cards give the same features.
"""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    HEARTS,
    MOON_DISABLED,
    QS_BIT,
    QUEEN_OF_SPADES,
    R_BONUS_CARD,
    R_BREAKERS,
    R_BROKEN_AT_START,
    R_HAND_SIZE,
    R_IN_PLAY,
    R_MOON,
    R_PENALTY,
    R_PLAYERS,
    SUIT,
    beats,
    penalty_points,
    points_taken,
)
from hearts.fast._jit import njit
from hearts.fast.bits import highest_card, lowest_card, popcount
from hearts.fast.medium import _threat, medium_choice

#: Bumped whenever the features change: a weights file records the version it was trained on.
FEATURES_VERSION = 1

#: The situation's atoms (``A``), in order: the words a hint uses for each.
SITUATION = (
    "always",
    "points in the trick",
    "last to play",
    "seats still to play",
    "Q♠ still out",
    "holding Q♠",
    "tricks left",
    "my points so far",
    "the moon still open to me",
    "another seat may shoot",
    "the would-be shooter winning the trick",
    "hearts broken",
    "points still out",
    "voids shown by the others",
    "hearts still out",
    "points in the trick, last to play",
)
#: The card's atoms (``B``), in order.
CARD = (
    "any card",
    "its rank",
    "its points",
    "being Q♠",
    "being A♠ or K♠",
    "being a heart",
    "higher cards of its suit out",
    "lower cards of its suit out",
    "my other cards of its suit",
    "winning the trick",
    "voids shown by the seats after me",
    "being the top card still out",
    "being the bonus card",
    "being my highest of its suit",
    "sure to win the trick",
    "sure to lose the trick",
    "being a spade",
    "being a club or a diamond",
    "being the medium player's card",
)
#: The kinds of play, each with its own weights.
KINDS = ("lead", "follow", "discard")
N_SITUATION = len(SITUATION)
N_CARD = len(CARD)
N_KINDS = len(KINDS)
#: The model's number of weights: one per (kind, situation atom, card atom).
N_FEATURES = N_KINDS * N_SITUATION * N_CARD
HIGH_SPADES = (1 << (QUEEN_OF_SPADES + 1)) | (1 << (QUEEN_OF_SPADES + 2))
KIND_LEAD = 0
KIND_FOLLOW = 1
KIND_DISCARD = 2


@njit
def _penalty(mask: int, R: np.ndarray) -> int:
    """:func:`penalty_points`, called rather than inlined: numba's inliner trips over a rule function
    inlined several times in one kernel (a compile-time warning, no more)."""
    return penalty_points(mask, R)


@njit
def _points(mask: int, R: np.ndarray) -> int:
    """:func:`points_taken`, called rather than inlined (see :func:`_penalty`)."""
    return points_taken(mask, R)


@njit
def situation(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    voids: int,
    tricks_done: int,
    trick_len: int,
    w_seat: int,
    tmask: int,
    A: np.ndarray,
) -> None:
    """Fill ``A`` (:data:`N_SITUATION`) with the situation of ``seat`` about to play (the arguments
    are :func:`hearts.fast.medium.medium_choice`'s: ``T[t0 + s]`` the cards seat ``s`` has taken,
    ``voids`` bit ``4 * seat + suit`` for each suit a seat has shown it lacks)."""
    n = R[R_PLAYERS]
    size = max(1, R[R_HAND_SIZE])
    pen = R[R_PENALTY]
    played = R[R_IN_PLAY] & ~hand & ~out
    others_points = False
    for s in range(n):
        if s != seat and T[t0 + s] & pen:
            others_points = True
    threat = _threat(R, T, t0, seat, -1)
    A[0] = 1.0
    A[1] = _points(tmask, R) / 13.0
    A[2] = 1.0 if trick_len == n - 1 else 0.0
    A[3] = (n - 1 - trick_len) / (n - 1)
    A[4] = 1.0 if out & QS_BIT else 0.0
    A[5] = 1.0 if hand & QS_BIT else 0.0
    A[6] = (size - tricks_done) / size
    A[7] = _penalty(T[t0 + seat], R) / 26.0
    A[8] = 1.0 if R[R_MOON] != MOON_DISABLED and not others_points else 0.0
    A[9] = 1.0 if threat >= 0 else 0.0
    A[10] = 1.0 if threat >= 0 and trick_len > 0 and w_seat == threat else 0.0
    A[11] = 1.0 if R[R_BROKEN_AT_START] or played & R[R_BREAKERS] else 0.0
    A[12] = _penalty(out, R) / 26.0
    shown = 0
    for o in range(n):
        if o != seat:
            shown += popcount((voids >> (4 * o)) & 15)
    A[13] = shown / (4.0 * (n - 1))
    A[14] = popcount(out & HEARTS) / 13.0
    A[15] = A[1] * A[2]


@njit
def card_atoms(
    R: np.ndarray,
    seat: int,
    hand: int,
    out: int,
    voids: int,
    trick_len: int,
    w: int,
    card: int,
    prior: int,
    B: np.ndarray,
) -> int:
    """Fill ``B`` (:data:`N_CARD`) with the atoms of playing ``card``; return its kind (``KIND_*``).

    ``voids``: bit ``4 * seat + suit`` for each suit a seat has shown it lacks; ``w`` the card winning
    the trick (any card when leading); ``prior`` the medium player's card here (:func:`prior_card`):
    the model learns where to follow it and where not."""
    n = R[R_PLAYERS]
    suit = card // 13
    bit = 1 << card
    in_suit = SUIT << (13 * suit)
    mine = hand & in_suit & ~bit
    higher = out & in_suit & ~((2 << card) - 1)
    lower = out & in_suit & ((1 << card) - 1)
    if trick_len == 0:
        kind = KIND_LEAD
        wins = True
        loses = lower == 0 and higher != 0
    elif suit == w // 13:
        kind = KIND_FOLLOW
        wins = beats(card, w)
        loses = not wins
    else:
        kind = KIND_DISCARD
        wins = False
        loses = True
    after = 0
    for i in range(trick_len + 1, n):
        o = (seat + i - trick_len) % n
        if voids >> (4 * o + suit) & 1:
            after += 1
    B[0] = 1.0
    B[1] = (card % 13) / 12.0
    B[2] = _points(bit, R) / 13.0
    B[3] = 1.0 if card == QUEEN_OF_SPADES else 0.0
    B[4] = 1.0 if bit & HIGH_SPADES else 0.0
    B[5] = 1.0 if bit & HEARTS else 0.0
    B[6] = popcount(higher) / 12.0
    B[7] = popcount(lower) / 12.0
    B[8] = popcount(mine) / 12.0
    B[9] = 1.0 if wins else 0.0
    B[10] = after / max(1, n - 1)
    B[11] = 1.0 if higher == 0 and (out & in_suit) != 0 else 0.0
    B[12] = 1.0 if card == R[R_BONUS_CARD] else 0.0
    B[13] = 1.0 if mine == 0 or highest_card(mine) < card else 0.0
    B[14] = 1.0 if wins and (trick_len == n - 1 or higher == 0) else 0.0
    B[15] = 1.0 if loses else 0.0
    B[16] = 1.0 if suit == 2 else 0.0
    B[17] = 1.0 if suit < 2 else 0.0
    B[18] = 1.0 if card == prior else 0.0
    return kind


@njit
def prior_card(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    voids: int,
    tricks_done: int,
    legal: int,
    trick_len: int,
    w: int,
    w_seat: int,
    tmask: int,
) -> int:
    """The medium player's card (:func:`hearts.fast.medium.medium_choice`, its moon plan included):
    the rule-based prior the model starts from."""
    card, _why, _who = medium_choice(
        R, T, t0, seat, hand, out, voids, tricks_done, _penalty(T[t0 + seat], R),
        legal, trick_len, w, w_seat, tmask, -1, True,
    )  # fmt: skip
    return card


@njit
def card_value(W: np.ndarray, kind: int, A: np.ndarray, B: np.ndarray) -> float:
    """The model's value of a card: ``A @ W[kind] @ B`` (the seat's expected relative points from
    here; lower is better). :data:`N_SITUATION` x :data:`N_CARD` multiply-adds."""
    total = 0.0
    for i in range(A.shape[0]):
        a = A[i]
        if a != 0.0:
            row = 0.0
            for j in range(B.shape[0]):
                row += W[kind, i, j] * B[j]
            total += a * row
    return total


@njit
def learned_values(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    voids: int,
    tricks_done: int,
    legal: int,
    trick_len: int,
    w: int,
    w_seat: int,
    tmask: int,
    W: np.ndarray,
    margin: float,
    values: np.ndarray,
) -> int:
    """Write the model's value of every legal card into ``values[card]`` (52 slots; the others are
    left alone) and return the card to play: the lowest value (the lowest card on a tie), except that
    the medium player's card (:func:`prior_card`) is kept unless another is valued ``margin`` points
    better (a model's small differences are mostly its noise). The arguments are
    :func:`hearts.fast.medium.medium_choice`'s, with ``W`` the weights
    (``float64[N_KINDS, N_SITUATION, N_CARD]``)."""
    A = np.empty(N_SITUATION)
    B = np.empty(N_CARD)
    situation(R, T, t0, seat, hand, out, voids, tricks_done, trick_len, w_seat, tmask, A)
    prior = prior_card(R, T, t0, seat, hand, out, voids, tricks_done, legal, trick_len, w, w_seat, tmask)
    best = -1
    best_value = 0.0
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        kind = card_atoms(R, seat, hand, out, voids, trick_len, w, c, prior, B)
        v = card_value(W, kind, A, B)
        values[c] = v
        if c == prior:
            v -= margin
        if best < 0 or v < best_value:
            best = c
            best_value = v
    return best
