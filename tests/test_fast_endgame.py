"""Exact endings: the compiled max-n solve of a world's last tricks agrees with a plain statement of
it on the engine's own HandState (every seat plays the card that leaves it the best hand result,
ties to the lowest card), under several rule sets."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import Game, HandState, Phase, Rules
from hearts.fast.bridge import rules_array, state_array
from hearts.fast.endgame import solve_worlds
from hearts.players.knowledge import best_moon_option

RULES = [
    Rules.preset("no-passing"),
    Rules.preset("omnibus", pass_cycle=("hold",)),
    Rules(players=3, pass_cycle=("hold",), moon="shooter-chooses"),
    Rules(players=5, pass_cycle=("hold",)),
]


def reference(state: HandState, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The hand scores of the max-n line from ``state``, on the engine."""
    if state.phase is Phase.MOON_CHOICE:
        state = state.copy()
        shooter = state.to_move[0]
        state.choose_moon(shooter, best_moon_option(state.rules, totals, shooter))
    if state.phase is not Phase.PLAY:
        assert state.scores is not None
        return tuple(state.scores)
    n = state.players
    turn = state.turn
    best: tuple[int, ...] | None = None
    best_value = 0.0
    for card in sorted(state.legal_plays(), key=int):
        child = state.copy()
        child.play(card)
        scores = reference(child, totals)
        value = (sum(scores) - scores[turn]) / (n - 1) - scores[turn]
        if best is None or value > best_value:
            best, best_value = scores, value
    assert best is not None
    return best


@settings(max_examples=150, deadline=None)
@given(rules_at=st.integers(0, len(RULES) - 1), seed=st.integers(0, 10_000), left=st.integers(1, 3))
def test_the_compiled_solve_is_max_n_on_the_engine(rules_at: int, seed: int, left: int) -> None:
    rules = RULES[rules_at]
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    n = rules.players
    plays = (rules.hand_size - left) * n + rng.randrange(n)
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.to_move[0])
    totals = tuple(rng.choice((0, 40, 80, 95)) for _ in range(n))
    cards = sorted(view.legal, key=int)
    got = solve_worlds(
        state_array(view.world(game.hand.hands))[None, :],
        rules_array(rules),
        np.array([int(c) for c in cards], dtype=np.int64),
        np.array(totals, dtype=np.int64),
    )
    for i, card in enumerate(cards):
        child = game.hand.copy()
        child.play(card)
        assert tuple(got[0, 0, 0, i]) == reference(child, totals), (card, rules)
