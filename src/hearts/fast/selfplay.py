"""Compiled self-play for the learned evaluation: hands played by medium, learned or random seats,
the regression's sums gathered from them, and the duplicate comparison that measures a model.

Every seat decides from what it knows (:mod:`hearts.fast.features`): its hand, the cards out, the
voids shown so far (tracked here as the cards fall, never read off the other hands), the cards
taken, the trick. Each hand is dealt from its own generator seed (:func:`hand_seed`: the run's seed
and the hand's number), so a run split into chunks plays what one run plays, and the same deal can
be played again with another seat swapped in (duplicate play).
"""

from __future__ import annotations

import numpy as np

from hearts.core.arith import CHOICE_ADD_TO_OTHERS, R_HAND_SIZE, R_PLAYERS, pass_offset
from hearts.fast._jit import njit
from hearts.fast.bits import lowest_card
from hearts.fast.features import (
    N_CARD,
    N_SITUATION,
    _points,
    card_atoms,
    learned_values,
    prior_card,
    situation,
)
from hearts.fast.medium import _out_of, medium_choice
from hearts.fast.playout import play_out
from hearts.fast.policies import POLICY_MEDIUM, POLICY_MEDIUM_MOON, POLICY_RANDOM, choose_pass
from hearts.fast.state import (
    MAX_PLAYERS,
    S_HANDS,
    S_POINTS,
    S_TAKEN,
    S_TRICK,
    S_TRICK_LEN,
    S_TRICK_MASK,
    S_TRICKS_DONE,
    S_TURN,
    STATE_SIZE,
    advance,
    chance,
    deal,
    exchange,
    legal_mask,
    random_card,
    score_hand,
    seed_state,
    start_play,
    trick_best,
)

SEAT_MEDIUM = 0  #: the medium player's card play, its moon plan included
SEAT_LEARNED = 1  #: the model's card (lowest value)
SEAT_RANDOM = 2  #: a random legal card (and a random pass)


@njit
def hand_seed(seed: int, hand: int) -> int:
    """The generator seed of hand number ``hand`` of a run seeded ``seed`` (any ints >= 0)."""
    return (seed * 1_000_003 + hand * 7_919 + 12_345) % 2_147_483_647


@njit
def relative(row: np.ndarray, n: int, seat: int) -> float:
    """``row[seat]`` less the mean of the other seats' entries: what the model predicts."""
    total = 0.0
    for s in range(n):
        total += row[s]
    return row[seat] - (total - row[seat]) / (n - 1)


@njit
def add_sample(
    XtX: np.ndarray, Xty: np.ndarray, totals: np.ndarray, A: np.ndarray, B: np.ndarray, kind: int, target: float
) -> None:
    """Add one decision's features (the products ``A[i] * B[j]`` of its kind) and target to the ridge
    regression's sums (``XtX``'s upper triangle)."""
    cells = N_SITUATION * N_CARD
    index = np.empty(cells, dtype=np.int64)
    value = np.empty(cells)
    nz = 0
    base = kind * cells
    for i in range(N_SITUATION):
        a = A[i]
        if a != 0.0:
            for j in range(N_CARD):
                b = B[j]
                if b != 0.0:
                    index[nz] = base + i * N_CARD + j
                    value[nz] = a * b
                    nz += 1
    for p in range(nz):
        ip = index[p]
        vp = value[p]
        Xty[ip] += vp * target
        for q in range(p, nz):
            XtX[ip, index[q]] += vp * value[q]
    totals[0] += 1.0
    totals[1] += target
    totals[2] += target * target


@njit
def _trick_so_far(S: np.ndarray, n: int) -> tuple[int, int]:
    """The trick's winning card so far and its seat in world ``S`` (0 and -1 before the lead)."""
    if S[S_TRICK_LEN] > 0:
        return trick_best(S, n)
    return 0, -1


@njit
def _taken_so_far(S: np.ndarray, R: np.ndarray, seat: int, scratch: np.ndarray) -> float:
    """:func:`relative` of the points each seat has taken so far in world ``S`` (``scratch`` holds them)."""
    n = R[R_PLAYERS]
    for s in range(n):
        scratch[s] = _points(S[S_TAKEN + s], R)
    return relative(scratch, n, seat)


