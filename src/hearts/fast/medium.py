"""The medium player's card play and its moon plan, written once and compiled.

:class:`hearts.players.medium.MediumPlayer` calls :func:`medium_choice` for every card it plays
(with what its seat knows: the cards still out, the voids it has seen), and the kernels call it
through :func:`medium_card` (``POLICY_MEDIUM``) and :func:`medium_moon_card`
(``POLICY_MEDIUM_MOON``) with what a determinized world shows (what is out to a seat is every
card in the other hands; a void is a seat with no card of the suit). With the card comes a
reason code (``WHY_*``) and the seat it names, which the player turns into words, so a hint says
what decided the move.
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
    _higher_out,
    _out_of,
    _top_rank,
    moon_card,
)
from hearts.fast.state import S_HANDS, S_POINTS, S_TAKEN, S_TRICKS_DONE, chance, random_card

#: Strength (:func:`moon_strength`) at which the medium player plays for the moon while no other seat has a point.
MEDIUM_MOON_STRENGTH = 0.72

# -- why a card was chosen: the reason codes of medium_choice (the player words them) ----------
WHY_ONLY = 0  #: the only legal card
WHY_RUNNING = 1  #: a search's running shooter plays the moon policy
WHY_MOON_MASTER = 2  #: moon plan: lead the top card still out of a suit
WHY_MOON_LEAD_HIGH = 3
WHY_MOON_WIN = 4
WHY_MOON_THROW = 5
WHY_LEAD_STOP_MOON = 6  #: lead the top heart to take one off the seat that may shoot
WHY_FLUSH_QUEEN = 7
WHY_LEAD_LOW = 8
WHY_LEAD_WINNER = 9
WHY_FIRST_TRICK = 10
WHY_TAKE_HEART_STOP_MOON = 11
WHY_WIN_BONUS = 12  #: win the trick with the bonus card itself
WHY_TAKE_BONUS = 13
WHY_LAST_CLEAN = 14
WHY_DUCK = 15
WHY_CANNOT_DUCK = 16
WHY_DROP_QUEEN = 17
WHY_DUCK_KEEP_QUEEN = 18
WHY_WIN_NOT_QUEEN = 19
WHY_ONLY_QUEEN = 20
WHY_LAST_CLEAN_SPADE = 21
WHY_DUCK_QUEEN_OUT = 22
WHY_WIN_LOW_QUEEN_OUT = 23
WHY_CANNOT_DUCK_SPADE = 24
WHY_NO_POINTS_TO_SHOOTER = 25
WHY_DUMP_QUEEN = 26
WHY_DUMP_HIGH_SPADE = 27
WHY_DUMP_HEART = 28
WHY_THROW_HIGH = 29


@njit
def _voids_of(S: np.ndarray, n: int, seat: int) -> int:
    """The voids of the other seats in this world: bit ``4 * seat + suit``."""
    voids = 0
    for o in range(n):
        if o != seat:
            for s in range(4):
                if not S[S_HANDS + o] & (SUIT << (13 * s)):
                    voids |= 1 << (4 * o + s)
    return voids


@njit
def _lower_out(out: int, card: int) -> int:
    return out & (SUIT << (13 * (card // 13))) & ((1 << card) - 1)


@njit
def _threat(R: np.ndarray, T: np.ndarray, t0: int, seat: int, running: int) -> int:
    """:func:`moon_threat` with the cards each seat has taken at ``T[t0 + seat]``."""
    if running >= 0:
        return running if running != seat else -1
    return threat_of(R, T, t0, seat, 6)


@njit
def threat_of(R: np.ndarray, T: np.ndarray, t0: int, seat: int, min_points: int) -> int:
    """The moon-threat rule, written once: the one other seat that holds every penalty card taken
    so far (``T[t0 + s]``: the cards seat ``s`` has taken), at least ``min_points`` of them or Q♠
    and two more; -1 when there is none or moons do not count. Medium reads it from 6 cards, the
    search players from their config's ``threat_points`` (``Knowledge.moon_threat``)."""
    if R[R_MOON] == MOON_DISABLED:
        return -1
    pen = R[R_PENALTY]
    holder = -1
    for s in range(R[R_PLAYERS]):
        if T[t0 + s] & pen:
            if holder >= 0:
                return -1
            holder = s
    if holder < 0 or holder == seat:
        return -1
    taken = T[t0 + holder] & pen
    count = popcount(taken)
    if count >= min_points or (taken & QS_BIT and count >= 3):
        return holder
    return -1


