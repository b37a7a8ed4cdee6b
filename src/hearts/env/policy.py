"""A trained policy as a computer player: it sees a seat's view, encoded as the environments encode it.

>>> import numpy as np
>>> from hearts.core import Game, Rules
>>> lowest = PolicyPlayer(lambda obs, mask: int(np.flatnonzero(mask)[0]), name="lowest-card")
>>> game = Game(Rules.preset("no-passing"), seed=2)
>>> lowest.decide(game.view(game.to_move[0])).move.card
Card('2C')
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hearts.core import CARDS, Card, CardSet, IllegalMoveError, MoonOption, SeatView
from hearts.env.encoding import MOON_ACTIONS, action_mask, describe_action, encode_view
from hearts.players.base import Player

#: ``policy(observation, action_mask) -> action``: the observation and mask of :mod:`hearts.env.encoding`.
Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyPlayer(Player):
    """Plays a seat with ``policy``; a pass asks the policy once per card, as the environments do.

    An action outside the mask raises :class:`~hearts.core.IllegalMoveError` naming it:
    a policy that does not respect its mask is a bug to see, not to hide.
    """

    def __init__(
        self, policy: Policy, name: str = "policy", seed: int | None = None, time_budget: float | None = None
    ) -> None:
        super().__init__(seed=seed, time_budget=time_budget)
        self.policy = policy
        self.name = name

    def _ask(self, view: SeatView, selected: int = 0) -> int:
        mask = action_mask(view, selected)
        action = int(self.policy(encode_view(view, selected), mask))
        if not 0 <= action < len(mask) or not mask[action]:
            raise IllegalMoveError(
                f"policy {self.name!r} chose {describe_action(action)} for {view.names[view.seat]}, "
                f"which the action mask does not allow"
            )
        return action

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        chosen = 0
        for _ in range(view.rules.pass_count):
            chosen |= 1 << self._ask(view, chosen)
        return CardSet(chosen), f"{self.name} pass"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        return CARDS[self._ask(view)], f"{self.name} play"

    def choose_moon(self, view: SeatView) -> tuple[MoonOption, str]:
        action = self._ask(view)
        option = next(o for o, a in MOON_ACTIONS.items() if a == action)
        return option, f"{self.name} moon choice"
