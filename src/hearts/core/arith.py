"""The rules' arithmetic on ints and card masks: each rule of play and of scoring, written once.

:class:`hearts.core.hand.HandState` calls these functions as plain Python, and
:mod:`hearts.fast` compiles the very same functions with numba for its batch hands and
rollouts. So they are written in the subset of Python that numba compiles: ints, tuples or
arrays indexed by int, no classes, no exceptions, nothing but this module's own functions
and constants. Cards are ``suit * 13 + rank - 2`` and a set of cards is a 52-bit mask, as in
:mod:`hearts.core.cards`; the rule options come in as the row of :func:`rules_row` (a tuple
here, the same numbers in an int64 array in the compiled code), read through the ``R_*``
indices below.

The three bit helpers (:func:`popcount`, :func:`lowest_card`, :func:`highest_card`) use
``int`` methods here; :mod:`hearts.fast` gives numba one-instruction versions of them, so
the rules that call them compile to the same machine code as before.

>>> from hearts.core.rules import Rules
>>> R = rules_row(Rules())
>>> hand = 0b1011 << 13 | 1 << 40  # 2♦ 3♦ 5♦ and 3♥
>>> legal_of(hand, 1, 1, 3, 0, R) == 0b1011 << 13  # diamonds led: follow suit
True
>>> legal_of(hand, 0, 0, 3, 0, R) == 0b1011 << 13  # a lead before hearts are broken
True
>>> penalty_points(1 << 40 | 1 << 36, R)  # 3♥ and Q♠
14
"""

from __future__ import annotations

from typing import Any, Protocol

from hearts.core.rules import MoonScoring, OpeningLead, Rules, TieRule


class Ints(Protocol):
    """What the functions below index: a tuple or list of ints here, an int64 array compiled
    (an annotation only: numba never sees it)."""

    def __getitem__(self, index: int, /) -> Any: ...


class MutableInts(Ints, Protocol):
    """:class:`Ints` that a function writes its results into."""

    def __setitem__(self, index: int, value: int, /) -> None: ...


# -- cards and suits ------------------------------------------------------------------------
SUIT = 0x1FFF  #: the 13 cards of the lowest suit; ``SUIT << 13 * suit`` is any suit
CLUBS = SUIT
SPADES = SUIT << 26
HEARTS = SUIT << 39
QUEEN_OF_SPADES = 2 * 13 + 10
QS_BIT = 1 << QUEEN_OF_SPADES

# -- the rules row (built by rules_row) ------------------------------------------------------
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

#: How a moon is scored (Rules.moon).
MOON_ADD_TO_OTHERS = 0
MOON_SHOOTER_CHOOSES = 1
MOON_SUBTRACT_FROM_SHOOTER = 2
MOON_DISABLED = 3

#: The shooter's answer where the moon is its choice (MoonOption).
CHOICE_ADD_TO_OTHERS = 0
CHOICE_SUBTRACT_FROM_SELF = 1
#: (compiled games only) the choice that is better for the shooter's game, as the players decide it
CHOICE_BEST = 2

_MOON_CODES = {
    MoonScoring.ADD_TO_OTHERS: MOON_ADD_TO_OTHERS,
    MoonScoring.SHOOTER_CHOOSES: MOON_SHOOTER_CHOOSES,
    MoonScoring.SUBTRACT_FROM_SHOOTER: MOON_SUBTRACT_FROM_SHOOTER,
    MoonScoring.DISABLED: MOON_DISABLED,
}
#: rules_row's results by ``id(rules)`` (a Rules hashes all its fields: slower than building a hand).
_ROWS: dict[int, tuple[Rules, tuple[int, ...]]] = {}


