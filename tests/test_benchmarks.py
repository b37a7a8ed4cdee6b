"""Every script in benchmarks/ runs against today's code: each is run as a command at a tiny size and
must do real work (play, time or pool something) and print its figures.

These are smoke tests, not measurements: they check that a script runs and prints what it
measures, never how fast. A script that needs OpenSpiel (the ``bench`` extra) is skipped without
it, or run with its ``--no-openspiel`` switch; the server's scripts start a real ``hearts serve``
on a loopback port. A new script in benchmarks/ needs a test here (the last test says so).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
RESULTS = BENCH / "results"
#: Long enough for numba to compile the kernels on a cold cache (a fresh clone): the scripts take
#: a few seconds each once they are compiled.
TIMEOUT = 600


def run(script: str, *args: str, cwd: Path = ROOT) -> str:
    """Run ``benchmarks/script`` with ``args``; it must succeed. Its output (stdout and stderr)."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{script} {shlex.join(args)} exited {done.returncode}:\n{out[-3000:]}"
    return out


def pool_beside(script: str, parts: list[Path], shipped_folder: Path) -> str:
    """``script``'s pool of ``parts``, each paired with the part of the same name (the same deals)
    in ``shipped_folder``, which must hold every one."""
    shipped = [shipped_folder / part.name for part in parts]
    assert parts and all(part.is_file() for part in shipped), (parts, shipped_folder)
    return run(script, "--pool", *map(str, parts), "--paired", *map(str, shipped))


def has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


needs_openspiel = pytest.mark.skipif(
    not has("pyspiel"), reason="OpenSpiel (pip install -e '.[bench]') is not installed"
)


def number(pattern: str, text: str) -> float:
    """The number the regular expression's first group finds in ``text`` (commas dropped)."""
    found = re.search(pattern, text)
    assert found, f"no {pattern!r} in:\n{text[-2000:]}"
    return float(found.group(1).replace(",", ""))


# -- the engine and the compiled core ---------------------------------------------------------


def test_bench_engine(tmp_path: Path) -> None:
    out_file = tmp_path / "engine.json"
    args = ["--hands", "20", "--repeat", "1", "--json", str(out_file)]
    out = run("bench_engine.py", *args, *([] if has("pyspiel") else ["--no-openspiel"]))
    figures = json.loads(out_file.read_text())
    assert "HandState (public)" in out and figures
    assert number(r"HandState \(public\)\s+([\d,.]+)", out) > 0


@pytest.mark.slow
def test_bench_fast() -> None:
    args = ["--hands", "200", "--rollouts", "100", "--python-rollouts", "5", "--repeat", "1", "--no-startup"]
    if has("pyspiel"):
        args += ["--openspiel-hands", "10", "--python-hands", "5"]
    else:
        args += ["--no-openspiel"]
    out = run("bench_fast.py", *args)
    assert number(r"fast random hands\s+([\d,]+) hands/s", out) > 0


