"""``hearts tournament``'s figures at the widths people use: at 80 columns the table splits so that no
player's name is wrapped; to a file or a wide terminal it stays in one piece.
"""

from __future__ import annotations

import pytest
from rich.console import Console

from hearts.cli.tournament import WIDE, _print_result
from hearts.sim.tournament import TournamentConfig, TournamentResult, run_tournament


@pytest.fixture(scope="module")
def result() -> TournamentResult:
    return run_tournament(TournamentConfig(("random", "easy", "my-medium-bot=medium"), hands=2, games=1, seed=1), jobs=1)


def _printed(result: TournamentResult, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115 - closed with the console
    _print_result(console, result)
    return console.export_text().splitlines()


@pytest.mark.parametrize("width", [80, 100])
def test_narrow_terminals_wrap_no_name(result: TournamentResult, width: int) -> None:
    lines = _printed(result, width)
    assert all(len(line) <= width for line in lines)
    for label in ("random", "easy", "my-medium-bot"):
        rows = [line for line in lines if line.startswith(f"│ {label} ")]
        assert len(rows) >= 2, label  # whole, on a row of each of the figures' tables
    assert any("payoff/seat-deal" in line for line in lines) and any("moons made %" in line for line in lines)
    if width == 80:  # split in two tables
        assert not any("payoff/seat-deal" in line and "moons made %" in line for line in lines)


def test_wide_output_keeps_one_table(result: TournamentResult) -> None:
    lines = _printed(result, WIDE)
    assert any("payoff/seat-deal" in line and "p95 ms" in line for line in lines)
    assert sum(line.startswith("│ easy ") for line in lines) == 2  # the figures' row and the ratings' row
