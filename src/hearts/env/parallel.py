"""The PettingZoo parallel environment: every seat passes at once; in play one seat acts per step.

Each step takes one action from every seat that owes a decision: in the passing
phase that is every seat still choosing (one card each per step, so a pass of
three takes three steps, simultaneous as at the table); in play it is the one
seat to play; for a moon it is the shooter. Seats that owe nothing have an
all-zero action mask, and any action they send is ignored (PettingZoo's
parallel API has every live agent send one).

>>> env = HeartsParallelEnv(episode="hand")
>>> observations, infos = env.reset(seed=3)
>>> [int(observations[a]["action_mask"].sum()) for a in env.agents]   # everyone is passing
[13, 13, 13, 13]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from hearts.core import OutOfTurnError, Rules
from hearts.env.table import RENDER_FPS, RENDER_MODES, Episode, Reward, TableAgents, render_table


class HeartsParallelEnv(TableAgents, ParallelEnv):
    """Hearts as a PettingZoo parallel environment; options as :class:`~hearts.env.aec.HeartsEnv`."""

    metadata: dict[str, Any] = {"name": "hearts_parallel_v0", "render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        rules: Rules | str | None = None,
        episode: Episode | str = Episode.GAME,
        reward: Reward | str = Reward.POINTS,
        names: Sequence[str] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        self._set_up(rules, episode, reward, names, render_mode, max_cycles)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.table.observe(self._seats[a]) for a in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        due = set(self.table.to_move)
        scores = self.table.last_scores()
        infos: dict[str, dict[str, Any]] = {}
        for a in self.agents:
            seat = self._seats[a]
            info: dict[str, Any] = {"seat": seat, "name": self.table.names[seat], "to_move": seat in due}
            if scores is not None:
                info["last_hand_scores"] = list(scores)
                info["totals"] = list(self.table.totals)
            infos[a] = info
        return infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.table.reset(self.np_random)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return self._observations(), self._infos()

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the actions of the seats that owe a decision. Every one of them is checked before
        any is applied, so an illegal or missing action raises and changes nothing."""
        if not self.agents:
            raise OutOfTurnError("the episode is over: call reset() to deal a new one")
        due = [self.possible_agents[s] for s in self.table.to_move]
        for a in due:
            if actions.get(a) is None:
                seat = self._seats[a]
                raise OutOfTurnError(f"{a} ({self.table.names[seat]}) owes a decision but sent no action")
            self.table.check(self._seats[a], actions[a])
        rewards = dict.fromkeys(self.agents, 0.0)
        for a in due:
            for vector in self.table.act(self._seats[a], actions[a]):
                for s, r in enumerate(vector):
                    rewards[self.possible_agents[s]] += r
        self.cycles += 1
        over = self.table.over
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        observations = self._observations()
        infos = self._infos()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        """The view of the (first) seat to move: ``ansi`` returns it as text, ``human`` prints it,
        ``rgb_array`` returns a picture (``H x W x 3`` ``uint8``)."""
        return render_table(self.table, self.table.next_seat, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


parallel_env = HeartsParallelEnv
