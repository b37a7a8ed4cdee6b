"""The errors the engine raises, one class per cause.

All are :class:`ValueError` subclasses, so callers that only care that the
input was bad can catch ``ValueError``; callers that care why can catch the
subclass.  Every message names the offending input, the seat where there is
one, and the rule that was broken.
"""

from __future__ import annotations


class HeartsError(ValueError):
    """Base class of every error raised for bad input to the engine."""


class CardParseError(HeartsError):
    """A string that does not name a card (or a set of cards)."""


class RulesError(HeartsError):
    """An invalid combination of rule options, or an unknown preset."""


class OutOfTurnError(HeartsError):
    """A move by a seat that does not owe a decision, or in the wrong phase."""


class IllegalMoveError(HeartsError):
    """A move that breaks a rule of play (following suit, hearts not broken, ...)."""


class RecordError(HeartsError):
    """A malformed record, or one whose moves the rules do not allow."""