@njit
def moon_threat(S: np.ndarray, R: np.ndarray, seat: int, running: int) -> int:
    """The seat that may be running for the moon, seen from ``seat``: the search's ``running``
    shooter when there is one; else medium's rule (``Knowledge.moon_threat``): the one other seat
    that holds every penalty card taken so far, at least 6 of them or Q♠ and two more."""
    return _threat(R, S, S_TAKEN, seat, running)


@njit
def _lead(R: np.ndarray, legal: int, seat: int, hand: int, out: int, voids: int, threat: int) -> tuple[int, int, int]:
    if threat >= 0:
        hearts = legal & HEARTS
        if hearts and not _higher_out(out, highest_card(hearts)) and out & HEARTS:
            return highest_card(hearts), WHY_LEAD_STOP_MOON, threat
    spades = legal & SPADES
    if spades and out & QS_BIT and not hand & ABOVE_QUEEN and lowest_card(spades) < QUEEN_OF_SPADES:
        return highest_card(spades & (QS_BIT - 1)), WHY_FLUSH_QUEEN, -1
    n = R[R_PLAYERS]
    bonus = R[R_BONUS_CARD]
    best = -1
    best_score = -1e9
    for s in range(4):
        mine = legal & (SUIT << (13 * s))
        if not mine:
            continue
        c = lowest_card(mine)
        higher = popcount(_higher_out(out, c))
        lower = popcount(_lower_out(out, c))
        score = (10.0 if higher else -10.0) + min(higher, 6) - 0.5 * lower - 0.3 * popcount(mine)
        for o in range(n):
            if o != seat and voids >> (4 * o + s) & 1:
                score -= 2.0  # a void seat discards points on whoever wins
        if s == 2:
            if hand & QS_BIT:
                # Leading her is only good when A♠/K♠ are out to catch her.
                if c == QUEEN_OF_SPADES:
                    score += 5.0 if out & ABOVE_QUEEN else -30.0
                else:
                    score -= 15.0
            elif hand & ABOVE_QUEEN and out & QS_BIT and c > QUEEN_OF_SPADES:
                score -= 12.0
        if s == 3:
            score -= 1.5
        if bonus >= 0 and s == bonus // 13 and (hand >> bonus) & 1:
            score -= 3.0  # keep the suit that protects the bonus card
        if score > best_score:
            best = c
            best_score = score
    return best, WHY_LEAD_LOW if _higher_out(out, best) else WHY_LEAD_WINNER, -1


