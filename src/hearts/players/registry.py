"""Players by level name: ``make_player("expert", seed=1)``."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hearts.players.base import Player

#: level name -> "module:Class". Modules load on first use so that start-up stays quick.
LEVELS: dict[str, str] = {
    "random": "hearts.players.random_player:RandomPlayer",
}


def make_player(level: str, seed: int | None = None, time_budget: float | None = None) -> Player:
    """A new player of ``level``; an unknown level raises ``ValueError`` naming the known ones."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown player level {level!r}: choose one of {', '.join(LEVELS)}")
    module, _, cls_name = LEVELS[key].partition(":")
    cls: Callable[..., Player] = getattr(importlib.import_module(module), cls_name)
    return cls(seed=seed, time_budget=time_budget)