def rules_row(rules: Rules) -> tuple[int, ...]:
    """The one mapping from :class:`Rules` to the numbers these functions read (``R_*`` slots).

    Built once per rules (a plain-Python helper; numba never sees it).
    """
    known = _ROWS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    cycle = rules.pass_cycle or ()
    values = [0] * (RULES_BASE_SIZE + len(cycle))
    values[R_PLAYERS] = rules.players
    values[R_IN_PLAY] = rules.in_play
    values[R_HAND_SIZE] = rules.hand_size
    values[R_OPENING_CARD] = int(rules.opening_card)
    values[R_OPEN_ANY_CLUB] = int(rules.opening is OpeningLead.ANY_CLUB)
    values[R_POINTS_FIRST_TRICK] = int(rules.points_on_first_trick)
    values[R_BREAKERS] = HEARTS | (QS_BIT if rules.queen_breaks_hearts else 0)
    values[R_BROKEN_AT_START] = int(not rules.hearts_must_be_broken)
    values[R_HEART_LEAD_ONLY_QUEEN] = int(rules.heart_lead_with_only_queen)
    values[R_HEART_POINTS] = rules.heart_points
    values[R_QUEEN_POINTS] = rules.queen_points
    values[R_BONUS_CARD] = -1 if rules.bonus_card is None else int(rules.bonus_card)
    values[R_BONUS_POINTS] = rules.bonus_points
    values[R_MOON] = _MOON_CODES[rules.moon]
    values[R_MOON_POINTS] = rules.moon_points
    values[R_PENALTY] = rules.penalty_mask
    values[R_PASS_COUNT] = rules.pass_count
    values[R_TARGET] = rules.target
    values[R_TIES_PLAY_ON] = int(rules.ties is TieRule.PLAY_ON)
    values[R_CYCLE_LEN] = len(cycle)
    for i, direction in enumerate(cycle):
        values[R_CYCLE + i] = direction.offset(rules.players)
    if len(_ROWS) > 256:
        _ROWS.clear()
    row = tuple(values)
    _ROWS[id(rules)] = (rules, row)  # holding the rules keeps its id from being reused
    return row


# -- bits (numba is given one-instruction versions by hearts.fast) ------------------------------


