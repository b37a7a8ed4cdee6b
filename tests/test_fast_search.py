"""The compiled rollout through the search players' rollout hook."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hearts.core import Game, HandState, Phase, Rules
from hearts.fast import kernels as k
from hearts.fast import rules_array, state_array
from hearts.fast.search_rollout import CompiledRollout
from hearts.players.search import HardPlayer


def midgame_world(rules: Rules, seed: int, cards: int) -> HandState:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while game.phase is Phase.PASS:
        for s in game.to_move:
            game.pass_cards(s, rng.sample(list(game.view(s).hand), rules.pass_count))
    for _ in range(cards):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.hand.turn)
    return view.world(game.hand.hands)


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("britannica", players=3), Rules.preset("omnibus", players=6)])
def test_the_hook_plays_legal_cards_to_the_engines_end_of_hand(rules: Rules) -> None:
    for seed in range(6):
        world = midgame_world(rules, seed, cards=seed * 3)
        for shooters in (0, 1 << world.turn):
            played = world.copy()
            CompiledRollout(0.1)(played, random.Random(seed), shooters)
            assert played.phase in (Phase.HAND_OVER, Phase.MOON_CHOICE)
            assert len(played.tricks) == rules.hand_size and not any(played.hands)
            # The same cards through the engine's checked play() (which refuses an illegal card).
            checked = world.copy()
            trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
            pol = np.array([k.POLICY_MOON if shooters >> s & 1 else k.POLICY_GREEDY for s in range(rules.players)])
            k.play_out_traced(
                state_array(world), rules_array(rules), pol, 0.1, random.Random(seed).getrandbits(31), 0, trace
            )
            start = len(world.tricks) * rules.players + len(world.trick)
            for i in range(start, rules.hand_size * rules.players):
                checked.play(int(trace[k.TRACE_PLAYS + 2 * i + 1]))
            assert checked.tricks == played.tricks and checked.scores == played.scores


def test_the_same_rng_state_gives_the_same_rollout() -> None:
    world = midgame_world(Rules(), 3, cards=9)
    rollout = CompiledRollout()
    a, b = world.copy(), world.copy()
    rollout(a, random.Random(7), 0)
    rollout(b, random.Random(7), 0)
    assert a.tricks == b.tricks
    c = world.copy()
    rollout(c, random.Random(8), 0)
    assert c.tricks != a.tricks  # another seed plays another way (the greedy policy has noise)


def test_a_search_player_decides_with_the_compiled_rollout() -> None:
    game = Game(Rules.preset("no-passing"), seed=4)
    player = HardPlayer(seed=1, time_budget=5.0, worlds=6, rollout=CompiledRollout())
    for _ in range(20):
        seat = game.to_move[0]
        decision = player.decide(game.view(seat))
        game.apply(decision.move)  # raises if the card is illegal
    assert player.last_rollouts >= 0 and len(game.hand.tricks) == 5


def test_bad_epsilon_is_refused() -> None:
    with pytest.raises(ValueError, match="epsilon"):
        CompiledRollout(1.5)


def test_search_players_take_the_compiled_rollout_by_name() -> None:
    from hearts.players.registry import make_player
    from hearts.players.search import ExpertPlayer

    player = make_player("hard", seed=2, rollout="compiled")
    assert isinstance(player.rollout, CompiledRollout) and player.rollout.epsilon == 0.1  # type: ignore[attr-defined]
    assert ExpertPlayer(seed=2, rollout="compiled").rollout.epsilon == 0.05  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown rollout 'turbo'"):
        HardPlayer(rollout="turbo")
