"""The compiled hand: the state array, dealing, passing, playing a card, scoring.

A hand's state is an int64 array of :data:`STATE_SIZE` slots (``S_*`` below); the rules come
in as the int64 array of :func:`hearts.fast.rules_array` (``R_*`` slots). The rules themselves
(legal cards, the trick's winner, penalty points, the moon, the bonus card, the game's end) are
:mod:`hearts.core.arith`, the functions the engine runs too; this module keeps only the state
array's bookkeeping around them. Cards are ``suit * 13 + rank - 2``, sets of cards 52-bit masks.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from hearts.core.arith import (
    R_BREAKERS,
    R_BROKEN_AT_START,
    R_HAND_SIZE,
    R_IN_PLAY,
    R_OPENING_CARD,
    R_PENALTY,
    R_PLAYERS,
    beats,
    hand_scores,
    legal_of,
    moon_adds,
    moon_shooter,
    penalty_points,
)
from hearts.fast._jit import FAST_PDEP, njit
from hearts.fast.bits import lowest_card, popcount
from hearts.fast.rng import below, seeded, uniform

if FAST_PDEP:
    from hearts.fast._jit import pdep

# -- the state array -------------------------------------------------------------------------
MAX_PLAYERS = 6
S_HANDS = 0  #: S_HANDS + seat: the seat's cards
S_TAKEN = 6  #: S_TAKEN + seat: the cards it has taken in tricks
S_POINTS = 12  #: S_POINTS + seat: the penalty points it has taken
S_LEADER = 18
S_TURN = 19
S_TRICK_LEN = 20
S_TRICK = 21  #: S_TRICK + i: the i-th card of the trick in progress
S_TRICKS_DONE = 27
S_BROKEN = 28
S_TRICK_MASK = 29  #: the cards of the trick in progress
#: The random generator's state (:mod:`hearts.fast.rng`): the one slot that is not the hand's. The
#: kernels that play seed it; copying a state copies the luck to come (common random numbers).
S_RNG = 30
STATE_SIZE = 32


#: Slots of a trace: the dealt hands, the passes, (legal mask, card) per play, the winner per trick.
TRACE_PASSED = MAX_PLAYERS
TRACE_PLAYS = 2 * MAX_PLAYERS
TRACE_WINNERS = TRACE_PLAYS + 2 * 52
TRACE_SIZE = TRACE_WINNERS + 18

# -- bits ------------------------------------------------------------------------------------


@njit
def draw(S: np.ndarray, count: int) -> int:
    """A random whole number in ``[0, count)`` for ``count`` below 2**31, from the generator in
    ``S[S_RNG]`` (:func:`hearts.fast.rng.below`)."""
    S[S_RNG], k = below(S[S_RNG], count)
    return k


@njit
def chance(S: np.ndarray) -> float:
    """A random float in ``[0, 1)`` from the generator in ``S[S_RNG]``."""
    S[S_RNG], u = uniform(S[S_RNG])
    return u


@njit
def seed_state(S: np.ndarray, seed: int) -> None:
    """Seed the generator that the play from ``S`` draws from."""
    S[S_RNG] = seeded(seed)


if FAST_PDEP:

    @njit
    def nth_card(mask: int, n: int) -> int:
        """The ``n``-th lowest card (from 0) of a mask holding more than ``n`` cards.

        BMI2's ``pdep`` lays the bit ``1 << n`` into the mask's ``n``-th set bit: two instructions,
        where the binary search below is a chain of six dependent steps.
        """
        return lowest_card(pdep(1 << n, mask))  # type: ignore[call-arg]

else:

    @njit
    def nth_card(mask: int, n: int) -> int:
        """The ``n``-th lowest card (from 0) of a mask holding more than ``n`` cards.

        A binary search on bit counts without data-dependent branches (selects, not jumps): a
        loop that clears ``n`` low bits mispredicts its exit on nearly every random choice.
        """
        pos = 0
        for width in (32, 16, 8, 4, 2, 1):
            c = popcount(mask & ((1 << width) - 1))
            step = width if n >= c else 0
            n -= c if n >= c else 0
            mask >>= step
            pos += step
        return pos


@njit
def random_card(S: np.ndarray, mask: int) -> int:
    """A uniformly random card of a non-empty mask (drawn from ``S``'s generator)."""
    if mask & (mask - 1) == 0:
        return lowest_card(mask)
    return nth_card(mask, draw(S, popcount(mask)))


# -- the rules of play (each mirrors a HandState method) ----------------------------------


@njit
def reset_state(S: np.ndarray, R: np.ndarray) -> None:
    """Clear everything but the hands: the state of a hand just dealt (HandState.__init__)."""
    for s in range(MAX_PLAYERS):
        S[S_TAKEN + s] = 0
        S[S_POINTS + s] = 0
    S[S_LEADER] = 0
    S[S_TURN] = 0
    S[S_TRICK_LEN] = 0
    S[S_TRICKS_DONE] = 0
    S[S_BROKEN] = R[R_BROKEN_AT_START]
    S[S_TRICK_MASK] = 0


@njit
def exchange(S: np.ndarray, R: np.ndarray, passed: np.ndarray, offset: int) -> None:
    """Take every seat's pass out of its hand and give it to the seat ``offset`` ahead (HandState._exchange)."""
    n = R[R_PLAYERS]
    for s in range(n):
        S[S_HANDS + s] &= ~passed[s]
    to = offset % n  # then counted on: one division a hand, not one a seat
    for s in range(n):
        S[S_HANDS + to] |= passed[s]
        to = to + 1 if to + 1 < n else 0


@njit
def start_play(S: np.ndarray, R: np.ndarray) -> None:
    """The holder of the opening card leads the first trick (HandState._start_play)."""
    opening = R[R_OPENING_CARD]
    for s in range(R[R_PLAYERS]):
        if (S[S_HANDS + s] >> opening) & 1:
            S[S_LEADER] = s
            S[S_TURN] = s


@njit
def pass_positions(
    R: np.ndarray, dealt: np.ndarray, passes: np.ndarray, seat: int, candidates: np.ndarray, offset: int
) -> np.ndarray:
    """The positions a pass search compares: for each candidate pass of ``seat`` (a mask in
    ``candidates``), the hands ``dealt`` after every seat has passed (the others ``passes[s]``,
    ``seat`` the candidate) to the seat ``offset`` ahead, the first trick ready to lead
    (``HandState.pass_cards`` for every seat). Returns int64[len(candidates), STATE_SIZE]."""
    n = R[R_PLAYERS]
    W = np.zeros((candidates.shape[0], STATE_SIZE), dtype=np.int64)
    passed = passes.copy()
    for i in range(candidates.shape[0]):
        S = W[i]
        for s in range(n):
            S[S_HANDS + s] = dealt[s]
        reset_state(S, R)
        passed[seat] = candidates[i]
        exchange(S, R, passed, offset)
        start_play(S, R)
    return W


@njit
def legal_mask(S: np.ndarray, R: np.ndarray) -> int:
    """The cards the seat to play may play in position ``S``."""
    return legal_of(S[S_HANDS + S[S_TURN]], S[S_TRICK_LEN], S[S_TRICK] // 13, S[S_TRICKS_DONE], S[S_BROKEN], R)


@njit
def trick_best(S: np.ndarray, n: int) -> tuple[int, int]:
    """The card winning the trick in progress and its seat (the leader's card when it is empty)."""
    best = S[S_TRICK]
    best_seat = S[S_LEADER]
    for j in range(1, S[S_TRICK_LEN]):
        if beats(S[S_TRICK + j], best):
            best = S[S_TRICK + j]
            best_seat = (S[S_LEADER] + j) % n
    return best, best_seat


@njit
def take_trick(S: np.ndarray, R: np.ndarray, winner: int, mask: int) -> None:
    """``winner`` takes the finished trick ``mask`` and leads the next (end of HandState.advance)."""
    S[S_TAKEN + winner] |= mask
    if mask & R[R_PENALTY]:
        S[S_POINTS + winner] += penalty_points(mask, R)
    S[S_TRICKS_DONE] += 1
    S[S_TRICK_LEN] = 0
    S[S_TRICK_MASK] = 0
    S[S_LEADER] = winner
    S[S_TURN] = winner


@register_jitable(inline="always")
def play_card(
    hand: int, card: int, turn: int, n: int, tl: int, best: int, best_seat: int, tmask: int, broken: int, breakers: int
) -> tuple[int, int, int, int, int, int, int]:
    """The one body of a card's play (HandState.advance), on plain numbers: ``turn``, holding
    ``hand``, plays ``card`` (known to be legal) to the trick in progress, whose ``tl`` cards so far
    (the mask ``tmask``) are led by ``best`` of ``best_seat``; ``breakers`` are the cards that break
    hearts (``R[R_BREAKERS]``). Returns ``(hand, turn, tl, best, best_seat, tmask, broken)`` after
    the card; once ``tl`` reaches ``n`` the trick is complete, ``best_seat`` has won it and the caller
    hands it to :func:`take_trick`.

    Numbers in and out, no arrays: an array handed to even an inlined function costs reference
    counting at every card (a play-out ran at half speed), and numbers let :func:`play_out_to` keep
    the trick in registers while :func:`advance` keeps it in the state array.
    """
    bit = 1 << card
    hand ^= bit
    if bit & breakers:
        broken = 1
    tmask |= bit
    if tl == 0:
        best = card
        best_seat = turn
    elif beats(card, best):
        best = card
        best_seat = turn
    tl += 1
    turn = turn + 1 if turn + 1 < n else 0
    return hand, turn, tl, best, best_seat, tmask, broken


@njit
def advance(S: np.ndarray, R: np.ndarray, card: int) -> int:
    """Play a card known to be legal (HandState.advance); return the trick's winner or -1.

    The step-by-step form, for callers that choose each card themselves: :func:`play_card` on the
    trick kept in the state array.
    """
    n = R[R_PLAYERS]
    seat = S[S_TURN]
    tl = S[S_TRICK_LEN]
    best, best_seat = trick_best(S, n)
    S[S_TRICK + tl] = card
    hand, turn, tl, best, best_seat, tmask, broken = play_card(
        S[S_HANDS + seat], card, seat, n, tl, best, best_seat, S[S_TRICK_MASK], S[S_BROKEN], R[R_BREAKERS]
    )
    S[S_HANDS + seat] = hand
    S[S_BROKEN] = broken
    if tl == n:
        take_trick(S, R, best_seat, tmask)
        return best_seat
    S[S_TURN] = turn
    S[S_TRICK_LEN] = tl
    S[S_TRICK_MASK] = tmask
    return -1


@njit
def score_hand(S: np.ndarray, R: np.ndarray, moon_choice: int, scores: np.ndarray) -> int:
    """Write the finished hand's scores into ``scores``; return the shooter or -1 (HandState._score/_finish).

    Where the moon is the shooter's choice, ``moon_choice`` (CHOICE_*) is the answer applied;
    the choice itself belongs to a player, so callers that care read the returned shooter.
    """
    n = R[R_PLAYERS]
    shooter = moon_shooter(S, S_TAKEN, n, R)
    hand_scores(S, S_POINTS, S, S_TAKEN, n, R, shooter, moon_adds(R, moon_choice), scores)
    return shooter


# -- whole hands -----------------------------------------------------------------------------


@njit
def fill_deck(R: np.ndarray, deck: np.ndarray) -> None:
    """Put the cards in play into ``deck`` (52 slots) in card order, for :func:`deal` to shuffle."""
    size = 0
    m = R[R_IN_PLAY]
    while m:
        deck[size] = lowest_card(m)
        m &= m - 1
        size += 1


@njit
def deal(S: np.ndarray, R: np.ndarray, deck: np.ndarray) -> None:
    """Shuffle the cards in play and deal them one at a time, seat 0 first (like core.hand.deal_cards).

    ``deck`` is scratch (52 slots). It is refilled in card order before every shuffle, so that
    a deal depends on the generator alone (a run in chunks deals what a run in one call deals).
    """
    n = R[R_PLAYERS]
    size = R[R_HAND_SIZE] * n
    fill_deck(R, deck)
    for i in range(size - 1, 0, -1):
        j = draw(S, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for s in range(MAX_PLAYERS):
        S[S_HANDS + s] = 0
    seat = 0
    for i in range(size):
        S[S_HANDS + seat] |= 1 << deck[i]
        seat = seat + 1 if seat + 1 < n else 0  # not i % n: a division per card
    reset_state(S, R)
