"""The compiled card-play policies of the rollouts: random, greedy, moon, and the passes.

A policy picks a card from ``legal`` for the seat to play in a state array (see
:mod:`hearts.fast.state`); the POLICY_* codes name them for the batch kernels. The medium
player's policies are in :mod:`hearts.fast.medium`.
"""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    HEARTS,
    QS_BIT,
    QUEEN_OF_SPADES,
    R_BONUS_CARD,
    R_PASS_COUNT,
    R_PENALTY,
    R_PLAYERS,
    SPADES,
    SUIT,
)
from hearts.fast._jit import njit
from hearts.fast.bits import highest_card, lowest_card
from hearts.fast.state import S_HANDS, S_POINTS, S_TAKEN, chance, random_card

# -- policies --------------------------------------------------------------------------------
POLICY_RANDOM = 0  #: a uniformly random legal card (and a random pass)
POLICY_GREEDY = 1  #: the simple heuristic of :func:`greedy_card` (with ``eps`` noise)
POLICY_MOON = 2  #: the first such seat runs for the moon while no other has a point (:func:`moon_card`)
POLICY_MEDIUM = 3  #: the medium player's card play, compiled (:func:`medium_card`); it passes as greedy does
#: :data:`POLICY_MEDIUM` with the medium player's own moon plan too (:func:`medium_moon_card`): a seat
#: whose world hand can shoot plays for the moon unseen, and the others find out only from the
#: points it takes, as they would at a real table
POLICY_MEDIUM_MOON = 4

# -- policies ------------------------------------------------------------------------------


@njit
def _lowest_rank(mask: int) -> int:
    for r in range(13):
        for s in range(4):
            if (mask >> (s * 13 + r)) & 1:
                return s * 13 + r
    return -1


UNDER_QUEEN = SPADES & (QS_BIT - 1)  #: 2♠ to J♠
ABOVE_QUEEN = SPADES & ~(UNDER_QUEEN | QS_BIT)  #: K♠ and A♠


@njit
def _top_rank(mask: int) -> int:
    """The card of highest rank in ``mask``, the highest suit on a tie (search.py's ``_top_rank``)."""
    for r in range(12, -1, -1):
        for s in range(3, -1, -1):
            if (mask >> (s * 13 + r)) & 1:
                return s * 13 + r
    return -1


@njit
def _out_of(S: np.ndarray, n: int, seat: int) -> int:
    """The cards in the other seats' hands: the seat's ``Knowledge.out`` in this world."""
    out = 0
    for s in range(n):
        if s != seat:
            out |= S[S_HANDS + s]
    return out


