"""The greedy rollout policy in plain Python: the tests' reference for the compiled ``greedy_card``.

The search players roll out in compiled code only (``hearts.fast``); this independent statement of
the greedy policy on a :class:`HandState` is kept so that ``tests/test_fast_search.py`` can check
the compiled policy card for card against it (with ``epsilon`` 0, both draw random numbers only for
the lead's tie-break, from the same stream).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.core import CARDS, HandState, Phase
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS, cards_of
from hearts.players.knowledge import QS

#: ``rollout(state, rng, shooters)``: play ``state`` to the end of the hand in place.
Rollout = Callable[[HandState, random.Random, int], None]

_PLAY = Phase.PLAY
_SPADE_MASK = SUIT_MASKS[2]
_UNDER_QUEEN = _SPADE_MASK & ((1 << QS) - 1)
_QUEEN_AND_ABOVE = _SPADE_MASK & ~_UNDER_QUEEN
_ABOVE_QUEEN = _QUEEN_AND_ABOVE & ~QS_BIT


def _queen_out(hands: list[int]) -> bool:
    """Whether Q♠ is still in some hand (not yet played): public knowledge, read off the world."""
    for h in hands:
        if h & QS_BIT:
            return True
    return False


def _nth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``mask``, counting from the lowest."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _top_rank(mask: int) -> int:
    best, best_rank = -1, -1
    for s in SUIT_MASKS:
        chunk = mask & s
        if chunk:
            c = chunk.bit_length() - 1
            if c % 13 >= best_rank:
                best, best_rank = c, c % 13
    return best


def make_greedy_rollout(epsilon: float = 0.1) -> Rollout:
    """A medium-lite rollout policy: duck under the winner, shed high when last to a clean trick,
    dump Q♠ then high hearts when void, lead low; a random legal card with probability ``epsilon``.

    Seats in ``shooters`` play for the moon (win everything) while no one else has a point;
    the others then take a heart off a running shooter when they can.
    """

    def rollout(state: HandState, rng: random.Random, shooters: int = 0) -> None:
        rules = state.rules
        n = state.players
        pen = rules.penalty_mask
        hands = state.hands
        points = state.points
        advance = state.advance
        legal_mask = state.legal_mask
        rand = rng.random
        while state.phase is _PLAY:
            mask = legal_mask()
            if not mask & (mask - 1):
                advance(CARDS[mask.bit_length() - 1])
                continue
            if epsilon and rand() < epsilon:
                advance(CARDS[_nth_bit(mask, int(rand() * mask.bit_count()))])
                continue
            seat = state.turn
            trick = state.trick
            running = -1  # a shooter still in the running (it alone has points)
            if shooters:
                for s in range(n):
                    if shooters >> s & 1:
                        if all(points[o] == 0 for o in range(n) if o != s):
                            running = s
                        break
            if running == seat:
                # Play for the moon: win with the highest card, lead a master (spades, clubs,
                # diamonds, then hearts) or else the highest, throw low non-points.
                if trick:
                    follow = mask & SUIT_MASKS[trick[0] // 13]
                    if follow:
                        card = follow.bit_length() - 1
                    else:
                        spare = mask & ~pen
                        pick = spare or mask
                        card = min(cards_of(pick), key=lambda c: c % 13)
                else:
                    out = 0
                    for o in range(n):
                        if o != seat:
                            out |= state.hands[o]
                    card = _top_rank(mask)
                    for suit in (2, 0, 1, 3):
                        mine = mask & SUIT_MASKS[suit]
                        if mine:
                            top = mine.bit_length() - 1
                            if not out & SUIT_MASKS[suit] & ~((2 << top) - 1):
                                card = top
                                break
                advance(CARDS[card])
                continue
            if trick:
                led = trick[0] // 13
                suit = SUIT_MASKS[led]
                best: int = trick[0]
                best_i = 0
                tmask = 0
                for i, x in enumerate(trick):
                    tmask |= 1 << x
                    if x > best and x // 13 == led:
                        best = x
                        best_i = i
                winner = (state.leader + best_i) % n
                follow = mask & suit
                if follow:
                    below = follow & ((1 << best) - 1)
                    last = len(trick) == n - 1
                    if running >= 0 and winner == running and follow > below:
                        # Take a heart off the shooter with the lowest card that beats it.
                        above = follow & ~below & ~QS_BIT
                        if above:
                            advance(CARDS[(above & -above).bit_length() - 1])
                            continue
                    if last and not tmask & pen and led != 3:
                        # Last to a clean trick: shed the highest card (not Q♠ onto myself).
                        pick = follow & ~QS_BIT or follow
                        advance(CARDS[pick.bit_length() - 1])
                        continue
                    if below:
                        if led == 2 and below & QS_BIT and best > QS:
                            advance(CARDS[QS])  # drop Q♠ under A♠/K♠
                            continue
                        advance(CARDS[below.bit_length() - 1])
                        continue
                    if led == 2 and not tmask & QS_BIT and not hands[seat] & QS_BIT and _queen_out(hands):
                        # Forced over a spade while Q♠ is out: win as low as possible, keeping A♠/K♠.
                        pick = follow & ~QS_BIT
                        advance(CARDS[(pick & -pick).bit_length() - 1])
                        continue
                    pick = follow & ~QS_BIT or follow
                    advance(CARDS[pick.bit_length() - 1])
                    continue
                # Void: keep points off a running shooter; otherwise dump Q♠, then high hearts, then high cards.
                if running >= 0 and winner == running:
                    spare = mask & ~pen
                    if spare:
                        advance(CARDS[_top_rank(spare)])
                        continue
                if mask & QS_BIT:
                    advance(CARDS[QS])
                    continue
                high_spades = mask & _ABOVE_QUEEN
                if high_spades and _queen_out(hands):
                    advance(CARDS[high_spades.bit_length() - 1])  # A♠/K♠ while Q♠ is still out
                    continue
                hearts = mask & HEARTS
                if hearts and (hearts.bit_length() - 1) % 13 >= 6:
                    advance(CARDS[hearts.bit_length() - 1])
                    continue
                advance(CARDS[_top_rank(mask)])
                continue
            # Lead: flush Q♠ with a spade under her when safe; else the lowest-ranked card,
            # keeping off spades while holding Q♠.
            hand = hands[seat]
            under_q = mask & _UNDER_QUEEN
            if under_q and not hand & _QUEEN_AND_ABOVE:
                taken_all = 0
                for t in state.taken:
                    taken_all |= t
                if not taken_all & QS_BIT:
                    advance(CARDS[under_q.bit_length() - 1])
                    continue
            pick = mask & ~_SPADE_MASK if hand & QS_BIT and mask & ~_SPADE_MASK else mask
            best = -1
            best_rank = 99.0
            for suit in SUIT_MASKS:
                chunk = pick & suit
                if chunk:
                    c = (chunk & -chunk).bit_length() - 1
                    r = c % 13 + (2 if suit == HEARTS else 0) + rand() * 3
                    if r < best_rank:
                        best, best_rank = c, r
            advance(CARDS[best])

    return rollout
