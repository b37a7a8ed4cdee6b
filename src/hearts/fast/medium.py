"""The medium player's card play, compiled (``POLICY_MEDIUM``), and its moon plan (``POLICY_MEDIUM_MOON``).

``tests/test_fast_medium.py`` holds :func:`medium_card` to :class:`hearts.players.medium.MediumPlayer`'s
choices card for card.
"""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    HEARTS,
    MOON_DISABLED,
    QS_BIT,
    QUEEN_OF_SPADES,
    R_BONUS_CARD,
    R_BONUS_POINTS,
    R_HAND_SIZE,
    R_MOON,
    R_MOON_POINTS,
    R_PENALTY,
    R_PLAYERS,
    R_POINTS_FIRST_TRICK,
    SPADES,
    SUIT,
    penalty_points,
)
from hearts.fast._jit import njit
from hearts.fast.bits import highest_card, lowest_card, popcount
from hearts.fast.policies import (
    ABOVE_QUEEN,
    _lowest_rank,
    _top_rank,
    moon_card,
)
from hearts.fast.state import S_HANDS, S_POINTS, S_TAKEN, S_TRICKS_DONE, random_card

# -- the medium-like rollout policy ------------------------------------------------------------
# Twin, as far as a rollout needs, of hearts.players.medium.MediumPlayer.play_from: the same
# lead scores, follows and discards, read off the world's hands (what is "out" to a seat is every
# card in the other hands; a void is a seat with no card of the suit). It leaves out the medium's own
# moon plan (a search gives its shooters POLICY_MOON instead); medium_moon_card (POLICY_MEDIUM_MOON,
# below) adds it.


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
    return out & (SUIT << (13 * (card // 13))) & ~((2 << card) - 1)


@njit
def _lower_out(out: int, card: int) -> int:
    return out & (SUIT << (13 * (card // 13))) & ((1 << card) - 1)


@njit
def moon_threat(S: np.ndarray, R: np.ndarray, seat: int, running: int) -> int:
    """The seat that may be running for the moon, seen from ``seat``: the search's ``running``
    shooter when there is one; else medium's rule (``Knowledge.moon_threat``): the one other seat
    that holds every penalty card taken so far, at least 6 of them or Q♠ and two more."""
    if running >= 0:
        return running if running != seat else -1
    if R[R_MOON] == MOON_DISABLED:
        return -1
    pen = R[R_PENALTY]
    holder = -1
    for s in range(R[R_PLAYERS]):
        if S[S_TAKEN + s] & pen:
            if holder >= 0:
                return -1
            holder = s
    if holder < 0 or holder == seat:
        return -1
    taken = S[S_TAKEN + holder] & pen
    count = popcount(taken)
    if count >= 6 or (taken & QS_BIT and count >= 3):
        return holder
    return -1


@njit
def _medium_lead(S: np.ndarray, R: np.ndarray, legal: int, seat: int, threat: int) -> int:
    n = R[R_PLAYERS]
    hand = S[S_HANDS + seat]
    out = _out_of(S, n, seat)
    if threat >= 0:
        hearts = legal & HEARTS
        if hearts and not _higher_out(out, highest_card(hearts)) and out & HEARTS:
            return highest_card(hearts)
    spades = legal & SPADES
    if spades and out & QS_BIT and not hand & ABOVE_QUEEN and lowest_card(spades) < QUEEN_OF_SPADES:
        return highest_card(spades & (QS_BIT - 1))
    bonus = R[R_BONUS_CARD]
    best = -1
    best_score = -1e9
    for s in range(4):
        suit = SUIT << (13 * s)
        mine = legal & suit
        if not mine:
            continue
        c = lowest_card(mine)
        higher = popcount(_higher_out(out, c))
        lower = popcount(_lower_out(out, c))
        score = (10.0 if higher else -10.0) + min(higher, 6) - 0.5 * lower - 0.3 * popcount(mine)
        for o in range(n):
            if o != seat and not S[S_HANDS + o] & suit:
                score -= 2.0  # a void seat discards points on whoever wins
        if s == 2:
            if hand & QS_BIT:
                if c == QUEEN_OF_SPADES:
                    score += 5.0 if out & ABOVE_QUEEN else -30.0
                else:
                    score -= 15.0
            elif hand & ABOVE_QUEEN and out & QS_BIT and c > QUEEN_OF_SPADES:
                score -= 12.0
        if s == 3:
            score -= 1.5
        if bonus >= 0 and s == bonus // 13 and (hand >> bonus) & 1:
            score -= 3.0
        if score > best_score:
            best = c
            best_score = score
    return best


@njit
def _medium_follow(
    S: np.ndarray, R: np.ndarray, legal: int, seat: int, trick_len: int, w: int, w_seat: int, tmask: int, threat: int
) -> int:
    n = R[R_PLAYERS]
    led = w // 13
    last = trick_len == n - 1
    bonus = R[R_BONUS_CARD]
    pts = penalty_points(tmask, R)
    if bonus >= 0 and (tmask >> bonus) & 1:
        pts += R[R_BONUS_POINTS]
    below = legal & ((1 << w) - 1)
    above = legal & ~((1 << w) - 1)
    if S[S_TRICKS_DONE] == 0 and not R[R_POINTS_FIRST_TRICK] and not (bonus >= 0 and led == bonus // 13):
        return highest_card(legal)  # the first trick carries no points: shed the highest
    if threat >= 0 and w_seat == threat and above and (tmask & HEARTS or led == 3):
        return lowest_card(above & ~QS_BIT if above & ~QS_BIT else above)  # take a heart off the shooter
    out = _out_of(S, n, seat)
    if bonus >= 0 and led == bonus // 13 and pts <= 0:
        if (tmask >> bonus) & 1 or (S[S_HANDS + seat] >> bonus) & 1:
            if (legal >> bonus) & 1 and bonus > w and (last or not _higher_out(out, bonus)):
                return bonus
            if (tmask >> bonus) & 1:
                m = above
                while m:
                    c = lowest_card(m)
                    if last or not _higher_out(out, c):
                        return c
                    m &= m - 1
    if led == 2:
        if legal & QS_BIT:
            if w > QUEEN_OF_SPADES:
                return QUEEN_OF_SPADES
            if below:
                return highest_card(below)
            others = legal & ~QS_BIT
            return highest_card(others) if others else QUEEN_OF_SPADES
        queen_out = (out & QS_BIT) != 0 and not tmask & QS_BIT
        if last and not tmask & QS_BIT and pts <= 0:
            return highest_card(legal)
        if below:
            return highest_card(below)
        if queen_out:
            under_q = above & (QS_BIT - 1)
            if under_q:
                return highest_card(under_q)
            return lowest_card(above)
        return highest_card(legal)
    if last and pts <= 0 and led != 3:
        return highest_card(legal)
    if below:
        return highest_card(below)
    return highest_card(legal)


@njit
def _medium_discard(S: np.ndarray, R: np.ndarray, legal: int, seat: int, w_seat: int, threat: int) -> int:
    bonus = R[R_BONUS_CARD]
    if bonus >= 0 and legal & ~(1 << bonus):
        legal &= ~(1 << bonus)
    if threat >= 0 and w_seat == threat:
        clean = legal & ~R[R_PENALTY]
        if clean:
            return _top_rank(clean)
    if legal & QS_BIT:
        return QUEEN_OF_SPADES
    out = _out_of(S, R[R_PLAYERS], seat)
    high = legal & ABOVE_QUEEN
    if high and out & QS_BIT:
        return highest_card(high)
    best = -1
    best_score = -1e9
    for s in range(4):
        mine = legal & (SUIT << (13 * s))
        if not mine:
            continue
        c = highest_card(mine)
        score = c % 13 + (3.0 if s == 3 else 0.0) + max(0, 3 - popcount(mine)) * 1.0
        if not _lower_out(out, c) and s != 3:
            score -= 4.0  # nothing lower is out: this card can never win a trick, so keep it
        if score > best_score:
            best = c
            best_score = score
    return best


@njit
def medium_card(
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
    """The medium player's card play (``MediumPlayer.play_from`` without its own moon plan), with
    probability ``eps`` a random legal card; the running shooter plays :func:`moon_card`, and the
    others treat it as the moon threat. The arguments are :func:`greedy_card`'s."""
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if eps > 0.0 and np.random.random() < eps:
        return random_card(legal)
    if running == seat:
        return moon_card(R, legal, trick_len, best)
    threat = moon_threat(S, R, seat, running)
    if trick_len == 0:
        return _medium_lead(S, R, legal, seat, threat)
    if legal & (SUIT << (13 * (best // 13))):
        return _medium_follow(S, R, legal, seat, trick_len, best, best_seat, tmask, threat)
    return _medium_discard(S, R, legal, seat, best_seat, threat)


# -- the medium player's own moon plan (POLICY_MEDIUM_MOON) -----------------------------------
# Twin of MediumPlayer.shooting / MediumPlayer._shoot and of knowledge.moon_hand_strength.

#: Strength (:func:`moon_strength`) at which the medium player plays for the moon (medium.MOON_PLAY_STRENGTH).
MEDIUM_MOON_STRENGTH = 0.72


@njit
def moon_strength(R: np.ndarray, hand: int) -> float:
    """:func:`hearts.players.knowledge.moon_hand_strength`: a rough 0..1 measure of how well
    ``hand`` could take every penalty card (long, high hearts; control of Q♠; few side losers)."""
    hearts = hand & HEARTS
    top_hearts = 0
    for r in range(12, 8, -1):
        if hearts >> (39 + r) & 1:
            top_hearts += 1
    queen_safe = (hand & QS_BIT) != 0 or (hand & ABOVE_QUEEN) == ABOVE_QUEEN
    losers = 0
    for s in range(3):
        chunk = hand & (SUIT << (13 * s))
        for c in range(s * 13, s * 13 + 9):
            if chunk >> c & 1:
                if (12 - c % 13) - popcount(chunk >> (c + 1)) >= 2:
                    losers += 1
    size = max(1, R[R_HAND_SIZE])
    score = min(popcount(hearts), 8) / 8 * 0.35
    score += top_hearts / 4 * 0.25
    if queen_safe:
        score += 0.15
    score += max(0.0, 1 - losers / (size / 3)) * 0.25
    return score


@njit
def medium_shooting(S: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """``MediumPlayer.shooting``: no other seat has taken a penalty card, and the hand is strong
    enough in the first two tricks, or the seat has most of the points and the top heart still out."""
    if R[R_MOON] == MOON_DISABLED:
        return False
    n = R[R_PLAYERS]
    pen = R[R_PENALTY]
    for s in range(n):
        if s != seat and S[S_TAKEN + s] & pen:
            return False
    hand = S[S_HANDS + seat]
    if S[S_TRICKS_DONE] <= 1 and moon_strength(R, hand) >= MEDIUM_MOON_STRENGTH:
        return True
    if S[S_POINTS + seat] >= R[R_MOON_POINTS] - 8:
        hearts_out = _out_of(S, n, seat) & HEARTS
        return hearts_out == 0 or highest_card(hand & HEARTS) > highest_card(hearts_out)
    return False


@njit
def medium_shoot_card(S: np.ndarray, R: np.ndarray, legal: int, seat: int, trick_len: int, best: int) -> int:
    """``MediumPlayer._shoot``: lead a master (spades, clubs, diamonds, then hearts) or else the
    highest-ranked card; win with the highest card of the led suit; when void throw the lowest
    non-penalty card."""
    if trick_len == 0:
        out = _out_of(S, R[R_PLAYERS], seat)
        for s in (2, 0, 1, 3):
            mine = legal & (SUIT << (13 * s))
            if mine and not _higher_out(out, highest_card(mine)):
                return highest_card(mine)
        return _top_rank(legal)
    follow = legal & (SUIT << (13 * (best // 13)))
    if follow:
        return highest_card(follow)
    spare = legal & ~R[R_PENALTY]
    return _lowest_rank(spare if spare else legal)


@njit
def medium_moon_card(
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
    """The medium player's whole card play (``MediumPlayer.play_from``, its own moon plan
    included), with probability ``eps`` a random legal card. Unlike the search's running shooter
    (``running``, which every seat is told of and which this leaves to :func:`medium_card`), a
    seat playing this plan is seen by the others only through the points it takes (medium's
    moon-threat rule). The arguments are :func:`greedy_card`'s."""
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if eps > 0.0 and np.random.random() < eps:
        return random_card(legal)
    if running < 0 and medium_shooting(S, R, seat):
        return medium_shoot_card(S, R, legal, seat, trick_len, best)
    return medium_card(S, R, legal, seat, trick_len, best, best_seat, tmask, running, 0.0)
