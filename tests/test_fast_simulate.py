"""``hearts simulate`` on the compiled engine: the figures, the seed, the engine choice and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.sim.simulate import SimulationConfig, SimulationError, simulate

runner = CliRunner()


def figures(tmp_path: Path, *args: str) -> dict[str, object]:
    out = tmp_path / "f.json"
    result = runner.invoke(app, ["simulate", *args, "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_fast_engine_figures_add_up(tmp_path: Path) -> None:
    got = figures(tmp_path, "--engine", "fast", "--hands", "3000", "--seed", "4")
    assert got["engine"] == "fast" and got["hands"] == 3000
    points = got["points"]
    assert isinstance(points, list) and isinstance(got["moons"], int)
    # 26 points a hand; a moon gives 26 to each of the three others instead: 52 more.
    assert sum(p["total"] for p in points) == 26 * 3000 + 52 * got["moons"]
    assert sum(p["moons"] for p in points) == got["moons"] > 0
    assert sum(p["wins"] for p in points) == pytest.approx(got["games_finished"])
    assert got["games"] in (got["games_finished"], got["games_finished"] + 1) and got["games_finished"] > 100
    expected = (26 * 3000 + 52 * got["moons"]) / 4 / 3000  # random seats are alike
    for p in points:
        assert p["mean"] == pytest.approx(p["total"] / 3000)
        assert abs(p["mean"] - expected) < 2 * (p["ci_high"] - p["ci_low"])


def test_a_seed_gives_the_same_figures_and_another_seed_others(tmp_path: Path) -> None:
    def core(seed: str) -> dict[str, object]:
        got = figures(
            tmp_path, "--engine", "fast", "--hands", "500", "--seed", seed, "--preset", "britannica", "--seats", "5"
        )
        for key in ("seconds", "hands_per_second", "record_seconds", "cpu_seconds", "hands_per_cpu_second"):
            got.pop(key)
        return got

    assert core("3") == core("3")
    assert core("3")["points"] != core("4")["points"]


def test_fast_and_python_engines_agree_on_the_mean(tmp_path: Path) -> None:
    fast = simulate(SimulationConfig(hands=20000, seed=1, engine="fast"))
    slow = simulate(SimulationConfig(hands=1500, seed=1, engine="python"))
    for f, s in zip(fast.seats, slow.seats, strict=True):
        # Both are uniform random play: the means agree within their intervals.
        assert abs(f.points.mean - s.points.mean) < (f.points.high - f.points.low) + (s.points.high - s.points.low)


def test_the_engine_is_chosen_and_refused_with_reasons(tmp_path: Path) -> None:
    assert SimulationConfig(engine="auto").engine == "fast"  # numba is installed here
    assert SimulationConfig(engine="auto", players=("random", "easy", "random", "random")).engine == "python"
    assert figures(tmp_path, "--hands", "20", "--records", str(tmp_path / "r"))["engine"] == "python"
    with pytest.raises(SimulationError, match="random level only"):
        SimulationConfig(engine="fast", players=("easy",))
    with pytest.raises(SimulationError, match="keeps no records"):
        simulate(SimulationConfig(hands=5, engine="fast"), records=lambda n, r: None)
    for args, message in (
        (["--engine", "warp"], "unknown engine 'warp'"),
        (["--engine", "fast", "--records", str(tmp_path / "x")], "keeps no records"),
        (["--engine", "fast", "--players", "medium"], "random level only"),
    ):
        result = runner.invoke(app, ["simulate", *args, "-q"])
        assert result.exit_code == 2 and message in " ".join(result.output.replace("│", " ").split())
