"""Deals of the unseen cards consistent with everything a seat knows.

A search player cannot see the other hands, so it samples them: each sample ("world")
gives every other seat exactly as many cards as it holds, keeps the cards this seat
passed with their receiver until they are played, never gives a seat a card of a
suit it has shown void in (nor breaks the stronger inferences in
:class:`~hearts.players.knowledge.Knowledge`), and never deals a card already seen.

The sampler deals the most constrained cards first, each to a seat that may hold it
chosen in proportion to the room left in that seat's hand (close to uniform over
consistent deals); on the rare dead end it retries, and after a few retries it falls
back to a deal guided by Hall's condition that always finds a consistent deal if one exists.

>>> import random
>>> from hearts.core import Game, Rules
>>> view = Game(Rules.preset("no-passing"), seed=2).view(1)
>>> hands = sample_hands(Knowledge.of(view), random.Random(0))
>>> [h.bit_count() for h in hands], hands[1] == view.hand.mask
([13, 13, 13, 13], True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from hearts.core import Card, HandState, SeatView
from hearts.core.cards import QS_BIT, cards_of
from hearts.players import compiled
from hearts.players.knowledge import Knowledge

if TYPE_CHECKING:
    from hearts.players.compiled import Ints

#: Greedy attempts before the fallback that always finds a deal (:func:`_hall_deal`).
GREEDY_TRIES = 12


class InconsistentViewError(ValueError):
    """No deal of the unseen cards fits what the seat knows (the view contradicts itself)."""


def sample_hands(knowledge: Knowledge, rng: random.Random) -> list[int]:
    """One consistent deal: a mask per seat, this seat's own hand included, known cards placed."""
    k = knowledge
    cards, eligible = _eligible_seats(k)
    order = list(range(len(cards)))
    rng.shuffle(order)
    order.sort(key=lambda i: len(eligible[i]))  # stable: random among equally constrained cards
    for _ in range(GREEDY_TRIES):
        hands = _greedy(k, cards, eligible, order, rng)
        if hands is not None:
            return hands
    hands = _hall_deal(k, cards, eligible, order, rng)
    if hands is None:
        raise InconsistentViewError(
            f"no deal of the {len(cards)} unseen cards fits seat {k.seat}'s view "
            f"(hand sizes {k.need}, voids {k.void_suits})"
        )
    return hands


def _eligible_seats(k: Knowledge) -> tuple[list[Card], list[list[int]]]:
    """The unseen cards, and for each the seats that may take it (other seats with room left)."""
    others = [s for s in range(k.players) if s != k.seat and k.need[s] > 0]
    cards = cards_of(k.unseen)
    return cards, [[s for s in others if not k.excluded[s] >> c & 1] for c in cards]


def _by_room(seats: list[int], room: list[int], pick: float) -> int:
    """The seat of ``seats`` that ``pick`` (uniform below their total room) falls on, each seat
    taking a share as large as its room: a card goes where there is more room to hold it."""
    for s in seats:
        pick -= room[s]
        if pick < 0 and room[s]:
            return s
    return seats[-1]


def _greedy(
    k: Knowledge, cards: list, eligible: list[list[int]], order: list[int], rng: random.Random
) -> list[int] | None:
    room = list(k.need)
    hands = list(k.known)
    hands[k.seat] = k.hand
    rand = rng.random
    for i in order:
        seats = eligible[i]
        total = 0
        for s in seats:
            total += room[s]
        if total == 0:
            return None
        chosen = _by_room(seats, room, rand() * total)
        if not room[chosen]:
            return None
        room[chosen] -= 1
        hands[chosen] |= 1 << cards[i]
    return hands


def _hall_deal(
    k: Knowledge, cards: list, eligible: list[list[int]], order: list[int], rng: random.Random
) -> list[int] | None:
    """A consistent deal whenever one exists, in time polynomial in the cards: each card in turn goes
    to a seat chosen in proportion to its room, among the seats that leave the rest dealable.

    Whether the cards left can be dealt is Hall's condition for this bipartite deal: for every set
    ``T`` of seats, the cards that only seats of ``T`` may hold number at most the room left in
    ``T`` (and all the cards fill all the room). With at most five other seats that is 32 sets,
    summed over subsets once per check. A depth-first search over placements did this before; it
    could backtrack for minutes in a tight spot (a player's decision must not hang a table).
    """
    room = list(k.need)
    hands = list(k.known)
    hands[k.seat] = k.hand
    seats = sorted({s for e in eligible for s in e})
    bit = {s: 1 << i for i, s in enumerate(seats)}
    full = (1 << len(seats)) - 1
    masks = [sum(bit[s] for s in e) for e in eligible]
    count = [0] * (full + 1)  # count[m]: cards left whose seats are exactly the set m
    for i in order:
        count[masks[i]] += 1

    def dealable() -> bool:
        within = count[:]  # within[T]: cards left whose seats all lie in T (a sum over subsets)
        for j in range(len(seats)):
            for t in range(full + 1):
                if t >> j & 1:
                    within[t] += within[t ^ (1 << j)]
        if within[0]:
            return False
        for t in range(1, full + 1):
            if within[t] > sum(room[s] for s in seats if t & bit[s]):
                return False
        return True

    if not dealable():
        return None
    for i in order:
        count[masks[i]] -= 1
        fits = []
        for s in eligible[i]:
            if room[s]:
                room[s] -= 1
                if dealable():
                    fits.append(s)
                room[s] += 1
        if not fits:  # cannot happen once the whole deal was dealable
            return None
        chosen = _by_room(fits, room, rng.random() * sum(room[s] for s in fits))
        room[chosen] -= 1
        hands[chosen] |= 1 << cards[i]
    return hands


