"""Means and rates with confidence intervals, percentiles and running means for tournament figures.

Tournament figures are means over deals (the duplicate unit), so the interval is
Student's t interval: exact for normal data and right for the few-deal runs
that tests and quick checks make, where the normal 1.96 would be too narrow.
Rates (moons per seat-hand, the share of games won) are bounded by 0 and 1, where
a t interval spills over the bounds when the rate is small or the sample short:
:func:`rate_ci` gives Wilson's score interval instead, which stays inside them.
Below :data:`MIN_RATE_SAMPLES` deals or games a rate is reported as too few to say.
SciPy would give the t quantile, but it is not a dependency of the core install
(only of the OpenSpiel extra), so the quantile is computed here from the
regularized incomplete beta function, to about 1e-10.

>>> round(t_quantile(0.975, 9), 4)
2.2622
>>> est = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
>>> est.mean, round(est.low, 4), round(est.high, 4), est.n
(3.0, 1.0368, 4.9632, 5)
>>> rate = rate_ci([0.0] * 19 + [0.5])
>>> round(rate.mean, 3), rate.low >= 0.0, round(rate.high, 3), rate.text(3)
(0.025, True, 0.2, '0.025 [0.003, 0.200]')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

__all__ = [
    "MIN_RATE_SAMPLES", "Estimate", "mean_ci", "percentile", "rate_ci", "running_mean_ci", "t_quantile", "t_cdf",
]  # fmt: skip

#: Fewer deals (or games) than this and a rate's interval spans most of 0..1: it is shown as too few to say.
MIN_RATE_SAMPLES = 10


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln_front)
    # The continued fraction converges fast only on one side of the mean; use the symmetry on the other.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection on :func:`t_cdf`).

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.025, 30), 4)
    (12.706, -2.0423)
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    return _t_upper(p, float(df))


@lru_cache(maxsize=4096)
def _t_upper(p: float, df: float) -> float:
    if df >= 200:
        # Cornish-Fisher expansion about the normal quantile: below 1e-8 off from here up, and
        # it keeps running intervals over thousands of deals cheap.
        z = NormalDist().inv_cdf(p)
        z3, z5, z7 = z**3, z**5, z**7
        return (
            z
            + (z3 + z) / (4 * df)
            + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
        )
    lo, hi = 0.0, max(1.0, NormalDist().inv_cdf(p))
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its confidence interval over ``n`` samples (``low == high == mean`` when n < 2).

    ``method`` is how the interval was made: ``"t"`` (:func:`mean_ci`, symmetric) or ``"wilson"``
    (:func:`rate_ci`, for rates: inside 0..1, not symmetric).
    """

    mean: float
    low: float
    high: float
    n: int
    sd: float
    level: float = 0.95
    method: str = "t"

    @property
    def too_few(self) -> bool:
        """A rate over fewer than :data:`MIN_RATE_SAMPLES` samples: too few to report."""
        return self.method == "wilson" and self.n < MIN_RATE_SAMPLES

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    def to_dict(self) -> dict[str, float | int | str]:
        return {
            "mean": self.mean,
            "ci_low": self.low,
            "ci_high": self.high,
            "n": self.n,
            "sd": self.sd,
            "level": self.level,
            "interval": self.method,
        }

    def text(self, digits: int = 2, scale: float = 1.0, samples: str = "deals") -> str:
        """``mean ± half-width`` for tables; a rate as ``mean [low, high]``, or ``too few games (2)`` below
        :data:`MIN_RATE_SAMPLES` ``samples``. ``scale`` multiplies every figure (100 for percentages)."""
        if self.n == 0:
            return "–"
        if self.method == "wilson":
            if self.too_few:
                return f"too few {samples} ({self.n})"
            return f"{scale * self.mean:.{digits}f} [{scale * self.low:.{digits}f}, {scale * self.high:.{digits}f}]"
        if self.n < 2:
            return f"{scale * self.mean:.{digits}f}"
        return f"{scale * self.mean:.{digits}f} ± {scale * self.half_width:.{digits}f}"


def mean_ci(values: Sequence[float], level: float = 0.95) -> Estimate:
    """The mean of ``values`` with its two-sided Student-t confidence interval at ``level``.

    One value gives a degenerate interval (the mean itself) and no value an Estimate of NaN with n = 0.
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"a confidence level is between 0 and 1, not {level}")
    n = len(values)
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0, nan, level)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1, 0.0, level)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, sd, level)


def rate_ci(values: Sequence[float], level: float = 0.95) -> Estimate:
    """The mean of per-deal rates (each between 0 and 1) with Wilson's score interval, ``n`` the deals.

    Each deal's value may average several seats (a player holds two seats of a four-seat deal); counting
    deals rather than seats keeps the interval honest about the seats of one deal moving together (it is
    wider, never narrower, than Wilson's over seats). The interval never leaves 0..1, even at 0 or 1.

    >>> r = rate_ci([0.0] * 30)
    >>> r.mean, r.low, round(r.high, 3)
    (0.0, 0.0, 0.114)
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"a confidence level is between 0 and 1, not {level}")
    if any(not 0.0 <= v <= 1.0 for v in values):
        raise ValueError("a rate is between 0 and 1: " + ", ".join(str(v) for v in values if not 0.0 <= v <= 1.0))
    n = len(values)
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0, nan, level, "wilson")
    p = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - p) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if p == 0.0 else max(0.0, centre - half)  # exactly 0 (1) at a rate of 0 (1), not rounding's 1e-17
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return Estimate(p, low, high, n, sd, level, "wilson")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation between order statistics (numpy's default).

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 95)
    (2.5, 3.85)
    """
    if not values:
        return float("nan")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    below = math.floor(pos)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (pos - below)


def running_mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[list[float], list[float], list[float]]:
    """The running mean after each value, with the running interval's low and high ends (for plots).

    Computed incrementally (Welford) so a 10,000-deal series costs one pass.
    """
    means: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    mean = 0.0
    m2 = 0.0
    for i, v in enumerate(values, start=1):
        delta = v - mean
        mean += delta / i
        m2 += delta * (v - mean)
        means.append(mean)
        if i < 2:
            lows.append(mean)
            highs.append(mean)
            continue
        half = t_quantile(0.5 + level / 2.0, i - 1) * math.sqrt(m2 / (i - 1)) / math.sqrt(i)
        lows.append(mean - half)
        highs.append(mean + half)
    return means, lows, highs
