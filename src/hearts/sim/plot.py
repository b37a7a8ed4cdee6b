"""The tournament's picture: each player's payoff with its 95% interval, and its running mean over deals.

Matplotlib is imported inside :func:`payoff_figure`, which draws on the Agg canvas
without pyplot, so importing this module is cheap and no display is ever needed.

The running-mean panel's interval over the first few deals is tens of points wide
(two or three deals say little); the y axis is fitted to the running means and
bands from deal :data:`SETTLED_AFTER` on, so that the part worth reading fills the
panel, and the early band runs off it. The x axis counts deals in whole numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hearts.sim.stats import running_mean_ci
from hearts.sim.tournament import TournamentResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The running-mean panel's y axis fits the curves from this deal on (all of them in shorter runs).
SETTLED_AFTER = 10


def settled_limits(curves: Sequence[Sequence[float]], after: int = SETTLED_AFTER) -> tuple[float, float]:
    """The y range that holds every curve from point ``after`` on (every point of shorter curves), and 0,
    with a margin of 5%.

    >>> settled_limits([[-80.0] + [1.0] * 20, [80.0] + [-1.0] * 20])
    (-1.1, 1.1)
    """
    values = [0.0]
    for curve in curves:
        values.extend(curve[after:] if len(curve) > after else curve)
    low, high = min(values), max(values)
    margin = 0.05 * (high - low) or 1.0
    return low - margin, high + margin


def plot_payoff(result: TournamentResult, path: str | Path) -> Path:
    """Write a PNG to ``path``: payoff per seat-deal with its interval (left) and its running mean (right)."""
    path = Path(path)
    fig = payoff_figure(result)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=100)
    return path


def payoff_figure(result: TournamentResult) -> Figure:
    """The figure :func:`plot_payoff` writes (a matplotlib ``Figure`` on the Agg canvas, no window)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figures = result.figures()
    config = result.config
    fig = Figure(figsize=(12, 4.8))
    FigureCanvasAgg(fig)
    bars, running = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2]})
    colors = [f"C{i}" for i in range(10)]
    labels = [f.label for f in figures]
    means = [f.payoff.mean for f in figures]
    errors = [f.payoff.half_width if f.payoff.n >= 2 else 0.0 for f in figures]
    bars.bar(labels, means, yerr=errors, capsize=6, color=[colors[i % len(colors)] for i in range(len(figures))])
    bars.axhline(0.0, color="black", linewidth=0.8)
    bars.set_ylabel("payoff per seat-deal (points)")
    bars.set_title("Payoff with 95% interval")
    bars.tick_params(axis="x", rotation=20)
    curves: list[list[float]] = []
    for i, f in enumerate(figures):
        series = f.payoff_by_deal
        if not series:
            continue
        means_run, lows, highs = running_mean_ci(series)
        curves.extend((means_run, lows, highs))
        x = range(1, len(series) + 1)
        color = colors[i % len(colors)]
        running.plot(x, means_run, color=color, label=f.label)
        running.fill_between(x, lows, highs, color=color, alpha=0.2, linewidth=0)
    running.axhline(0.0, color="black", linewidth=0.8)
    if curves:
        running.set_ylim(*settled_limits(curves))
    running.xaxis.set_major_locator(MaxNLocator(integer=True))
    running.set_xlabel("deals played")
    running.set_ylabel("running mean payoff")
    running.set_title(f"Running mean over deals (band: 95% interval; axis fitted from deal {SETTLED_AFTER + 1})")
    running.legend(loc="best")
    fig.suptitle(
        f"{' vs '.join(config.labels)}: {config.hands} deals, {config.seats} seats, preset {config.preset}, seed {config.seed}"
    )
    fig.tight_layout()
    return fig
