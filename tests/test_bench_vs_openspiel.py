"""The ISMCTS benchmark's pooling of kept runs: deals by seed and number, moons by seat, pairs deal by deal.

Playing needs OpenSpiel (the ``bench`` extra); pooling does not, so this runs everywhere."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # as when run as a script: bench_ladder beside it
    spec = importlib.util.spec_from_file_location("bench_vs_openspiel", BENCHMARKS / "bench_vs_openspiel.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_vs_openspiel"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def deal(number: int, payoff: float, points: list[list[int]]) -> dict[str, Any]:
    return {
        "deal": number,
        "payoff": payoff,
        "points": points,
        "our_play": [0.2, 0.4],
        "our_pass": [],
        "os_play": [],
        "os_pass": [],
    }


def write(path: Path, seed: int, deals: list[dict[str, Any]]) -> str:
    text = json.dumps({"args": {"seed": seed}, "deals": deals})
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return str(path)


def test_pooled_runs_count_moons_by_our_seats_and_pair_deal_by_deal(bench: ModuleType, tmp_path: Path) -> None:
    plain = [[1, 2, 3, 20], [5, 6, 7, 8]]
    ours_shoot = [[0, 26, 26, 26], plain[1]]  # seat 0 is ours at the first table
    theirs_shoot = [plain[0], [26, 26, 0, 26]]  # seat 2 is theirs at the second
    new = [
        write(tmp_path / "a.json.gz", 5, [deal(0, 4.0, ours_shoot), deal(1, 2.0, plain)]),
        write(tmp_path / "b.json", 6, [deal(0, 0.0, theirs_shoot)]),
    ]
    old = [write(tmp_path / "c.json", 5, [deal(0, 1.0, plain), deal(1, 1.0, plain), deal(2, 9.0, plain)])]
    lines = bench.pool_report(new, old)
    assert lines[0].startswith("pooled: +2.00 [") and lines[0].endswith("over 3 deals")
    assert lines[1] == "moons made 1, allowed 1 at 6 tables; 300 ms a play (p95 400)"
    # Only seed 5's deals 0 and 1 are common: theirs +1.00, ours minus theirs +3.00 and +1.00.
    assert lines[2].startswith("paired runs on the same deals: +1.00") and lines[2].endswith("moons made 0, allowed 0")
    assert lines[3].startswith("pooled minus paired, deal by deal: +2.00 [") and lines[3].endswith("over 2 deals")


def test_pooling_refuses_a_deal_twice_and_pairs_without_common_deals(bench: ModuleType, tmp_path: Path) -> None:
    a = write(tmp_path / "a.json", 5, [deal(0, 1.0, [[1, 2, 3, 20]] * 2)])
    with pytest.raises(ValueError, match="deal 0 of seed 5 is in another run already"):
        bench.pool_report([a, a])
    b = write(tmp_path / "b.json", 6, [deal(0, 1.0, [[1, 2, 3, 20]] * 2)])
    with pytest.raises(ValueError, match="share no deal"):
        bench.pool_report([a], [b])
    assert bench.main(["--pool", a, "--paired", b]) == 2


@pytest.mark.slow
def test_a_kept_run_holds_every_card_and_replays_to_its_points(bench: ModuleType, tmp_path: Path) -> None:
    """Every card of both tables is kept in order, with medium's reasons at our seats; read back
    through our engine (``kept_table``) they score what the table scored."""
    pytest.importorskip("pyspiel")
    figures = tmp_path / "run.json"
    argv = ["--player", "medium", "--only", "9", "--simulations", "20", "--jobs", "1", "--seed", "3"]
    assert bench.main([*argv, "--json", str(figures)]) == 0
    [deal] = json.loads(figures.read_text())["deals"]
    assert deal["deal"] == 9 and deal["direction"] == "right"
    for table, (ours, moves, points) in enumerate(zip(((0, 2), (1, 3)), deal["moves"], deal["points"], strict=True)):
        assert all(bool(reason) == (seat in ours) for seat, _, reason in moves)
        assert len(moves) == 52 + 12
        hand, plays = bench.kept_table(3, deal, table)
        assert len(plays) == 52
        for seat, card, _ in plays:
            hand.play(card, seat)
        assert list(hand.scores) == points
