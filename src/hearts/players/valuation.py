"""A search player's valuation of every option of one decision, and the paired statistics the
search decides by.

:meth:`hearts.players.search.SearchPlayer.value_options` answers a decision exactly as the player
would (the same worlds, the same random numbers, the same choice) and keeps, as a
:class:`Valuation` (:func:`valuation_of`), what its search measured: for each option (a card, with the cards that play alike merged, or a pass) its
utility in every sampled world and its mean own points. The statistics a review needs are
here: the weighted mean of an option and the standard error of the paired difference of two
options (paired, world by world: every option met the same worlds and rollout random numbers,
so the noise common to both cancels).

The search keeps its rule-based choice unless another option is :func:`clearly_better`: by a
margin plus one standard error of the paired difference (:func:`paired_difference`), the same
statistic a review's costs are judged on (:meth:`Valuation.diff_se`).

>>> v = Valuation("play", (1, 2), 1, "why", ((1.0, 3.0), (0.0, 2.0)), (2.0, 3.0), None, 2, (0, 0))
>>> v.mean(0), v.mean(1), v.diff_se(0, 1)
(2.0, 1.0, 0.0)
>>> clearly_better([3.0, 5.0, 4.0], [1.0, 2.0, 2.0], margin=1.0), clearly_better([3.0, 0.0], [1.0, 2.0], margin=0.0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hearts.players.rollouts import Measure


def weighted_sum(values: Sequence[float], weights: Sequence[float] | None) -> float:
    """``values`` summed, each times its world's weight (plainly when the worlds weigh the same).

    >>> weighted_sum([1.0, 3.0], None), weighted_sum([1.0, 3.0], [0.5, 2.0])
    (4.0, 6.5)
    """
    if weights is None:
        return sum(values)
    return sum(w * x for w, x in zip(weights, values, strict=True))


def effective_worlds(weights: Sequence[float] | None, worlds: int) -> float:
    """How many worlds' worth of evidence ``worlds`` worlds carry: all of them when they weigh the
    same, fewer as the ``weights`` pile on some (Kish's effective sample size).

    >>> effective_worlds(None, 3), effective_worlds([1.0, 1.0, 0.0], 3)
    (3.0, 2.0)
    """
    if weights is None:
        return float(worlds)
    total = sum(weights)
    return total * total / sum(w * w for w in weights) if total else 0.0


def paired_difference(
    a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...], weights: Any = None
) -> tuple[float, float, float]:
    """The mean of ``a - b`` world by world (weighted when the worlds carry ``weights``), its
    standard error, and the effective number of worlds behind it (the standard error is 0 with
    fewer than 2 worlds, and uses at least one degree of freedom when the weights pile on one)."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    if n == 0:
        return 0.0, 0.0, 0.0
    if weights is None:
        mean = sum(diffs) / n
        if n < 2:
            return mean, 0.0, float(n)
        return mean, (sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) ** 0.5, float(n)
    total = sum(weights)
    mean = weighted_sum(diffs, weights) / total
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    ess = effective_worlds(weights, n)
    return mean, (var / max(ess - 1.0, 1.0)) ** 0.5, ess


def clearly_better(a: list[float], b: list[float], margin: float, weights: list[float] | None = None) -> bool:
    """Whether outcomes ``a`` beat ``b`` (paired, world by world) by more than ``margin`` plus one
    standard error of the mean difference (:func:`paired_difference`). Worlds whose weights pile on
    fewer than two effective worlds are too little evidence to move."""
    mean, se, ess = paired_difference(a, b, weights)
    if weights is not None and ess < 2:
        return False
    return mean > margin + se


def representative(cands: tuple[int, ...] | list[int], card: int) -> int:
    """The index of the candidate that stands for ``card``: itself, or the next candidate up its
    suit (a search merges the cards that play alike into the highest of them)."""
    return min((i for i, r in enumerate(cands) if r // 13 == card // 13 and r >= card), key=lambda i: cands[i])


@dataclass(frozen=True, slots=True)
class Valuation:
    """One decision valued option by option (see the module docstring)."""

    kind: str  #: "play" or "pass"
    options: tuple[int, ...]  #: a card (its candidate: the highest of cards that play alike) or a pass mask
    choice: int  #: the option the player chose (one of :attr:`options`)
    reason: str  #: the player's reason for its choice, as a hint gives it
    values: tuple[tuple[float, ...], ...]  #: utility per option per world (the player's measure)
    points: tuple[float, ...]  #: the mean own points per option
    weights: tuple[float, ...] | None  #: each world's weight (inference), None when equal
    worlds: int  #: worlds sampled (0 when there was nothing to search)
    plans: tuple[int, ...]  #: per option, the seats running for the moon in its best line (a mask)
    threat: int = -1  #: the seat whose moon the search defended against, -1 when none

    def index(self, option: int) -> int:
        """The index of ``option`` (for a card: of the candidate that stands for it)."""
        if option in self.options:
            return self.options.index(option)
        if self.kind == "play" and len(self.options) == 1:  # nothing searched: every legal card alike
            return 0
        if self.kind == "play":  # a card merged with others: the next candidate up its suit
            return representative(self.options, option)
        raise ValueError(f"option {option} was not valued")

    def mean(self, i: int) -> float:
        """Option ``i``'s mean utility over the worlds (weighted when the worlds carry weights)."""
        vals = self.values[i]
        if not vals:
            return 0.0
        return weighted_sum(vals, self.weights) / (len(vals) if self.weights is None else sum(self.weights))

    @property
    def effective_worlds(self) -> float:
        """The effective number of worlds: all of them unweighted, fewer when inference weighs them."""
        return effective_worlds(self.weights, self.worlds)

    def diff_se(self, i: int, j: int) -> float:
        """The standard error of mean(i) - mean(j), paired world by world (0 with fewer than 2 worlds)."""
        if i == j:
            return 0.0
        return paired_difference(self.values[i], self.values[j], self.weights)[1]


def valuation_of(measure: Measure | None, choice: int, reason: str) -> Valuation:
    """A :class:`Valuation` of the decision a search made (``choice``, for ``reason``) from what its
    search measured (:attr:`hearts.players.search.SearchPlayer.last`), so that the valuation and the
    choice cannot disagree. Each option is valued under its best plan (with or without this seat's
    moon line). ``measure`` None: nothing was searched (one legal card, or all alike)."""
    if measure is None:
        return Valuation("play", (choice,), choice, reason, ((),), (0.0,), None, 0, (0,))
    total = measure.total_weight
    plans = range(len(measure.plans))
    best_plan = [
        max(plans, key=lambda p: weighted_sum(measure.values[p][i], measure.weights))
        for i in range(len(measure.options))
    ]
    return Valuation(
        measure.kind, measure.options, choice, reason,
        tuple(tuple(measure.values[p][i]) for i, p in enumerate(best_plan)),
        tuple(measure.own[p][i] / total for i, p in enumerate(best_plan)),
        None if measure.weights is None else tuple(measure.weights), measure.worlds,
        tuple(measure.plans[p] for p in best_plan), measure.threat,
    )  # fmt: skip
