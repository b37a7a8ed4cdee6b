"""Inference, compiled: how likely each sampled world makes the plays seen so far."""

from __future__ import annotations

import numpy as np

from hearts.core.arith import R_PLAYERS, SUIT
from hearts.fast._jit import njit
from hearts.fast.bits import lowest_card, popcount
from hearts.fast.medium import (
    _out_of,
    medium_card,
    medium_moon_card,
    moon_pass_key,
    pass_danger,
    shoot_card,
)
from hearts.fast.policies import (
    POLICY_GREEDY,
    POLICY_MEDIUM,
    POLICY_MEDIUM_MOON,
    _flush_card,
    _lead_pick,
    _lead_rank,
    greedy_card,
)
from hearts.fast.state import (
    MAX_PLAYERS,
    S_HANDS,
    S_POINTS,
    S_TRICK_LEN,
    S_TRICK_MASK,
    S_TURN,
    STATE_SIZE,
    advance,
    legal_mask,
    reset_state,
    start_play,
    trick_best,
)

# -- inference: how likely a sampled world makes the plays seen so far -------------------------


@njit
def _start_world(S: np.ndarray, R: np.ndarray, starts: np.ndarray, w: int, n: int) -> None:
    """Set ``S`` to the start of play of world ``w`` (``starts[w, seat]``: each seat's hand then)."""
    for s in range(MAX_PLAYERS):
        S[S_HANDS + s] = starts[w, s] if s < n else 0
    reset_state(S, R)
    start_play(S, R)


