"""Players by level name: ``make_player("expert", seed=1)``.

>>> make_player("medium", seed=3).name
'medium'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from hearts.players.base import Player

#: level name -> "module:Class". Modules load on first use so that start-up stays quick.
LEVELS: dict[str, str] = {
    "random": "hearts.players.random_player:RandomPlayer",
    "easy": "hearts.players.easy:EasyPlayer",
    "medium": "hearts.players.medium:MediumPlayer",
    "hard": "hearts.players.hard:HardPlayer",
    "expert": "hearts.players.expert:ExpertPlayer",
}


def make_player(level: str, seed: int | None = None, time_budget: float | None = None, **options: Any) -> Player:
    """A new player of ``level``; an unknown level raises ``ValueError`` naming the known ones.

    ``options`` go to the player's constructor (e.g. ``worlds=`` for the search players).
    """
    key = level.strip().lower()
    if key.startswith("cmd:"):  # an outside program speaking the bot protocol; see players/external.py
        from hearts.players.external import command_player

        return command_player(level, seed=seed, time_budget=time_budget, **options)
    if key not in LEVELS:
        raise ValueError(f"unknown player level {level!r}: choose one of {', '.join(LEVELS)}")
    module, _, cls_name = LEVELS[key].partition(":")
    cls: Callable[..., Player] = getattr(importlib.import_module(module), cls_name)
    return cls(seed=seed, time_budget=time_budget, **options)