#: Chance of redealing a world that gives Q♠ to a seat that passed up a chance to throw her.
QUEEN_DOUBT = 0.8


def likely_hands(knowledge: Knowledge, rng: random.Random, tries: int = 4) -> list[int]:
    """A consistent deal that also leans on the soft inferences: a world giving Q♠ to a seat
    that threw another card when it could have dumped her is redealt with chance
    :data:`QUEEN_DOUBT` (up to ``tries`` times). The hard constraints always hold."""
    hands = sample_hands(knowledge, rng)
    doubt = knowledge.doubtful_queen
    if not doubt or not knowledge.unseen & QS_BIT:
        return hands
    for _ in range(tries):
        holder = next((s for s, h in enumerate(hands) if h & QS_BIT), -1)
        if holder < 0 or not doubt >> holder & 1 or rng.random() >= QUEEN_DOUBT:
            break
        hands = sample_hands(knowledge, rng)
    return hands


class LikelyHandsSampler:
    """Deals as :func:`likely_hands` gives them, a batch at a time in compiled code
    (:func:`hearts.fast.sampling.sample_deals`). Needs numpy (and numba to be fast).

    The seat's knowledge is turned into the kernel's arrays once, when the sampler is made (once
    per decision), not for every batch. Each call draws one number from ``rng`` to seed its
    batch, so the same ``rng`` state gives the same deals. A deal the compiled greedy method
    cannot finish (rare, in tight positions) is dealt by :func:`likely_hands`.
    """

    def __init__(self, knowledge: Knowledge, tries: int = 4) -> None:
        import numpy as np

        k = knowledge
        cards, eligible = _eligible_seats(k)
        base = list(k.known)
        base[k.seat] = k.hand
        self.knowledge = k
        self.tries = tries
        self._cards = np.array(cards, dtype=np.int64)
        self._eligible = np.array([sum(1 << s for s in seats) for seats in eligible], dtype=np.int64)
        self._need = np.array(k.need, dtype=np.int64)
        self._base = np.array(base, dtype=np.int64)
        self._queen = QS_BIT.bit_length() - 1 if k.unseen & QS_BIT else -1

    def __call__(self, rng: random.Random, count: int) -> Ints:
        """``count`` deals: an int64 array ``[count, seats]``, this seat's own hand included."""
        k = self.knowledge
        hands, ok = compiled.sample_deals(
            self._cards,
            self._eligible,
            self._need,
            self._base,
            k.doubtful_queen,
            self._queen,
            QUEEN_DOUBT,
            self.tries,
            rng.getrandbits(31),
            count,
        )
        if not ok.all():
            for w in (ok == 0).nonzero()[0]:
                hands[w] = likely_hands(k, rng, self.tries)
        return hands


def sample_world(view: SeatView, knowledge: Knowledge, rng: random.Random) -> HandState:
    """A full hand state for search: the view's public state with one consistent deal of the hidden cards."""
    return view.world(sample_hands(knowledge, rng))


def is_consistent(knowledge: Knowledge, hands: list[int]) -> str | None:
    """Why ``hands`` breaks what the seat knows, or None when it is a consistent deal (for tests and checks)."""
    k = knowledge
    if hands[k.seat] != k.hand:
        return "the seat's own hand is changed"
    union = 0
    for s, h in enumerate(hands):
        if union & h:
            return "a card is dealt twice"
        union |= h
        if s == k.seat:
            continue
        if h & ~(k.unseen | k.known[s]):
            return f"seat {s} is given a card that is seen or known elsewhere"
        if k.known[s] & ~h:
            return f"seat {s} lacks a card it is known to hold"
        if h & ~k.known[s] & k.excluded[s]:
            return f"seat {s} is given a card it cannot hold (a shown void)"
        if h.bit_count() != k.need[s] + k.known[s].bit_count():
            return f"seat {s} holds {h.bit_count()} cards, not {k.need[s] + k.known[s].bit_count()}"
    if union != k.unseen | k.hand | k.out:
        return "the deal does not hold every unplayed card"
    return None
