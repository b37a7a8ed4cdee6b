"""Events: what each action did, for the server to broadcast, records to keep and UIs to animate.

Every event is a small frozen dataclass. Most are public; an event whose
:attr:`private_to` is a seat must reach that seat alone (the cards it passed
or received). :func:`event_to_dict` gives the JSON form.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from hearts.core.cards import Card, CardSet
from hearts.core.rules import MoonOption, PassDirection


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand was dealt. Each seat learns its own cards from its view."""

    hand_number: int
    direction: PassDirection
    private_to = None


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """``seat`` chose its pass. Only ``seat`` sees the cards; the others learn that it has chosen."""

    seat: int
    to_seat: int
    cards: CardSet

    @property
    def private_to(self) -> int:
        return self.seat

    def redacted(self) -> CardsPassed:
        return CardsPassed(self.seat, self.to_seat, CardSet())


@dataclass(frozen=True, slots=True)
class CardsReceived:
    """Every seat has passed; ``seat`` received ``cards`` from ``from_seat``."""

    seat: int
    from_seat: int
    cards: CardSet

    @property
    def private_to(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    trick_number: int
    private_to = None


@dataclass(frozen=True, slots=True)
class HeartsBroken:
    """The first heart (or Q♠ where it breaks hearts) of the hand was played."""

    seat: int
    card: Card
    private_to = None


@dataclass(frozen=True, slots=True)
class TrickWon:
    """``seat`` took trick ``trick_number``; ``points`` is what the trick scores before any moon
    (``Rules.points_taken``: its hearts and Q♠, and the bonus card where one is played)."""

    seat: int
    trick_number: int
    leader: int
    cards: tuple[Card, ...]
    points: int
    private_to = None


@dataclass(frozen=True, slots=True)
class MoonShot:
    """``seat`` took every heart in play and Q♠."""

    seat: int
    awaiting_choice: bool
    private_to = None


@dataclass(frozen=True, slots=True)
class MoonChosen:
    seat: int
    option: MoonOption
    private_to = None


@dataclass(frozen=True, slots=True)
class HandScored:
    hand_number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None
    private_to = None


@dataclass(frozen=True, slots=True)
class GameOver:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    private_to = None


Event = (
    HandStarted | CardsPassed | CardsReceived | CardPlayed | HeartsBroken | TrickWon | MoonShot | MoonChosen
    | HandScored | GameOver
)

_TYPE_NAMES = {
    HandStarted: "hand_started", CardsPassed: "cards_passed", CardsReceived: "cards_received",
    CardPlayed: "card_played", HeartsBroken: "hearts_broken", TrickWon: "trick_won", MoonShot: "moon_shot",
    MoonChosen: "moon_chosen", HandScored: "hand_scored", GameOver: "game_over",
}  # fmt: skip


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, CardSet):
        return value.names()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form: ``{"type": "card_played", "seat": 1, "card": "QS", ...}``.

    >>> from hearts.core.cards import Card
    >>> event_to_dict(CardPlayed(1, Card.parse("QS"), 4))
    {'type': 'card_played', 'seat': 1, 'card': 'QS', 'trick_number': 4}
    """
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(event)]}
    for f in dataclasses.fields(event):
        out[f.name] = _json(getattr(event, f.name))
    return out


def visible_to(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it (``None`` for a spectator): private events of other seats are
    dropped, except that a seat's having chosen its pass is public (without the cards)."""
    private = event.private_to
    if private is None or private == seat:
        return event
    if isinstance(event, CardsPassed):
        return event.redacted()
    return None
