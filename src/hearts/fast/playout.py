"""Compiled whole hands and rollouts: play a position out with each seat's policy, deal and play
hands in batches, successive games, and the rollouts the search is built on."""

from __future__ import annotations

import numpy as np

from hearts.core.arith import (
    CHOICE_ADD_TO_OTHERS,
    CHOICE_BEST,
    MOON_SHOOTER_CHOOSES,
    R_BREAKERS,
    R_HAND_SIZE,
    R_MOON,
    R_PLAYERS,
    best_moon_choice,
    game_winners,
    legal_of,
    pass_offset,
)
from hearts.fast._jit import njit, prange
from hearts.fast.medium import medium_card, medium_moon_card
from hearts.fast.policies import (
    POLICY_MEDIUM,
    POLICY_MEDIUM_MOON,
    POLICY_MOON,
    POLICY_RANDOM,
    choose_pass,
    greedy_card,
    running_shooter,
)
from hearts.fast.rng import seeded
from hearts.fast.state import (
    MAX_PLAYERS,
    S_BROKEN,
    S_HANDS,
    S_RNG,
    S_TRICK_LEN,
    S_TRICK_MASK,
    S_TRICKS_DONE,
    S_TURN,
    STATE_SIZE,
    TRACE_PASSED,
    TRACE_PLAYS,
    TRACE_WINNERS,
    deal,
    exchange,
    play_card,
    random_card,
    score_hand,
    seed_state,
    start_play,
    take_trick,
    trick_best,
)


@njit
def play_out(S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, trace: np.ndarray) -> None:
    """Play every remaining card of the hand with each seat's policy, in place (see :func:`play_out_to`)."""
    play_out_to(S, R, policies, eps, trace, R[R_HAND_SIZE])


