"""The ladder benchmark's pooling of tournament parts: deal by deal, and only parts that belong together."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hearts.sim.stats import mean_ci
from hearts.sim.tournament import TournamentConfig, run_tournament


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_ladder.py"
    spec = importlib.util.spec_from_file_location("bench_ladder", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ladder"] = module
    spec.loader.exec_module(module)
    return module


def part(seed: int, players: tuple[str, str] = ("easy", "random"), hands: int = 3, games: int = 0) -> dict[str, Any]:
    result = run_tournament(TournamentConfig(players, hands=hands, games=games, seed=seed), jobs=1)
    return json.loads(json.dumps(result.to_dict()))  # as read back from a --json file


@pytest.fixture(scope="module")
def parts() -> list[dict[str, Any]]:
    return [part(1), part(2, hands=5)]


def test_pool_takes_the_interval_over_every_deal_of_every_part(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    row = ladder.pool(parts)
    deals = parts[0]["players"]["easy"]["payoff_by_deal"] + parts[1]["players"]["easy"]["payoff_by_deal"]
    assert len(deals) == 8
    est = mean_ci(deals)
    assert (row["upper"], row["lower"], row["deals"]) == ("easy", "random", 8)
    assert (row["payoff"], row["ci_low"], row["ci_high"]) == pytest.approx((est.mean, est.low, est.high))
    # Points are weighted by deals: the 5-deal part counts 5/8.
    points = [p["players"]["random"]["points_per_hand"]["mean"] for p in parts]
    assert row["points_lower"] == pytest.approx((3 * points[0] + 5 * points[1]) / 8)
    assert row["seed"] == "1, 2" and row["parts"] == 2
    text = ladder.markdown(
        [{**row, "command": "pool", "measured": "now", "machine": "m", "jobs": None, "commit": None}]
    )
    assert "| easy vs random | 8 |" in text and "seeds 1, 2" in text


def test_pool_refuses_the_same_seed_twice(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    with pytest.raises(ladder.PoolError, match=r"b\.json: seed 1 again \(as in a\.json\)"):
        ladder.pool([parts[0], parts[0]], ["a.json", "b.json"])


def test_pool_refuses_other_players_and_whole_games(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    with pytest.raises(ladder.PoolError, match="labels .* differ"):
        ladder.pool([parts[0], part(3, players=("medium", "random"))])
    with pytest.raises(ladder.PoolError, match="whole games"):
        ladder.pool([parts[0], part(4, hands=1, games=1)])
    with pytest.raises(ladder.PoolError, match="nothing to pool"):
        ladder.pool([])


def test_pool_from_the_command_line(
    ladder: ModuleType, parts: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for i, p in enumerate(parts):
        if i:  # the second part gzipped, as the parts kept in benchmarks/results/ are
            f = tmp_path / f"part{i}.json.gz"
            f.write_bytes(gzip.compress(json.dumps(p).encode()))
        else:
            f = tmp_path / f"part{i}.json"
            f.write_text(json.dumps(p))
        files.append(str(f))
    out = tmp_path / "rung.json"
    assert ladder.main(["--pool", *files, "--json", str(out)]) == 0
    assert "| easy vs random | 8 |" in capsys.readouterr().out
    assert json.loads(out.read_text())["rungs"][0]["deals"] == 8
    with pytest.raises(SystemExit):
        ladder.main(["--pool", files[0], files[0]])
    assert "seed 1 again" in capsys.readouterr().err
    assert ladder.main(["--pool", files[1], "--paired", files[1]]) == 0
    assert "over 5 common deals: +0.00 [+0.00, +0.00]" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        ladder.main(["--paired", files[1]])
    assert "give --pool too" in capsys.readouterr().err
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(b"not gzip")
    with pytest.raises(SystemExit):
        ladder.main(["--pool", files[0], str(broken)])
    assert "cannot pool" in capsys.readouterr().err


def test_paired_compares_the_same_deals_deal_by_deal(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    """Two versions of a rung on the same seeds: the difference is taken deal by deal over the deals
    both played; a part of another seed pairs with nothing."""
    again = part(2, hands=3)  # the first 3 deals of parts[1] (seed 2), played again
    result = ladder.paired([again], [parts[1]])
    assert result["deals"] == 3
    assert result["difference"] == pytest.approx(0.0)  # the same players on the same cards (seeded)
    mine = [x + 1.0 for x in parts[1]["players"]["easy"]["payoff_by_deal"]]
    better = json.loads(json.dumps(parts[1]))
    better["players"]["easy"]["payoff_by_deal"] = mine
    assert ladder.paired([better], [parts[1]])["difference"] == pytest.approx(1.0)
    with pytest.raises(ladder.PoolError, match="0 deal"):
        ladder.paired([parts[0]], [parts[1]])
    with pytest.raises(ladder.PoolError, match="against the same opponent"):
        ladder.paired([parts[0]], [part(1, players=("medium", "hunter"))])
    with pytest.raises(ladder.PoolError, match="other rules"):
        other_rules = json.loads(json.dumps(parts[1]))
        other_rules["config"]["rules"] = {**other_rules["config"]["rules"], "players": 3}
        ladder.paired([again], [other_rules])
    with pytest.raises(ladder.PoolError, match="seed 2 again"):  # the other set is checked as a pool is
        ladder.paired([again], [parts[1], parts[1]])


def test_paired_compares_two_players_against_one_opponent(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    """Another player against the same opponent on the same deals (a new level against the frozen
    one, each against the hunter): the compared players are those the two sets do not share."""
    rival = part(1, players=("random", "medium"))  # medium against random on seed 1's cards, listed second
    result = ladder.paired([parts[0]], [rival])
    assert (result["player"], result["compared_with"], result["deals"]) == ("easy", "medium", 3)
    easy = parts[0]["players"]["easy"]["payoff_by_deal"]
    medium = rival["players"]["medium"]["payoff_by_deal"]
    assert result["difference"] == pytest.approx(mean_ci([a - b for a, b in zip(easy, medium, strict=True)]).mean)


def test_moon_balance_is_made_minus_allowed_deal_by_deal(ladder: ModuleType) -> None:
    """The rung's moon figure, pooled or played: the upper player's moons made minus moons allowed per
    seat-deal, with its interval over deals; its mean is the tournament's made minus allowed."""
    hunts = [part(seed, players=("medium", "hunter"), hands=30) for seed in (1, 2)]
    for upper, lower in (("medium", "hunter"), ("hunter", "medium")):
        est = ladder.moon_balance([p["tables"] for p in hunts], upper)
        made = [p["players"][upper]["moons_made_per_hand"]["mean"] for p in hunts]
        allowed = [p["players"][lower]["moons_made_per_hand"]["mean"] for p in hunts]  # once per moon
        expected = (sum(made) - sum(allowed)) / 2
        assert est.n == 60 and est.mean == pytest.approx(expected)
        assert est.low <= est.mean <= est.high
    assert ladder.moon_balance([p["tables"] for p in hunts], "medium").mean < 0  # the hunter shoots on medium
    same = part(1, players=("medium", "medium"), hands=30)  # the same player both sides: no balance either way
    assert ladder.moon_balance([same["tables"]], "medium").mean == 0.0
    row = ladder.pool(hunts)
    assert row["moon_balance"] == pytest.approx(ladder.moon_balance([p["tables"] for p in hunts], "medium").mean)
    assert row["p95_lower"] == max(p["players"]["hunter"]["seconds_per_decision"]["p95"] for p in hunts)
    text = ladder.markdown(
        [{**row, "command": "pool", "measured": "now", "machine": "m", "jobs": None, "commit": None}]
    )
    assert f"| {row['moon_balance']:+.3f} [{row['moon_balance_low']:+.3f}, {row['moon_balance_high']:+.3f}] |" in text
    no_tables = [{k: v for k, v in p.items() if k != "tables"} for p in hunts]
    with pytest.raises(ladder.PoolError, match="keeps no tables"):
        ladder.pool(no_tables)
    old = {k: v for k, v in row.items() if not k.startswith(("moon_balance", "p95"))}  # a row of an older --json
    assert "| – | " in ladder.markdown(
        [{**old, "command": "c", "measured": "m", "machine": "m", "jobs": 1, "commit": "x"}]
    )