@njit
def _follow(
    R: np.ndarray,
    legal: int,
    hand: int,
    out: int,
    tricks_done: int,
    trick_len: int,
    w: int,
    w_seat: int,
    tmask: int,
    threat: int,
) -> tuple[int, int, int]:
    led = w // 13
    last = trick_len == R[R_PLAYERS] - 1
    bonus = R[R_BONUS_CARD]
    pts = penalty_points(tmask, R)
    if bonus >= 0 and (tmask >> bonus) & 1:
        pts += R[R_BONUS_POINTS]
    below = legal & ((1 << w) - 1)
    above = legal & ~((1 << w) - 1)
    if tricks_done == 0 and not R[R_POINTS_FIRST_TRICK] and not (bonus >= 0 and led == bonus // 13):
        return highest_card(legal), WHY_FIRST_TRICK, -1
    if threat >= 0 and w_seat == threat and above and (tmask & HEARTS or led == 3):
        return lowest_card(above & ~QS_BIT if above & ~QS_BIT else above), WHY_TAKE_HEART_STOP_MOON, threat
    if bonus >= 0 and led == bonus // 13 and pts <= 0:
        if (tmask >> bonus) & 1 or (hand >> bonus) & 1:
            if (legal >> bonus) & 1 and bonus > w and (last or not _higher_out(out, bonus)):
                return bonus, WHY_WIN_BONUS, -1
            if (tmask >> bonus) & 1:
                m = above
                while m:
                    c = lowest_card(m)
                    if last or not _higher_out(out, c):
                        return c, WHY_TAKE_BONUS, -1
                    m &= m - 1
    if led == 2:
        if legal & QS_BIT:
            if w > QUEEN_OF_SPADES:
                return QUEEN_OF_SPADES, WHY_DROP_QUEEN, -1
            if below:
                return highest_card(below), WHY_DUCK_KEEP_QUEEN, -1
            others = legal & ~QS_BIT
            if others:
                return highest_card(others), WHY_WIN_NOT_QUEEN, -1
            return QUEEN_OF_SPADES, WHY_ONLY_QUEEN, -1
        queen_out = (out & QS_BIT) != 0 and not tmask & QS_BIT
        if last and not tmask & QS_BIT and pts <= 0:
            return highest_card(legal), WHY_LAST_CLEAN_SPADE, -1
        if below:
            c = highest_card(below)
            return c, WHY_DUCK_QUEEN_OUT if queen_out and c < QUEEN_OF_SPADES else WHY_DUCK, -1
        if queen_out:
            under_q = above & (QS_BIT - 1)
            if under_q:
                return highest_card(under_q), WHY_WIN_LOW_QUEEN_OUT, -1
            return lowest_card(above), WHY_CANNOT_DUCK_SPADE, -1
        return highest_card(legal), WHY_CANNOT_DUCK_SPADE, -1
    if last and pts <= 0 and led != 3:
        return highest_card(legal), WHY_LAST_CLEAN, -1
    if below:
        return highest_card(below), WHY_DUCK, -1
    return highest_card(legal), WHY_CANNOT_DUCK, -1


@njit
def _discard(R: np.ndarray, legal: int, out: int, w_seat: int, threat: int) -> tuple[int, int, int]:
    bonus = R[R_BONUS_CARD]
    if bonus >= 0 and legal & ~(1 << bonus):
        legal &= ~(1 << bonus)
    if threat >= 0 and w_seat == threat:
        clean = legal & ~R[R_PENALTY]
        if clean:
            return _top_rank(clean), WHY_NO_POINTS_TO_SHOOTER, threat
    if legal & QS_BIT:
        return QUEEN_OF_SPADES, WHY_DUMP_QUEEN, w_seat
    high = legal & ABOVE_QUEEN
    if high and out & QS_BIT:
        return highest_card(high), WHY_DUMP_HIGH_SPADE, -1
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
    if best // 13 == 3:
        return best, WHY_DUMP_HEART, w_seat
    return best, WHY_THROW_HIGH, -1


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
def moon_pass_key(R: np.ndarray, hand: int, card: int) -> float:
    """How late a moon builder passes ``card`` from ``hand`` (lower passes first): the side cards
    before the hearts and A♠ K♠ Q♠; among each, first the card whose loss leaves the strongest moon
    hand (:func:`moon_strength`, to six decimals), then the shortest suit, then the lowest. The one
    statement of the moon hunter's pass (:func:`hearts.players.hunter.moon_pass`), which the search
    reads a pass by too (:func:`hearts.fast.inference.pass_log_ratios`)."""
    kept = card // 13 == 3 or (card >= QUEEN_OF_SPADES and card // 13 == 2)
    length = popcount(hand & (SUIT << (13 * (card // 13))))
    strength = np.round(moon_strength(R, hand & ~(1 << card)) * 1e6)
    return (2e12 if kept else 0.0) - strength * 1e3 + length * 14.0 + card % 13


@njit
def pass_danger(R: np.ndarray, hand: int, card: int) -> float:
    """:func:`hearts.players.medium.pass_danger`: how much a good player wants rid of ``card`` from
    ``hand`` when passing (higher passes first): Q♠ and the spades above her when short in spades,
    then hearts by rank, then high cards of short side suits; the bonus card and its catchers stay."""
    suit = card // 13
    rank = card % 13  # 0 for a two .. 12 for an ace
    length = popcount(hand & (SUIT << (13 * suit)))
    bonus = R[R_BONUS_CARD]
    if bonus >= 0:
        if card == bonus:
            return -100.0  # worth points to whoever takes it: keep it
        if suit == bonus // 13 and card > bonus:
            return -20.0 + rank  # the cards that can catch the bonus card
    if suit == 2:
        low_spades = popcount(hand & SPADES & ((1 << QUEEN_OF_SPADES) - 1))
        if card == QUEEN_OF_SPADES:
            return 100.0 if low_spades < 3 else -30.0
        if card > QUEEN_OF_SPADES:
            if hand & QS_BIT:
                return 60.0 if low_spades < 3 else -10.0
            return 90.0 + rank if low_spades < 3 else 20.0 + rank
        return -10.0 + rank * 0.5  # low spades guard against the queen
    if suit == 3:
        return 8.0 + rank * 4.0
    return rank * 3.0 + max(0, 5 - length) * 2.0



@njit
def danger_pass(R: np.ndarray, hand: int, count: int) -> int:
    """The ``count`` cards of ``hand`` with the highest :func:`pass_danger` (on a tie the lower card),
    as a mask: the other seats' pass in the search players' pass search."""
    chosen = 0
    for _ in range(count):
        best = -1
        best_danger = -1e18
        left = hand & ~chosen
        while left:
            c = lowest_card(left)
            left &= left - 1
            danger = pass_danger(R, hand, c)
            if danger > best_danger:
                best_danger = danger
                best = c
        if best < 0:
            break
        chosen |= 1 << best
    return chosen

@njit
def _others_scored(R: np.ndarray, T: np.ndarray, t0: int, seat: int) -> bool:
    """Whether a seat other than ``seat`` has taken a penalty card (``T[t0 + s]``: what seat ``s`` took)."""
    pen = R[R_PENALTY]
    for s in range(R[R_PLAYERS]):
        if s != seat and T[t0 + s] & pen:
            return True
    return False


@njit
def _moon_plan(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    tricks_done: int,
    points: int,
    moon_at: float,
    last_trick: int,
) -> bool:
    """No other seat has a penalty card, and the hand's :func:`moon_strength` reaches ``moon_at``
    while at most ``last_trick`` tricks are done, or the seat has most of the points and holds the
    top heart still out."""
    if R[R_MOON] == MOON_DISABLED or _others_scored(R, T, t0, seat):
        return False
    if tricks_done <= last_trick and moon_strength(R, hand) >= moon_at:
        return True
    if points >= R[R_MOON_POINTS] - 8:
        hearts_out = out & HEARTS
        return hearts_out == 0 or highest_card(hand & HEARTS) > highest_card(hearts_out)
    return False


@njit
def plays_for_moon(
    R: np.ndarray, T: np.ndarray, t0: int, seat: int, hand: int, out: int, tricks_done: int, points: int
) -> bool:
    """The medium player's moon plan: no other seat has taken a penalty card (``T[t0 + seat]``: the
    cards each seat has taken), and the hand is strong enough in the first two tricks, or the seat
    has most of the points and holds the top heart still out."""
    return _moon_plan(R, T, t0, seat, hand, out, tricks_done, points, MEDIUM_MOON_STRENGTH, 1)


@njit
def hunts_moon(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    tricks_done: int,
    points: int,
    moon_at: float,
) -> bool:
    """The moon hunter's plan (:mod:`hearts.players.hunter`): :func:`plays_for_moon` with the bar
    at ``moon_at`` and at any trick; and once the seat holds a point it runs on for as long as no
    other seat has one. The arguments are :func:`plays_for_moon`'s."""
    if points > 0 and R[R_MOON] != MOON_DISABLED and not _others_scored(R, T, t0, seat):
        return True
    return _moon_plan(R, T, t0, seat, hand, out, tricks_done, points, moon_at, R[R_HAND_SIZE])


@njit
def medium_shooting(S: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """:func:`plays_for_moon` for ``seat`` in a world."""
    n = R[R_PLAYERS]
    hand = S[S_HANDS + seat]
    return plays_for_moon(R, S, S_TAKEN, seat, hand, _out_of(S, n, seat), S[S_TRICKS_DONE], S[S_POINTS + seat])


@njit
def shoot_card(R: np.ndarray, legal: int, out: int, trick_len: int, w: int) -> tuple[int, int, int]:
    """The moon plan's card: lead a master (spades, clubs, diamonds, then hearts) or else the
    highest-ranked card; win with the highest card of the led suit; when void throw the lowest
    non-penalty card."""
    card = moon_card(R, legal, out, trick_len, w)
    if trick_len == 0:
        return card, WHY_MOON_LEAD_HIGH if _higher_out(out, card) else WHY_MOON_MASTER, -1
    return card, WHY_MOON_WIN if card // 13 == w // 13 else WHY_MOON_THROW, -1


@njit
def medium_choice(
    R: np.ndarray,
    T: np.ndarray,
    t0: int,
    seat: int,
    hand: int,
    out: int,
    voids: int,
    tricks_done: int,
    points: int,
    legal: int,
    trick_len: int,
    w: int,
    w_seat: int,
    tmask: int,
    running: int,
    plan: bool,
) -> tuple[int, int, int]:
    """The medium player's card from ``legal``, with why (a ``WHY_*`` code) and the seat the
    reason names (the would-be shooter, the trick's winner; -1 for none).

    What the seat knows: ``hand``; ``out``, the cards in the other hands; ``voids``, bit
    ``4 * seat + suit`` for a seat known to hold no card of the suit; ``T[t0 + s]``, the cards seat
    ``s`` has taken; ``tricks_done``; ``points``, its own penalty points this hand. The trick in
    progress: ``trick_len`` cards, ``w`` the winning card (any card when leading), played by
    ``w_seat``, ``tmask`` all of them. ``running`` is a search's running shooter (-1: none): it
    plays :func:`moon_card` and the others treat it as the moon threat. With ``plan`` the seat
    plays the medium player's own moon plan when :func:`plays_for_moon` says so.
    """
    if legal & (legal - 1) == 0:
        return lowest_card(legal), WHY_ONLY, -1
    if plan and running < 0 and plays_for_moon(R, T, t0, seat, hand, out, tricks_done, points):
        return shoot_card(R, legal, out, trick_len, w)
    if running == seat:
        return moon_card(R, legal, out, trick_len, w), WHY_RUNNING, -1
    threat = _threat(R, T, t0, seat, running)
    if trick_len == 0:
        return _lead(R, legal, seat, hand, out, voids, threat)
    if legal & (SUIT << (13 * (w // 13))):
        return _follow(R, legal, hand, out, tricks_done, trick_len, w, w_seat, tmask, threat)
    return _discard(R, legal, out, w_seat, threat)


@njit
def _world_choice(
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
    plan: bool,
) -> int:
    """:func:`medium_choice` for ``seat`` in a world, with probability ``eps`` a random legal card."""
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if eps > 0.0 and chance(S) < eps:
        return random_card(S, legal)
    n = R[R_PLAYERS]
    voids = _voids_of(S, n, seat) if trick_len == 0 else 0
    card, _why, _who = medium_choice(
        R,
        S,
        S_TAKEN,
        seat,
        S[S_HANDS + seat],
        _out_of(S, n, seat),
        voids,
        S[S_TRICKS_DONE],
        S[S_POINTS + seat],
        legal,
        trick_len,
        best,
        best_seat,
        tmask,
        running,
        plan,
    )
    return card


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
    """The medium player's card play without its own moon plan (a search gives its shooters the
    moon policy instead), with probability ``eps`` a random legal card; the running shooter plays
    :func:`moon_card`, and the others treat it as the moon threat. The arguments are
    :func:`greedy_card`'s."""
    return _world_choice(S, R, legal, seat, trick_len, best, best_seat, tmask, running, eps, False)


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
    """The medium player's whole card play, its own moon plan included, with probability ``eps``
    a random legal card. Unlike the search's running shooter (``running``, which every seat is
    told of), a seat playing this plan is seen by the others only through the points it takes
    (medium's moon-threat rule). The arguments are :func:`greedy_card`'s."""
    return _world_choice(S, R, legal, seat, trick_len, best, best_seat, tmask, running, eps, True)
