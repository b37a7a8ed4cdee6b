"""Computer players. Each receives a seat's view, never the full state.

Levels (``make_player(level, seed=, time_budget=)``): random, easy, medium (rule-based, counts
cards), hard and expert (Monte Carlo search over sampled hidden cards); and, for measurement only
(tournaments and benchmarks, never offered at tables), ``hunter``, which shoots the moon whenever it
plausibly can. See docs/players.md.
"""

from __future__ import annotations

from hearts.players.base import Decision, Player, play_game
from hearts.players.random_player import RandomPlayer
from hearts.players.registry import LEVELS, make_player

__all__ = ["Decision", "Player", "RandomPlayer", "LEVELS", "make_player", "play_game"]
