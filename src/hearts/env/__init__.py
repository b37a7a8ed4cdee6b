"""Environments for people who train Hearts bots, over the real engine (see ``docs/env.md``).

* :class:`HeartsEnv` (``env()``, ``raw_env``): PettingZoo AEC, seats act in turn;
* :class:`HeartsParallelEnv` (``parallel_env``): PettingZoo parallel, passes simultaneous;
* :class:`HeartsGymEnv`: Gymnasium, one learner against our computer players;
* :func:`encode_view` / :func:`action_mask`: the documented observation and actions, from a seat's view alone;
* :class:`PolicyPlayer`: a trained policy as a computer player, for tournaments.
"""

from hearts.env.aec import HeartsEnv, env, raw_env
from hearts.env.encoding import (
    ACTION_COUNT,
    MOON_ADD_TO_OTHERS,
    MOON_SUBTRACT_FROM_SELF,
    ObservationLayout,
    action_mask,
    action_of_move,
    as_action,
    describe_action,
    encode_view,
    layout_for,
)
from hearts.env.parallel import HeartsParallelEnv, parallel_env
from hearts.env.policy import Policy, PolicyPlayer
from hearts.env.single import HeartsGymEnv
from hearts.env.table import Episode, Reward, Table, result_payoff

__all__ = [
    "ACTION_COUNT", "MOON_ADD_TO_OTHERS", "MOON_SUBTRACT_FROM_SELF", "Episode", "HeartsEnv", "HeartsGymEnv",
    "HeartsParallelEnv", "ObservationLayout", "Policy", "PolicyPlayer", "Reward", "Table", "action_mask",
    "action_of_move", "as_action", "describe_action", "encode_view", "env", "layout_for", "parallel_env",
    "raw_env", "result_payoff",
]  # fmt: skip


def _register_with_gymnasium() -> None:
    """Make ``gymnasium.make("hearts/Hearts-v0", opponents="easy")`` work once this package is imported."""
    import gymnasium

    if "hearts/Hearts-v0" not in gymnasium.registry:
        gymnasium.register(id="hearts/Hearts-v0", entry_point="hearts.env.single:HeartsGymEnv")


_register_with_gymnasium()
