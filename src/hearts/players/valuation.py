"""A search player's valuation of every option of one decision, kept for a review.

:meth:`hearts.players.search.SearchPlayer.value_options` answers a decision exactly as the player
would (the same worlds, the same random numbers, the same choice) and keeps what its search
measured: for each option (a card, with the cards that play alike merged, or a pass) its
utility in every sampled world and its mean own points. The statistics a review needs are
here: the weighted mean of an option and the standard error of the paired difference of two
options (paired, world by world: every option met the same worlds and rollout random numbers,
so the noise common to both cancels).

>>> v = Valuation("play", (1, 2), 1, "why", ((1.0, 3.0), (0.0, 2.0)), (2.0, 3.0), None, 2, (0, 0))
>>> v.mean(0), v.mean(1), v.diff_se(0, 1)
(2.0, 1.0, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
            return min(
                (i for i, c in enumerate(self.options) if c // 13 == option // 13 and c >= option),
                key=lambda i: self.options[i],
            )
        raise ValueError(f"option {option} was not valued")

    def mean(self, i: int) -> float:
        """Option ``i``'s mean utility over the worlds (weighted when the worlds carry weights)."""
        vals = self.values[i]
        if not vals:
            return 0.0
        if self.weights is None:
            return sum(vals) / len(vals)
        return sum(w * x for w, x in zip(self.weights, vals, strict=True)) / sum(self.weights)

    @property
    def effective_worlds(self) -> float:
        """The effective number of worlds: all of them unweighted, fewer when inference weighs them."""
        if self.weights is None:
            return float(self.worlds)
        total = sum(self.weights)
        return total * total / sum(w * w for w in self.weights) if total else 0.0

    def diff_se(self, i: int, j: int) -> float:
        """The standard error of mean(i) - mean(j), paired world by world (0 with fewer than 2 worlds)."""
        a, b = self.values[i], self.values[j]
        n = len(a)
        if n < 2 or i == j:
            return 0.0
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        if self.weights is None:
            m = sum(diffs) / n
            return math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1) / n)
        w = self.weights
        total = sum(w)
        m = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
        var = sum(wi * (d - m) ** 2 for wi, d in zip(w, diffs, strict=True)) / total
        # One effective world or fewer (the weights pile on one): the spread of a single world.
        return math.sqrt(var / max(self.effective_worlds - 1.0, 1.0))