@njit
def play_out_to(
    S: np.ndarray,
    R: np.ndarray,
    policies: np.ndarray,
    eps: float,
    trace: np.ndarray,
    total: int,
) -> None:
    """Play on with each seat's policy, in place, until ``total`` tricks are done.

    Each card is played by :func:`~hearts.fast.state.play_card`, the body :func:`advance` runs too,
    with the trick in progress kept in local variables: about twice as fast as calling ``advance``
    per card.
    When ``trace`` is non-empty each (legal mask, card) and each trick's winner is logged.
    """
    tracing = trace.shape[0] > 0
    n = R[R_PLAYERS]
    breakers = R[R_BREAKERS]
    # The trick in progress, if the position starts mid-trick.
    tl = S[S_TRICK_LEN]
    tmask = S[S_TRICK_MASK]
    best, best_seat = trick_best(S, n)
    turn = S[S_TURN]
    done = S[S_TRICKS_DONE]
    broken = S[S_BROKEN]
    moon = False
    for s in range(n):
        if policies[s] == POLICY_MOON:
            moon = True
    while done < total:
        legal = legal_of(S[S_HANDS + turn], tl, best // 13, done, broken, R)
        if policies[turn] == POLICY_RANDOM:
            card = random_card(S, legal)
        else:
            running = running_shooter(S, R, policies) if moon else -1
            if policies[turn] == POLICY_MEDIUM:
                card = medium_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
            elif policies[turn] == POLICY_MEDIUM_MOON:
                card = medium_moon_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
            else:
                card = greedy_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
        if tracing:
            k = TRACE_PLAYS + 2 * (done * n + tl)
            trace[k] = legal
            trace[k + 1] = card
        seat = turn
        S[S_HANDS + seat], turn, tl, best, best_seat, tmask, broken = play_card(
            S[S_HANDS + seat], card, seat, n, tl, best, best_seat, tmask, broken, breakers
        )
        if tl == n:  # the trick is complete: its winner takes it and leads the next
            take_trick(S, R, best_seat, tmask)
            if tracing:
                trace[TRACE_WINNERS + done] = best_seat
            done += 1
            tl = 0
            tmask = 0
            turn = best_seat
    S[S_BROKEN] = broken


@njit
def play_hand(
    S: np.ndarray,
    R: np.ndarray,
    hand_number: int,
    policies: np.ndarray,
    eps: float,
    moon_choice: int,
    scores: np.ndarray,
    deck: np.ndarray,
    passed: np.ndarray,
    trace: np.ndarray,
) -> int:
    """Deal, pass, play and score one whole hand; return the shooter or -1.

    ``deck`` (52) and ``passed`` (MAX_PLAYERS) are scratch; ``trace`` (TRACE_SIZE, or
    empty) receives the deal, the passes and every (legal mask, card) for the tests' replay.
    """
    n = R[R_PLAYERS]
    deal(S, R, deck)
    tracing = trace.shape[0] > 0
    if tracing:
        for s in range(n):
            trace[s] = S[S_HANDS + s]
    offset = pass_offset(R, hand_number)
    for s in range(MAX_PLAYERS):
        passed[s] = 0
    if offset != 0:
        for s in range(n):
            passed[s] = choose_pass(S, S[S_HANDS + s], R, policies[s], eps)
        exchange(S, R, passed, offset)
    if tracing:
        for s in range(n):
            trace[TRACE_PASSED + s] = passed[s]
    start_play(S, R)
    play_out(S, R, policies, eps, trace)
    return score_hand(S, R, moon_choice, scores)


@njit
def simulate_hands(
    R: np.ndarray,
    n_hands: int,
    policies: np.ndarray,
    eps: float,
    seed: int,
    first_hand: int,
    moon_choice: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n_hands`` random deals (hand numbers ``first_hand``... for the pass cycle).

    Returns (scores[n_hands, players], shooter[n_hands] with -1 for none).
    """
    n = R[R_PLAYERS]
    scores = np.zeros((n_hands, n), dtype=np.int64)
    shooters = np.empty(n_hands, dtype=np.int64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    seed_state(S, seed)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for h in range(n_hands):
        shooters[h] = play_hand(S, R, first_hand + h, policies, eps, moon_choice, row, deck, passed, no_trace)
        for s in range(n):
            scores[h, s] = row[s]
    return scores, shooters


@njit
def simulate_games(
    R: np.ndarray,
    n_hands: int,
    policies: np.ndarray,
    eps: float,
    seed: int,
    moon_mode: int,
    carry: np.ndarray,
    traces: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``n_hands`` hands of successive games: each game to its target, then a new one.

    ``carry`` is [hand number in the game, the generator's state, totals per seat...]: it says
    where the game in progress stands and is updated in place, so a long run can go in chunks (a
    negative ``seed`` keeps the generator's stream going instead of reseeding). ``moon_mode`` is a
    CHOICE_* code for the shooter's answer where the moon is the shooter's choice.
    ``traces`` is (n_hands, TRACE_SIZE) to log every hand for the tests, or has no rows.

    Returns (scores[n_hands, players], shooters[n_hands], ends[n_hands]): ``ends[h]`` is the
    bit set of the winners when hand ``h`` ended its game, else 0.
    """
    n = R[R_PLAYERS]
    if carry.shape[0] != 2 + n:
        raise ValueError("carry must hold the hand number, the generator and one total a seat")
    scores = np.zeros((n_hands, n), dtype=np.int64)
    shooters = np.empty(n_hands, dtype=np.int64)
    ends = np.zeros(n_hands, dtype=np.int64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    S[S_RNG] = seeded(seed) if seed >= 0 else carry[1]
    totals = carry[2:]
    tracing = traces.shape[0] > 0
    no_trace = np.zeros(0, dtype=np.int64)
    for h in range(n_hands):
        trace = traces[h] if tracing else no_trace
        shooter = play_hand(S, R, carry[0], policies, eps, CHOICE_ADD_TO_OTHERS, row, deck, passed, trace)
        if shooter >= 0 and R[R_MOON] == MOON_SHOOTER_CHOOSES:
            choice = best_moon_choice(R, totals, shooter) if moon_mode == CHOICE_BEST else moon_mode
            if choice != CHOICE_ADD_TO_OTHERS:
                score_hand(S, R, choice, row)
        shooters[h] = shooter
        for s in range(n):
            scores[h, s] = row[s]
            totals[s] += row[s]
        carry[0] += 1
        won = game_winners(R, totals)
        if won:
            ends[h] = won
            carry[0] = 0
            for s in range(n):
                totals[s] = 0
    carry[1] = S[S_RNG]
    return scores, shooters, ends


@njit(parallel=True)
def simulate_hands_parallel(
    R: np.ndarray,
    n_hands: int,
    policies: np.ndarray,
    eps: float,
    seed: int,
    first_hand: int,
    moon_choice: int,
    chunks: int,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`simulate_hands` split into ``chunks`` independently seeded runs spread over the cores.

    Chunk ``c`` seeds its generator with ``seed + c`` before it starts, so the result
    depends on ``seed`` and ``chunks`` only, never on how threads pick up chunks.
    """
    n = R[R_PLAYERS]
    scores = np.zeros((n_hands, n), dtype=np.int64)
    shooters = np.empty(n_hands, dtype=np.int64)
    per = (n_hands + chunks - 1) // chunks
    for c in prange(chunks):
        lo = c * per
        hi = min(n_hands, lo + per)
        if lo >= hi:
            continue
        S = np.zeros(STATE_SIZE, dtype=np.int64)
        seed_state(S, seed + c)
        deck = np.zeros(52, dtype=np.int64)
        passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
        row = np.zeros(MAX_PLAYERS, dtype=np.int64)
        no_trace = np.zeros(0, dtype=np.int64)
        for h in range(lo, hi):
            shooters[h] = play_hand(S, R, first_hand + h, policies, eps, moon_choice, row, deck, passed, no_trace)
            for s in range(n):
                scores[h, s] = row[s]
    return scores, shooters


@njit
def _mean_rollouts(
    S0: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, n: int, moon_choice: int, rng: int
) -> tuple[np.ndarray, int]:
    """Each seat's mean hand score over ``n`` play-outs of ``S0`` (left unchanged), drawing from the
    generator state ``rng``, and the state after them: the one loop behind :func:`rollout` and
    :func:`rollout_worlds`."""
    players = R[R_PLAYERS]
    total = np.zeros(players, dtype=np.float64)
    S = np.empty_like(S0)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for _ in range(n):
        S[:] = S0
        S[S_RNG] = rng
        play_out(S, R, policies, eps, no_trace)
        rng = S[S_RNG]
        score_hand(S, R, moon_choice, row)
        for s in range(players):
            total[s] += row[s]
    return total / max(n, 1), rng


@njit
def rollout(
    S0: np.ndarray,
    R: np.ndarray,
    policies: np.ndarray,
    eps: float,
    n: int,
    seed: int,
    moon_choice: int,
) -> np.ndarray:
    """Play the position ``S0`` to the end ``n`` times; return each seat's mean hand score.

    ``S0`` is left unchanged. Scores include the moon and the bonus card, as the hand's
    final score would.
    """
    return _mean_rollouts(S0, R, policies, eps, n, moon_choice, seeded(seed))[0]


@njit
def rollout_worlds(
    worlds: np.ndarray,
    R: np.ndarray,
    policies: np.ndarray,
    eps: float,
    n: int,
    seed: int,
    moon_choice: int,
) -> np.ndarray:
    """:func:`rollout` for each row of ``worlds`` (one determinized state per row), in one call.

    Returns means[len(worlds), players]; one generator stream runs through all worlds.
    """
    rng = seeded(seed)
    out = np.zeros((worlds.shape[0], R[R_PLAYERS]), dtype=np.float64)
    for w in range(worlds.shape[0]):
        out[w], rng = _mean_rollouts(worlds[w], R, policies, eps, n, moon_choice, rng)
    return out


@njit(parallel=True)
def rollout_worlds_parallel(
    worlds: np.ndarray,
    R: np.ndarray,
    policies: np.ndarray,
    eps: float,
    n: int,
    seed: int,
    moon_choice: int,
) -> np.ndarray:
    """:func:`rollout_worlds` over all cores: world ``w`` is played by one thread, seeded ``seed + w``
    (so the result does not depend on the threads)."""
    out = np.zeros((worlds.shape[0], R[R_PLAYERS]), dtype=np.float64)
    for w in prange(worlds.shape[0]):
        out[w] = _mean_rollouts(worlds[w], R, policies, eps, n, moon_choice, seeded(seed + w))[0]
    return out


@njit
def play_out_traced(
    S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, seed: int, moon_choice: int, trace: np.ndarray
) -> np.ndarray:
    """Play ``S`` to the end in place, logging into ``trace``; return the scores with the shooter last.

    For the tests: it checks rollouts from a position built off a live HandState.
    """
    seed_state(S, seed)
    play_out(S, R, policies, eps, trace)
    row = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    row[MAX_PLAYERS] = score_hand(S, R, moon_choice, row)
    return row


@njit
def play_hand_traced(
    R: np.ndarray, hand_number: int, policies: np.ndarray, eps: float, seed: int, moon_choice: int, trace: np.ndarray
) -> np.ndarray:
    """One seeded whole hand with its trace; return the scores with the shooter last (for the tests)."""
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    seed_state(S, seed)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    row[MAX_PLAYERS] = play_hand(S, R, hand_number, policies, eps, moon_choice, row, deck, passed, trace)
    return row
