"""Cards and card sets: every accepted spelling, the canonical print form, and clear errors."""

from __future__ import annotations

import pytest

from hearts.core import (
    CARDS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    CardParseError,
    CardSet,
    Suit,
    cards_of,
    mask_of,
)


@pytest.mark.parametrize("text", ["QS", "qs", "Qs", "Q♠", "q♠", " QS ", "Q♤", "Q♠\ufe0f"])
def test_queen_of_spades_spellings(text: str) -> None:
    assert Card.parse(text) is QUEEN_OF_SPADES


@pytest.mark.parametrize("text", ["10H", "10h", "TH", "th", "10♥", "T♥", "t♡"])
def test_ten_reads_as_10_or_t(text: str) -> None:
    card = Card.parse(text)
    assert (card.suit, card.rank) == (Suit.HEARTS, 10)


def test_every_card_prints_canonically_and_parses_back() -> None:
    names = [str(c) for c in CARDS]
    assert len(set(names)) == 52
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.symbol()) is card
        assert Card.parse(str(card).lower()) is card
    assert str(Card.parse("th")) == "10H"
    assert Card.parse("q♠").symbol() == "Q♠"
    assert repr(Card.parse("QS")) == "Card('QS')"
    assert f"{Card.parse('2C'):>4}" == "  2C"


def test_card_numbering_is_suit_times_13_plus_rank_minus_2() -> None:
    assert int(TWO_OF_CLUBS) == 0
    assert int(Card.parse("AH")) == 51
    assert int(QUEEN_OF_SPADES) == 2 * 13 + 12 - 2
    assert (JACK_OF_DIAMONDS.suit, JACK_OF_DIAMONDS.rank) == (Suit.DIAMONDS, 11)
    assert (TEN_OF_DIAMONDS.suit, TEN_OF_DIAMONDS.rank) == (Suit.DIAMONDS, 10)
    assert [s.letter for s in Suit] == ["C", "D", "S", "H"]
    assert Card.parse("AH").rank == 14 and Card.parse("2C").rank == 2


@pytest.mark.parametrize("text", ["", "Q", "S", "1H", "11H", "QX", "ZS", "QSS", "Q S", "♠Q", "10", "0H"])
def test_bad_card_string_raises_and_quotes_it(text: str) -> None:
    with pytest.raises(CardParseError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("value", [None, 12, 1.5, True])
def test_non_string_card_raises(value: object) -> None:
    with pytest.raises(CardParseError, match="not a card"):
        Card.parse(value)  # type: ignore[arg-type]


def test_cardset_parse_sorts_by_suit_then_rank() -> None:
    hand = CardSet.parse("AH, 2C QS 10C 3D")
    assert str(hand) == "2C 10C 3D QS AH"
    assert hand.names() == ["2C", "10C", "3D", "QS", "AH"]
    assert list(hand) == cards_of(hand.mask)
    assert len(hand) == 5 and "qs" in hand and Card.parse("KS") not in hand
    assert repr(CardSet.parse("2C")) == "CardSet('2C')"


def test_cardset_operations() -> None:
    a = CardSet.parse("2C 3C QS")
    b = CardSet.parse("3C AH")
    assert a | b == CardSet.parse("2C 3C QS AH")
    assert a & b == CardSet.parse("3C")
    assert a - b == CardSet.parse("2C QS")
    assert a ^ b == CardSet.parse("2C QS AH")
    assert a & CardSet.suit(Suit.CLUBS) == CardSet.parse("2C 3C")
    assert len(CardSet.deck()) == 52 and not CardSet()
    assert hash(a) == hash(CardSet.parse("QS 3C 2C"))
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]


def test_cardset_rejects_repeats_and_bad_cards() -> None:
    with pytest.raises(CardParseError, match="card Q♠ is given twice"):
        CardSet.parse("QS 2C qs")
    with pytest.raises(CardParseError, match="'XX'"):
        CardSet.parse("2C XX")
    with pytest.raises(CardParseError, match="52"):
        mask_of([52])
    with pytest.raises(CardParseError):
        CardSet(1 << 52)
    with pytest.raises(CardParseError):
        CardSet([True])  # a bool is not a card number


def test_suit_masks_partition_the_deck() -> None:
    union = 0
    for suit in Suit:
        assert suit.mask.bit_count() == 13
        assert not union & suit.mask
        union |= suit.mask
        assert all(c.suit is suit for c in CardSet.suit(suit))
    assert union == CardSet.deck().mask


def test_card_sets_and_views_pickle_and_copy() -> None:
    """Views go to worker processes and caches: a CardSet must pickle and copy by its mask."""
    import copy
    import pickle

    from hearts.core import Game, Rules

    cs = CardSet.parse("2C QS 10H")
    assert pickle.loads(pickle.dumps(cs)) == cs and copy.deepcopy(cs) == cs and copy.copy(cs) == cs
    view = Game(Rules(), seed=1).view(2)
    assert pickle.loads(pickle.dumps(view)) == view
