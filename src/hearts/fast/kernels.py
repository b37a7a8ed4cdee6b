"""The compiled hot path: legal moves, tricks, scoring, whole hands, batch simulation and rollouts.

Everything here works on plain ``int64`` numbers and numpy arrays so that numba can
compile it (see :mod:`hearts.fast._jit` for the guard that lets it run as plain
Python too).  Cards are ``suit * 13 + rank - 2`` and sets of cards are 52-bit
masks, exactly as in :mod:`hearts.core.cards`.

The rule options come in as the int array built by :func:`hearts.fast.rules_array`
from a :class:`hearts.core.Rules` (the one mapping), and each function below is the
compiled twin of one engine method (``legal_of``: ``HandState.legal_mask``;
``advance``/``take_trick``: ``HandState.advance``; ``score_hand``: ``HandState._score``;
``game_winners``: ``Game._end_hand``). The engine stays the statement of the rules:
:mod:`hearts.fast.verify` (run by ``tests/test_fast_kernels.py``) replays every kernel
move through it and checks the two agree card for card, for every rule option.

A hand's state is an int64 array of :data:`STATE_SIZE` slots (``S_*`` below).
"""

from __future__ import annotations

import numpy as np

from hearts.fast._jit import njit, prange
from hearts.fast.bits import highest_card, lowest_card, popcount

# -- the rules array (built by hearts.fast.bridge.rules_array) ---------------------------
R_PLAYERS = 0
R_IN_PLAY = 1  #: mask of the cards in play
R_HAND_SIZE = 2
R_OPENING_CARD = 3  #: the lowest club in play
R_OPEN_ANY_CLUB = 4  #: 1: the opener may lead any club; 0: it must lead the opening card
R_POINTS_FIRST_TRICK = 5  #: 1: penalty cards may be discarded on the first trick
R_BREAKERS = 6  #: mask of the cards whose play breaks hearts (hearts, plus Q♠ under the house rule)
R_BROKEN_AT_START = 7  #: 1 when hearts need not be broken (hearts may be led at any time)
R_HEART_LEAD_ONLY_QUEEN = 8  #: 1: a hand of hearts and Q♠ may lead a heart before hearts break
R_HEART_POINTS = 9
R_QUEEN_POINTS = 10
R_BONUS_CARD = 11  #: -1 for none
R_BONUS_POINTS = 12
R_MOON = 13  #: one of the MOON_* codes
R_MOON_POINTS = 14
R_PENALTY = 15  #: mask of the penalty cards in play (hearts and Q♠)
R_PASS_COUNT = 16
R_TARGET = 17
R_TIES_PLAY_ON = 18  #: 1: tied lowest totals play on; 0: they share the win
R_CYCLE_LEN = 19
R_CYCLE = 20  #: R_CYCLE + i: the seat offset of the i-th pass of the cycle (0 = hold)
RULES_BASE_SIZE = 20

MOON_ADD_TO_OTHERS = 0
MOON_SHOOTER_CHOOSES = 1
MOON_SUBTRACT_FROM_SHOOTER = 2
MOON_DISABLED = 3

#: The shooter's answer where the moon is the shooter's choice (a kernel argument, not a rule).
CHOICE_ADD_TO_OTHERS = 0
CHOICE_SUBTRACT_FROM_SELF = 1
#: In whole games: the choice of :func:`best_moon_choice` (the players' own rule) for the totals.
CHOICE_BEST = 2

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
STATE_SIZE = 32

# -- policies --------------------------------------------------------------------------------
POLICY_RANDOM = 0  #: a uniformly random legal card (and a random pass)
POLICY_GREEDY = 1  #: the simple heuristic of :func:`greedy_card` (with ``eps`` noise)
POLICY_MOON = 2  #: the first such seat runs for the moon while no other has a point (:func:`moon_card`)
POLICY_SMART = 3  #: :func:`greedy_card` with a lead that sees which leads must win the trick (:func:`smart_card`)
POLICY_MEDIUM = 4  #: the medium player's card play, compiled (:func:`medium_card`); it passes as greedy does
#: :data:`POLICY_MEDIUM` with the medium player's own moon plan too (:func:`medium_moon_card`): a seat
#: whose world hand can shoot plays for the moon unseen, and the others find out only from the
#: points it takes, as they would at a real table
POLICY_MEDIUM_MOON = 5

