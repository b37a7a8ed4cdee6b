"""Speed of the learned evaluation: the model's card in a world (what a search or rollout would call),
compiled self-play hands per second (what ``hearts train`` runs), and the ``learned`` player's decisions.

    python benchmarks/bench_learned.py              # about half a minute after the first compile
    python benchmarks/bench_learned.py --hands 20000

CPU seconds (``time.process_time``): the machine is shared, wall-clock times are not the code's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hearts.core import Game, Phase, Rules
from hearts.fast import selfplay
from hearts.fast.bridge import rules_array, state_array
from hearts.players import make_player
from hearts.players.weights import load_model


def per_card_call(repeats: int) -> float:
    """Microseconds per :func:`hearts.fast.selfplay.world_values` call, over the positions of a game."""
    model = load_model()
    game = Game(Rules(), seed=3)
    states = []
    players = [make_player("medium", seed=s) for s in range(4)]
    while not game.finished:
        for seat in game.to_move:
            if game.phase is Phase.PLAY:
                states.append(state_array(game.hand))
            game.apply(players[seat].decide(game.view(seat)).move)
            if game.phase is not Phase.PASS:
                break
    R = rules_array(Rules())
    values = np.zeros(52)
    selfplay.world_values(states[0], R, 0, model.weights, model.margin, values)
    start = time.process_time()
    for _ in range(repeats):
        for S in states:
            selfplay.world_values(S, R, 0, model.weights, model.margin, values)
    return (time.process_time() - start) / (repeats * len(states)) * 1e6


def self_play(hands: int) -> float:
    """Self-play hands per CPU second with the regression's sums gathered (one model seat in two)."""
    model = load_model()
    R = rules_array(Rules())
    modes = np.array([selfplay.SEAT_LEARNED, selfplay.SEAT_MEDIUM] * 2, dtype=np.int64)
    size = model.weights.size
    selfplay.gather(R, 1, 0, 10, modes, model.weights, model.margin, 0.3, False, size)
    start = time.process_time()
    selfplay.gather(R, 1, 0, hands, modes, model.weights, model.margin, 0.3, False, size)
    return hands / (time.process_time() - start)


def player_decisions(hands: int) -> float:
    """Milliseconds per decision of the ``learned`` player (Python knowledge + compiled model)."""
    game = Game(Rules(), seed=5)
    players = [make_player("learned", seed=s) for s in range(4)]
    decisions = 0
    spent = 0.0
    while len(game.finished) < hands:
        for seat in game.to_move:
            view = game.view(seat)
            start = time.process_time()
            move = players[seat].decide(view).move
            spent += time.process_time() - start
            decisions += 1
            game.apply(move)
            if game.phase is not Phase.PASS:
                break
    return spent / decisions * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="self-play hands to time")
    parser.add_argument("--repeats", type=int, default=200, help="times each position of a game is valued")
    parser.add_argument("--player-hands", type=int, default=4, help="hands of the learned player to time")
    args = parser.parse_args()
    print(f"world_values: {per_card_call(args.repeats):.2f} µs per decision (every legal card valued)")
    print(f"self-play: {self_play(args.hands):,.0f} hands per CPU second (outcome targets)")
    print(f"learned player: {player_decisions(args.player_hands):.3f} ms per decision")


if __name__ == "__main__":
    main()
