"""The PettingZoo AEC environment: seats act one at a time, the pass one card per step.

>>> env = HeartsEnv(rules="omnibus", episode="hand", reward="zero-sum")
>>> env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.last()
>>> sorted(observation), int(observation["action_mask"].sum())   # any held card may start the pass
(['action_mask', 'observation'], 13)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from hearts.core import Rules
from hearts.env.table import RENDER_FPS, RENDER_MODES, Episode, Reward, TableAgents, render_table


class HeartsEnv(TableAgents, AECEnv):
    """Hearts as a PettingZoo AEC environment over the real engine.

    Agents are ``player_0`` ... ``player_{n-1}`` (seat 0 is South at four seats).
    Each step is one action of :mod:`hearts.env.encoding`: a card to play, one card
    of the pass (a seat chooses its whole pass in ``pass_count`` consecutive steps;
    the seats pass in seat order, and none sees another's choice), or a moon
    shooter's choice. Observations are ``{"observation", "action_mask"}`` built
    from the agent's :class:`~hearts.core.SeatView` alone.

    Options: ``rules`` (a :class:`Rules` or a preset name), ``episode`` (``"hand"``
    or ``"game"`` to the target), ``reward`` (``"points"``, ``"zero-sum"`` or
    ``"result"``; see :class:`~hearts.env.table.Reward`), ``names`` for the seats.
    An illegal action raises :class:`~hearts.core.IllegalMoveError` (or
    :class:`~hearts.core.OutOfTurnError`) naming the seat, the action and the rule,
    and changes nothing; wrap the env in PettingZoo's ``TerminateIllegalWrapper``
    to end the episode with a penalty instead.
    """

    metadata: dict[str, Any] = {"name": "hearts_v0", "render_modes": RENDER_MODES, "render_fps": RENDER_FPS, "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | str | None = None,
        episode: Episode | str = Episode.GAME,
        reward: Reward | str = Reward.POINTS,
        names: Sequence[str] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self._set_up(rules, episode, reward, names, render_mode, max_cycles)

    def seat_of(self, agent: str) -> int:
        """The seat number of ``agent``."""
        try:
            return self._seats[agent]
        except KeyError:
            raise KeyError(f"no agent {agent!r}: agents are {', '.join(self.possible_agents)}") from None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; with ``seed`` the deals (and so the episode, given the actions) repeat exactly."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.table.reset(self.np_random)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"seat": self._seats[a], "name": self.table.names[self._seats[a]]} for a in self.agents}
        self._select_next()

    def _select_next(self) -> None:
        seat = self.table.next_seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(self.seat_of(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        self.table.check(seat, action)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for vector in self.table.act(seat, action):
            for s, r in enumerate(vector):
                self.rewards[self.possible_agents[s]] += r
        scores = self.table.last_scores()
        if scores is not None:
            for a in self.agents:
                self.infos[a]["last_hand_scores"] = list(scores)
                self.infos[a]["totals"] = list(self.table.totals)
        self.cycles += 1
        if self.table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select_next()
            if self.max_cycles is not None and self.cycles >= self.max_cycles * self.table.players:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """The acting seat's view: ``ansi`` returns it as text, ``human`` prints it, ``rgb_array`` returns
        a picture (``H x W x 3`` ``uint8``)."""
        seat = None if self.table.over else self._seats[self.agent_selection]
        return render_table(self.table, seat, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the engine holds no outside resources."""


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's order checks (the usual way to make one)."""
    return wrappers.OrderEnforcingWrapper(HeartsEnv(**kwargs))


raw_env = HeartsEnv
