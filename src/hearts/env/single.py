"""A Gymnasium single-agent environment: one seat is yours, our computer players hold the others.

>>> env = HeartsGymEnv(opponents="random", episode="hand")
>>> observation, info = env.reset(seed=5)
>>> observation.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hearts.core import IllegalMoveError, OutOfTurnError, Rules
from hearts.env.encoding import ACTION_COUNT, describe_action, layout_for
from hearts.env.table import RENDER_FPS, RENDER_MODES, Episode, Reward, Table, check_render_mode, render_table
from hearts.players.base import Player
from hearts.players.drive import turns
from hearts.players.registry import make_player

Opponent = str | Player


class HeartsGymEnv(gymnasium.Env):
    """Hearts for one learner against computer players, over the real engine.

    ``seat`` is the learner's seat, or ``"random"`` for a new one each episode.
    ``opponents`` is one level name for every other seat (``"random"``, ``"easy"``, ...
    as :func:`~hearts.players.make_player` knows them) or one level name or
    :class:`~hearts.players.Player` per other seat, in seat order. Opponents made
    from level names are seeded from the episode's seed, so a seeded reset repeats
    the whole episode given the same actions. Opponents see only their own views.

    The observation is the flat vector of :mod:`hearts.env.encoding`; the legal
    actions are in ``info["action_mask"]`` and :meth:`action_masks` (the name
    sb3-contrib's ``MaskablePPO`` looks for). ``rules``, ``episode`` and ``reward``
    are as in :class:`~hearts.env.aec.HeartsEnv`; the reward is the learner's.

    An illegal action changes nothing: with ``illegal_action="penalize"`` (the
    default, so that unmasked samplers and ``check_env`` work) the step returns
    ``illegal_penalty`` as its reward and the engine's reason in
    ``info["illegal_action"]``; with ``"raise"`` it raises that error.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        rules: Rules | str | None = None,
        seat: int | str = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        episode: Episode | str = Episode.HAND,
        reward: Reward | str = Reward.POINTS,
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(rules, episode, reward)
        n = self.table.players
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        self.seat = seat if isinstance(seat, int) else 0
        if isinstance(opponents, (str, Player)):
            opponents = [opponents] * (n - 1)
        if len(opponents) != n - 1:
            raise ValueError(f"{len(opponents)} opponents given for the {n - 1} other seats")
        for o in opponents:
            if isinstance(o, str):
                make_player(o)  # fail now, naming the known levels, not at the first reset
            elif not isinstance(o, Player):
                raise TypeError(f"an opponent is a level name or a Player, not {type(o).__name__}")
        self.opponent_specs = list(opponents)
        self.players: dict[int, Player] = {}
        if illegal_action not in ("penalize", "raise"):
            raise ValueError(f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = check_render_mode(render_mode)
        layout = layout_for(n)
        self.observation_space = spaces.Box(layout.low.copy(), layout.high.copy(), dtype=np.float32)
        self.action_space = spaces.Discrete(ACTION_COUNT)

    @property
    def rules(self) -> Rules:
        return self.table.rules

    # -- helpers -------------------------------------------------------------------

    def _observation(self) -> tuple[np.ndarray, dict[str, Any]]:
        obs = self.table.observe(self.seat)
        info: dict[str, Any] = {"action_mask": obs["action_mask"], "seat": self.seat}
        scores = self.table.last_scores()
        if scores is not None:
            info["last_hand_scores"] = list(scores)
            info["totals"] = list(self.table.totals)
        return obs["observation"], info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for sb3-contrib's ``MaskablePPO``)."""
        return self.table.observe(self.seat)["action_mask"].astype(bool)

    def _play_others(self) -> float:
        """Let the computer players move until the learner owes a decision or the episode ends; the
        learner's reward from hands that ended meanwhile."""
        total = 0.0
        table = self.table
        for seat in turns(table.game if table.game is not None else table.hand):
            if self.seat in table.to_move:
                break
            decision = self.players[seat].decide(table.view(seat))
            for vector in table.apply(decision.move):
                total += vector[self.seat]
        return total

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        n = self.table.players
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(n))
        self.table.reset(self.np_random)
        others = [s for s in range(n) if s != self.seat]
        self._close_players(made_here_only=True)  # an external bot's process ends with its episode
        self.players = {}
        for s, spec in zip(others, self.opponent_specs, strict=True):
            player_seed = int(self.np_random.integers(2**31))
            self.players[s] = make_player(spec, seed=player_seed) if isinstance(spec, str) else spec
        self._play_others()  # rewards cannot arise before the learner's first decision
        return self._observation()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        try:
            table.check(self.seat, action)
        except (IllegalMoveError, OutOfTurnError) as exc:
            if self.illegal_action == "raise":
                raise
            obs, info = self._observation()
            info["illegal_action"] = str(exc)
            return obs, self.illegal_penalty, table.over, False, info
        reward = sum(vector[self.seat] for vector in table.act(self.seat, action))
        reward += self._play_others()
        obs, info = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), table.over, False, info

    def render(self) -> str | np.ndarray | None:
        """The learner's view: ``ansi`` returns it as text, ``human`` prints it, ``rgb_array`` returns a
        picture (``H x W x 3`` ``uint8``, see :mod:`hearts.env.picture`)."""
        return render_table(self.table, None if self.table.over else self.seat, self.render_mode)

    def _close_players(self, made_here_only: bool = False) -> None:
        for player in self.players.values():
            if made_here_only and player in self.opponent_specs:
                continue  # a Player handed in by the caller lives across episodes
            close = getattr(player, "close", None)
            if callable(close):
                close()

    def close(self) -> None:
        """Close opponents that hold resources (an external bot's process)."""
        self._close_players()


__all__ = ["HeartsGymEnv", "describe_action"]
