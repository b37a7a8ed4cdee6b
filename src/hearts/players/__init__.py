"""Computer players. Each receives a seat's view, never the full state."""

from __future__ import annotations

from hearts.players.base import Decision, Player
from hearts.players.random_player import RandomPlayer
from hearts.players.registry import LEVELS, make_player

__all__ = ["Decision", "Player", "RandomPlayer", "LEVELS", "make_player"]
