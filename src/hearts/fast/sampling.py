"""Compiled sampling of the hidden cards: the search players' worlds, a batch per call.

:func:`sample_deals` is the compiled twin of :func:`hearts.players.sampling.likely_hands`
(the same method: the most constrained cards dealt first, each to a seat that may hold it in
proportion to the room left in its hand, a dead end retried, Q♠ redealt away from a seat
that passed up a chance to throw her). It takes the seat's knowledge as plain arrays
(built by :class:`hearts.players.sampling.LikelyHandsSampler`), so this layer needs nothing
above :mod:`hearts.core`. Sampling in Python cost the search players about a fifth of each
play decision; compiled, a world costs about 2 µs, less than one rollout.

A deal the greedy method cannot finish in :data:`GREEDY_TRIES` tries is flagged, not forced:
the caller deals that one with the Python sampler, which finds a consistent deal
whenever one exists. ``tests/test_fast_sampling.py`` checks every compiled deal against the
seat's knowledge and the two samplers' distributions against each other.
"""

from __future__ import annotations

import numpy as np

from hearts.fast._jit import njit
from hearts.fast.bits import popcount
from hearts.fast.rng import below, seeded, uniform

#: Greedy attempts per deal before it is flagged for the Python sampler (as in Python).
GREEDY_TRIES = 12


@njit
def _deal_once(
    cards: np.ndarray,
    eligible: np.ndarray,
    order: np.ndarray,
    need: np.ndarray,
    base: np.ndarray,
    hands: np.ndarray,
    room: np.ndarray,
    rng: int,
) -> tuple[bool, int]:
    """One greedy deal into ``hands`` (cards in ``order``), or False at a dead end; drawn from the
    generator state ``rng``, returned with the state after it."""
    n = need.shape[0]
    for _ in range(GREEDY_TRIES):
        for s in range(n):
            room[s] = need[s]
            hands[s] = base[s]
        dead = False
        for j in range(order.shape[0]):
            i = order[j]
            seats = eligible[i]
            total = 0
            for s in range(n):
                if seats >> s & 1:
                    total += room[s]
            if total == 0:
                dead = True
                break
            rng, pick = below(rng, total)
            chosen = -1
            for s in range(n):
                if seats >> s & 1 and room[s]:
                    pick -= room[s]
                    if pick < 0:
                        chosen = s
                        break
            room[chosen] -= 1
            hands[chosen] |= 1 << cards[i]
        if not dead:
            return True, rng
    return False, rng


@njit
def sample_deals(
    cards: np.ndarray,
    eligible: np.ndarray,
    need: np.ndarray,
    base: np.ndarray,
    doubt: int,
    queen: int,
    doubt_chance: float,
    redeals: int,
    seed: int,
    count: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` deals of the unseen ``cards`` (int64 card numbers).

    ``eligible[i]`` is the bit set of the seats that may hold ``cards[i]``; ``need[s]`` how many
    unseen cards seat ``s`` holds; ``base[s]`` the cards it is known to hold (the seat's own hand
    at its own place). A deal giving Q♠ (card number ``queen``, or -1 when she is not unseen) to
    a seat in the bit set ``doubt`` is redealt with chance ``doubt_chance``, at most ``redeals``
    times. The generator is seeded with ``seed``. Returns ``(hands[count, seats], ok[count])``;
    ``ok[w]`` is 0 where the greedy method found no deal (that row is then meaningless).
    """
    rng = seeded(seed)
    n = need.shape[0]
    m = cards.shape[0]
    hands_out = np.zeros((count, n), dtype=np.int64)
    ok = np.zeros(count, dtype=np.int64)
    hands = np.zeros(n, dtype=np.int64)
    room = np.zeros(n, dtype=np.int64)
    shuffled = np.arange(m)
    order = np.empty(m, dtype=np.int64)
    width = np.zeros(m, dtype=np.int64)
    for i in range(m):
        width[i] = popcount(eligible[i])
    for w in range(count):
        for attempt in range(redeals + 1):
            # A fresh random order, then stable by how many seats may hold each card (fewest first).
            for i in range(m - 1, 0, -1):
                rng, j = below(rng, i + 1)
                shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
            k = 0
            for size in range(n + 1):
                for i in range(m):
                    if width[shuffled[i]] == size:
                        order[k] = shuffled[i]
                        k += 1
            dealt, rng = _deal_once(cards, eligible, order, need, base, hands, room, rng)
            if not dealt:
                ok[w] = 0
                break
            ok[w] = 1
            for s in range(n):
                hands_out[w, s] = hands[s]
            if queen < 0 or doubt == 0 or attempt == redeals:
                break
            holder = -1
            for s in range(n):
                if hands[s] >> queen & 1:
                    holder = s
            if holder < 0 or not doubt >> holder & 1:
                break
            rng, u = uniform(rng)
            if u >= doubt_chance:
                break
    return hands_out, ok
