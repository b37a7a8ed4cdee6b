"""What a search plays out and how it scores it: the rollouts, the utility, and the measure a search leaves.

:class:`Rollouts` plays candidates out in sampled worlds with a config's policies
(:func:`hearts.players.compiled.search_worlds`); :func:`utilities` turns hand scores into how good
they are for the searching seat; :class:`Measure` is what one decision's search measured, which
the player's reason, :meth:`~hearts.players.search.SearchPlayer.value_options` and a review read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hearts.core import SeatView
from hearts.players import compiled as fast
from hearts.players.search_config import SearchConfig
from hearts.players.valuation import effective_worlds

if TYPE_CHECKING:
    from hearts.players.compiled import Floats, Ints


@dataclass(frozen=True)
class Measure:
    """What one decision's search measured: per plan (a mask of the seats running for the moon in
    its rollouts: 0 for none) and per option (a card, the highest of those that play alike, or a
    pass as a mask), the utility in every world and the own points summed over the worlds (weighted
    when the worlds carry inference's ``weights``)."""

    kind: str  #: "play" or "pass"
    options: tuple[int, ...]
    plans: tuple[int, ...]
    values: list[list[list[float]]]  #: values[plan][option][world]
    own: list[list[float]]  #: own[plan][option]: own points summed over the (weighted) worlds
    worlds: int
    rollouts: int
    weights: list[float] | None  #: each world's weight (inference); None when equal
    threat: int = -1  #: the seat whose moon the search defended against (-1: none)
    early_runs: tuple[bool, ...] = ()  #: per world, whether an early moon threat ran for the moon there

    @property
    def total_weight(self) -> float:
        """The worlds' weights summed (their count when equal)."""
        return float(self.worlds) if self.weights is None else sum(self.weights)

    @property
    def effective_worlds(self) -> float:
        """The effective number of worlds: all of them unweighted, fewer when inference weighs them."""
        return effective_worlds(self.weights, self.worlds)

    @property
    def early_share(self) -> float:
        """The (weighted) share of the worlds in which an early moon threat ran (0 when there was none)."""
        if not self.early_runs or not self.worlds:
            return 0.0
        if self.weights is None:
            return sum(self.early_runs) / self.worlds
        return sum(w for w, ran in zip(self.weights, self.early_runs, strict=True) if ran) / self.total_weight


class Rollouts:
    """Plays positions out with ``config``'s rollout settings (its noise)."""

    def __init__(self, config: SearchConfig) -> None:
        self.noise = config.noise

    def __call__(self, W: Ints, R: Ints, cards: Ints, plans: Ints, seeds: Ints, totals: Ints) -> Ints:
        """scores[world, rollout, plan, card, seat] (:func:`hearts.players.compiled.search_worlds`)."""
        return fast.search_worlds(W, R, cards, plans, self.noise, seeds, totals)


def endgame_near(view: SeatView) -> bool:
    """Whether this hand may end the game (a moon's points would reach the target): then the
    utility weighs winning the game, not only points."""
    return max(view.totals) + view.rules.moon_points >= view.rules.target


def utilities(view: SeatView, scores: Ints, endgame: bool) -> Floats:
    """How good hand scores are for the seat of ``view`` (seats on the last axis; higher is
    better): its score against the others' mean (a moon shot scores as the points it gives away),
    and near the end of the game a share of the win counts for more than points."""
    import numpy as np

    me = view.seat
    n = scores.shape[-1]
    mine = scores[..., me]
    value = (scores.sum(axis=-1) - mine) / (n - 1) - mine
    if endgame:
        final = scores + np.array(view.totals, dtype=np.int64)
        low = final.min(axis=-1)
        over = final.max(axis=-1) >= view.rules.target
        mine_f = final[..., me]
        ties = (final == low[..., None]).sum(axis=-1)
        below = (final < mine_f[..., None]).sum(axis=-1)
        value = value + np.where(over, np.where(mine_f == low, 40.0 / ties, -10.0 * below), 0.0)
    out: Floats = value
    return out
