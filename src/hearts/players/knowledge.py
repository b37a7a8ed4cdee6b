"""What a seat knows, worked out from its view: card counting and inference.

Everything here is derived from a :class:`~hearts.core.view.SeatView` alone (the
hidden-information line): which cards are still out, which seat has shown a void,
which seats must still hold the cards this seat passed them, who has taken points,
and the few stronger inferences the rules allow (a heart led before hearts were
broken means the leader held nothing else; a penalty card thrown on the first
trick means the thrower held nothing but penalty cards).

The medium player reads it to count cards; the sampler (:mod:`hearts.players.sampling`)
reads it to deal hidden cards consistently; the search players read both.

Cards and sets are raw ints here (``suit * 13 + rank - 2`` and 52-bit masks), as in
the engine's hot path.

>>> from hearts.core import Game, Rules
>>> game = Game(Rules(), seed=1)
>>> k = Knowledge.of(game.view(0))
>>> k.unseen.bit_count(), k.need
(39, (0, 13, 13, 13))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hearts.core import CARDS, MoonOption, MoonScoring, Rules, SeatView
from hearts.core.arith import CHOICE_SUBTRACT_FROM_SELF, best_moon_choice, rules_row, winning_card
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS

QS = 36  #: Q♠
AS = 38  #: A♠
KS = 37  #: K♠
SPADES = SUIT_MASKS[2]
DIAMONDS = SUIT_MASKS[1]
#: Spades above the queen: the cards that catch Q♠ when spades are led.
HIGH_SPADES = (1 << AS) | (1 << KS)


def rank_of(card: int) -> int:
    """2..14 (ace high)."""
    return card % 13 + 2


def top(mask: int) -> int:
    """The highest card of a one-suit mask (the highest index of any mask); -1 if empty."""
    return mask.bit_length() - 1


def bottom(mask: int) -> int:
    """The lowest card of a one-suit mask (the lowest index of any mask); -1 if empty."""
    return (mask & -mask).bit_length() - 1


def highest_rank(mask: int) -> int:
    """The card of the highest rank in ``mask`` across suits (ties go to the later suit); -1 if empty."""
    best, best_rank = -1, -1
    for s in range(4):
        chunk = mask & SUIT_MASKS[s]
        if chunk:
            c = chunk.bit_length() - 1
            if c % 13 >= best_rank:
                best, best_rank = c, c % 13
    return best


def lowest_rank(mask: int) -> int:
    """The card of the lowest rank in ``mask`` across suits (ties go to the earlier suit); -1 if empty."""
    best, best_rank = -1, 99
    for s in range(4):
        chunk = mask & SUIT_MASKS[s]
        if chunk:
            c = (chunk & -chunk).bit_length() - 1
            if c % 13 < best_rank:
                best, best_rank = c, c % 13
    return best


def suit_count(mask: int, suit: int) -> int:
    return (mask & SUIT_MASKS[suit]).bit_count()


def sym(card: int) -> str:
    """A card as ``Q♠`` for reasons."""
    return CARDS[card].symbol()


def best_moon_option(rules: Rules, totals: Sequence[int], shooter: int) -> MoonOption:
    """The shooter's choice where it may choose: subtract from itself only when that is better
    for the game's outcome: adding would end the game with the shooter not lowest, or
    subtracting ends it with the shooter lowest. Otherwise add (the two keep the same gap).

    >>> best_moon_option(Rules(), (0, 0, 0, 0), 0).value
    'add-to-others'
    >>> best_moon_option(Rules(), (95, 50, 60, 80), 0).value  # adding ends the game: 76 < 95
    'subtract-from-self'
    """
    choice = best_moon_choice(rules_row(rules), totals, shooter)  # the rule, shared with the kernels
    return MoonOption.SUBTRACT_FROM_SELF if choice == CHOICE_SUBTRACT_FROM_SELF else MoonOption.ADD_TO_OTHERS


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The facts a seat can deduce from its view. Masks are 52-bit ints; tuples are per seat."""

    rules: Rules
    seat: int
    players: int
    hand: int  #: this seat's cards
    played: int  #: every card played this hand, the trick in progress included
    unseen: int  #: cards in other hands whose holder is unknown
    known: tuple[int, ...]  #: per seat, cards it is known to hold (this seat's pass, still unplayed, at the receiver)
    excluded: tuple[int, ...]  #: per seat, cards it cannot hold (shown voids and the stronger inferences)
    void_suits: tuple[int, ...]  #: per seat, a 4-bit set of suits it has shown it lacks
    need: tuple[int, ...]  #: per seat, how many unseen cards it holds (0 for this seat)
    taken: tuple[int, ...]  #: per seat, the cards it has taken in tricks
    points: tuple[int, ...]  #: per seat, penalty points taken this hand
    hearts_broken: bool
    trick: tuple[int, ...]  #: cards of the trick in progress
    leader: int
    trick_number: int  #: 0-based number of the trick in progress
    totals: tuple[int, ...]  #: running totals before this hand
    #: Seats (a bit set) that threw another card when void while Q♠ was out: they likely lack her
    #: (a soft inference: good players dump Q♠ at the first chance; the sampler leans on it, no more).
    doubtful_queen: int = 0

    @classmethod
    def of(cls, view: SeatView) -> Knowledge:
        """Everything the view implies."""
        rules = view.rules
        n = rules.players
        me = view.seat
        hand = view.hand.mask
        played = view.played.mask
        known = [0] * n
        if view.passed is not None and view.pass_to is not None and view.pass_to != me:
            known[view.pass_to] = view.passed.mask & ~played
        excluded = [0] * n
        void_suits = [0] * n
        broken = not rules.hearts_must_be_broken
        breakers = HEARTS | (QS_BIT if rules.queen_breaks_hearts else 0)
        tricks = list(view.tricks)
        if view.trick.cards:
            tricks.append(view.trick)
        queen_played = False
        doubtful_queen = 0
        for number, t in enumerate(tricks):
            cards = t.cards
            led = cards[0] // 13
            if led == 3 and not broken and number > 0:
                # A heart led before hearts broke: the leader held nothing but hearts
                # (and perhaps Q♠, where the rules let a seat with only Q♠ besides lead a heart).
                keep = HEARTS | (QS_BIT if rules.heart_lead_with_only_queen else 0)
                excluded[t.leader] |= rules.in_play & ~keep
            for i, c in enumerate(cards):
                seat = (t.leader + i) % n
                if i and c // 13 != led:
                    void_suits[seat] |= 1 << led
                    excluded[seat] |= SUIT_MASKS[led]
                    if c != QS and not queen_played and (number or rules.points_on_first_trick):
                        # It could have thrown Q♠ on another seat's trick and did not.
                        doubtful_queen |= 1 << seat
                    if number == 0 and not rules.points_on_first_trick and (1 << c) & rules.penalty_mask:
                        # A penalty card on the first trick is only legal from a hand of penalty cards.
                        excluded[seat] |= rules.in_play & ~rules.penalty_mask
                if (1 << c) & breakers:
                    broken = True
                if c == QS:
                    queen_played = True
        unseen = view.unseen.mask
        need = [0] * n
        for s in range(n):
            if s != me:
                need[s] = view.hand_sizes[s] - known[s].bit_count()
        excluded[me] = rules.in_play
        taken = tuple(t.mask for t in view.taken())
        return cls(
            rules=rules,
            seat=me,
            players=n,
            hand=hand,
            played=played,
            unseen=unseen,
            known=tuple(known),
            excluded=tuple(excluded),
            void_suits=tuple(void_suits),
            need=tuple(need),
            taken=taken,
            points=tuple(view.points),
            hearts_broken=view.hearts_broken,
            trick=tuple(int(c) for c in view.trick.cards),
            leader=view.trick.leader,
            trick_number=len(view.tricks),
            totals=tuple(view.totals),
            doubtful_queen=doubtful_queen & ~(1 << me),
        )

    # -- counting ---------------------------------------------------------------

    @property
    def out(self) -> int:
        """Cards still in other hands (unseen, plus this seat's passed cards the receiver still holds)."""
        known = 0
        for m in self.known:
            known |= m
        return self.unseen | known

    def can_have_suit(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``."""
        mask = SUIT_MASKS[suit]
        return bool((self.known[seat] & mask) or (self.unseen & mask & ~self.excluded[seat]))

    # -- the trick in progress ----------------------------------------------------

    @property
    def led_suit(self) -> int:
        """The suit led to the trick in progress; -1 when this seat leads."""
        return self.trick[0] // 13 if self.trick else -1

    @property
    def winning_card(self) -> int:
        """The card winning the trick in progress; -1 if empty."""
        if not self.trick:
            return -1
        return winning_card(self.trick_mask, self.trick[0] // 13)

    @property
    def winning_seat(self) -> int:
        if not self.trick:
            return -1
        return (self.leader + self.trick.index(self.winning_card)) % self.players

    @property
    def trick_mask(self) -> int:
        m = 0
        for c in self.trick:
            m |= 1 << c
        return m

    def trick_points(self) -> int:
        """What the trick in progress scores so far (the bonus card counted): the rules' own count."""
        return self.rules.points_taken(self.trick_mask)

    # -- the moon -------------------------------------------------------------------

    @property
    def moon_possible(self) -> bool:
        return self.rules.moon is not MoonScoring.DISABLED

    def point_holders(self) -> tuple[int, ...]:
        """The seats that have taken a penalty card this hand."""
        pen = self.rules.penalty_mask
        return tuple(s for s in range(self.players) if self.taken[s] & pen)

    def moon_threat(self, min_points: int = 6) -> int:
        """The opponent who has taken every penalty card so far (at least ``min_points`` of them, or Q♠
        and two more) and so may be running for the moon; -1 when there is none. The rule is written
        once, compiled (:func:`hearts.fast.medium.threat_of`), and medium's card play reads it too."""
        import numpy as np

        from hearts.players import compiled

        taken = np.array(self.taken, dtype=np.int64)
        return compiled.moon_threat(compiled.rules_array(self.rules), taken, self.seat, min_points)

    def void_bits(self) -> int:
        """Bit ``4 * seat + suit`` for each suit another seat cannot hold (its shown voids and what
        else the view implies, :meth:`can_have_suit`): what medium's lead and the learned model read."""
        voids = 0
        for o in range(self.players):
            if o != self.seat:
                for s in range(4):
                    if not self.can_have_suit(o, s):
                        voids |= 1 << (4 * o + s)
        return voids

    def moon_still_open_for_me(self) -> bool:
        """No other seat has taken a penalty card: this seat could still take them all."""
        return self.moon_possible and all(s == self.seat for s in self.point_holders())

    def bonus_card(self) -> int:
        """The Omnibus bonus card, or -1."""
        b = self.rules.bonus_card
        return -1 if b is None else int(b)


def moon_hand_strength(rules: Rules, hand: int) -> float:
    """A rough 0..1 measure of how well ``hand`` could take every penalty card.

    Counts what a moon needs: long, high hearts; control of Q♠; and few low cards that must lose a
    trick (a low card in a side suit lets an opponent win one and throw a heart). Used by the medium
    player's moon plan and by the search players to decide when to evaluate a moon line. Written
    once, compiled: :func:`hearts.fast.medium.moon_strength`, which the kernels' moon plan reads too.

    >>> from hearts.core import mask_of
    >>> round(moon_hand_strength(Rules(), mask_of("AH KH QH JH 10H 9H 8H QS AS KS AD KD AC".split())), 2)
    0.96
    """
    from hearts.players import compiled

    return compiled.moon_strength(compiled.rules_array(rules), hand)


__all__ = [
    "Knowledge",
    "best_moon_option",
    "bottom",
    "highest_rank",
    "lowest_rank",
    "moon_hand_strength",
    "rank_of",
    "suit_count",
    "sym",
    "top",
]
