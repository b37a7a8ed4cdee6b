"""The Gymnasium single-agent environment and the policy player."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hearts.core import Game, IllegalMoveError, Phase, Rules
from hearts.env import HeartsGymEnv, PolicyPlayer
from hearts.players import make_player


@pytest.mark.parametrize(
    "options",
    [
        {"episode": "hand"},
        {"episode": "game", "rules": "britannica", "seat": "random", "reward": "zero-sum"},
        {"episode": "hand", "rules": Rules(players=3), "opponents": ["random", "easy"], "seat": 2},
    ],
)
def test_gymnasium_check_env_passes(options: dict) -> None:
    check_env(HeartsGymEnv(**options), skip_render_check=True)


def test_registered_with_gymnasium_make() -> None:
    env = gymnasium.make("hearts/Hearts-v0", episode="hand", opponents="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()


def _play(env: HeartsGymEnv, seed: int) -> tuple[float, int, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not truncated and "illegal_action" not in info
        total += reward
        steps += 1
    return total, steps, info


def test_hand_episode_reward_is_minus_the_seats_score() -> None:
    env = HeartsGymEnv(seat=1, episode="hand", opponents="random")
    for seed in range(5):
        total, steps, info = _play(env, seed)
        assert total == -info["last_hand_scores"][1]
        passing = env.table.hand.direction.value != "hold"
        assert steps == 13 + (3 if passing else 0)


def test_game_episode_ends_at_the_target_with_rewards_summing_to_the_total() -> None:
    env = HeartsGymEnv(seat=0, episode="game", opponents="easy")
    total, _, info = _play(env, 3)
    assert env.table.game is not None and env.table.game.is_over
    assert max(info["totals"]) >= 100
    assert total == -info["totals"][0]


def test_seeded_reset_repeats_the_episode() -> None:
    env = HeartsGymEnv(seat="random", episode="hand", opponents="easy")
    first, again = _play(env, 42), _play(env, 42)
    assert first[:2] == again[:2] and first[2]["last_hand_scores"] == again[2]["last_hand_scores"]
    assert env.reset(seed=42)[0].tobytes() == env.reset(seed=42)[0].tobytes()


def test_illegal_action_is_penalized_or_raised_and_changes_nothing() -> None:
    env = HeartsGymEnv(rules="no-passing", seat=0, episode="hand", illegal_penalty=-2.5)
    obs, info = env.reset(seed=7)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, done, truncated, info2 = env.step(illegal)
    assert reward == -2.5 and not done and not truncated
    assert "South" in info2["illegal_action"]
    assert np.array_equal(obs, obs2) and np.array_equal(info["action_mask"], info2["action_mask"])
    strict = HeartsGymEnv(rules="no-passing", seat=0, episode="hand", illegal_action="raise")
    strict.reset(seed=7)
    with pytest.raises(IllegalMoveError, match="South"):
        strict.step(illegal)


def test_bad_construction_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown player level 'grandmaster'"):
        HeartsGymEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="seat must be 0..3 or 'random'"):
        HeartsGymEnv(seat=4)
    with pytest.raises(ValueError, match="2 opponents given for the 3 other seats"):
        HeartsGymEnv(opponents=["random", "easy"])
    with pytest.raises(ValueError, match="illegal_action must be"):
        HeartsGymEnv(illegal_action="ignore")


def test_policy_player_plays_whole_games_through_the_engine() -> None:
    rng = np.random.default_rng(0)
    policy = PolicyPlayer(lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), name="uniform")
    game = Game(Rules.preset("britannica"), seed=4)
    players = [policy, make_player("random", seed=1), make_player("random", seed=2), make_player("random", seed=3)]
    while not game.is_over:
        seat = game.to_move[0]
        game.apply(players[seat].decide(game.view(seat)).move)
    assert game.phase is Phase.GAME_OVER


def test_policy_player_refuses_an_action_outside_the_mask() -> None:
    stubborn = PolicyPlayer(lambda obs, mask: 51, name="always-AH")
    game = Game(Rules.preset("no-passing"), seed=2)
    with pytest.raises(IllegalMoveError, match="always-AH.*A♥.*mask"):
        stubborn.decide(game.view(game.to_move[0]))


def test_external_bot_opponents_are_stopped_with_each_episode() -> None:
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "python_bot.py"
    env = HeartsGymEnv(seat=0, episode="hand", opponents=["random", f"cmd:{sys.executable} {bot}", "random"])
    _, _, info = _play(env, 1)
    external = env.players[2]
    process = external._proc  # type: ignore[attr-defined]
    assert process is not None and process.poll() is None and not external.faulted  # type: ignore[attr-defined]
    env.reset(seed=2)
    assert process.poll() is not None and env.players[2] is not external
    env.close()
    assert env.players[2]._proc is None  # type: ignore[attr-defined]