SUIT = 0x1FFF
CLUBS = SUIT
HEARTS = SUIT << 39
QUEEN_OF_SPADES = 2 * 13 + 10
QS_BIT = 1 << QUEEN_OF_SPADES

#: Slots of a trace: the dealt hands, the passes, (legal mask, card) per play, the winner per trick.
TRACE_PASSED = MAX_PLAYERS
TRACE_PLAYS = 2 * MAX_PLAYERS
TRACE_WINNERS = TRACE_PLAYS + 2 * 52
TRACE_SIZE = TRACE_WINNERS + 18


# -- bits ------------------------------------------------------------------------------------


@njit
def draw(count: int) -> int:
    """A random whole number in ``[0, count)`` for ``count`` below 2**31, from ``np.random``.

    One 32-bit draw scaled by a multiply and shift: about twice as fast as
    ``np.random.randint(0, count)`` in compiled code, with a bias below count / 2**32 (under
    one part in 80 million for a 52-card deck).
    """
    return (np.random.randint(0, 2**32) * count) >> 32


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
def random_card(mask: int) -> int:
    """A uniformly random card of a non-empty mask."""
    if mask & (mask - 1) == 0:
        return lowest_card(mask)
    return nth_card(mask, draw(popcount(mask)))


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
def pass_offset(R: np.ndarray, hand_number: int) -> int:
    """Seats forward to the receiver of each pass in hand ``hand_number`` (0: a hold hand)."""
    return R[R_CYCLE + hand_number % R[R_CYCLE_LEN]]


@njit
def exchange(S: np.ndarray, R: np.ndarray, passed: np.ndarray, offset: int) -> None:
    """Take every seat's pass out of its hand and give it to the seat ``offset`` ahead (HandState._exchange)."""
    n = R[R_PLAYERS]
    for s in range(n):
        S[S_HANDS + s] &= ~passed[s]
    for s in range(n):
        S[S_HANDS + (s + offset) % n] |= passed[s]


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
def legal_of(hand: int, trick_len: int, led: int, tricks_done: int, broken: int, R: np.ndarray) -> int:
    """The cards a seat holding ``hand`` may play (HandState.legal_mask): the one statement of the rules
    of play here. ``led`` is the led suit (ignored when the trick is empty)."""
    if trick_len > 0:
        follow = hand & (SUIT << (13 * led))
        if follow:
            return follow
        if tricks_done == 0 and R[R_POINTS_FIRST_TRICK] == 0:
            safe = hand & ~R[R_PENALTY]
            return safe if safe else hand
        return hand
    if tricks_done == 0:
        if R[R_OPEN_ANY_CLUB] == 0:
            return 1 << R[R_OPENING_CARD]
        return hand & CLUBS
    if broken:
        return hand
    others = hand & ~HEARTS
    if others == 0 or (others == QS_BIT and R[R_HEART_LEAD_ONLY_QUEEN]):
        return hand
    return others