@njit
def _plausible_lead(S: np.ndarray, R: np.ndarray, legal: int, seat: int, card: int) -> bool:
    """Whether :func:`greedy_card`'s lead (without its random card) could be ``card``: the spade
    under Q♠ that flushes her, or else the lowest card of a suit whose noisy rank (hearts two
    higher, plus up to three at random) can come out lowest."""
    hand = S[S_HANDS + seat]
    flush = _flush_card(S, R, legal, hand)
    if flush >= 0:
        return card == flush
    pick = _lead_pick(legal, hand)
    low = 99
    for suit in range(4):
        chunk = pick & (SUIT << (13 * suit))
        if chunk:
            r = _lead_rank(lowest_card(chunk))
            if r < low:
                low = r
    chunk = pick & (SUIT << (13 * (card // 13)))
    if not chunk or lowest_card(chunk) != card:
        return False
    return _lead_rank(card) < low + 3


@njit
def play_log_likelihoods(
    starts: np.ndarray,
    R: np.ndarray,
    plays: np.ndarray,
    me: int,
    log_miss: float,
    log_lead_miss: float,
    policy: int = POLICY_GREEDY,
) -> np.ndarray:
    """For each sampled world, how well the rollout policy explains the other seats' plays so far.

    ``starts[w, s]`` is seat ``s``'s hand at the start of play in world ``w`` (its cards now plus
    those it has played); ``plays`` the cards played in this hand in order. Every play by a seat
    other than ``me`` that had a choice is compared with :func:`greedy_card` (without its random
    card) from that world's position: a follow or discard it would not have made adds
    ``log_miss`` to the world's log-likelihood, a lead it would not have made ``log_lead_miss``.
    The result weights the worlds of a search (a deal in which an opponent ducked with 5♠ when it
    "held" 10♠ under J♠ is less likely than one in which it had no spade between them).
    With ``policy`` :data:`POLICY_MEDIUM` the model is :func:`medium_card` (its lead too, which has
    no noise: any other lead is a miss), with :data:`POLICY_MEDIUM_MOON` :func:`medium_moon_card`
    (a seat that held a moon hand in the world is expected to have played for the moon); any other
    policy is modelled by :func:`greedy_card`.
    """
    medium = policy == POLICY_MEDIUM or policy == POLICY_MEDIUM_MOON
    moon_plan = policy == POLICY_MEDIUM_MOON
    W = starts.shape[0]
    n = R[R_PLAYERS]
    out = np.zeros(W, dtype=np.float64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    for w in range(W):
        _start_world(S, R, starts, w, n)
        logw = 0.0
        for i in range(plays.shape[0]):
            card = plays[i]
            seat = S[S_TURN]
            if seat != me:
                legal = legal_mask(S, R)
                if legal & (legal - 1):
                    tl = S[S_TRICK_LEN]
                    if medium:
                        best, best_seat = trick_best(S, n)
                        if moon_plan:
                            modelled = medium_moon_card(
                                S, R, legal, seat, tl, best, best_seat, S[S_TRICK_MASK], -1, 0.0
                            )
                        else:
                            modelled = medium_card(S, R, legal, seat, tl, best, best_seat, S[S_TRICK_MASK], -1, 0.0)
                        if modelled != card:
                            logw += log_lead_miss if tl == 0 else log_miss
                    elif tl == 0:
                        if not _plausible_lead(S, R, legal, seat, card):
                            logw += log_lead_miss
                    else:
                        best, best_seat = trick_best(S, n)
                        if greedy_card(S, R, legal, seat, tl, best, best_seat, S[S_TRICK_MASK], -1, 0.0) != card:
                            logw += log_miss
            advance(S, R, card)
        out[w] = logw
    return out


@njit
def moon_log_ratios(
    starts: np.ndarray,
    R: np.ndarray,
    plays: np.ndarray,
    seat: int,
    log_miss: float,
    log_lead_miss: float,
) -> np.ndarray:
    """For each sampled world, how much better a moon run explains ``seat``'s plays than medium's
    play does: log P(plays | running) - log P(plays | medium), over the plays it made with a choice
    while no other seat had a point (after that both models play alike).

    The run is :func:`hearts.fast.medium.shoot_card` (cash the masters, win what it follows, throw
    clean cards when void), medium's play :func:`medium_card`, each with :func:`play_log_likelihoods`'
    miss weights. A seat that led A♠ and then two master diamonds, where medium leads low, is far
    more likely running than not; one that ducked under the winning card is not. ``starts`` and
    ``plays`` are :func:`play_log_likelihoods`'.
    """
    W = starts.shape[0]
    n = R[R_PLAYERS]
    out = np.zeros(W, dtype=np.float64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    for w in range(W):
        _start_world(S, R, starts, w, n)
        ratio = 0.0
        for i in range(plays.shape[0]):
            card = plays[i]
            if S[S_TURN] == seat:
                open_moon = True
                for o in range(n):
                    if o != seat and S[S_POINTS + o] != 0:
                        open_moon = False
                legal = legal_mask(S, R)
                if open_moon and legal & (legal - 1):
                    tl = S[S_TRICK_LEN]
                    miss = log_lead_miss if tl == 0 else log_miss
                    best, best_seat = trick_best(S, n)
                    run, _why, _who = shoot_card(R, legal, _out_of(S, n, seat), tl, best if tl else 0)
                    med = medium_card(S, R, legal, seat, tl, best, best_seat, S[S_TRICK_MASK], -1, 0.0)
                    if run != card:
                        ratio += miss
                    if med != card:
                        ratio -= miss
            advance(S, R, card)
        out[w] = ratio
    return out


@njit
def pass_log_ratios(hands: np.ndarray, R: np.ndarray, passed: int, log_miss: float) -> np.ndarray:
    """For each sampled world, how much better building a moon explains the pass a seat made than
    medium's pass does: log P(pass | building) - log P(pass | medium).

    ``hands[w]`` is the passer's hand before the pass in world ``w`` as near as the receiver knows
    it: its cards there, those it has played and the ``passed`` ones (the cards it received are
    among them, unknown). Medium passes the most dangerous cards (:func:`pass_danger`), a moon
    builder the side cards it needs least (:func:`hearts.fast.medium.moon_pass_key`). Each passed card that a model
    would not have passed costs that model ``log_miss``; a card counts as one it would pass when
    fewer than twice the pass's size of the hand's cards come before it, as up to a pass's worth of
    them may have come to the seat in the exchange; medium also passes a short club or diamond
    suit whole, so a card of a side suit that the pass leaves at most one card of is medium's too.
    Three low side cards (not a whole suit) from a hand that holds A♥ K♥ read as a moon being
    built; Q♠ and A♥ as medium's pass.
    """
    W = hands.shape[0]
    out = np.zeros(W, dtype=np.float64)
    count = popcount(passed)
    danger = np.zeros(52, dtype=np.float64)
    key = np.zeros(52, dtype=np.float64)
    for w in range(W):
        hand = hands[w]
        m = hand
        while m:
            x = lowest_card(m)
            m &= m - 1
            danger[x] = pass_danger(R, hand, x)
            key[x] = moon_pass_key(R, hand, x)
        ratio = 0.0
        p = passed
        while p:
            c = lowest_card(p)
            p &= p - 1
            above_danger = 0
            before_moon = 0
            m = hand & ~(1 << c)
            while m:
                x = lowest_card(m)
                m &= m - 1
                if danger[x] > danger[c]:
                    above_danger += 1
                if key[x] < key[c]:
                    before_moon += 1
            if before_moon >= 2 * count:
                ratio += log_miss
            suit = SUIT << (13 * (c // 13))
            voids = c // 13 < 2 and popcount(hand & suit & ~passed) <= 1
            if above_danger >= 2 * count and not voids:
                ratio -= log_miss
        out[w] = ratio
    return out
