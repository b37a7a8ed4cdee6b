"""The tournament's live progress (per deal, from the first cards), rates' Wilson intervals and the plot."""

from __future__ import annotations

import io
import math
from collections import defaultdict

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Rules
from hearts.sim import live
from hearts.sim.plot import SETTLED_AFTER, payoff_figure, settled_limits
from hearts.sim.stats import MIN_RATE_SAMPLES, rate_ci
from hearts.sim.tournament import TournamentConfig, TournamentResult, run_local, run_tournament

runner = CliRunner()


def _shares_by_unit(config: TournamentConfig, jobs: int) -> tuple[dict, list]:
    seen: dict = defaultdict(list)
    order: list = []

    def progress(unit: tuple[str, int], share: float) -> None:
        seen[unit].append(share)
        order.append((unit, share))

    run_local(config, jobs=jobs, progress=progress)
    return seen, order


def test_progress_reports_each_deal_once_done_and_its_share_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "SHARE_EVERY", 0.0)  # every decision reports: the test sees every step
    config = TournamentConfig(("random", "easy"), hands=3, games=1, seed=5)
    seen, order = _shares_by_unit(config, jobs=1)
    assert set(seen) == {("deal", 0), ("deal", 1), ("deal", 2), ("game", 0)}
    for unit, shares in seen.items():
        assert shares[-1] == 1.0 and shares.count(1.0) == 1, unit  # done once, when all its tables are
        assert shares == sorted(shares), unit  # never goes back
        assert any(0.0 < s < 0.5 for s in shares) and any(0.5 <= s < 1.0 for s in shares), unit  # both tables
    first_done = next(i for i, (_, share) in enumerate(order) if share == 1.0)
    assert first_done > 10  # shares came long before the first unit was done: an ETA from the first cards


def test_progress_with_worker_processes_reports_every_unit_done_once() -> None:
    config = TournamentConfig(("random", "easy"), hands=4, games=1, seed=9)
    seen, _ = _shares_by_unit(config, jobs=2)
    assert {unit: shares.count(1.0) for unit, shares in seen.items()} == dict.fromkeys(
        [("game", 0), ("deal", 0), ("deal", 1), ("deal", 2), ("deal", 3)], 1
    )
    assert all(shares[-1] == 1.0 and shares == sorted(shares) for shares in seen.values())


def test_wilson_interval_for_rates_stays_inside_zero_and_one() -> None:
    # Wilson's score interval at 95%: 0 of 10 -> [0, 0.2775]; 5 of 10 -> [0.2366, 0.7634]; 10 of 10 -> [0.7225, 1].
    none, half, every = rate_ci([0.0] * 10), rate_ci([0.0] * 5 + [1.0] * 5), rate_ci([1.0] * 10)
    assert (none.low, none.high) == (0.0, pytest.approx(0.27753, abs=1e-4))
    assert (half.low, half.high) == (pytest.approx(0.23659, abs=1e-4), pytest.approx(0.76341, abs=1e-4))
    assert (every.low, every.high) == (pytest.approx(0.72247, abs=1e-4), 1.0)
    rare = rate_ci([0.0] * 38 + [0.5, 0.5])  # a moon in 1 seat of 2 in 2 deals of 40: a t interval dips below 0
    assert 0.0 < rare.low < rare.mean < rare.high < 1.0 and rare.method == "wilson"
    with pytest.raises(ValueError, match="between 0 and 1"):
        rate_ci([0.5, 2.0])


def test_a_rate_over_too_few_games_says_so_instead_of_a_figure() -> None:
    assert rate_ci([0.25, 0.0]).text(3, samples="games") == "too few games (2)"
    assert rate_ci([0.0] * MIN_RATE_SAMPLES).text(1, scale=100) == "0.0 [0.0, 27.8]"


def test_tournament_rates_use_wilson_intervals() -> None:
    result = run_tournament(TournamentConfig(("random", "easy"), hands=12, games=2, seed=2), jobs=1)
    for f in result.figures():
        for rate in (f.moons_made, f.moons_allowed, f.win_rate):
            assert rate.method == "wilson" and 0.0 <= rate.low <= rate.mean <= rate.high <= 1.0
        assert f.win_rate.too_few and not f.moons_made.too_few
        assert f.payoff.method == "t"


def test_command_says_too_few_games_and_shows_rates_in_brackets() -> None:
    out = runner.invoke(
        app, ["tournament", "--players", "random,easy", "--hands", "12", "--games", "2", "--jobs", "1", "--quiet"]
    )
    assert out.exit_code == 0, out.output
    assert "too few games (2)" in out.output and "0.125 ± 1.588" not in out.output
    row = next(line for line in out.output.splitlines() if line.startswith("│ easy"))
    assert row.count("[") >= 2  # moons made and allowed, as Wilson intervals


def test_settled_limits_ignore_the_first_deals() -> None:
    wide_start = [80.0 / i for i in range(1, 40)]
    low, high = settled_limits([wide_start, [-x for x in wide_start]])
    assert -9.0 < low < 0.0 < high < 9.0  # 80 at deal 1, 80/11 at deal 11: the axis fits the latter
    assert settled_limits([[3.0, 4.0]]) == (pytest.approx(-0.2), pytest.approx(4.2))  # short runs: every point


def test_plot_axis_fits_the_settled_curves_and_counts_deals_in_whole_numbers() -> None:
    result = run_tournament(TournamentConfig(("random", "easy"), hands=30, games=0, seed=1), jobs=1)
    figure = payoff_figure(result)
    running = figure.axes[1]
    ticks = [t for t in running.get_xticks() if 1 <= t <= 30]
    assert ticks and all(float(t).is_integer() for t in ticks)
    low, high = running.get_ylim()
    settled = [abs(f.payoff.mean) + f.payoff.half_width for f in result.figures()]
    assert high < 4 * max(settled) + 1 and low > -(4 * max(settled) + 1)  # not stretched by the first deals
    assert SETTLED_AFTER == 10 and not math.isnan(low)


def test_result_from_tables_draws_without_pyplot_state() -> None:
    result = run_tournament(TournamentConfig(("random", "easy"), hands=2, games=0, seed=3), jobs=1)
    assert isinstance(result, TournamentResult)
    assert len(payoff_figure(result).axes) == 2


def test_the_command_rows_count_played_deals_and_weigh_games_in_the_total() -> None:
    from hearts.cli._progress import TournamentProgress, hands_per_game

    with TournamentProgress(Console(file=io.StringIO()), Rules(), deals=2, games=1) as shown:
        rows = {t.description: t for t in shown.bar.tasks}
        assert set(rows) == {"deals", "games", "total"}
        shown.show(("deal", 0), 0.5)
        shown.show(("game", 0), 0.25)
        assert rows["deals"].completed == 0.5 and rows["deals"].fields["count"] == "0/2 deals"
        assert rows["total"].completed == pytest.approx(0.5 + 0.25 * hands_per_game(Rules()))
        for unit in (("deal", 0), ("deal", 1), ("game", 0)):
            shown.show(unit, 1.0)
        assert rows["deals"].fields["count"] == "2/2 deals" and rows["games"].fields["count"] == "1/1 games"
        assert rows["total"].finished and rows["total"].fields["count"] == "100%"
    with TournamentProgress(Console(file=io.StringIO()), Rules(), deals=3, games=0) as alone:
        assert [t.description for t in alone.bar.tasks] == ["deals"]  # one kind: its row is the total
