"""The errors the engine raises, one class per cause.

All are :class:`ValueError` subclasses, so callers that only care that the
input was bad can catch ``ValueError``; callers that care why can catch the
subclass::

    HeartsError (ValueError)      any bad input to the engine
    ├── CardParseError            text (or a number) that names no card
    ├── SetupError                a game that cannot be set up as asked: seat names, seed, deal key, deals
    │   └── RulesError            rule options that do not make a game, an unknown preset
    ├── OutOfTurnError            a move by a seat that owes no decision, or at the wrong moment
    ├── IllegalMoveError          a move that breaks a rule of play, or is no move at all
    └── RecordError               a malformed record, or one whose moves the rules do not allow

Every message names the offending input, the seat where there is
one, and the rule that was broken, in players' words, with cards shown by their
suit symbols: ``illegal play Q♠ by West: must follow clubs``.

A move's error also carries what it is about as fields, so that a face can say it
in its own words to its own player ("You don't hold Q♠") without reading the text:

>>> from hearts.core import Game, Rules
>>> game = Game(Rules.preset("no-passing"), seed=2)
>>> try:
...     game.play("QS", game.to_move[0])
... except IllegalMoveError as exc:
...     err = exc
>>> str(err).split(":")[0], err.rule
('illegal play Q♠ by South', 'not-held')
>>> err.card, err.seat, err.reason
(Card('QS'), 0, 'South does not hold Q♠')
"""

from __future__ import annotations

from typing import Any

#: The rules a move can break (``HeartsError.rule``), each a stable code a face may phrase itself:
#: ``not-held`` the seat does not hold the card(s); ``follow-suit`` a card of the suit led is held;
#: ``first-trick`` no heart or Q♠ on the first trick; ``opening-lead`` the first trick's lead;
#: ``hearts-not-broken`` a heart led before hearts are broken; ``pass-count`` the wrong number of
#: cards passed; ``pass-repeat`` a card given twice in one pass; ``turn`` not this seat's turn;
#: ``phase`` not the moment for this kind of move.
RULES = (
    "not-held", "follow-suit", "first-trick", "opening-lead", "hearts-not-broken",
    "pass-count", "pass-repeat", "turn", "phase",
)  # fmt: skip


class HeartsError(ValueError):
    """Base class of every error raised for bad input to the engine.

    ``card`` (or ``cards``), ``seat``, ``rule`` (one of :data:`RULES`) and ``reason`` (the
    rule broken in words, the part of the message after the colon) are set where they apply.
    """

    def __init__(
        self,
        message: str,
        *,
        card: Any = None,
        cards: Any = None,
        seat: int | None = None,
        rule: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.card = card
        self.cards = cards
        self.seat = seat
        self.rule = rule
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the fields across pickling (errors cross process boundaries in tournaments).
        fields = {k: getattr(self, k) for k in ("card", "cards", "seat", "rule", "reason")}
        return (_rebuild, (type(self), str(self), fields))


def _rebuild(cls: type[HeartsError], message: str, fields: dict[str, Any]) -> HeartsError:
    return cls(message, **fields)


class CardParseError(HeartsError):
    """A string that does not name a card (or a set of cards)."""


class SetupError(HeartsError):
    """A game that cannot be set up as asked: seat names, seed, deal key or deals (a configuration
    error, found before any move; no seat is at fault)."""


class RulesError(SetupError):
    """An invalid rule option or combination of options, or an unknown preset."""


class OutOfTurnError(HeartsError):
    """A move by a seat that does not owe a decision, or in the wrong phase."""


class IllegalMoveError(HeartsError):
    """A move that breaks a rule of play (following suit, hearts not broken, ...)."""


class RecordError(HeartsError):
    """A malformed record, or one whose moves the rules do not allow."""
