"""Cards and card sets.

A card is a small int ``suit * 13 + (rank - 2)`` wrapped in :class:`Card` (an
``int`` subclass, so it costs nothing in arithmetic); the 52 instances are
made once, in :data:`CARDS`.  A set of cards is a 52-bit int; :class:`CardSet`
wraps one with set operations, sorted iteration and parsing.  The engine's hot
path works on the raw ints; the wrappers are for everyone else.

>>> Card.parse("q♠")
Card('QS')
>>> str(Card.parse("th")), str(Card.parse("10H"))
('10H', '10H')
>>> hand = CardSet.parse("2C 10C QS AH")
>>> hand & CardSet.suit(Suit.CLUBS)
CardSet('2C 10C')
>>> Card.parse("QS") in hand, len(hand)
(True, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from hearts.core.errors import CardParseError


class Suit(IntEnum):
    """The four suits, in the order a hand is sorted (black, red, black, red)."""

    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♠♥"[self]

    @property
    def mask(self) -> int:
        """The 52-bit set of this suit's thirteen cards."""
        return SUIT_MASKS[self]

    def __str__(self) -> str:
        return self.name.lower()


RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_MASKS: tuple[int, int, int, int] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
CLUBS, DIAMONDS, SPADES, HEARTS = SUIT_MASKS
FULL_DECK = (1 << 52) - 1

_RANK_BY_TEXT = {name: i + 2 for i, name in enumerate(RANK_NAMES)}
_RANK_BY_TEXT["T"] = 10
_SUIT_BY_TEXT = {
    "C": 0, "♣": 0, "♧": 0,
    "D": 1, "♦": 1, "♢": 1,
    "S": 2, "♠": 2, "♤": 2,
    "H": 3, "♥": 3, "♡": 3,
}  # fmt: skip


class Card(int):
    """One card: ``suit * 13 + rank - 2``. Use :data:`CARDS` or :meth:`parse`, not the constructor."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2 to 14 (ace high)."""
        return self % 13 + 2

    @property
    def bit(self) -> int:
        return 1 << self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QS``, ``qs``, ``Q♠``, ``10H``, ``TH``; raise :class:`CardParseError` otherwise."""
        return CARDS[_parse(text)]

    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``Q♠``."""
        return RANK_NAMES[self % 13] + "♣♦♠♥"[self // 13]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card('{_NAMES[self]}')"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)


def _parse(text: object) -> int:
    if not isinstance(text, str):
        raise CardParseError(f"not a card: {text!r} (expected a string such as 'QS' or '10H')")
    # Emoji keyboards add a variation selector after the suit symbol (♠️): it names no card.
    s = text.strip().upper().replace("\ufe0f", "")
    if len(s) >= 2:
        rank = _RANK_BY_TEXT.get(s[:-1])
        suit = _SUIT_BY_TEXT.get(s[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank - 2
    raise CardParseError(
        f"not a card: {text!r} (expected a rank 2-10, J, Q, K or A, T for ten, "
        "then a suit C, D, S, H or ♣ ♦ ♠ ♥; e.g. 'QS', '10H', 'TH', 'Q♠')"
    )


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_NAMES = tuple(RANK_NAMES[i % 13] + "CDSH"[i // 13] for i in range(52))

TWO_OF_CLUBS = CARDS[0]
QUEEN_OF_SPADES = CARDS[2 * 13 + 12 - 2]
JACK_OF_DIAMONDS = CARDS[1 * 13 + 11 - 2]
TEN_OF_DIAMONDS = CARDS[1 * 13 + 10 - 2]
QS_BIT = 1 << QUEEN_OF_SPADES

# For each 13-bit suit pattern, the offsets of its set bits, low to high: turns a
# mask into cards without a per-bit loop on the hot path.
_OFFSETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(13) if pattern >> i & 1) for pattern in range(1 << 13)
)
_SUIT_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[s * 13 + i] for i in offs) for offs in _OFFSETS) for s in range(4)
)
_CLUB_CARDS, _DIAMOND_CARDS, _SPADE_CARDS, _HEART_CARDS = _SUIT_CARDS


def cards_of(mask: int) -> list[Card]:
    """The cards of a 52-bit mask, sorted by suit then rank.

    >>> cards_of(0b101)
    [Card('2C'), Card('4C')]
    """
    # One list display over the four suits' precomputed tuples (an empty suit unpacks to
    # nothing) rather than a loop over the suits: legal_plays calls this once per card played.
    return [
        *_CLUB_CARDS[mask & 0x1FFF],
        *_DIAMOND_CARDS[mask >> 13 & 0x1FFF],
        *_SPADE_CARDS[mask >> 26 & 0x1FFF],
        *_HEART_CARDS[mask >> 39 & 0x1FFF],
    ]


def mask_of(cards: Iterable[int | str]) -> int:
    """The mask of cards given as ints or strings; raises on a repeated card."""
    mask = 0
    for c in cards:
        if isinstance(c, str):
            i = _parse(c)
        elif isinstance(c, int) and not isinstance(c, bool):
            i = int(c)
        else:
            raise CardParseError(f"not a card: {c!r} (expected a card such as 'QS' or a card number 0 to 51)")
        if not 0 <= i < 52:
            raise CardParseError(f"not a card: {c!r} (card numbers are 0 to 51)")
        if mask >> i & 1:
            raise CardParseError(f"card {CARDS[i].symbol()} is given twice", card=CARDS[i], rule="pass-repeat")
        mask |= 1 << i
    return mask


class CardSet:
    """An immutable set of cards over a 52-bit mask, iterated by suit then rank."""

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[int | str] | int = 0) -> None:
        if isinstance(cards, int):
            if isinstance(cards, bool) or not 0 <= cards <= FULL_DECK:
                raise CardParseError(f"not a card mask: {cards!r}")
            object.__setattr__(self, "mask", cards)
        else:
            object.__setattr__(self, "mask", mask_of(cards))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # Pickle (and copy) by the mask: the default protocol would set the slot, which is refused.
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Cards separated by spaces or commas: ``'2C 10C, QS'``."""
        return cls(mask_of(t for t in text.replace(",", " ").split()))

    @classmethod
    def suit(cls, suit: Suit | int) -> CardSet:
        return cls(SUIT_MASKS[suit])

    @classmethod
    def deck(cls) -> CardSet:
        return cls(FULL_DECK)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = _parse(card)
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __and__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & _m(other))

    def __or__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask | _m(other))

    def __sub__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & ~_m(other))

    def __xor__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask ^ _m(other))

    __rand__ = __and__
    __ror__ = __or__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(_NAMES[c] for c in cards_of(self.mask))

    def __repr__(self) -> str:
        return f"CardSet('{self}')"

    def names(self) -> list[str]:
        return [_NAMES[c] for c in cards_of(self.mask)]

    def symbols(self) -> str:
        """The cards with their suit symbols, for people: ``CardSet.parse("2C QS").symbols()`` is ``'2♣ Q♠'``."""
        return " ".join(c.symbol() for c in cards_of(self.mask))


def _m(x: CardSet | int) -> int:
    return x.mask if isinstance(x, CardSet) else int(x)