@pytest.mark.slow
def test_behaviour_digest_names_the_game_that_differs(tmp_path: Path) -> None:
    """A second run compared with the first: every game the same but one whose digest was changed
    by hand, which is named, and the script exits 1."""
    digest = tmp_path / "digest.json"
    out = run("behaviour_digest.py", "--seeds", "1", "--json", str(digest))
    assert re.search(r"\d+ games, digest [0-9a-f]{64}", out)
    before = json.loads(digest.read_text())
    games = before["games"]
    key = sorted(games)[0]
    games[key] = "0" * 64
    digest.write_text(json.dumps(before))
    done = subprocess.run(
        [sys.executable, str(BENCH / "behaviour_digest.py"), "--seeds", "1", "--compare", str(digest)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"differs: {key}\n" in done.stdout
    assert f"1 of {len(games)} games differ" in done.stdout


def test_bench_policies() -> None:
    out = run("bench_policies.py", "--pairs", "medium:greedy,greedy:random", "--hands", "100")
    assert "medium vs greedy:" in out and "greedy vs random:" in out
    assert "over 100 deals" in out


# -- the players ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_bench_players(tmp_path: Path) -> None:
    figures_file = tmp_path / "players.json"
    out = run(
        "bench_players.py",
        *("--levels", "random,medium", "h=hard:worlds=8", "e=expert:worlds=8,pass_candidates=4"),
        *("--hands", "1", "--rollout-hands", "50", "--json", str(figures_file)),
    )
    figures = json.loads(figures_file.read_text())
    assert [row["level"] for row in figures["levels"]] == [
        "random",
        "medium",
        "h=hard:worlds=8",
        "e=expert:worlds=8,pass_candidates=4",
    ]
    assert all(row["decisions"] >= 52 for row in figures["levels"])  # 13 plays a seat, and the passes
    assert (
        figures["compiled_rollout_hands_per_cpu_s_hard"] > 0 and figures["compiled_rollout_hands_per_cpu_s_expert"] > 0
    )
    assert figures["levels"][2]["search_rollouts_per_s"] > 0  # hard searched, and reported its rollouts
    assert "hard's rollouts compiled" in out


@pytest.mark.slow
def test_bench_learned() -> None:
    out = run("bench_learned.py", "--hands", "20", "--repeats", "2", "--player-hands", "1")
    assert number(r"world_values: ([\d.]+) µs", out) > 0
    assert number(r"self-play: ([\d,]+) hands", out) > 0
    assert number(r"learned player: ([\d.]+) ms", out) > 0


@pytest.mark.slow
def test_bench_regret() -> None:
    out = run("bench_regret.py", "--games", "1", "--rollouts", "10", "--players", "medium,easy", "h=hard:worlds=10")
    positions = number(r"(\d+) positions from 1 hands", out)
    assert positions > 0
    assert "paired: easy - medium" in out and "paired: h=hard:worlds=10 - medium" in out


def test_bench_regret_refuses_an_unknown_setting() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "bench_regret.py"),
            "--games",
            "1",
            "--rollouts",
            "2",
            "--players",
            "x=hard:depth=3",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode != 0 and "unknown setting 'depth'" in done.stderr


def test_bench_beliefs() -> None:
    out = run("bench_beliefs.py", "--games", "2", "--worlds", "20")
    assert number(r"(\d+) positions, 20 worlds each", out) > 0
    for label in ("none", "0.15 / 0.4"):  # no inference, and the search's factors
        assert re.search(rf"^{re.escape(label)}\s+0\.\d+", out, re.M), out


@pytest.mark.slow
def test_bench_moon_replay() -> None:
    """Replays hunter moons of a kept part with a variant of expert at a few worlds."""
    part = RESULTS / "expert-hunter" / "pass-read" / "seed1.json.gz"
    out = run(
        "bench_moon_replay.py", str(part), "--worlds", "10", "--hands", "2", "--show", "1",
        "--player", "x=expert:pass_candidates=30",
    )  # fmt: skip
    assert re.search(r"hunter shot again in [012] of the 2 hands where it shot", out)
    assert len(re.findall(r"^deal \d+ table \d+: points \[", out, re.M)) == 2


# -- tournaments -------------------------------------------------------------------------------------


def test_bench_ladder_plays_rungs(tmp_path: Path) -> None:
    figures = tmp_path / "ladder.json"
    out = run(
        "bench_ladder.py", "--rungs", "easy:random@2,hard:medium@1", "--budget", "0.02", "--jobs", "1",
        "--json", str(figures),
    )  # fmt: skip
    rungs = json.loads(figures.read_text())["rungs"]
    assert [(r["upper"], r["lower"], r["deals"]) for r in rungs] == [("easy", "random", 2), ("hard", "medium", 1)]
    assert "| easy vs random | 2 |" in out and "| hard vs medium | 1 |" in out


def test_bench_ladder_pools_kept_parts() -> None:
    parts = sorted((RESULTS / "expert-hard" / "self-medium-moon").glob("seed*.json.gz"))
    others = sorted((RESULTS / "expert-hard" / "medium-moon").glob("seed*.json.gz"))
    assert len(parts) == len(others) == 10
    out = run("bench_ladder.py", "--pool", *map(str, parts), "--paired", *map(str, others))
    # The figure docs/tournaments.md cites for these parts.
    assert "| expert vs hard | 1000 |" in out and "+0.28 [+0.12, +0.45]" in out


def test_bench_vs_openspiel_pools_kept_runs() -> None:
    """No OpenSpiel needed: the pool of the kept runs gives the figures their README cites."""
    folder = RESULTS / "expert-ismcts"
    today = sorted((folder / "today").glob("seed*.json.gz"))
    before = sorted((folder / "self-medium-moon").glob("seed*.json.gz"))
    out = run("bench_vs_openspiel.py", "--pool", *map(str, today), "--paired", *map(str, before))
    assert "+1.76 [+1.29, +2.22]" in out  # today's expert against ISMCTS, over 250 deals
    assert "-0.73 [-1.27, -0.18]" in out  # and deal by deal against the expert before the moon work


def test_the_panels_ismcts_leg_pools_to_the_figures_docs_cite() -> None:
    """docs/players.md's ISMCTS row and its "Where the defaults stand" come from these kept parts."""
    parts = sorted((RESULTS / "panel" / "expert-ismcts").glob("seed*.json.gz"))
    before = sorted((RESULTS / "expert-ismcts" / "self-medium-moon").glob("seed*.json.gz"))
    out = run("bench_vs_openspiel.py", "--pool", *map(str, parts), "--paired", *map(str, before))
    assert "+1.83 [+1.47, +2.18] a seat-deal over 400 deals" in out
    assert "-0.70 [-1.28, -0.12] a seat-deal over 250 deals" in out


def test_the_panels_hunter_leg_pools_to_the_figures_docs_cite() -> None:
    """docs/players.md's hunter row: the shipped expert's payoff and the hunter's moons against it,
    beside the frozen expert's and the issue's first expert's on the same deals."""
    parts = sorted((RESULTS / "panel" / "expert-hunter").glob("seed*.json.gz"))
    assert len(parts) == 4
    for folder, difference, moons in (
        ("old", "+1.57 [+1.06, +2.08]", "hunter's moons against expert here: 106, against old-expert there: 200"),
        ("pass-read", "+0.23 [-0.09, +0.55]", "hunter's moons against expert here: 106, against expert there: 105"),
    ):
        before = [RESULTS / "expert-hunter" / folder / f"seed{n}.json.gz" for n in range(1, 5)]
        out = run("bench_ladder.py", "--pool", *map(str, parts), "--paired", *map(str, before))
        assert "| expert vs hunter | 400 |" in out and "+2.71 [+2.27, +3.15]" in out
        assert f"over 400 common deals: {difference} per seat-deal" in out
        assert moons in out


def test_the_panels_medium_leg_pools_to_the_figure_docs_cite() -> None:
    parts = sorted((RESULTS / "panel" / "expert-medium").glob("seed*.json.gz"))
    assert len(parts) == 4
    out = run("bench_ladder.py", "--pool", *map(str, parts))
    assert "| expert vs medium | 400 |" in out and "+2.61 [+2.26, +2.96]" in out


def test_the_panels_candidate_legs_pool_to_the_figures_docs_cite() -> None:
    """The panel of expert:rollout=medium-moon (the expert shipped since), paired with the expert of
    23f0797's parts."""
    folder = RESULTS / "panel" / "candidate-medium-moon-rollouts"
    hunter = sorted(folder.glob("hunter-seed*.json.gz"))
    assert len(hunter) == 4
    shipped = sorted((RESULTS / "panel" / "expert-hunter").glob("seed*.json.gz"))
    out = run("bench_ladder.py", "--pool", *map(str, hunter), "--paired", *map(str, shipped))
    assert "| hunter vs mm | 400 |" in out and "-2.67 [-3.09, -2.25]" in out
    assert "over 400 common deals: -0.04 [-0.43, +0.36] per seat-deal" in out
    assert "hunter's moons against mm here: 110, against expert there: 106" in out
    ismcts = sorted(folder.glob("ismcts-seed*.json.gz"))
    shipped = sorted((RESULTS / "panel" / "expert-ismcts").glob("seed*.json.gz"))
    out = run("bench_vs_openspiel.py", "--pool", *map(str, ismcts), "--paired", *map(str, shipped))
    assert "+2.21 [+1.87, +2.54] a seat-deal over 400 deals" in out
    assert "+0.38 [-0.04, +0.81] a seat-deal over 400 deals" in out
    frozen = sorted(folder.glob("frozen-seed*.json.gz"))
    assert len(frozen) == 4
    out = run("bench_ladder.py", "--pool", *map(str, frozen))
    assert "| mm vs old | 400 |" in out and "+0.02 [-0.30, +0.34]" in out
    medium = sorted(folder.glob("medium-seed*.json.gz"))
    shipped = sorted((RESULTS / "panel" / "expert-medium").glob("seed*.json.gz"))
    out = run("bench_ladder.py", "--pool", *map(str, medium), "--paired", *map(str, shipped))
    assert "| expert vs medium | 400 |" in out and "+2.30 [+1.96, +2.64]" in out
    assert "over 400 common deals: -0.31 [-0.66, +0.04] per seat-deal" in out


def test_the_hard_panels_pool_to_the_figures_docs_cite() -> None:
    """Hard's panel: the hard of 9b66370 (no moon defence) and ``hd``, expert's moon defence on hard
    (the hard shipped since), deal by deal on the same deals."""
    panel = RESULTS / "panel"
    old, hd = panel / "hard", panel / "candidate-hard-moon-defence"
    for leg, rows, difference in (
        ("hunter", ("| hard vs hunter | 400 |", "+1.24 [+0.80, +1.69]", "| hunter vs hd | 400 |", "-2.45 [-2.86, -2.03]"),
         "+1.20 [+0.72, +1.68]"),
        ("medium", ("| hard vs medium | 400 |", "+1.94 [+1.62, +2.26]", "| medium vs hd | 400 |", "-2.35 [-2.69, -2.01]"),
         "+0.41 [+0.09, +0.74]"),
        ("frozen", ("| hard vs old-hard | 400 |", "+0.11 [-0.19, +0.41]", "| hd vs old-hard | 400 |", "+0.14 [-0.18, +0.46]"),
         "+0.03 [-0.33, +0.39]"),
    ):  # fmt: skip
        before, after = sorted(old.glob(f"{leg}-seed*.json.gz")), sorted(hd.glob(f"{leg}-seed*.json.gz"))
        assert len(before) == len(after) == 4
        assert rows[0] in (out := run("bench_ladder.py", "--pool", *map(str, before))) and rows[1] in out
        out = run("bench_ladder.py", "--pool", *map(str, after), "--paired", *map(str, before))
        assert rows[2] in out and rows[3] in out
        assert f"over 400 common deals: {difference} per seat-deal" in out
    assert "hunter's moons against hd here: 123, against hard there: 193" in run(
        "bench_ladder.py", "--pool", *map(str, sorted(hd.glob("hunter-seed*.json.gz"))),
        "--paired", *map(str, sorted(old.glob("hunter-seed*.json.gz"))),
    )  # fmt: skip
    before, after = sorted(old.glob("ismcts-seed*.json.gz")), sorted(hd.glob("ismcts-seed*.json.gz"))
    assert len(before) == len(after) == 8
    out = run("bench_vs_openspiel.py", "--pool", *map(str, after), "--paired", *map(str, before))
    assert "pooled: +2.00 [+1.66, +2.35] a seat-deal over 400 deals" in out
    assert "paired runs on the same deals: +2.32 [+2.00, +2.65] a seat-deal over 400 deals" in out
    assert "pooled minus paired, deal by deal: -0.32 [-0.74, +0.09]" in out


def test_the_screen_of_the_moon_defences_halves_pools_to_its_readme() -> None:
    screen, old = RESULTS / "panel" / "screen-hard-moon-defence-halves", RESULTS / "panel" / "hard"
    for half, difference, moons in (("he", "+0.88 [+0.46, +1.30]", 137), ("hp", "+0.29 [-0.07, +0.66]", 182)):
        parts = sorted(screen.glob(f"{half}-hunter-seed*.json.gz"))
        assert len(parts) == 4
        before = sorted(old.glob("hunter-seed*.json.gz"))
        out = run("bench_ladder.py", "--pool", *map(str, parts), "--paired", *map(str, before))
        assert f"over 400 common deals: {difference} per seat-deal" in out
        assert f"hunter's moons against {half} here: {moons}, against hard there: 193" in out
    paired = [old / f"ismcts-seed{s}-from{f}.json.gz" for s in (5, 7) for f in (0, 50)]
    for half, difference in (("he", "-0.21 [-0.80, +0.38]"), ("hp", "-0.26 [-0.81, +0.28]")):
        parts = sorted(screen.glob(f"{half}-ismcts-seed*.json.gz"))
        assert len(parts) == 4
        out = run("bench_vs_openspiel.py", "--pool", *map(str, parts), "--paired", *map(str, paired))
        assert f"pooled minus paired, deal by deal: {difference} a seat-deal over 200 deals" in out


def test_the_ismcts_moon_deals_played_again_pool_to_their_readme() -> None:
    folder = RESULTS / "panel" / "screen-ismcts-moon-deals"
    control = sorted(folder.glob("control-seed*.json.gz"))
    assert len(control) == 3
    out = run("bench_vs_openspiel.py", "--pool", *map(str, control))
    assert "+1.50 [-0.08, +3.09] a seat-deal over 35 deals" in out and "moons made 4, allowed 4 at 70 tables" in out
    for name, moons, difference in (("frozen", "made 5, allowed 8", "-0.66 [-2.55, +1.24]"), ("noearly", "made 8, allowed 7", "+1.06 [-0.87, +2.98]")):
        parts = sorted(folder.glob(f"{name}-seed*.json.gz"))
        out = run("bench_vs_openspiel.py", "--pool", *map(str, parts), "--paired", *map(str, control))
        assert f"moons {moons} at 70 tables" in out
        assert f"pooled minus paired, deal by deal: {difference} a seat-deal over 35 deals" in out


def test_the_screen_of_the_threat_read_as_a_run_pools_to_its_readme() -> None:
    screen, shipped = RESULTS / "panel" / "screen-threat-reads-plays", RESULTS / "panel" / "candidate-medium-moon-rollouts"
    hunter = sorted(screen.glob("hunter-seed*.json.gz"))
    assert len(hunter) == 4
    out = run("bench_ladder.py", "--pool", *map(str, hunter), "--paired", *map(str, sorted(shipped.glob("hunter-seed*.json.gz"))))
    assert "over 400 common deals: -0.01 [-0.11, +0.09] per seat-deal" in out
    assert "hunter's moons against tr here: 111, against mm there: 110" in out
    ismcts = sorted(screen.glob("ismcts-seed*.json.gz"))
    paired = [shipped / f"ismcts-seed{s}-from{f}.json.gz" for s in (5, 7) for f in (0, 50)]
    out = run("bench_vs_openspiel.py", "--pool", *map(str, ismcts), "--paired", *map(str, paired))
    assert "pooled: +2.01 [+1.58, +2.44] a seat-deal over 200 deals" in out
    assert "pooled minus paired, deal by deal: -0.21 [-0.80, +0.37] a seat-deal over 200 deals" in out
    # The README's table of decisions while a threat stood, from the moves the runs keep.
    reader = screen / "threat_decisions.py"
    counts = json.loads(subprocess.run([sys.executable, str(reader), *map(str, ismcts)], capture_output=True, text=True, check=True).stdout)
    assert counts == {"decisions": 292, "searched": 45, "searched_then_moon": 1, "defence": 109, "defence_then_moon": 40, "tables": 105, "tables_then_moon": 3}


def test_the_panel_of_a_less_eager_early_threat_pools_to_its_readme() -> None:
    folder = RESULTS / "panel" / "candidate-early-threat-strength"
    shipped_folder = RESULTS / "panel" / "candidate-medium-moon-rollouts"
    ladder_legs = {
        "hunter": [
            "over 400 common deals: +0.03 [-0.13, +0.20] per seat-deal",
            "hunter's moons against es here: 112, against mm there: 110",
            "| hunter vs es | 400 | default | -2.70 [-3.12, -2.29] |",
        ],
        "medium": [
            "| medium vs es | 400 | default | -2.40 [-2.74, -2.05] |",
            "over 400 common deals: +0.10 [-0.15, +0.34] per seat-deal",
        ],
        "frozen": [
            "| es vs old | 400 | default | +0.16 [-0.16, +0.49] |",
            "over 400 common deals: +0.14 [-0.16, +0.45] per seat-deal",
        ],
    }
    for leg, lines in ladder_legs.items():
        parts = sorted(folder.glob(f"{leg}-seed*.json.gz"))
        assert len(parts) == 4
        out = pool_beside("bench_ladder.py", parts, shipped_folder)
        for line in lines:
            assert line in out, (leg, line)
    out = pool_beside("bench_vs_openspiel.py", [folder / f"ismcts-seed5-from{f}.json.gz" for f in (0, 50)], shipped_folder)
    assert "pooled: +2.23 [+1.56, +2.90] a seat-deal over 100 deals" in out
    assert "pooled minus paired, deal by deal: +0.24 [-0.64, +1.12] a seat-deal over 100 deals" in out
    ismcts = sorted(folder.glob("ismcts-seed*.json.gz"))
    assert len(ismcts) == 8
    out = pool_beside("bench_vs_openspiel.py", ismcts, shipped_folder)
    assert "pooled: +2.37 [+2.05, +2.70] a seat-deal over 400 deals" in out
    assert "moons made 33, allowed 8 at 800 tables" in out
    assert "pooled minus paired, deal by deal: +0.17 [-0.24, +0.57] a seat-deal over 400 deals" in out
    # Issue 41's bar, +2.48, was played on seeds 5 and 6 (250 deals): the same deals, deal by deal.
    bar_deals = [part for part in ismcts if "seed7" not in part.name]
    before = sorted((RESULTS / "expert-ismcts" / "self-medium-moon").glob("seed*.json.gz"))
    out = run("bench_vs_openspiel.py", "--pool", *map(str, bar_deals), "--paired", *map(str, before))
    assert "pooled: +2.44 [+2.03, +2.85] a seat-deal over 250 deals" in out
    assert "paired runs on the same deals: +2.48 [+2.10, +2.86] a seat-deal over 250 deals" in out
    assert "pooled minus paired, deal by deal: -0.04 [-0.56, +0.47] a seat-deal over 250 deals" in out


def test_the_screen_of_the_prior_margin_pools_to_its_readme() -> None:
    folder = RESULTS / "panel" / "screen-prior-margin"
    shipped = sorted((RESULTS / "panel" / "candidate-early-threat-strength").glob("ismcts-seed5-from*.json.gz"))
    for margin, pooled, difference in (
        ("0.5", "+2.21 [+1.64, +2.77]", "-0.43 [-1.10, +0.25]"),
        ("1.5", "+2.55 [+2.01, +3.09]", "-0.08 [-0.67, +0.50]"),
    ):
        parts = sorted(folder.glob(f"margin-{margin}-ismcts-seed5-from*.json.gz"))
        assert len(parts) == len(shipped) == 3
        out = run("bench_vs_openspiel.py", "--pool", *map(str, parts), "--paired", *map(str, shipped))
        assert f"pooled: {pooled} a seat-deal over 150 deals" in out, margin
        assert f"pooled minus paired, deal by deal: {difference} a seat-deal over 150 deals" in out, margin


@pytest.mark.parametrize(
    ("screen", "pooled", "moons", "difference"),
    [
        ("screen-moon-plan-strength", "+2.35 [+1.83, +2.87]", "moons made 15, allowed 2", "-0.29 [-0.98, +0.41]"),
        ("screen-miss-weight", "+1.88 [+1.34, +2.42]", "moons made 9, allowed 4", "-0.75 [-1.44, -0.07]"),
    ],
)
def test_an_expert_screen_against_ismcts_pools_to_its_readme(screen: str, pooled: str, moons: str, difference: str) -> None:
    """Screens of one expert knob on the ISMCTS leg's first 150 deals, each part paired with the
    shipped expert's part of the same name."""
    parts = sorted((RESULTS / "panel" / screen).glob("ismcts-seed5-from*.json.gz"))
    assert len(parts) == 3
    out = pool_beside("bench_vs_openspiel.py", parts, RESULTS / "panel" / "candidate-early-threat-strength")
    assert f"pooled: {pooled} a seat-deal over 150 deals" in out
    assert f"{moons} at 300 tables" in out
    assert f"pooled minus paired, deal by deal: {difference} a seat-deal over 150 deals" in out


def test_the_panel_of_hard_with_the_less_eager_early_threat_pools_to_its_readme() -> None:
    folder = RESULTS / "panel" / "candidate-hard-early-threat-strength"
    shipped_folder = RESULTS / "panel" / "candidate-hard-moon-defence"
    for leg, lines in {
        "hunter": ["over 400 common deals: +0.04 [-0.14, +0.22] per seat-deal", "hunter's moons against hs here: 123, against hd there: 123"],
        "medium": ["| medium vs hs | 400 | default | -2.40 [-2.74, -2.06] |", "over 400 common deals: +0.05 [-0.06, +0.16] per seat-deal"],
        "frozen": ["| hs vs old-hard | 400 | default | -0.05 [-0.38, +0.28] |", "over 400 common deals: -0.19 [-0.50, +0.13] per seat-deal"],
    }.items():
        parts = sorted(folder.glob(f"{leg}-seed*.json.gz"))
        assert len(parts) == 4
        out = pool_beside("bench_ladder.py", parts, shipped_folder)
        for line in lines:
            assert line in out, (leg, line)
    ismcts = sorted(folder.glob("ismcts-seed*.json.gz"))
    assert len(ismcts) == 8
    out = pool_beside("bench_vs_openspiel.py", ismcts, shipped_folder)
    assert "pooled: +2.31 [+1.98, +2.64] a seat-deal over 400 deals" in out
    assert "pooled minus paired, deal by deal: +0.31 [-0.14, +0.76] a seat-deal over 400 deals" in out
    # The shipped hard played the frozen hard's leg again on hs's machine; hs loses to it there.
    rerun = sorted(folder.glob("hard-frozen-seed*.json.gz"))
    assert len(rerun) == 4
    out = run("bench_ladder.py", "--pool", *map(str, rerun))
    assert "| hard vs old-hard | 400 | default | +0.36 [+0.05, +0.67] |" in out
    out = run("bench_ladder.py", "--pool", *map(str, sorted(folder.glob("frozen-seed*.json.gz"))), "--paired", *map(str, rerun))
    assert "over 400 common deals: -0.41 [-0.75, -0.07] per seat-deal" in out
    assert "old-hard's moons against hs here: 38, against hard there: 28" in out


def test_expert_against_todays_hard_pools_to_the_figure_docs_cite() -> None:
    parts = sorted((RESULTS / "panel" / "expert-hard").glob("seed*.json.gz"))
    assert len(parts) == 4
    out = run("bench_ladder.py", "--pool", *map(str, parts))
    assert "| expert vs hard | 400 |" in out and "+0.21 [-0.09, +0.52]" in out


@needs_openspiel
@pytest.mark.slow
def test_bench_vs_openspiel_plays(tmp_path: Path) -> None:
    figures = tmp_path / "run.json"
    out = run(
        "bench_vs_openspiel.py", "--player", "medium", "--only", "9", "--simulations", "20", "--jobs", "1",
        "--json", str(figures),
    )  # fmt: skip
    assert "payoff per seat-deal of medium" in out and "(n=1 deals)" in out
    [deal] = json.loads(figures.read_text())["deals"]
    assert deal["deal"] == 9 and deal["direction"] == "right"
    # What the kept moves say is checked in tests/test_bench_vs_openspiel.py.


@needs_openspiel
@pytest.mark.slow
def test_the_ismcts_candidates_play() -> None:
    """benchmarks/results/expert-ismcts/candidates.py: the candidates docs/tournaments.md names still make players."""
    candidates = RESULTS / "expert-ismcts" / "candidates.py"
    out = run(
        "bench_vs_openspiel.py", "--player", f"py:{candidates}:without_moon_defence", "--budget", "0.02",
        "--deals", "1", "--simulations", "20", "--jobs", "1",
    )  # fmt: skip
    assert "(n=1 deals)" in out


def test_the_ismcts_candidates_are_expert_variants() -> None:
    spec = importlib.util.spec_from_file_location("candidates", RESULTS / "expert-ismcts" / "candidates.py")
    assert spec is not None and spec.loader is not None
    candidates = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(candidates)
    from hearts.players.search_config import EXPERT

    assert candidates.MEDIUM_MOON_ROLLOUTS == EXPERT.replace(rollout="medium-moon")
    off = candidates.WITHOUT_MOON_DEFENCE
    assert (off.early_threat_points, off.moon_safe_passes, off.pass_opponents) == (0, False, "medium")


@pytest.mark.slow
def test_baseline_bot_plays_a_tournament() -> None:
    """baseline.py's bot over the bot protocol in a real tournament, playing this tree's src (a clone
    has no baseline worktree; ``setup`` makes one of another commit, which a test should not)."""
    command = shlex.join([sys.executable, str(BENCH / "baseline.py"), "bot", "easy", "--src", str(ROOT / "src")])
    done = subprocess.run(
        [sys.executable, "-m", "hearts.cli", "tournament", "--player", f"old-easy=cmd:{command}", "--players", "random",
         "--hands", "1", "--games", "0", "--seed", "1", "--jobs", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    assert "old-easy" in out and "fault" not in out


# -- the server ------------------------------------------------------------------------------------


@pytest.mark.skipif(not has("websockets"), reason="websockets (with uvicorn[standard]) is not installed")
@pytest.mark.slow
def test_bench_server_load() -> None:
    out = run("bench_server_load.py", "--tables", "1", "--preset", "short", "--seconds", "5")
    assert number(r"actions: (\d+) in", out) > 0
    assert "errors: 0" in out


@pytest.mark.skipif(not has("websockets"), reason="websockets (with uvicorn[standard]) is not installed")
@pytest.mark.slow
def test_bench_server_abuse() -> None:
    out = run("bench_server_abuse.py", "--tables", "1", "--seconds", "2", "--warmup", "0", "--storm", "2")
    assert re.search(r"^quiet: \d+ moves", out, re.M) and re.search(r"^storm: \d+ moves", out, re.M)


@pytest.mark.skipif(not has("httpx"), reason="httpx (the dev extra) is not installed")
def test_bench_server_storage() -> None:
    out = run("bench_server_storage.py", "--repeat", "1")
    assert number(r"all rows\s+([\d,]+) bytes", out) > 0
    assert "GET record" in out


@pytest.mark.skipif(not has("websockets"), reason="websockets (a server dependency) is not installed")
def test_bench_server_lobby() -> None:
    out = run("bench_server_lobby.py", "--tables", "4", "--watchers", "3", "--changes", "4")
    assert re.search(r"^3 watchers\s+2\s+[\d.]+\s+[\d.]+\s+[\d.]+$", out, re.M), out
    assert "ratio to the peer" in out


def test_bench_server_first_pass() -> None:
    out = run("bench_server_first_pass.py", "--runs", "1", "--delays", "0", "--level", "easy")
    assert re.search(r"^\s+0s\s+on\s+[\d.]+s", out, re.M), out


def test_bench_review(tmp_path: Path) -> None:
    figures = tmp_path / "review.json"
    out = run("bench_review.py", "--hands", "1", "--worlds", "20", "--json", str(figures))
    assert json.loads(figures.read_text())
    assert "marks" in out


# -- every script is covered -------------------------------------------------------------------


def test_every_script_has_a_smoke_test() -> None:
    """Each script in benchmarks/ is named by a test above (run, or pooled from kept results)."""
    scripts = {p.name for p in BENCH.glob("*.py")}
    named = set(re.findall(r"\"(\w+\.py)\"", Path(__file__).read_text()))
    assert scripts <= named, f"no smoke test for {sorted(scripts - named)}"


def test_the_kept_parts_are_whole_tournament_files() -> None:
    """What benchmarks/results/ keeps reads back: every gzipped part is a whole ``--json`` file."""
    parts = sorted(RESULTS.rglob("*.json.gz"))
    assert parts
    for path in parts:
        data = json.loads(gzip.decompress(path.read_bytes()))
        assert isinstance(data, dict) and ("tables" in data or "deals" in data), path
