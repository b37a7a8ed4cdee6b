"""The easy player: a beginner's few safe habits and nothing more.

It passes its most dangerous cards (Q♠, A♠, K♠, then the highest hearts and high
cards), follows suit with its lowest card, leads its lowest card, and when it cannot
follow it dumps Q♠, then its highest heart, then its highest card. It counts no cards
and never plans a moon.
"""

from __future__ import annotations

from hearts.core import CARDS, Card, CardSet, SeatView
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS
from hearts.players.base import Player
from hearts.players.knowledge import AS, KS, QS, bottom, highest_rank, lowest_rank, sym


def danger(card: int) -> int:
    """How much a beginner wants rid of ``card`` when passing: spade honours, then hearts and high cards by rank."""
    if card == QS:
        return 100
    if card in (AS, KS):
        return 90 + card - KS
    rank = card % 13
    return rank * 3 + (5 if (1 << card) & HEARTS else 0)


class EasyPlayer(Player):
    """Plays low, dumps high when void; passes the scariest cards."""

    name = "easy"

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        cards = sorted(view.hand, key=lambda c: (-danger(c), c))[: view.rules.pass_count]
        return CardSet(cards), "pass the most dangerous cards: " + " ".join(c.symbol() for c in cards)

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        legal = 0
        for legal_card in view.legal:
            legal |= 1 << legal_card
        if legal & (legal - 1) == 0:
            return CARDS[bottom(legal)], "the only legal card"
        trick = view.trick.cards
        if trick:
            led = trick[0] // 13
            if legal & SUIT_MASKS[led]:
                c = bottom(legal)
                return CARDS[c], f"follow low with {sym(c)}"
            if legal & QS_BIT:
                return CARDS[QS], "void: dump Q♠"
            if legal & HEARTS:
                c = (legal & HEARTS).bit_length() - 1
                return CARDS[c], f"void: dump my highest heart {sym(c)}"
            c = highest_rank(legal)
            return CARDS[c], f"void: dump my highest card {sym(c)}"
        c = lowest_rank(legal)
        return CARDS[c], f"lead low with {sym(c)}"
