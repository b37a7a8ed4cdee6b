"""The tournament's picture: each player's payoff with its 95% interval, and its running mean over deals.

Matplotlib is imported inside :func:`plot_payoff` with the Agg backend, so
importing this module is cheap and no display is ever needed.
"""

from __future__ import annotations

from pathlib import Path

from hearts.sim.stats import running_mean_ci
from hearts.sim.tournament import TournamentResult


def plot_payoff(result: TournamentResult, path: str | Path) -> Path:
    """Write a PNG to ``path``: payoff per seat-deal with its interval (left) and its running mean (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    figures = result.figures()
    config = result.config
    fig, (bars, running) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [1, 2]})
    try:
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        labels = [f.label for f in figures]
        means = [f.payoff.mean for f in figures]
        errors = [f.payoff.half_width if f.payoff.n >= 2 else 0.0 for f in figures]
        bars.bar(labels, means, yerr=errors, capsize=6, color=[colors[i % len(colors)] for i in range(len(figures))])
        bars.axhline(0.0, color="black", linewidth=0.8)
        bars.set_ylabel("payoff per seat-deal (points)")
        bars.set_title("Payoff with 95% interval")
        bars.tick_params(axis="x", rotation=20)
        for i, f in enumerate(figures):
            series = f.payoff_by_deal
            if not series:
                continue
            means_run, lows, highs = running_mean_ci(series)
            x = range(1, len(series) + 1)
            color = colors[i % len(colors)]
            running.plot(x, means_run, color=color, label=f.label)
            running.fill_between(x, lows, highs, color=color, alpha=0.2, linewidth=0)
        running.axhline(0.0, color="black", linewidth=0.8)
        running.set_xlabel("deals played")
        running.set_ylabel("running mean payoff")
        running.set_title("Running mean over deals (band: 95% interval)")
        running.legend(loc="best")
        fig.suptitle(
            f"{' vs '.join(config.labels)}: {config.hands} deals, {config.seats} seats, preset {config.preset}, seed {config.seed}"
        )
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format="png", dpi=100)
    finally:
        plt.close(fig)
    return path