@njit
def rollout_targets(
    S: np.ndarray,
    R: np.ndarray,
    voids: int,
    legal: int,
    base: float,
    XtX: np.ndarray,
    Xty: np.ndarray,
    totals: np.ndarray,
) -> None:
    """For every legal card of the seat to play in world ``S``: play it, play the hand out with the
    medium policy at every seat, and add the card's features (what the seat knows) with the outcome
    (its relative points from here: the scores' :func:`relative` less ``base``) to the sums. Every
    card is tried on the same world, so the differences between cards carry no deal luck."""
    n = R[R_PLAYERS]
    turn = S[S_TURN]
    tl = S[S_TRICK_LEN]
    w, w_seat = _trick_so_far(S, n)
    hand = S[S_HANDS + turn]
    out = _out_of(S, n, turn)
    done = S[S_TRICKS_DONE]
    tmask = S[S_TRICK_MASK]
    A = np.empty(N_SITUATION)
    B = np.empty(N_CARD)
    situation(R, S, S_TAKEN, turn, hand, out, voids, done, tl, w_seat, tmask, A)
    prior = prior_card(R, S, S_TAKEN, turn, hand, out, voids, done, legal, tl, w, w_seat, tmask)
    policies = np.full(MAX_PLAYERS, POLICY_MEDIUM_MOON, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    S2 = np.empty_like(S)
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        kind = card_atoms(R, turn, hand, out, voids, tl, w, c, prior, B)
        S2[:] = S
        advance(S2, R, c)
        play_out(S2, R, policies, 0.0, no_trace)
        score_hand(S2, R, CHOICE_ADD_TO_OTHERS, row)
        add_sample(XtX, Xty, totals, A, B, kind, relative(row, n, turn) - base)


@njit
def world_values(S: np.ndarray, R: np.ndarray, voids: int, W: np.ndarray, margin: float, values: np.ndarray) -> int:
    """The model's card (:func:`hearts.fast.features.learned_values`) for the seat to play in world
    ``S``, from what that seat knows there: its hand, the cards in the other hands (whoever holds
    them), the cards taken, the trick, and ``voids`` (bit ``4 * seat + suit``: the voids shown so
    far, which a world's hands must not be asked for). What a search or a rollout calls."""
    n = R[R_PLAYERS]
    turn = S[S_TURN]
    tl = S[S_TRICK_LEN]
    w, w_seat = _trick_so_far(S, n)
    return learned_values(
        R, S, S_TAKEN, turn, S[S_HANDS + turn], _out_of(S, n, turn), voids, S[S_TRICKS_DONE], legal_mask(S, R),
        tl, w, w_seat, S[S_TRICK_MASK], W, margin, values,
    )  # fmt: skip


@njit
def play_hand(
    R: np.ndarray,
    seed: int,
    hand_number: int,
    modes: np.ndarray,
    W: np.ndarray,
    margin: float,
    eps: float,
    scores: np.ndarray,
    collect: bool,
    rollouts: bool,
    XtX: np.ndarray,
    Xty: np.ndarray,
    totals: np.ndarray,
) -> None:
    """Deal hand ``hand_number`` of run ``seed``, pass (medium's compiled pass; random seats at
    random), play it with each seat's ``modes[s]`` (``SEAT_*``; with probability ``eps`` a seat plays
    a random legal card instead) and write its scores (a moon added to the others) into ``scores``.

    With ``collect``, every decision with a choice adds its features and outcome to the ridge
    regression's sums: ``XtX`` (upper triangle), ``Xty``, and ``totals`` = (decisions, sum of
    targets, sum of squared targets). The target is the seat's relative points from that decision to
    the end of the hand (:func:`relative` of the scores, less that of the points taken before it).
    With ``rollouts`` every legal card of such a decision is tried instead (:func:`rollout_targets`),
    while the hand goes on with the card the seat chose.
    """
    n = R[R_PLAYERS]
    size = R[R_HAND_SIZE]
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    seed_state(S, hand_seed(seed, hand_number))
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    deal(S, R, deck)
    offset = pass_offset(R, hand_number)
    if offset != 0:
        for s in range(n):
            policy = POLICY_RANDOM if modes[s] == SEAT_RANDOM else POLICY_MEDIUM
            passed[s] = choose_pass(S, S[S_HANDS + s], R, policy, 0.0)
        exchange(S, R, passed, offset)
    start_play(S, R)
    values = np.empty(52)
    rec_A = np.empty((52, N_SITUATION))
    rec_B = np.empty((52, N_CARD))
    rec_kind = np.empty(52, dtype=np.int64)
    rec_seat = np.empty(52, dtype=np.int64)
    rec_base = np.empty(52)
    taken_points = np.zeros(MAX_PLAYERS)
    records = 0
    voids = 0
    while S[S_TRICKS_DONE] < size:
        turn = S[S_TURN]
        tl = S[S_TRICK_LEN]
        w, w_seat = _trick_so_far(S, n)
        legal = legal_mask(S, R)
        hand = S[S_HANDS + turn]
        out = _out_of(S, n, turn)
        done = S[S_TRICKS_DONE]
        tmask = S[S_TRICK_MASK]
        choice = legal & (legal - 1) != 0
        if not choice:
            card = random_card(S, legal)
        elif modes[turn] == SEAT_RANDOM or (eps > 0.0 and chance(S) < eps):
            card = random_card(S, legal)
        elif modes[turn] == SEAT_MEDIUM:
            card, _why, _who = medium_choice(
                R, S, S_TAKEN, turn, hand, out, voids, done, S[S_POINTS + turn],
                legal, tl, w, w_seat, tmask, -1, True,
            )  # fmt: skip
        else:
            card = world_values(S, R, voids, W, margin, values)
        if collect and choice and rollouts:
            rollout_targets(S, R, voids, legal, _taken_so_far(S, R, turn, taken_points), XtX, Xty, totals)
        elif collect and choice:
            situation(R, S, S_TAKEN, turn, hand, out, voids, done, tl, w_seat, tmask, rec_A[records])
            prior = prior_card(R, S, S_TAKEN, turn, hand, out, voids, done, legal, tl, w, w_seat, tmask)
            rec_kind[records] = card_atoms(R, turn, hand, out, voids, tl, w, card, prior, rec_B[records])
            rec_seat[records] = turn
            rec_base[records] = _taken_so_far(S, R, turn, taken_points)
            records += 1
        if tl > 0 and card // 13 != S[S_TRICK] // 13:
            voids |= 1 << (4 * turn + S[S_TRICK] // 13)
        advance(S, R, card)
    score_hand(S, R, CHOICE_ADD_TO_OTHERS, scores)
    if not collect or rollouts:
        return
    for r in range(records):
        add_sample(XtX, Xty, totals, rec_A[r], rec_B[r], rec_kind[r], relative(scores, n, rec_seat[r]) - rec_base[r])


@njit
def gather(
    R: np.ndarray,
    seed: int,
    first: int,
    count: int,
    modes: np.ndarray,
    W: np.ndarray,
    margin: float,
    eps: float,
    rollouts: bool,
    size: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The regression's sums (:func:`play_hand`) over hands ``first .. first + count - 1`` of run
    ``seed``: (XtX as a full symmetric matrix, Xty, totals), ``size`` features."""
    XtX = np.zeros((size, size))
    Xty = np.zeros(size)
    totals = np.zeros(3)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for h in range(first, first + count):
        play_hand(R, seed, h, modes, W, margin, eps, scores, True, rollouts, XtX, Xty, totals)
    for i in range(size):
        for j in range(i + 1, size):
            XtX[j, i] = XtX[i, j]
    return XtX, Xty, totals


@njit
def duplicate_payoff(
    R: np.ndarray, seed: int, first: int, count: int, opponents: int, W: np.ndarray, margin: float
) -> np.ndarray:
    """For each hand of ``first .. first + count - 1`` and each seat: the points the seat takes with
    every seat playing ``opponents`` (``SEAT_*``) less those it takes on the same deal playing the
    model itself (the others unchanged). Positive: the model does better than the opponents' policy
    in its chair. Returns float64[count, players]."""
    n = R[R_PLAYERS]
    out = np.zeros((count, n))
    modes = np.full(n, opponents, dtype=np.int64)
    base = np.zeros(MAX_PLAYERS, dtype=np.int64)
    mine = np.zeros(MAX_PLAYERS, dtype=np.int64)
    XtX = np.zeros((1, 1))
    Xty = np.zeros(1)
    totals = np.zeros(3)
    for k in range(count):
        h = first + k
        modes[:] = opponents
        play_hand(R, seed, h, modes, W, margin, 0.0, base, False, False, XtX, Xty, totals)
        for s in range(n):
            modes[:] = opponents
            modes[s] = SEAT_LEARNED
            play_hand(R, seed, h, modes, W, margin, 0.0, mine, False, False, XtX, Xty, totals)
            out[k, s] = base[s] - mine[s]
    return out
