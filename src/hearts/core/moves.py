"""Moves: the three kinds of decision a seat makes, as values that records and the server carry."""

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


Move = PlayCard | PassCards | ChooseMoon
