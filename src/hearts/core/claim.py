"""Claiming the rest of the tricks.

A seat whose cards are sure to take every remaining trick may say so on its turn instead of playing
them out. The claim holds only if the claimer, playing as :func:`claim_card` plays, takes every
remaining trick whatever the unseen cards are (any lie of them among the other seats' hands, as
many as each holds) and whatever the others legally play; the check uses nothing a seat cannot see,
so the reason for a refusal gives nothing away. A claim that holds is played out card by card
through the engine (the claimer as :func:`claim_card` plays, each other seat its lowest legal card),
so records and scores are those of a hand played to its end, with the claim marked
(``HandState.claim``, a record hand's ``claim``).

Why it is exact. The claimer wins the trick in progress and so leads every later trick. A lead can
only be beaten by a higher card of its suit, and a seat keeps such a card past the claimer's earlier
leads of that suit only by following each with another card of the suit (it must follow while it
holds one). So the claim fails exactly when, for some suit and the claimer's *k*-th lead of it, an
unseen card of that suit outranks the card led and some seat could hold it with *k - 1* more of the
suit (one more if it must still follow the trick in progress): the lie that gives one seat all of
those is possible whenever there are that many unseen cards of the suit and the seat holds that
many cards. Leads of other suits never force such a seat to part with them (it follows or discards
with its other cards). Within a suit the claimer leads from the top, which is best for it.

>>> from hearts.core.cards import CardSet
>>> from hearts.core.rules import Rules
>>> def deal(south: str) -> HandState:
...     rest = [c for c in range(52) if not CardSet.parse(south).mask >> c & 1]
...     others = [sum(1 << c for c in rest[i::3]) for i in range(3)]
...     return HandState(Rules(pass_cycle="none"), [CardSet.parse(south).mask, *others])
>>> claim_holds(deal("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"), 0)   # every club: every trick
True
>>> check_claim(deal("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AS"), 0)
Traceback (most recent call last):
...
hearts.core.claim.ClaimRefused: South cannot claim the rest: A♣ is still out, and a seat holding it could beat your 2♣
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hearts.core.cards import CARDS, SUIT_MASKS, Card, Suit, cards_of
from hearts.core.errors import HeartsError
from hearts.core.hand import HandState, Phase, seat_name

if TYPE_CHECKING:
    from hearts.core.events import Event
    from hearts.core.game import Game

SUIT_WORDS = ("clubs", "diamonds", "spades", "hearts")


class ClaimRefused(HeartsError):
    """A claim that does not hold (or is not the claimer's to make now); the message says why, in
    words that give away no unseen card's place."""

    def __init__(self, message: str, *, seat: int | None = None, card: Card | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.card = card


def claim_card(hand: HandState, seat: int) -> Card:
    """The card a claimer plays on its turn: following, its highest card of the suit led (its lowest
    legal card when it has none); leading, the highest legal card of the first suit in the order
    ♣ ♦ ♠ ♥ it may lead (so hearts last, and the opening card when it must be led)."""
    legal = hand.legal_mask()
    if hand.trick:
        led = SUIT_MASKS[hand.trick[0].suit]
        own = hand.hands[seat] & led
        return CARDS[own.bit_length() - 1] if own else cards_of(legal)[0]
    for mask in SUIT_MASKS:
        if legal & mask:
            return CARDS[(legal & mask).bit_length() - 1]
    raise ClaimRefused("no card to play", seat=seat)  # pragma: no cover - a seat to play has a legal card


def check_claim(hand: HandState, seat: int) -> None:
    """Raise :class:`ClaimRefused` with the reason unless ``seat`` may claim every remaining trick now:
    it is its turn in the play phase and it takes every trick against every lie of the unseen cards
    and every legal play of the others (see the module text)."""
    n = hand.players
    who = seat_name(seat, n)
    if hand.phase is not Phase.PLAY or hand.turn != seat:
        raise ClaimRefused(f"{who} cannot claim now: a claim is made on one's own turn to play", seat=seat)
    mine = hand.hands[seat]
    played = sum(1 << c for t in hand.tricks for c in t.cards) | sum(1 << c for c in hand.trick)
    unseen = hand.rules.in_play & ~played & ~mine
    sizes = [hand.hands[s].bit_count() for s in range(n)]
    following = bool(hand.trick)
    after: set[int] = set()  # the seats still to play to the trick in progress after the claimer
    if following:
        led = hand.trick[0].suit
        own = mine & SUIT_MASKS[led]
        if not own:
            raise ClaimRefused(f"{who} cannot claim the rest: you have no {SUIT_WORDS[led]} to win this trick", seat=seat)
        top = CARDS[own.bit_length() - 1]
        best = max((c for c in hand.trick if c.suit == led), default=None)
        if best is not None and best > top:
            raise ClaimRefused(f"{who} cannot claim the rest: {best.symbol()} beats your {top.symbol()} in this trick", seat=seat, card=best)
        after = {(seat + i) % n for i in range(1, n - len(hand.trick))}
        higher = unseen & SUIT_MASKS[led] & ~((1 << (top + 1)) - 1)
        if after and higher:
            card = CARDS[higher.bit_length() - 1]
            raise ClaimRefused(
                f"{who} cannot claim the rest: {card.symbol()} is still out, and a seat after you could play it on your {top.symbol()}",
                seat=seat, card=card,
            )  # fmt: skip
        mine &= ~(1 << top)
        first: Card | None = None
    else:
        first = claim_card(hand, seat)
    for suit in Suit:
        leads = sorted(cards_of(mine & SUIT_MASKS[suit]), reverse=True)
        if first is not None and first.suit == suit:  # the opening card may have to be led first
            leads.remove(first)
            leads.insert(0, first)
        out = unseen & SUIT_MASKS[suit]
        if not out:
            continue
        high = CARDS[out.bit_length() - 1]
        count = out.bit_count()
        for k, card in enumerate(leads, start=1):
            if high < card:
                continue
            # A seat that must still follow this trick's suit spends one more card of it.
            need = [k + (1 if s in after and following and suit == hand.trick[0].suit else 0) for s in range(n)]
            if any(s != seat and count >= need[s] and sizes[s] >= need[s] for s in range(n)):
                more = f" with {k - 1} more {SUIT_WORDS[suit]}" if k > 1 else ""
                raise ClaimRefused(
                    f"{who} cannot claim the rest: {high.symbol()} is still out, and a seat holding it{more} "
                    f"could beat your {card.symbol()}",
                    seat=seat, card=high,
                )  # fmt: skip


def claim_holds(hand: HandState, seat: int) -> bool:
    """Whether ``seat`` may claim every remaining trick now (:func:`check_claim` without the reason)."""
    try:
        check_claim(hand, seat)
    except ClaimRefused:
        return False
    return True


def play_claim(game: Game | HandState, seat: int) -> list[Event]:
    """Check ``seat``'s claim on the hand in play (raising :class:`ClaimRefused` with the reason, nothing
    changed), mark the hand as claimed and play it out: the claimer as :func:`claim_card` plays, each
    other seat its lowest legal card, every trick to the claimer. Returns the events of every card."""
    hand = game if isinstance(game, HandState) else game.hand
    check_claim(hand, seat)
    hand.claim = (seat, sum(len(t.cards) for t in hand.tricks) + len(hand.trick))
    events: list[Event] = []
    tricks_before = len(hand.tricks)
    while hand.phase is Phase.PLAY:
        turn = hand.turn
        card = claim_card(hand, seat) if turn == seat else CARDS[(hand.legal_mask() & -hand.legal_mask()).bit_length() - 1]
        events += game.play(card, turn)
    if any(t.winner != seat for t in hand.tricks[tricks_before:]):  # pragma: no cover - what check_claim proves
        raise AssertionError("a claim that held lost a trick")
    return events
