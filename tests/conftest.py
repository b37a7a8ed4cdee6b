"""Shared test helpers."""

from __future__ import annotations

import random

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
def rng() -> random.Random:
    return random.Random(1234)