def test_rungs_name_the_hunter_and_the_baseline(ladder: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.known_player("hunter") and ladder.known_player("old-expert") and not ladder.known_player("old-hunt")
    spec = ladder.player_spec("old-expert", None)
    assert spec.startswith("old-expert=cmd:") and spec.endswith("baseline.py bot expert")
    assert ladder.player_spec("expert", 0.5) == "expert"
    with pytest.raises(SystemExit):
        ladder.main(["--rungs", "expert:grandmaster", "--deals", "1"])
    assert "old-LEVEL for the baseline's LEVEL" in capsys.readouterr().err


def test_a_played_rung_counts_moons_from_its_tables(ladder: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "rung.json"
    assert ladder.main(["--rungs", "medium:hunter@6", "--jobs", "1", "--json", str(out)]) == 0
    row = json.loads(out.read_text())["rungs"][0]
    assert (row["upper"], row["lower"], row["deals"]) == ("medium", "hunter", 6)
    assert row["moon_balance"] == pytest.approx(row["moons_upper"] - row["moons_lower"])
    assert row["moon_balance_low"] <= row["moon_balance"] <= row["moon_balance_high"]
    assert row["p95_lower"] >= 0 and row["p95_upper"] >= 0


def test_paired_counts_the_opponents_moons_against_each_player(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    """Issue 20's defence measure: the shared opponent's moons against one player over those against
    the other, on the same deals, counted from the tables."""
    rival = part(1, players=("random", "medium"))
    shot = json.loads(json.dumps(parts[0]))
    table = next(t for t in shot["tables"] if t["kind"] == "deal")
    seat = table["seating"].index("random")
    table["moons"] = [1 if s == seat else 0 for s in range(len(table["moons"]))]  # random shoots at one table
    moons = ladder.paired([shot], [rival])["moons_allowed"]
    assert moons["opponent"] == "random"
    assert moons["seat_hands"] == 3 * 2 * 2  # 3 deals, 2 tables, 2 seats a table
    before = ladder.paired([parts[0]], [rival])["moons_allowed"]
    assert moons["mine"] == before["mine"] + 1 and moons["theirs"] == before["theirs"]


def test_paired_versions_of_one_level_count_the_opponents_moons(ladder: ModuleType, parts: list[dict[str, Any]]) -> None:
    """Two versions of a level under one name (issue 41's panel: the shipped expert's hunter parts
    against an earlier expert's on the same deals) still get the opponent's moons against each."""
    shot = json.loads(json.dumps(parts[0]))
    table = next(t for t in shot["tables"] if t["kind"] == "deal")
    lower = next(label for label in shot["config"]["labels"] if label != "easy")
    seat = table["seating"].index(lower)
    table["moons"] = [1 if s == seat else 0 for s in range(len(table["moons"]))]
    moons = ladder.paired([shot], [parts[0]])["moons_allowed"]
    assert moons["opponent"] == lower
    assert moons["mine"] == moons["theirs"] + 1