@njit
def legal_mask(S: np.ndarray, R: np.ndarray) -> int:
    """The cards the seat to play may play in position ``S``."""
    return legal_of(S[S_HANDS + S[S_TURN]], S[S_TRICK_LEN], S[S_TRICK] // 13, S[S_TRICKS_DONE], S[S_BROKEN], R)


@njit
def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes the lead of a trick from ``best``: a higher card of the same suit
    (``best`` is always of the led suit, so this is "highest card of the led suit wins")."""
    return card > best and card // 13 == best // 13


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
def trick_points(mask: int, R: np.ndarray) -> int:
    """Penalty points in a set of cards (Rules.penalty_points)."""
    points = popcount(mask & HEARTS) * R[R_HEART_POINTS]
    if mask & QS_BIT:
        points += R[R_QUEEN_POINTS]
    return points


@njit
def take_trick(S: np.ndarray, R: np.ndarray, winner: int, mask: int) -> None:
    """``winner`` takes the finished trick ``mask`` and leads the next (end of HandState.advance)."""
    S[S_TAKEN + winner] |= mask
    if mask & R[R_PENALTY]:
        S[S_POINTS + winner] += trick_points(mask, R)
    S[S_TRICKS_DONE] += 1
    S[S_TRICK_LEN] = 0
    S[S_TRICK_MASK] = 0
    S[S_LEADER] = winner
    S[S_TURN] = winner


@njit
def advance(S: np.ndarray, R: np.ndarray, card: int) -> int:
    """Play a card known to be legal (HandState.advance); return the trick's winner or -1.

    The step-by-step form, for callers that choose each card themselves; :func:`play_out`
    is the same rules in one loop.
    """
    n = R[R_PLAYERS]
    seat = S[S_TURN]
    bit = 1 << card
    S[S_HANDS + seat] ^= bit
    if bit & R[R_BREAKERS]:
        S[S_BROKEN] = 1
    i = S[S_TRICK_LEN]
    S[S_TRICK + i] = card
    S[S_TRICK_LEN] = i + 1
    S[S_TRICK_MASK] |= bit
    if i + 1 < n:
        S[S_TURN] = seat + 1 if seat + 1 < n else 0
        return -1
    best = S[S_TRICK]
    best_i = 0
    for j in range(1, n):
        if beats(S[S_TRICK + j], best):
            best = S[S_TRICK + j]
            best_i = j
    winner = S[S_LEADER] + best_i
    if winner >= n:
        winner -= n
    take_trick(S, R, winner, S[S_TRICK_MASK])
    return winner


@njit
def score_hand(S: np.ndarray, R: np.ndarray, moon_choice: int, scores: np.ndarray) -> int:
    """Write the finished hand's scores into ``scores``; return the shooter or -1 (HandState._score/_finish).

    Where the moon is the shooter's choice, ``moon_choice`` (CHOICE_*) is the answer applied;
    the choice itself belongs to a player, so callers that care read the returned shooter.
    """
    n = R[R_PLAYERS]
    penalty = R[R_PENALTY]
    moon = R[R_MOON]
    shooter = -1
    if moon != MOON_DISABLED:
        for s in range(n):
            if S[S_TAKEN + s] & penalty == penalty:
                shooter = s
    if shooter < 0:
        for s in range(n):
            scores[s] = S[S_POINTS + s]
    else:
        value = R[R_MOON_POINTS]
        add = moon == MOON_ADD_TO_OTHERS or (moon == MOON_SHOOTER_CHOOSES and moon_choice == CHOICE_ADD_TO_OTHERS)
        for s in range(n):
            if add:
                scores[s] = 0 if s == shooter else value
            else:
                scores[s] = -value if s == shooter else 0
    bonus = R[R_BONUS_CARD]
    if bonus >= 0:
        for s in range(n):
            if (S[S_TAKEN + s] >> bonus) & 1:
                scores[s] += R[R_BONUS_POINTS]
    return shooter


# -- policies ------------------------------------------------------------------------------


@njit
def _lowest_rank(mask: int) -> int:
    for r in range(13):
        for s in range(4):
            if (mask >> (s * 13 + r)) & 1:
                return s * 13 + r
    return -1


SPADES = SUIT << 26
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
def lead_card(S: np.ndarray, R: np.ndarray, legal: int, seat: int, smart: bool) -> int:
    """The greedy lead (:func:`greedy_card`): the flush of Q♠ first; else the lowest card of the
    suit of lowest noisy rank (hearts two higher, plus a random 0-3). ``smart`` (:func:`smart_card`)
    adds 20 to a card no other seat can beat, so it leads one only when every lead wins."""
    hand = S[S_HANDS + seat]
    flush = _flush_card(S, R, legal, hand)
    if flush >= 0:
        return flush
    others = 0
    if smart:
        for s in range(R[R_PLAYERS]):
            if s != seat:
                others |= S[S_HANDS + s]
    pick = _lead_pick(legal, hand)
    card = -1
    low = 999.0
    for suit in range(4):
        chunk = pick & (SUIT << (13 * suit))
        if chunk:
            c = lowest_card(chunk)
            r = _lead_rank(c) + np.random.random() * 3
            if smart and not others & (SUIT << (13 * suit)) & ~((2 << c) - 1):
                r += 20.0  # nobody can beat it: this seat takes the trick
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
    """The greedy rollout policy (``make_greedy_rollout`` in hearts.players.search), card for card.

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
    if eps > 0.0 and np.random.random() < eps:
        return random_card(legal)
    if running == seat:
        return moon_card(R, legal, trick_len, best)
    n = R[R_PLAYERS]
    hand = S[S_HANDS + seat]
    if trick_len == 0:
        return lead_card(S, R, legal, seat, False)
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
def smart_card(
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
    """:func:`greedy_card`, but a lead looks at the other hands of the world it plays in: the
    lowest card of a suit is a sure winner when no other seat holds a higher card of that suit,
    and leading it gives the trick (and whatever the void seats throw on it) to this seat, so such
    leads come last. Otherwise the same lead as greedy's (lowest noisy rank, hearts two higher,
    the flush of Q♠ first)."""
    if trick_len > 0 or running == seat or legal & (legal - 1) == 0:
        return greedy_card(S, R, legal, seat, trick_len, best, best_seat, tmask, running, eps)
    if eps > 0.0 and np.random.random() < eps:
        return random_card(legal)
    return lead_card(S, R, legal, seat, True)


@njit
def moon_card(R: np.ndarray, legal: int, trick_len: int, best: int) -> int:
    """Play for the moon (the running shooter of :func:`greedy_card`): win with the highest card of
    the led suit, lead the highest-ranked card, throw the lowest non-penalty card when void."""
    if trick_len == 0:
        return _top_rank(legal)
    if legal & (SUIT << (13 * (best // 13))):
        return highest_card(legal & (SUIT << (13 * (best // 13))))
    spare = legal & ~R[R_PENALTY]
    return _lowest_rank(spare if spare else legal)


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
    pts = trick_points(tmask, R)
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
def choose_pass(hand: int, R: np.ndarray, policy: int, eps: float) -> int:
    """The mask of ``R[R_PASS_COUNT]`` cards that ``policy`` passes from ``hand``."""
    out = 0
    left = hand
    bonus = R[R_BONUS_CARD]
    for _ in range(R[R_PASS_COUNT]):
        if (
            policy != POLICY_GREEDY
            and policy != POLICY_SMART
            and policy != POLICY_MEDIUM
            and policy != POLICY_MEDIUM_MOON
        ) or (eps > 0.0 and np.random.random() < eps):
            c = random_card(left)
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
        j = draw(i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for s in range(MAX_PLAYERS):
        S[S_HANDS + s] = 0
    for i in range(size):
        S[S_HANDS + i % n] |= 1 << deck[i]
    reset_state(S, R)


@njit
def play_out(S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, trace: np.ndarray) -> None:
    """Play every remaining card of the hand with each seat's policy, in place (see :func:`play_out_to`)."""
    play_out_to(S, R, policies, eps, trace, R[R_HAND_SIZE])


@njit
def play_out_to(S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, trace: np.ndarray, total: int) -> None:
    """Play on with each seat's policy, in place, until ``total`` tricks are done.

    The same rules as :func:`advance` (``legal_of``, ``beats``, ``take_trick``) with the trick in
    progress kept in local variables: about twice as fast as calling ``advance`` per card.
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
            card = random_card(legal)
        else:
            running = running_shooter(S, R, policies) if moon else -1
            if policies[turn] == POLICY_SMART:
                card = smart_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
            elif policies[turn] == POLICY_MEDIUM:
                card = medium_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
            elif policies[turn] == POLICY_MEDIUM_MOON:
                card = medium_moon_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
            else:
                card = greedy_card(S, R, legal, turn, tl, best, best_seat, tmask, running, eps)
        if tracing:
            k = TRACE_PLAYS + 2 * (done * n + tl)
            trace[k] = legal
            trace[k + 1] = card
        bit = 1 << card
        S[S_HANDS + turn] ^= bit
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
        if tl < n:
            turn = turn + 1 if turn + 1 < n else 0
            continue
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
            passed[s] = choose_pass(S[S_HANDS + s], R, policies[s], eps)
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
    np.random.seed(seed)
    n = R[R_PLAYERS]
    scores = np.zeros((n_hands, n), dtype=np.int64)
    shooters = np.empty(n_hands, dtype=np.int64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
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
def _moon_rank(totals: np.ndarray, n: int, shooter: int, mine: int, others: int, target: int) -> tuple[int, int]:
    """(outcome, lead) of the totals after a moon: 2 the game ends won or shared, 1 it goes on, 0 lost."""
    me = totals[shooter] + mine
    best_other = 1 << 40
    top = me
    for s in range(n):
        if s != shooter:
            t = totals[s] + others
            best_other = min(best_other, t)
            top = max(top, t)
    if top >= target:
        outcome = 2 if me <= best_other else 0
    else:
        outcome = 1
    return outcome, best_other - me


@njit
def best_moon_choice(R: np.ndarray, totals: np.ndarray, shooter: int) -> int:
    """The shooter's CHOICE_* given the game's totals before the hand, as
    ``hearts.players.knowledge.best_moon_option`` decides it (tests hold the two equal): subtract
    only when that is better for the game's outcome, else add."""
    n = R[R_PLAYERS]
    value = R[R_MOON_POINTS]
    target = R[R_TARGET]
    add = _moon_rank(totals, n, shooter, 0, value, target)
    sub = _moon_rank(totals, n, shooter, -value, 0, target)
    if sub[0] > add[0] or (sub[0] == add[0] and sub[1] > add[1]):
        return CHOICE_SUBTRACT_FROM_SELF
    return CHOICE_ADD_TO_OTHERS


@njit
def game_winners(R: np.ndarray, totals: np.ndarray) -> int:
    """The seats (a bit each) that win a game with these totals, or 0 while it goes on (Game._end_hand)."""
    n = R[R_PLAYERS]
    top = totals[0]
    low = totals[0]
    for s in range(1, n):
        top = max(top, totals[s])
        low = min(low, totals[s])
    if top < R[R_TARGET]:
        return 0
    lowest = 0
    for s in range(n):
        if totals[s] == low:
            lowest |= 1 << s
    if lowest & (lowest - 1) == 0 or R[R_TIES_PLAY_ON] == 0:
        return lowest
    return 0


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

    ``carry`` is [hand number in the game, totals per seat...]: it says where the game in
    progress stands and is updated in place, so a long run can go in chunks (a negative
    ``seed`` keeps the generator's stream going instead of reseeding). ``moon_mode`` is a
    CHOICE_* code for the shooter's answer where the moon is the shooter's choice.
    ``traces`` is (n_hands, TRACE_SIZE) to log every hand for the tests, or has no rows.

    Returns (scores[n_hands, players], shooters[n_hands], ends[n_hands]): ``ends[h]`` is the
    bit set of the winners when hand ``h`` ended its game, else 0.
    """
    if seed >= 0:
        np.random.seed(seed)
    n = R[R_PLAYERS]
    scores = np.zeros((n_hands, n), dtype=np.int64)
    shooters = np.empty(n_hands, dtype=np.int64)
    ends = np.zeros(n_hands, dtype=np.int64)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    totals = carry[1:]
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

    Chunk ``c`` seeds its thread's generator with ``seed + c`` before it starts, so the result
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
        np.random.seed(seed + c)
        S = np.zeros(STATE_SIZE, dtype=np.int64)
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
    S0: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, n: int, moon_choice: int
) -> np.ndarray:
    """Each seat's mean hand score over ``n`` play-outs of ``S0`` (left unchanged), drawing from the
    generator as it stands: the one loop behind :func:`rollout` and :func:`rollout_worlds`."""
    players = R[R_PLAYERS]
    total = np.zeros(players, dtype=np.float64)
    S = np.empty_like(S0)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for _ in range(n):
        S[:] = S0
        play_out(S, R, policies, eps, no_trace)
        score_hand(S, R, moon_choice, row)
        for s in range(players):
            total[s] += row[s]
    return total / max(n, 1)


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
    np.random.seed(seed)
    return _mean_rollouts(S0, R, policies, eps, n, moon_choice)


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
    np.random.seed(seed)
    out = np.zeros((worlds.shape[0], R[R_PLAYERS]), dtype=np.float64)
    for w in range(worlds.shape[0]):
        out[w] = _mean_rollouts(worlds[w], R, policies, eps, n, moon_choice)
    return out


@njit
def rollout_candidates(
    S0: np.ndarray,
    R: np.ndarray,
    cards: np.ndarray,
    plans: np.ndarray,
    eps: float,
    seed: int,
    moon_mode: int,
    totals: np.ndarray,
) -> np.ndarray:
    """One world of a Monte Carlo search in one call: for each plan (a row of per-seat policies)
    and each candidate card of the seat to play, play the card, play the hand out and score it.

    Every candidate is played with the generator reseeded to ``seed`` (common random numbers:
    the candidates meet the same luck). A moon left to the shooter is answered by ``moon_mode``
    (CHOICE_BEST weighs the game's ``totals`` as the players do). Returns scores[plan, card, seat].
    """
    players = R[R_PLAYERS]
    out = np.zeros((plans.shape[0], cards.shape[0], players), dtype=np.int64)
    S = np.empty(STATE_SIZE, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for p in range(plans.shape[0]):
        for i in range(cards.shape[0]):
            S[:] = S0
            advance(S, R, cards[i])
            np.random.seed(seed)
            play_out(S, R, plans[p], eps, no_trace)
            shooter = score_hand(S, R, CHOICE_ADD_TO_OTHERS, row)
            if shooter >= 0 and R[R_MOON] == MOON_SHOOTER_CHOOSES:
                choice = best_moon_choice(R, totals, shooter) if moon_mode == CHOICE_BEST else moon_mode
                if choice != CHOICE_ADD_TO_OTHERS:
                    score_hand(S, R, choice, row)
            for s in range(players):
                out[p, i, s] = row[s]
    return out


@njit
def search_worlds(
    worlds: np.ndarray,
    R: np.ndarray,
    cards: np.ndarray,
    plans: np.ndarray,
    eps: float,
    seeds: np.ndarray,
    moon_mode: int,
    totals: np.ndarray,
) -> np.ndarray:
    """:func:`rollout_candidates` for a batch of sampled worlds, several rollouts each: the search
    players' inner loop in one call.

    ``worlds[w]`` is a state array (the seat to play's sampled world); ``seeds[w, r]`` seeds the
    ``r``-th rollout of world ``w``, the same for every plan and card (common random numbers). A
    card below 0 plays nothing first (the world is already the position to score: a pass search).
    Returns scores[w, r, plan, card, seat].
    """
    players = R[R_PLAYERS]
    W = worlds.shape[0]
    reps = seeds.shape[1]
    out = np.zeros((W, reps, plans.shape[0], cards.shape[0], players), dtype=np.int64)
    S = np.empty(STATE_SIZE, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    for w in range(W):
        for r in range(reps):
            for p in range(plans.shape[0]):
                for i in range(cards.shape[0]):
                    S[:] = worlds[w]
                    if cards[i] >= 0:
                        advance(S, R, cards[i])
                    np.random.seed(seeds[w, r])
                    play_out(S, R, plans[p], eps, no_trace)
                    shooter = score_hand(S, R, CHOICE_ADD_TO_OTHERS, row)
                    if shooter >= 0 and R[R_MOON] == MOON_SHOOTER_CHOOSES:
                        choice = best_moon_choice(R, totals, shooter) if moon_mode == CHOICE_BEST else moon_mode
                        if choice != CHOICE_ADD_TO_OTHERS:
                            score_hand(S, R, choice, row)
                    for s in range(players):
                        out[w, r, p, i, s] = row[s]
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
        np.random.seed(seed + w)
        out[w] = _mean_rollouts(worlds[w], R, policies, eps, n, moon_choice)
    return out


@njit
def play_out_traced(
    S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, seed: int, moon_choice: int, trace: np.ndarray
) -> np.ndarray:
    """Play ``S`` to the end in place, logging into ``trace``; return the scores with the shooter last.

    For the tests: it checks rollouts from a position built off a live HandState.
    """
    np.random.seed(seed)
    play_out(S, R, policies, eps, trace)
    row = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    row[MAX_PLAYERS] = score_hand(S, R, moon_choice, row)
    return row


@njit
def play_to_last_trick(
    S: np.ndarray, R: np.ndarray, policies: np.ndarray, eps: float, seed: int, trace: np.ndarray
) -> None:
    """Play ``S`` on, logging into ``trace``, until only the last trick is left (where every seat
    holds one card and nothing is left to choose): the search hook hands that trick to the engine."""
    np.random.seed(seed)
    play_out_to(S, R, policies, eps, trace, R[R_HAND_SIZE] - 1)


@njit
def play_hand_traced(
    R: np.ndarray, hand_number: int, policies: np.ndarray, eps: float, seed: int, moon_choice: int, trace: np.ndarray
) -> np.ndarray:
    """One seeded whole hand with its trace; return the scores with the shooter last (for the tests)."""
    np.random.seed(seed)
    S = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    row[MAX_PLAYERS] = play_hand(S, R, hand_number, policies, eps, moon_choice, row, deck, passed, trace)
    return row


# -- inference: how likely a sampled world makes the plays seen so far -------------------------


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
        for s in range(MAX_PLAYERS):
            S[S_HANDS + s] = starts[w, s] if s < n else 0
        reset_state(S, R)
        start_play(S, R)
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
