"""Moves: the kinds of decision a seat makes, as values that records and the server carry: a play, a
pass, a moon's scoring, and a claim of every remaining trick (:mod:`hearts.core.claim`)."""

from __future__ import annotations

from dataclasses import dataclass

from hearts.core.cards import Card, CardSet
from hearts.core.rules import MoonOption


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PassCards:
    seat: int
    cards: CardSet


@dataclass(frozen=True, slots=True)
class ChooseMoon:
    seat: int
    option: MoonOption


@dataclass(frozen=True, slots=True)
class ClaimRest:
    """Claim every remaining trick: checked against every lie of the unseen cards, then played out."""

    seat: int


Move = PlayCard | PassCards | ChooseMoon | ClaimRest


def move_to_dict(move: Move) -> dict[str, object]:
    """The JSON form of a move.

    >>> from hearts.core.cards import Card
    >>> move_to_dict(PlayCard(2, Card.parse("QS")))
    {'type': 'play', 'seat': 2, 'card': 'QS'}
    """
    if isinstance(move, PlayCard):
        return {"type": "play", "seat": move.seat, "card": str(move.card)}
    if isinstance(move, PassCards):
        return {"type": "pass", "seat": move.seat, "cards": move.cards.names()}
    if isinstance(move, ClaimRest):
        return {"type": "claim", "seat": move.seat}
    return {"type": "moon", "seat": move.seat, "option": move.option.value}


def move_from_dict(data: object, seat: int | None = None) -> Move:
    """A move from its JSON form; raise :class:`~hearts.core.errors.IllegalMoveError` naming what is wrong.

    ``seat``, when given, is the seat the sender is known to hold: it fills in a
    missing ``seat`` and must match one that is given.

    >>> move_from_dict({"type": "play", "card": "q♠"}, seat=1)
    PlayCard(seat=1, card=Card('QS'))
    """
    from hearts.core.errors import HeartsError, IllegalMoveError

    if not isinstance(data, dict):
        raise IllegalMoveError(f"a move is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    given = data.get("seat", seat)
    if not isinstance(given, int) or isinstance(given, bool):
        raise IllegalMoveError(f"a move needs a seat number, not {given!r}"[:200])
    if seat is not None and given != seat:
        raise IllegalMoveError(f"seat {given} is not yours (you hold seat {seat})")
    try:
        if kind == "play":
            card = data.get("card")
            if not isinstance(card, str):
                raise IllegalMoveError(f"a play needs 'card' as a string such as 'QS', not {card!r}"[:200])
            return PlayCard(given, Card.parse(card))
        if kind == "pass":
            cards = data.get("cards")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or len(cards) > 52:
                raise IllegalMoveError(f"a pass needs 'cards' as a list of card strings, not {cards!r}"[:200])
            return PassCards(given, CardSet(cards))
        if kind == "claim":
            return ClaimRest(given)
        if kind == "moon":
            try:
                return ChooseMoon(given, MoonOption(data.get("option")))
            except ValueError:
                choices = ", ".join(o.value for o in MoonOption)
                raise IllegalMoveError(f"a moon choice needs 'option' as one of {choices}") from None
    except IllegalMoveError:
        raise
    except HeartsError as exc:
        raise IllegalMoveError(str(exc)) from None
    raise IllegalMoveError(f"unknown move type {kind!r}: expected 'play', 'pass', 'moon' or 'claim'"[:200])