def popcount(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def lowest_card(mask: int) -> int:
    """The lowest-numbered card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest_card(mask: int) -> int:
    """The highest-numbered card of a non-empty mask."""
    return mask.bit_length() - 1


# -- the rules of play ------------------------------------------------------------------------


def legal_of(hand: int, trick_len: int, led: int, tricks_done: int, broken: int, R: Ints) -> int:
    """The cards a seat holding ``hand`` may play: the one statement of the rules of play.

    ``led`` is the led suit (ignored when the trick is empty), ``tricks_done`` the tricks
    already taken in the hand, ``broken`` whether hearts are broken.
    """
    if trick_len > 0:
        follow = hand & (SUIT << (13 * led))
        if follow:  # the common case: answered before reading the rules
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


def breaks_hearts(card: int, R: Ints) -> bool:
    """Whether playing ``card`` breaks hearts (a heart, or Q♠ under the house rule)."""
    return ((R[R_BREAKERS] >> card) & 1) == 1


def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes the lead of a trick from ``best``: a higher card of the same suit
    (``best`` is always of the led suit, so this is "highest card of the led suit wins")."""
    return card > best and card // 13 == best // 13


def winning_card(trick_mask: int, led: int) -> int:
    """The card that wins a trick of these cards led in suit ``led``: the highest of that suit
    (the same rule as :func:`beats`, read off the trick's mask at once)."""
    return highest_card(trick_mask & (SUIT << (13 * led)))


def penalty_points(mask: int, R: Ints) -> int:
    """The penalty points in a set of cards: each heart, and Q♠ (the bonus card aside)."""
    points = popcount(mask & HEARTS) * R[R_HEART_POINTS]
    if mask & QS_BIT:
        points += R[R_QUEEN_POINTS]
    return points


def points_taken(mask: int, R: Ints) -> int:
    """What taking a set of cards scores before any moon: its penalty points and the bonus card's."""
    points = penalty_points(mask, R)
    bonus = R[R_BONUS_CARD]
    if bonus >= 0 and (mask >> bonus) & 1:
        points += R[R_BONUS_POINTS]
    return points


# -- scoring a hand ---------------------------------------------------------------------------


def moon_shooter(taken: Ints, at: int, n: int, R: Ints) -> int:
    """The seat that took every penalty card (``taken[at + s]``: the cards seat ``s`` took), or -1
    (always -1 where the rules play without the moon). Offsets (``at``), not slices, let the
    compiled code pass its state array as it is."""
    shooter = -1
    if R[R_MOON] != MOON_DISABLED:
        penalty = R[R_PENALTY]
        for s in range(n):
            if taken[at + s] & penalty == penalty:
                shooter = s
    return shooter


def moon_adds(R: Ints, choice: int) -> bool:
    """Whether a moon adds its points to the others (else the shooter subtracts them), given the
    rules and, where the moon is the shooter's choice, its ``choice`` (a CHOICE_* code)."""
    moon = R[R_MOON]
    return moon == MOON_ADD_TO_OTHERS or (moon == MOON_SHOOTER_CHOOSES and choice == CHOICE_ADD_TO_OTHERS)


def hand_scores(
    points: Ints,
    points_at: int,
    taken: Ints,
    taken_at: int,
    n: int,
    R: Ints,
    shooter: int,
    add: bool,
    scores: MutableInts,
) -> None:
    """Write a finished hand's scores into ``scores[0:n]``: each seat's penalty points
    (``points[points_at + s]``), or the moon of ``shooter`` (>= 0) added to the others (``add``) or
    subtracted from the shooter; then the bonus card to the seat that took it (``taken[taken_at + s]``)."""
    if shooter < 0:
        for s in range(n):
            scores[s] = points[points_at + s]
    else:
        value = R[R_MOON_POINTS]
        for s in range(n):
            if add:
                scores[s] = 0 if s == shooter else value
            else:
                scores[s] = -value if s == shooter else 0
    bonus = R[R_BONUS_CARD]
    if bonus >= 0:
        for s in range(n):
            if (taken[taken_at + s] >> bonus) & 1:
                scores[s] += R[R_BONUS_POINTS]


def pass_offset(R: Ints, hand_number: int) -> int:
    """Seats forward to the receiver of each pass in hand ``hand_number`` (0: a hold hand)."""
    return R[R_CYCLE + hand_number % R[R_CYCLE_LEN]]


def game_winners(R: Ints, totals: Ints) -> int:
    """The seats (a bit each) that win a game with these totals, or 0 while it goes on."""
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


def moon_rank(totals: Ints, n: int, shooter: int, mine: int, others: int, target: int) -> tuple[int, int]:
    """(outcome, lead) of the totals after a moon that adds ``mine`` to the shooter and ``others``
    to every other seat: outcome 2 the game ends won or shared, 1 it goes on, 0 it ends lost."""
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


def best_moon_choice(R: Ints, totals: Ints, shooter: int) -> int:
    """The shooter's choice (a CHOICE_* code) given the game's ``totals`` before the hand: subtract
    from itself only when that is better for the game's outcome (adding would end the game with
    the shooter not lowest, or subtracting ends it with the shooter lowest); otherwise add (the
    two keep the same gap). The computer players' rule, and the compiled games' ``CHOICE_BEST``.

    >>> from hearts.core.rules import Rules
    >>> best_moon_choice(rules_row(Rules()), (95, 50, 60, 80), 0) == CHOICE_SUBTRACT_FROM_SELF
    True
    """
    n = R[R_PLAYERS]
    value = R[R_MOON_POINTS]
    target = R[R_TARGET]
    add = moon_rank(totals, n, shooter, 0, value, target)
    sub = moon_rank(totals, n, shooter, -value, 0, target)
    if sub[0] > add[0] or (sub[0] == add[0] and sub[1] > add[1]):
        return CHOICE_SUBTRACT_FROM_SELF
    return CHOICE_ADD_TO_OTHERS


#: The functions above that compiled code calls (hearts.fast registers each with numba).
RULE_FUNCTIONS = (
    legal_of, breaks_hearts, beats, winning_card, penalty_points, points_taken, moon_shooter, moon_adds, hand_scores,
    pass_offset, game_winners, moon_rank, best_moon_choice,
)  # fmt: skip
#: The bit helpers, which numba gets as CPU instructions instead.
BIT_FUNCTIONS = (popcount, lowest_card, highest_card)