@njit
def _higher_out(out: int, card: int) -> int:
    """The cards of ``out`` above ``card`` in its suit."""
    return out & (SUIT << (13 * (card // 13))) & ~((2 << card) - 1)


@njit
def _queen_out(S: np.ndarray, n: int) -> bool:
    """Whether Q♠ is still in some hand (public knowledge, read off the world)."""
    for s in range(n):
        if S[S_HANDS + s] & QS_BIT:
            return True
    return False


@njit
def running_shooter(S: np.ndarray, R: np.ndarray, policies: np.ndarray) -> int:
    """The first seat whose policy is :data:`POLICY_MOON`, while no other seat has a point; else -1.

    As in search.py's rollout, only the first moon seat counts: once another seat has a point
    its run is over and every seat plays greedy."""
    n = R[R_PLAYERS]
    for s in range(n):
        if policies[s] == POLICY_MOON:
            for o in range(n):
                if o != s and S[S_POINTS + o] != 0:
                    return -1
            return s
    return -1


@njit
def _flush_card(S: np.ndarray, R: np.ndarray, legal: int, hand: int) -> int:
    """The spade under Q♠ that flushes her (the highest such), when this seat holds none of
    Q♠/K♠/A♠ and she has not been taken yet; else -1."""
    under_q = legal & UNDER_QUEEN
    if under_q and not hand & (QS_BIT | ABOVE_QUEEN):
        taken = 0
        for s in range(R[R_PLAYERS]):
            taken |= S[S_TAKEN + s]
        if not taken & QS_BIT:
            return highest_card(under_q)
    return -1


@njit
def _lead_pick(legal: int, hand: int) -> int:
    """The cards a lead chooses among: off spades while holding Q♠ (when there is another suit)."""
    if hand & QS_BIT and legal & ~SPADES:
        return legal & ~SPADES
    return legal


@njit
def _lead_rank(card: int) -> int:
    """How low a lead ``card`` ranks for the greedy lead, before its noise: hearts count two higher."""
    return card % 13 + (2 if card // 13 == 3 else 0)


@njit
def lead_card(S: np.ndarray, R: np.ndarray, legal: int, seat: int) -> int:
    """The greedy lead (:func:`greedy_card`): the flush of Q♠ first; else the lowest card of the
    suit of lowest noisy rank (hearts two higher, plus a random 0-3)."""
    hand = S[S_HANDS + seat]
    flush = _flush_card(S, R, legal, hand)
    if flush >= 0:
        return flush
    pick = _lead_pick(legal, hand)
    card = -1
    low = 999.0
    for suit in range(4):
        chunk = pick & (SUIT << (13 * suit))
        if chunk:
            c = lowest_card(chunk)
            r = _lead_rank(c) + chance(S) * 3
            if r < low:
                card = c
                low = r
    return card


@njit
def greedy_card(
    S: np.ndarray,
    R: np.ndarray,
    legal: int,
    seat: int,
    trick_len: int,
    best: int,
    best_seat: int,
    tmask: int,
    running: int,
    eps: float,
) -> int:
    """The greedy rollout policy (its plain-Python statement, the tests' reference, is ``tests/greedy_reference.py``), card for card.

    ``best``/``best_seat``: the card winning the trick in progress (of ``trick_len`` cards) and its
    seat; ``tmask``: the trick's cards; ``running``: a moon runner (:func:`running_shooter`) or -1.
    With probability ``eps`` a random legal card. The runner plays :func:`moon_card`. Following
    suit: take a heart off the runner with the lowest card that beats it; last to a clean trick
    (not hearts), shed the highest card (not Q♠); else duck with the highest card under the winner
    (Q♠ under A♠/K♠ first); forced over a spade while Q♠ is out, win as low as possible; else the
    highest card (Q♠ last). Void: keep points off the runner, else Q♠, then A♠/K♠ while Q♠ is out,
    then a heart of rank 8 or more, then the highest-ranked card. Leading: a spade under Q♠ to flush
    her while she is out and this seat holds none of Q♠/K♠/A♠; else the lowest card of a suit
    (hearts count two ranks higher, plus a random 0-3 ranks; off spades while holding Q♠).
    """
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if eps > 0.0 and chance(S) < eps:
        return random_card(S, legal)
    if running == seat:
        return moon_card(R, legal, _out_of(S, R[R_PLAYERS], seat), trick_len, best)
    n = R[R_PLAYERS]
    hand = S[S_HANDS + seat]
    if trick_len == 0:
        return lead_card(S, R, legal, seat)
    led = best // 13
    follow = legal & (SUIT << (13 * led))
    if follow:
        below = follow & ((1 << best) - 1)
        if running >= 0 and best_seat == running and follow != below:
            above = follow & ~below & ~QS_BIT
            if above:
                return lowest_card(above)
        if trick_len == n - 1 and not tmask & R[R_PENALTY] and led != 3:
            return highest_card(follow & ~QS_BIT if follow & ~QS_BIT else follow)
        if below:
            if led == 2 and below & QS_BIT and best > QUEEN_OF_SPADES:
                return QUEEN_OF_SPADES
            return highest_card(below)
        if led == 2 and not tmask & QS_BIT and not hand & QS_BIT and _queen_out(S, n):
            return lowest_card(follow)
        return highest_card(follow & ~QS_BIT if follow & ~QS_BIT else follow)
    if running >= 0 and best_seat == running:
        spare = legal & ~R[R_PENALTY]
        if spare:
            return _top_rank(spare)
    if legal & QS_BIT:
        return QUEEN_OF_SPADES
    high = legal & ABOVE_QUEEN
    if high and _queen_out(S, n):
        return highest_card(high)
    hearts = legal & HEARTS
    if hearts and highest_card(hearts) % 13 >= 6:
        return highest_card(hearts)
    return _top_rank(legal)


@njit
def moon_card(R: np.ndarray, legal: int, out: int, trick_len: int, best: int) -> int:
    """Play for the moon (the running shooter of :func:`greedy_card`, and the medium player's moon
    plan): lead a master (spades, clubs, diamonds, then hearts; ``out`` is the cards in the other
    hands) or else the highest-ranked card; win with the highest card of the led suit; throw the
    lowest non-penalty card when void."""
    if trick_len == 0:
        for s in (2, 0, 1, 3):
            mine = legal & (SUIT << (13 * s))
            if mine and not _higher_out(out, highest_card(mine)):
                return highest_card(mine)
        return _top_rank(legal)
    if legal & (SUIT << (13 * (best // 13))):
        return highest_card(legal & (SUIT << (13 * (best // 13))))
    spare = legal & ~R[R_PENALTY]
    return _lowest_rank(spare if spare else legal)


@njit
def _pass_danger(card: int, bonus: int) -> int:
    """How much a seat wants to be rid of ``card`` when passing (greedy pass)."""
    rank = card % 13
    suit = card // 13
    d = rank
    if card == QUEEN_OF_SPADES:
        d += 40
    elif suit == 2 and rank > 10:
        d += 30  # A♠ and K♠ catch Q♠
    elif suit == 3:
        d += 13
    if card == bonus:
        d -= 40
    return d


@njit
def choose_pass(S: np.ndarray, hand: int, R: np.ndarray, policy: int, eps: float) -> int:
    """The mask of ``R[R_PASS_COUNT]`` cards that ``policy`` passes from ``hand`` (random cards drawn
    from ``S``'s generator)."""
    out = 0
    left = hand
    bonus = R[R_BONUS_CARD]
    for _ in range(R[R_PASS_COUNT]):
        if (
            policy != POLICY_GREEDY
            and policy != POLICY_MEDIUM
            and policy != POLICY_MEDIUM_MOON
        ) or (eps > 0.0 and chance(S) < eps):
            c = random_card(S, left)
        else:
            c = -1
            best = -1000
            m = left
            while m:
                x = lowest_card(m)
                m &= m - 1
                d = _pass_danger(x, bonus)
                if d > best:
                    best = d
                    c = x
        out |= 1 << c
        left &= ~(1 << c)
    return out
