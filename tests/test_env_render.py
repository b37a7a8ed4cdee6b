"""The ``rgb_array`` render mode, the ``module:id`` registration and the helpers bot builders reach for."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hearts.core import Game, PassCards, Phase, Rules, SeatView
from hearts.env import HeartsGymEnv, env, parallel_env
from hearts.env.picture import HEIGHT, WIDTH, table_picture


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_every_environment_offers_rgb_array_frames_with_a_frame_rate() -> None:
    single = HeartsGymEnv(render_mode="rgb_array")
    aec = env(render_mode="rgb_array")
    par = parallel_env(render_mode="rgb_array", rules=Rules(players=5))
    single.reset(seed=1)
    aec.reset(seed=1)
    par.reset(seed=1)
    for e in (single, aec.unwrapped, par):
        assert "rgb_array" in e.metadata["render_modes"] and e.metadata["render_fps"] > 0
        frame = e.render()
        assert isinstance(frame, np.ndarray) and frame.shape == (HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
        assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 20  # cards and words, not a blank felt


def test_frames_follow_the_play_to_the_end_of_the_episode() -> None:
    e = HeartsGymEnv(render_mode="rgb_array", opponents="random")
    e.reset(seed=4)
    first = e.render()
    e.step(_first_legal(e.action_masks()))
    assert not np.array_equal(first, e.render())  # the chosen card is raised
    done = False
    while not done:
        _, _, done, _, _ = e.step(_first_legal(e.action_masks()))
    last = e.render()
    assert last.shape == first.shape and not np.array_equal(last, first)


def test_check_env_passes_with_the_render_check() -> None:
    check_env(gymnasium.make("hearts/Hearts-v0", render_mode="rgb_array").unwrapped)


def test_the_picture_shows_only_what_the_seat_may_see() -> None:
    """Swap two cards between two other seats: the seat's picture is the same, pixel for pixel."""
    game = Game(Rules(), seed=8)
    for seat in game.to_move:  # the passes, so that the hand is in play
        view = game.view(seat)
        game.apply(PassCards(seat, tuple(view.hand)[:3]))
    hand = game.hand
    assert hand.phase is Phase.PLAY
    seat = hand.to_move[0]
    a, b = [s for s in range(4) if s != seat][:2]
    known = hand.passed[seat] or 0  # the cards it passed: it knows where they are
    x = next(c for c in range(52) if (hand.hands[a] & ~known) >> c & 1)
    y = next(c for c in range(52) if (hand.hands[b] & ~known) >> c & 1)
    swapped = hand.copy()
    swapped.hands[a] ^= (1 << x) | (1 << y)
    swapped.hands[b] ^= (1 << x) | (1 << y)
    zeros = (0,) * 4
    before = table_picture(SeatView.of_hand(hand, seat, zeros))
    after = table_picture(SeatView.of_hand(swapped, seat, zeros))
    assert np.array_equal(before, after)
    other = table_picture(SeatView.of_hand(hand, a, zeros))
    assert not np.array_equal(before, other)


def test_an_unknown_render_mode_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"'human', 'ansi', 'rgb_array'.*'rgb'"):
        HeartsGymEnv(render_mode="rgb")


def test_module_colon_id_makes_the_environment_in_a_fresh_interpreter() -> None:
    """``gymnasium.make('hearts.env:hearts/Hearts-v0')`` imports the package itself: no import beforehand."""
    code = (
        "import gymnasium\n"
        "e = gymnasium.make('hearts.env:hearts/Hearts-v0', render_mode='rgb_array', opponents='easy')\n"
        "obs, info = e.reset(seed=2)\n"
        "print(obs.shape[0] > 0, e.render().shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split("\n")[0] == "True (480, 640, 3)"


def test_vector_envs_as_stable_baselines3_makes_them() -> None:
    """SB3's ``make_vec_env`` asks ``gymnasium.make(id, render_mode='rgb_array')`` for each copy."""
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("hearts.env:hearts/Hearts-v0", render_mode="rgb_array") for _ in range(2)]
    )
    obs, info = vec.reset(seed=[1, 2])
    assert obs.shape[0] == 2 and not np.array_equal(obs[0], obs[1])
    actions = np.array([_first_legal(m) for m in info["action_mask"]])
    obs, rewards, done, truncated, info = vec.step(actions)
    assert obs.shape[0] == 2 and rewards.shape == (2,)
    vec.close()


def test_maskable_ppo_learns_a_few_steps_through_make_vec_env() -> None:
    """Only where sb3-contrib is installed (it pulls PyTorch, so it is not a dev extra: see docs/env.md)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env("hearts.env:hearts/Hearts-v0", n_envs=2, seed=0, env_kwargs={"opponents": "random"})
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64


# -- docs/env.md's examples, run as printed ----------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "env.md"


def _block_after(heading: str) -> str:
    section = DOCS.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, heading
    return code.group(1)


def test_docs_rewards_read_with_last_add_up_to_the_final_totals() -> None:
    aec = env(episode="game", reward="points")
    namespace: dict = {"aec": aec, "np": np}
    exec(compile(_block_after("Rewards arrive on other agents' steps"), "env.md", "exec"), namespace)  # noqa: S102
    totals = aec.unwrapped.table.totals
    assert {a: -t for a, t in zip(aec.possible_agents, totals, strict=True)} == namespace["totals"]
    assert max(totals) >= aec.unwrapped.rules.target


def test_docs_sampler_example_runs() -> None:
    namespace: dict = {}
    exec(compile(_block_after("Search bots: sampling the hidden cards"), "env.md", "exec"), namespace)  # noqa: S102
    view, hands = namespace["view"], namespace["hands"]
    assert hands[view.seat] == view.hand.mask and sum(h.bit_count() for h in hands) == 52
    assert len(namespace["world"].trick) == 1  # the card played in the sampled world


def test_docs_tournament_evaluation_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from hearts.players.easy import EasyPlayer

    mybot = types.ModuleType("mybot")
    mybot.MyPlayer = EasyPlayer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mybot", mybot)
    from hearts.players import registry

    monkeypatch.setattr(registry, "LEVELS", dict(registry.LEVELS))  # the example adds a level: undo it after
    code = _block_after("Evaluating a policy in the duplicate tournament").replace("hands=200", "hands=12")
    printed: list[tuple] = []
    exec(compile(code, "env.md", "exec"), {"print": lambda *a: printed.append(a)})  # noqa: S102
    assert [row[0] for row in printed] == ["mine", "medium"] and all("±" in row[1] for row in printed)
