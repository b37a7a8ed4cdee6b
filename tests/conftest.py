"""Shared test helpers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hearts.core import CardSet, Game, HandState, Phase, Rules


def play_out(game: Game, rng: random.Random, max_steps: int = 100_000) -> Game:
    """Play ``game`` to its end with uniformly random legal moves."""
    for _ in range(max_steps):
        if game.is_over:
            return game
        phase = game.phase
        if phase is Phase.PASS:
            for seat in game.to_move:
                hand = list(game.view(seat).hand)
                game.pass_cards(seat, rng.sample(hand, game.rules.pass_count))
        elif phase is Phase.PLAY:
            game.play(rng.choice(game.legal_plays()))
        elif phase is Phase.MOON_CHOICE:
            seat = game.to_move[0]
            game.choose_moon(seat, rng.choice(list(game.view(seat).moon_options)))
    raise AssertionError("game did not end")


def hand_from(rules: Rules, hands: list[str], number: int = 0) -> HandState:
    """A hand dealt explicitly: one space-separated card list per seat."""
    return HandState(rules, [CardSet.parse(h).mask for h in hands], number)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """A served app (``create_app``, computer pause 0) on its own SQLite file, through FastAPI's test
    client: what the server tests talk to. Imported here, not at the top, so that the tests that
    never serve do not load the server."""
    from fastapi.testclient import TestClient

    from hearts.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'hearts.db'}", pause=0)) as c:
        yield c


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


# -- helpers for the rules tests --------------------------------------------------------


def _frozen(value: object) -> object:
    """A comparable deep copy: lists become tuples, so a later mutation cannot alias the snapshot."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def hand_snapshot(hand: HandState) -> dict[str, object]:
    """Every slot of a hand state (whatever slots the engine has), deep-copied for comparison."""
    slots: list[str] = []
    for klass in type(hand).__mro__:
        slots.extend(getattr(klass, "__slots__", ()))
    return {name: _frozen(getattr(hand, name)) for name in slots if hasattr(hand, name)}


def snapshot(game: Game | HandState) -> dict[str, object]:
    """The complete state of a game (or a bare hand): two equal snapshots mean nothing changed."""
    if isinstance(game, HandState):
        return hand_snapshot(game)
    return {
        "rules": game.rules,
        "seed": game.seed,
        "names": game.names,
        "totals": tuple(game.totals),
        "winners": game.winners,
        "finished": tuple(tuple(sorted(hand_snapshot(h).items())) for h in game.finished),
        "hand": hand_snapshot(game.hand),
        "phase": game.phase,
        "to_move": game.to_move,
    }


def play_cards(state: Game | HandState, cards: str) -> list[object]:
    """Play the space-separated ``cards`` in order, each checked by the engine; return the events."""
    events: list[object] = []
    for text in cards.split():
        events.extend(state.play(text))
    return events


def game_from(rules: Rules, hands: list[str], **kwargs: object) -> Game:
    """A game whose first hand is dealt explicitly (later hands come from the seed)."""
    deal = [CardSet.parse(h).mask for h in hands]
    return Game(rules, deals={0: deal}, seed=kwargs.pop("seed", 0), **kwargs)  # type: ignore[arg-type]
